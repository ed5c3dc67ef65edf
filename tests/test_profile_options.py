"""evaluate_run(profile=...) and ef-eval evaluate --profile: options, errors, the manifest.

The profiles' numbers are checked against the tools themselves in tests/profiles/.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import evaluate_run
from ef.evaluation._engine.profiles import PROFILES
from ef.evaluation.cli import cli

RUN = {"q1": {"d1": 1.0, "d2": 1.0, "q1": 2.0}, "q2": {"d4": 1.0}}
QRELS = {"q1": {"d1": 1}, "q2": {"d5": 1}, "q3": {"d6": 1}}


def test_an_unknown_profile_lists_the_known_ones() -> None:
    with pytest.raises(
        ValueError,
        match=r"profile must be one of 'trec_eval', 'beir', 'mteb', 'ir_measures', 'ranx'; got 'trec'",
    ):
        evaluate_run(RUN, QRELS, profile="trec")  # type: ignore[arg-type]


@pytest.mark.parametrize(("option", "value"), [("tie_policy", "docno_asc"), ("averaging", "run")])
def test_a_profile_refuses_the_choices_it_makes(option: str, value: str) -> None:
    with pytest.raises(ValueError, match="profile='beir' sets the tie policy and the averaging"):
        evaluate_run(RUN, QRELS, profile="beir", **{option: value})  # type: ignore[arg-type]


def test_the_manifest_records_the_profile_and_each_metric_s_rule() -> None:
    report = evaluate_run(RUN, QRELS, metrics=("mrr@10", "ndcg@10"), profile="beir")
    profile = report.manifest["profile"]
    assert profile["name"] == "beir"
    assert profile["ignore_identical_ids"] is True
    assert profile["rules"]["mrr@10"]["tie_policy"] == "input_order"
    assert profile["rules"]["mrr@10"]["denominator"] == "qrels"
    assert profile["rules"]["ndcg@10"]["tie_policy"] == "trec_eval"
    assert profile["rules"]["ndcg@10"]["digits"] == 5


def test_beir_drops_identical_ids_unless_told_to_keep_them() -> None:
    # q1's own id scores highest in its run: BEIR drops it, so d1 (listed first of the tie)
    # is first for BEIR's MRR: 1 / 3 queries of qrels. Kept, it pushes d1 to rank 2.
    dropped = evaluate_run(RUN, QRELS, metrics=("mrr@10",), profile="beir")
    kept = evaluate_run(RUN, QRELS, metrics=("mrr@10",), profile="beir", ignore_identical_ids=False)
    assert dropped.metrics == {"mrr@10": 0.33333}
    assert kept.metrics == {"mrr@10": 0.16667}


def test_ranx_averages_every_query_of_qrels() -> None:
    # ranx's make_comparable: q3 (missing) and q2 score 0; the mean is over 3 queries.
    report = evaluate_run(RUN, QRELS, metrics=("precision@1",), profile="ranx")
    assert list(report.per_query) == ["q1", "q2", "q3"]
    assert report.per_query["q3"] == {"precision@1": 0.0}


def test_the_tie_diagnostic_of_a_profile_is_the_run_s() -> None:
    # d1 and d2 tie, with the relevant d1 among them: at ranks 1 and 2 once BEIR drops the
    # doc named q1, at ranks 2 and 3 for ranx, which keeps it. ranx ranks through its own
    # quicksort, but the diagnostic still reports the run's ties.
    # The cutoffs of every metric count, whatever rule scores it (BEIR's mrr is its own).
    beir = evaluate_run(RUN, QRELS, metrics=("ndcg@2", "mrr@1"), profile="beir").ties
    ranx = evaluate_run(RUN, QRELS, metrics=("ndcg@1", "mrr@2"), profile="ranx").ties
    assert (beir.policy, ranx.policy) == ("trec_eval", "ranx")
    for ties in (beir, ranx):
        assert ties.at_cutoff == ties.at_relevant == ("q1",)


def test_every_profile_is_documented() -> None:
    page = (Path(__file__).parents[1] / "docs" / "semantics.md").read_text()
    for name in PROFILES:
        assert f'| `"{name}"` |' in page


def test_the_cli_takes_a_profile(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d5 1\nq3 0 d6 1\n")
    run_file = tmp_path / "run.trec"
    run_file.write_text("q1 Q0 d1 1 1.0 x\nq1 Q0 d2 2 1.0 x\nq2 Q0 d4 1 1.0 x\n")
    result = CliRunner().invoke(
        cli,
        ["evaluate", str(qrels), str(run_file), "-m", "mrr@10", "--profile", "beir", "-o", "json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["metrics"] == {"mrr@10": 0.33333}
    assert data["manifest"]["profile"]["name"] == "beir"
    both = CliRunner().invoke(
        cli, ["evaluate", str(qrels), str(run_file), "--profile", "beir", "--ties", "docno_asc"]
    )
    assert both.exit_code == 2
    assert both.stderr == (
        "Error: --profile beir sets the tie policy and the averaging of its tool; leave --ties "
        "and --averaging unset, or drop --profile\n"
    )


@pytest.mark.peers
def test_ranx_bpref_counts_a_negative_grade_as_judged_non_relevant() -> None:
    # Every query has a relevant doc and a judged non-relevant one, so ranx's bpref is a
    # number; q1's only non-relevant doc has a negative grade, which trec_eval would call
    # unjudged (bpref 1.0) and ranx counts (bpref 0.0: the non-relevant doc ranks first).
    ranx = pytest.importorskip("ranx")
    from numba.core.errors import NumbaTypeSafetyWarning

    run = {"q1": {"n": 3.0, "r": 2.0, "x": 1.0}, "q2": {"a": 2.0, "b": 1.0, "c": 0.5}}
    qrels = {"q1": {"r": 1, "n": -1}, "q2": {"a": 0, "c": 2, "b": 1}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        theirs = ranx.evaluate(
            ranx.Qrels(qrels), ranx.Run(run), ["bpref", "bpref-l2"], return_mean=False
        )
    ours = evaluate_run(run, qrels, metrics=("bpref", "bpref(rel=2)"), profile="ranx")
    assert [q["bpref"] for q in ours.per_query.values()] == pytest.approx(list(theirs["bpref"]))
    assert [q["bpref(rel=2)"] for q in ours.per_query.values()] == pytest.approx(
        list(theirs["bpref-l2"])
    )
    assert ours.per_query["q1"]["bpref"] == 0.0
    assert evaluate_run(run, qrels, metrics=("bpref",)).per_query["q1"]["bpref"] == 1.0
