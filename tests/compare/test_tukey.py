"""compare(test="tukey"): Tukey's HSD equals scipy.stats.tukey_hsd on the same per-query values."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import RagEvalReport, compare, demo_path, evaluate_run
from ef.evaluation._engine.stats import tukey_test
from ef.evaluation.cli import cli

from ..profiles_hypothesis import examples
from .test_compare import QRELS, RUNS

METRICS = ("ndcg@10", "mrr@10")


def per_query(name: str, key: str) -> np.ndarray:
    report = evaluate_run(RUNS[name], QRELS, metrics=METRICS)
    return np.array([report.per_query[q][key] for q in QRELS])


grid = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0])


@settings(max_examples=examples(40), deadline=None)
@given(
    groups=st.integers(2, 5).flatmap(
        lambda k: st.integers(2, 20).flatmap(
            lambda n: st.lists(st.lists(grid, min_size=n, max_size=n), min_size=k, max_size=k)
        )
    ),
    confidence=st.sampled_from([0.9, 0.95, 0.99]),
)
def test_tukey_test_is_scipys_tukey_hsd(groups: list[list[float]], confidence: float) -> None:
    arrays = [np.array(group) for group in groups]
    ours = tukey_test(arrays, confidence=confidence)
    if all(np.ptp(a) == 0 for a in arrays):  # scipy divides 0 by 0 there: our limit instead
        means = [float(np.mean(a)) for a in arrays]
        assert ours.p_values == [[1.0 if x == y else 0.0 for y in means] for x in means]
        assert ours.ci_low == ours.ci_high == [[x - y for y in means] for x in means]
        return
    theirs = scipy.stats.tukey_hsd(*arrays)
    interval = theirs.confidence_interval(confidence_level=confidence)
    assert ours.p_values == theirs.pvalue.tolist()
    assert ours.ci_low == interval.low.tolist()
    assert ours.ci_high == interval.high.tolist()


def test_the_docstring_s_three_groups_by_hand_checked_values() -> None:
    groups = [np.array([0.1, 0.2, 0.3]), np.array([0.2, 0.4, 0.3]), np.array([0.5, 0.6, 0.9])]
    result = tukey_test(groups, confidence=0.95)
    assert result.p_values[0][0] == 1.0
    assert result.p_values[0][2] == result.p_values[2][0] == pytest.approx(0.01802605, abs=1e-8)
    # [2][0]: the interval of mean_2 - mean_0 = 0.4667; [0][2] is its mirror image.
    assert result.ci_low[2][0] == pytest.approx(-result.ci_high[0][2], abs=1e-12)
    assert result.ci_low[2][0] < 0.7 - 0.2 < result.ci_high[2][0]


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_compare_reports_scipys_p_values_intervals_and_decisions(alpha: float) -> None:
    report = compare(RUNS, QRELS, metrics=METRICS, test="tukey", alpha=alpha)
    names = list(RUNS)
    assert report.test == "tukey"
    assert report.correction is None
    assert len(report.comparisons) == 2 * 3  # every pair on each metric
    for key in METRICS:
        expected = scipy.stats.tukey_hsd(*(per_query(name, key) for name in names))
        interval = expected.confidence_interval(confidence_level=1 - alpha)
        for pair in (p for p in report.comparisons if p.metric == key):
            i, j = names.index(pair.b), names.index(pair.a)
            assert pair.p_value == pair.p_corrected == expected.pvalue[i, j]
            assert pair.reject == (expected.pvalue[i, j] <= alpha)
            assert pair.difference == pytest.approx(expected.statistic[i, j], abs=1e-12)
            assert (pair.ci_low, pair.ci_high) == (interval.low[i, j], interval.high[i, j])
    statistics = report.manifest["statistics"]
    assert statistics["scipy_function"] == "scipy.stats.tukey_hsd"
    assert statistics["family"] == 3


def test_some_pairs_differ_and_some_do_not() -> None:
    # The runs are built so: the decisions are not all the same, or the test above says little.
    report = compare(RUNS, QRELS, metrics=METRICS, test="tukey")
    assert 0 < len(report.significant()) < len(report.comparisons)


def test_a_baseline_keeps_its_pairs_adjusted_over_every_pair() -> None:
    every = compare(RUNS, QRELS, metrics=("ndcg@10",), test="tukey")
    against = compare(RUNS, QRELS, metrics=("ndcg@10",), test="tukey", baseline="dense")
    assert [(p.a, p.b) for p in against.comparisons] == [("dense", "bm25"), ("dense", "hybrid")]
    for pair in against.comparisons:
        same = every.pair(pair.a, pair.b)
        assert pair.p_value == same.p_value
        assert (pair.ci_low, pair.ci_high) == pytest.approx((same.ci_low, same.ci_high), abs=1e-12)


@pytest.mark.parametrize("correction", ["bonferroni", "holm", "bh"])
def test_a_correction_with_tukey_is_an_error_naming_both(correction: str) -> None:
    with pytest.raises(ValueError, match=rf"test='tukey'.*correction={correction!r}"):
        compare(RUNS, QRELS, test="tukey", correction=correction)  # type: ignore[arg-type]


def test_two_systems_and_rag_reports_and_no_spread() -> None:
    ids = ["s1", "s2", "s3", "s4"]
    a = RagEvalReport.from_values({"m": [0.0, 0.25, 0.5, 0.25]}, ids)
    b = RagEvalReport.from_values({"m": [0.5, 0.75, 1.0, 1.0]}, ids)
    pair = compare({"a": a, "b": b}, test="tukey").comparisons[0]
    expected = scipy.stats.tukey_hsd(
        np.array([0.0, 0.25, 0.5, 0.25]), np.array([0.5, 0.75, 1.0, 1.0])
    )
    assert pair.p_value == expected.pvalue[1, 0]
    flat = RagEvalReport.from_values({"m": [0.5] * 4}, ids)
    same = compare({"a": flat, "b": flat}, test="tukey").comparisons[0]
    assert (same.p_value, same.ci_low, same.ci_high, same.reject) == (1.0, 0.0, 0.0, False)


def test_the_report_names_tukey_and_its_family() -> None:
    report = compare(RUNS, QRELS, metrics=("ndcg@10",), test="tukey")
    text = str(report)
    assert "Tukey's HSD test, family-wise over the 3 systems of each metric" in text
    assert "cannot reach alpha" not in text
    assert "tukey" in repr(report)
    data = json.loads(report.to_json())
    assert data["test"] == "tukey"
    assert type(report).from_dict(data) == report


def test_the_cli_runs_tukey_and_refuses_a_correction_with_it() -> None:
    demo = demo_path()
    run_file = str(Path(__file__).parents[2] / "examples" / "run.overlap.trec")
    runner = CliRunner()
    args = ["compare", str(demo), f"a={run_file}", f"b={run_file}", "-m", "mrr@10"]
    result = runner.invoke(cli, [*args, "--test", "tukey"])
    assert result.exit_code == 0, result.output
    assert "Tukey's HSD test" in result.stdout
    refused = runner.invoke(cli, [*args, "--test", "tukey", "--correction", "holm"])
    assert refused.exit_code == 2
    assert "--test tukey" in refused.stderr  # the API's keywords, spelt as the options
    assert "--correction holm" in refused.stderr
