"""compare(): pairing by id, every test against scipy on the same values, corrections, errors."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from ef.evaluation import (
    ComparisonReport,
    MissingDependencyError,
    RagEvalReport,
    RetrievalEvalReport,
    compare,
    evaluate_run,
    write_run,
)

from ..profiles_hypothesis import examples

N = 40
QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 2} for i in range(N)}


def make_run(seed: int, shift: int) -> dict[str, dict[str, float]]:
    """A run that finds the relevant docs at ranks that vary by query."""
    rng = np.random.default_rng(seed)
    run = {}
    for i in range(N):
        docs = {f"x{i}-{j}": float(rng.random()) for j in range(8)}
        docs[f"d{i}"] = float(rng.random()) + shift * 0.1
        docs[f"e{i}"] = float(rng.random()) + shift * 0.05
        run[f"q{i}"] = docs
    return run


RUNS = {"bm25": make_run(1, 0), "dense": make_run(2, 3), "hybrid": make_run(3, 5)}
METRICS = ("ndcg@10", "mrr@10")


def per_query(name: str, key: str) -> np.ndarray:
    report = evaluate_run(RUNS[name], QRELS, metrics=METRICS)
    return np.array([report.per_query[q][key] for q in QRELS])


def mean_difference(x, y, axis):
    return np.mean(x - y, axis=axis)


def test_means_are_evaluate_runs_and_every_pair_is_compared() -> None:
    report = compare(RUNS, QRELS, metrics=METRICS, seed=1)
    assert report.systems == ("bm25", "dense", "hybrid")
    assert report.metrics == METRICS
    for name, run in RUNS.items():
        assert report.means[name] == pytest.approx(
            evaluate_run(run, QRELS, metrics=METRICS).metrics
        )
    assert [(p.metric, p.a, p.b) for p in report.comparisons] == [
        (m, a, b)
        for m in METRICS
        for a, b in [("bm25", "dense"), ("bm25", "hybrid"), ("dense", "hybrid")]
    ]
    pair = report.pair("bm25", "dense", "ndcg@10")
    a, b = per_query("bm25", "ndcg@10"), per_query("dense", "ndcg@10")
    assert pair.n == N
    assert pair.difference == pytest.approx(b.mean() - a.mean())
    assert [pair.wins, pair.ties, pair.losses] == [np.sum(b > a), np.sum(b == a), np.sum(b < a)]
    assert pair.effect_size == pytest.approx((b - a).mean() / (b - a).std(ddof=1))
    assert report.query_ids == tuple(QRELS)
    assert report.scores["dense"]["ndcg@10"] == pytest.approx(tuple(b))


def test_p_values_equal_scipys_on_the_same_per_query_values() -> None:
    a, b = per_query("bm25", "mrr@10"), per_query("hybrid", "mrr@10")
    expected = {
        "paired-t": scipy.stats.ttest_rel(b, a).pvalue,
        "wilcoxon": scipy.stats.wilcoxon(b - a, zero_method="wilcox").pvalue,
        "randomization": scipy.stats.permutation_test(
            (b, a),
            mean_difference,
            permutation_type="samples",
            vectorized=True,
            n_resamples=2000,
            rng=np.random.default_rng(42),
        ).pvalue,
    }
    for test, p in expected.items():
        report = compare(
            RUNS,
            QRELS,
            metrics=METRICS,
            test=test,  # type: ignore[arg-type]
            n_resamples=2000,
            seed=42,
        )
        assert report.pair("bm25", "hybrid", "mrr@10").p_value == p, test
    bootstrap = scipy.stats.bootstrap(
        (b - a,), np.mean, n_resamples=2000, rng=np.random.default_rng(42)
    )
    report = compare(RUNS, QRELS, metrics=METRICS, test="bootstrap", n_resamples=2000, seed=42)
    pair = report.pair("bm25", "hybrid", "mrr@10")
    assert pair.ci_low == pytest.approx(bootstrap.confidence_interval.low, abs=1e-12)
    assert pair.ci_high == pytest.approx(bootstrap.confidence_interval.high, abs=1e-12)
    shifted = np.abs(bootstrap.bootstrap_distribution - (b - a).mean())
    assert pair.p_value == (1 + np.sum(shifted >= abs((b - a).mean()))) / 2001


def test_t_interval_is_ttest_rels_at_one_minus_alpha() -> None:
    a, b = per_query("bm25", "ndcg@10"), per_query("dense", "ndcg@10")
    interval = scipy.stats.ttest_rel(b, a).confidence_interval(0.9)
    pair = compare(RUNS, QRELS, alpha=0.1).pair("bm25", "dense")
    assert (pair.ci_low, pair.ci_high) == (interval.low, interval.high)


@pytest.mark.parametrize(
    ("ours", "theirs"), [("holm", "holm"), ("bh", "fdr_bh"), ("bonferroni", "bonferroni")]
)
def test_the_family_is_every_pair_on_every_metric(ours: str, theirs: str) -> None:
    report = compare(RUNS, QRELS, metrics=METRICS, correction=ours, alpha=0.1)  # type: ignore[arg-type]
    raw = [pair.p_value for pair in report.comparisons]
    assert len(raw) == 6
    reject, corrected, *_ = multipletests(raw, alpha=0.1, method=theirs)
    assert [pair.p_corrected for pair in report.comparisons] == pytest.approx(corrected.tolist())
    assert [pair.reject for pair in report.comparisons] == reject.tolist()
    assert report.manifest["statistics"]["family"] == 6
    uncorrected = compare(RUNS, QRELS, metrics=METRICS)
    assert all(p.p_corrected == p.p_value for p in uncorrected.comparisons)
    assert report.significant() == tuple(p for p in report.comparisons if p.reject)


def test_a_baseline_is_compared_with_every_other_system() -> None:
    report = compare(RUNS, QRELS, baseline="dense")
    assert [(p.a, p.b) for p in report.comparisons] == [("dense", "bm25"), ("dense", "hybrid")]
    flipped = report.pair("bm25", "dense")
    assert flipped.difference == -report.comparisons[0].difference
    assert flipped.p_value == report.comparisons[0].p_value
    with pytest.raises(KeyError, match="no comparison of 'hybrid' with 'bm25' on 'ndcg@10'"):
        report.pair("bm25", "hybrid")


def test_a_sequence_is_named_by_file_stems(tmp_path: Path) -> None:
    paths = []
    for name, run in RUNS.items():
        path = tmp_path / f"run.{name}.txt.gz"
        write_run(path, run)
        paths.append(path)
    report = compare(paths, QRELS)
    assert report.systems == ("run.bm25", "run.dense", "run.hybrid")
    assert compare(list(RUNS.values())[:2], QRELS).systems == ("system-1", "system-2")
    twice = compare([paths[0], paths[0]], QRELS)
    assert twice.systems == ("run.bm25", "run.bm25-2")


def test_run_files_and_qrels_files_are_hashed_in_the_manifest(tmp_path: Path) -> None:
    import hashlib

    from ef.evaluation import write_qrels

    run_path, qrels_path = tmp_path / "a.run", tmp_path / "qrels.txt"
    write_run(run_path, RUNS["bm25"])
    write_qrels(qrels_path, QRELS)
    report = compare({"a": run_path, "b": RUNS["dense"]}, qrels_path, seed=3)
    manifest = report.manifest
    sha = hashlib.sha256(qrels_path.read_bytes()).hexdigest()
    assert manifest["inputs"]["qrels"]["sha256"] == sha
    run_inputs = manifest["systems"]["a"]["inputs"]
    assert run_inputs["run"]["sha256"] == hashlib.sha256(run_path.read_bytes()).hexdigest()
    assert manifest["systems"]["b"]["inputs"] == {}
    assert manifest["systems"]["b"]["tie_policy"] == "trec_eval"
    assert manifest["statistics"]["test"] == "paired-t"
    assert manifest["statistics"]["scipy_function"] == "scipy.stats.ttest_rel"
    assert manifest["statistics"]["seed"] == 3
    assert manifest["scipy"] == scipy.__version__
    assert json.loads(report.to_json())["manifest"]["statistics"]["seed"] == 3


def test_a_missing_query_scores_0_or_is_left_out_and_is_reported() -> None:
    partial = {q: docs for q, docs in RUNS["dense"].items() if q not in ("q3", "q7")}
    by_qrels = compare({"bm25": RUNS["bm25"], "dense": partial}, QRELS)
    assert by_qrels.missing == {"bm25": (), "dense": ("q3", "q7")}
    assert by_qrels.dropped == ()
    assert by_qrels.comparisons[0].n == N
    i = by_qrels.query_ids.index("q3")
    assert by_qrels.scores["dense"]["ndcg@10"][i] == 0.0
    assert "Missing queries (scored 0): dense 2." in str(by_qrels)
    inter = compare({"bm25": RUNS["bm25"], "dense": partial}, QRELS, averaging="intersection")
    assert inter.dropped == ("q3", "q7")
    assert inter.missing == by_qrels.missing
    assert inter.comparisons[0].n == N - 2
    assert "q3" not in inter.query_ids
    assert inter.means["dense"]["ndcg@10"] == pytest.approx(
        evaluate_run(partial, QRELS, metrics=("ndcg@10",), averaging="intersection").metrics[
            "ndcg@10"
        ]
    )
    assert "2 queries not in every system were left out." in str(inter)


def test_retrieval_reports_pair_by_query_id() -> None:
    reports = {name: evaluate_run(run, QRELS, metrics=METRICS) for name, run in RUNS.items()}
    from_runs = compare(RUNS, QRELS, metrics=METRICS, seed=4)
    from_reports = compare(reports, metrics=METRICS, seed=4)
    assert from_reports == from_runs
    # A hand-made report, its queries in another order and one absent.
    values = dict(reversed(list(reports["dense"].per_query.items())))
    del values["q0"]
    made = RetrievalEvalReport({"ndcg@10": 0.0}, values, len(values), (10,))
    mixed = compare({"bm25": RUNS["bm25"], "made": made}, QRELS, seed=4)
    assert mixed.missing["made"] == ("q0",)
    assert mixed.scores["made"]["ndcg@10"][1:] == from_runs.scores["dense"]["ndcg@10"][1:]
    assert mixed.scores["made"]["ndcg@10"][0] == 0.0


def test_rag_reports_pair_by_sample_id_over_the_samples_both_scored() -> None:
    a = RagEvalReport.from_values(
        {"token_f1": [1.0, 0.5, None, 0.25, 0.0], "exact_match": [1.0, 0.0, 0.0, 0.0, 0.0]},
        ["s1", "s2", "s3", "s4", "s5"],
    )
    b = RagEvalReport.from_values(
        {"token_f1": [0.75, 1.0, 0.5, 0.5, 1.0], "exact_match": [0.0, 1.0, 1.0, 1.0, 1.0]},
        ["s5", "s4", "s3", "s2", "s6"],
    )
    report = compare({"a": a, "b": b}, test="wilcoxon", seed=0)
    assert report.kind == "rag"
    assert report.metrics == ("token_f1", "exact_match")
    assert report.query_ids == ("s2", "s3", "s4", "s5")
    assert report.missing == {"a": ("s6",), "b": ("s1",)}
    assert report.dropped == ("s1", "s6")
    f1 = report.pair("a", "b", "token_f1")
    assert f1.n == 3  # s3 has no token_f1 in a
    assert (f1.mean_a, f1.mean_b) == pytest.approx(((0.5 + 0.25 + 0.0) / 3, (0.5 + 1.0 + 0.75) / 3))
    assert f1.p_value == scipy.stats.wilcoxon(np.array([0.5, 1.0, 0.75]) - [0.5, 0.25, 0.0]).pvalue
    assert report.pair("a", "b", "exact_match").n == 4
    assert report.scores["a"]["token_f1"] == (0.5, None, 0.25, 0.0)
    only = compare({"a": a, "b": b}, metrics=("exact_match",))
    assert only.metrics == ("exact_match",)


@settings(max_examples=examples(25), deadline=None)
@given(
    values=st.lists(st.sampled_from([0.0, 0.125, 0.25, 0.5, 1.0]), min_size=2, max_size=25),
    test=st.sampled_from(["paired-t", "wilcoxon", "randomization", "bootstrap"]),
)
def test_a_system_compared_with_itself_differs_by_nothing(values: list[float], test: str) -> None:
    ids = [f"s{i}" for i in range(len(values))]
    same = RagEvalReport.from_values({"token_f1": values}, ids)
    pair = compare({"a": same, "b": same}, test=test, n_resamples=200, seed=1).comparisons[0]  # type: ignore[arg-type]
    assert (pair.difference, pair.p_value, pair.ci_low, pair.ci_high) == (0.0, 1.0, 0.0, 0.0)
    assert (pair.wins, pair.ties, pair.losses, pair.effect_size) == (0, len(values), 0, 0.0)
    assert not pair.reject


grid = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
# 16 or more pairs: with ties and up to 13 pairs, scipy's wilcoxon enumerates every sign
# pattern (exact, but seconds per call); test_stats covers that path.


@settings(max_examples=examples(25), deadline=None)
@given(
    pairs=st.lists(st.tuples(grid, grid), min_size=16, max_size=30).filter(
        lambda rows: len({round(b - a, 9) for a, b in rows}) > 2
    ),
    test=st.sampled_from(["paired-t", "wilcoxon", "randomization", "bootstrap"]),
)
def test_swapping_the_systems_flips_the_sign_and_keeps_the_p_value(pairs, test) -> None:
    ids = [f"q{i}" for i in range(len(pairs))]
    a = RagEvalReport.from_values({"m": [x for x, _ in pairs]}, ids)
    b = RagEvalReport.from_values({"m": [y for _, y in pairs]}, ids)
    forward = compare({"a": a, "b": b}, test=test, n_resamples=300, seed=7).comparisons[0]
    backward = compare({"b": b, "a": a}, test=test, n_resamples=300, seed=7).comparisons[0]
    assert backward.difference == pytest.approx(-forward.difference, abs=1e-12)
    assert backward.p_value == pytest.approx(forward.p_value, abs=1e-12)
    assert (backward.wins, backward.losses) == (forward.losses, forward.wins)
    if test == "paired-t":
        assert backward.ci_low == pytest.approx(-forward.ci_high, abs=1e-12)


def test_a_seed_reproduces_every_number_and_none_draws_one() -> None:
    one = compare(RUNS, QRELS, test="randomization", n_resamples=500, seed=123)
    assert one == compare(RUNS, QRELS, test="randomization", n_resamples=500, seed=123)
    drawn = compare(RUNS, QRELS, test="bootstrap", n_resamples=500)
    assert isinstance(drawn.seed, int)
    again = compare(RUNS, QRELS, test="bootstrap", n_resamples=500, seed=drawn.seed)
    assert again == drawn


def test_the_dict_is_json_ready_and_nan_becomes_null() -> None:
    a = RagEvalReport.from_values({"m": [0.0, 0.25, 0.5]}, ["x", "y", "z"])
    b = RagEvalReport.from_values({"m": [0.25, 0.5, 0.75]}, ["x", "y", "z"])
    report = compare({"a": a, "b": b})
    assert math.isnan(report.comparisons[0].effect_size)  # constant difference: no spread
    data = json.loads(report.to_json())
    assert data["comparisons"][0]["effect_size"] is None
    assert data["comparisons"][0]["p_value"] == 0.0
    assert data["systems"] == ["a", "b"]
    assert data["scores"]["b"]["m"] == [0.25, 0.5, 0.75]
    assert isinstance(report, ComparisonReport)
    with pytest.raises(AttributeError):
        report.alpha = 0.1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"test": "t"},
            r"test must be one of paired-t, wilcoxon, randomization, bootstrap, tukey, got 't'",
        ),
        (
            {"correction": "fdr"},
            r"correction must be None or one of bonferroni, holm, bh, got 'fdr'",
        ),
        ({"alpha": 1.5}, r"alpha must be a number between 0 and 1, got 1.5"),
        ({"alpha": True}, r"alpha must be a number between 0 and 1, got True"),
        ({"n_resamples": 0}, r"n_resamples must be a positive int, got 0"),
        ({"seed": -1}, r"seed must be None or a non-negative int, got -1"),
        ({"averaging": "run"}, r"averaging must be one of \('qrels', 'intersection'\), got 'run'"),
        (
            {"baseline": "bm26"},
            r"baseline 'bm26' is not a system; the systems are bm25, dense, hybrid",
        ),
        ({"metrics": ()}, r"metrics is empty"),
        ({"metrics": ("ndgc@10",)}, r"unknown retrieval metric 'ndgc'; did you mean 'ndcg'"),
    ],
)
def test_bad_options_are_value_errors(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        compare(RUNS, QRELS, **kwargs)


def test_bad_systems_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="compare needs two or more systems, got 1"):
        compare({"a": RUNS["bm25"]}, QRELS)
    with pytest.raises(TypeError, match="systems must be a mapping of name to system"):
        compare("run.txt", QRELS)
    with pytest.raises(ValueError, match="system 'a' is a run: compare needs qrels to score it"):
        compare({"a": RUNS["bm25"], "b": RUNS["dense"]})
    with pytest.raises(TypeError, match="metrics must be a sequence of names"):
        compare(RUNS, QRELS, metrics="ndcg@10")
    report = evaluate_run(RUNS["bm25"], QRELS, metrics=("mrr@10",))
    with pytest.raises(ValueError, match=r"system 'r' has no 'ndcg@10'; its metrics are mrr@10"):
        compare({"r": report, "s": RUNS["dense"]}, QRELS)
    empty = RetrievalEvalReport({"ndcg@10": 0.5}, {}, 0, (10,))
    with pytest.raises(ValueError, match=r"system 'e' has no per-query values"):
        compare({"e": empty, "s": RUNS["dense"]}, QRELS)
    rag = RagEvalReport.from_values({"m": [1.0, 0.0]}, ["a", "b"])
    with pytest.raises(TypeError, match=r"system 'run' is a dict: a RAG report cannot be compared"):
        compare({"rag": rag, "run": RUNS["bm25"]}, QRELS)


def test_bad_rag_reports_are_clear_errors() -> None:
    good = RagEvalReport.from_values({"m": [1.0, 0.0, 0.5]}, ["a", "b", "c"])
    twice = RagEvalReport.from_values({"m": [1.0, 0.0, 0.5]}, ["a", "b", "a"])
    with pytest.raises(ValueError, match=r"system 'y': sample id 'a' appears more than once"):
        compare({"x": good, "y": twice})
    bare = RagEvalReport({"m": 0.5}, {"m": 3}, 3)
    with pytest.raises(ValueError, match=r"system 'y' has no per-sample values"):
        compare({"x": good, "y": bare})
    other = RagEvalReport.from_values({"n": [1.0, 0.0, 0.5]}, ["a", "b", "c"])
    with pytest.raises(ValueError, match="the RAG reports share no metric"):
        compare({"x": good, "y": other})
    with pytest.raises(ValueError, match=r"system 'y' has no 'm'; its metrics are n"):
        compare({"x": good, "y": other}, metrics=("m",))
    sparse = RagEvalReport.from_values({"m": [1.0, None, None]}, ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"m: 1 paired samples; a comparison needs at least two"):
        compare({"x": good, "y": sparse})


def test_without_scipy_compare_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(MissingDependencyError, match=r'pip install "ef-evaluation\[stats\]"'):
        compare(RUNS, QRELS)


def test_measures_of_the_whole_ranking_keep_their_keys() -> None:
    # rprec and map@all have no cutoff to add; trec_eval's names resolve as evaluate_run's.
    runs = {
        "a": {f"q{i}": {"d1": 1.0, "d2": 0.5} for i in range(6)},
        "b": {f"q{i}": {"d2": 1.0, "d1": 0.5} for i in range(6)},
    }
    qrels = {f"q{i}": {"d1": 1} for i in range(6)}
    report = compare(runs, qrels, metrics=("rprec", "map@all", "P_5", "recall"), k_values=(5, 10))
    assert report.metrics == ("rprec", "map@all", "precision@5", "recall@5", "recall@10")
    assert report.means["b"]["map@all"] == 0.5
    assert report.pair("a", "b", "rprec").difference == -1.0
