"""Doc ids that differ from the qrels' only in form stop the evaluation (issue 25, item 1).

A run whose doc ids are spelled otherwise (``cacm-1938`` against ``CACM-1938``) retrieves no
judged doc and would score 0 on every query. It is refused with the likely cause; a run
where fewer than half of the scored queries have a judged doc in their ranking gives an
``InputWarning``. The streamed and sharded paths are tested in tests/runs/test_doc_ids.py.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given
from hypothesis import strategies as st

from ef.evaluation import (
    InputWarning,
    RunTable,
    compare,
    evaluate_pipeline,
    evaluate_retrieval,
    evaluate_run,
    read_qrels,
    read_run,
)
from ef.evaluation._engine.doc_overlap import doc_overlap
from ef.evaluation._engine.scoring import query_sets
from ef.evaluation.cli import cli
from ef.evaluation.compat import beir, ir_measures, pytrec_eval, ranx

from .conftest import shared_path

QRELS = {f"q{i}": {f"D{i}-A": 1, f"D{i}-B": 0} for i in range(6)}
RUN = {f"q{i}": {f"D{i}-A": 2.5, "D9-X": 1.5, f"D{i}-B": 0.5} for i in range(6)}


def respelt(run: dict[str, dict[str, float]], spell: Any) -> dict[str, dict[str, float]]:
    return {q: {spell(d): s for d, s in docs.items()} for q, docs in run.items()}


def no_warning(call: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


@pytest.mark.parametrize(
    ("spell", "cause"),
    [
        (str.lower, "the ids differ in case ('d0-a' and 'D0-A')"),
        (lambda d: f" {d}", "the ids differ in whitespace (' D0-A' and 'D0-A')"),
        (lambda d: f"doc:{d}", "every run id starts with 'doc:', which qrels' ids lack"),
        (lambda d: f"{d}.txt", "every run id ends with '.txt', which qrels' ids lack"),
    ],
)
def test_doc_ids_spelled_otherwise_are_refused_with_the_cause(spell: Any, cause: str) -> None:
    for averaging in ("qrels", "intersection", "run"):
        with pytest.raises(ValueError, match="no scored query retrieves a judged doc") as caught:
            evaluate_run(respelt(RUN, spell), QRELS, averaging=averaging)
        message = str(caught.value)
        assert f"likely cause: {cause}" in message
        assert "none of the 6 queries of the run that qrels judges" in message
        assert "qrels judges ('D0-A', 'D0-B')" in message  # a few ids of each side
        assert "check_doc_ids=False" in message
        assert "--no-check-doc-ids" in message


def test_zero_padding_and_int_against_str_are_named() -> None:
    qrels = {"q1": {"42": 1, "7": 1}, "q2": {"1938": 1}}
    padded = {"q1": {"0042": 2.0, "0007": 1.0}, "q2": {"1938": 0.5}}
    # q2 meets the qrels, q1 only once the zeros are stripped: half the queries, respelt.
    with pytest.raises(ValueError, match=r"leading zeros \('0042' and '42'\)"):
        evaluate_run(padded, qrels)
    ints = {"q1": {42: 2.0, 7: 1.0}, "q2": {1938: 0.5}}
    with pytest.raises(ValueError, match="the run's doc ids are int, qrels' are str: use str ids"):
        evaluate_run(ints, qrels)  # type: ignore[arg-type]


def test_ranked_lists_a_run_table_a_file_and_profiles_are_checked(tmp_path: Path) -> None:
    lower = respelt(RUN, str.lower)
    path = tmp_path / "run.trec"
    path.write_text(
        "".join(
            f"{q} Q0 {d} {i} {s} tag\n"
            for q, docs in lower.items()
            for i, (d, s) in enumerate(docs.items(), 1)
        ),
        encoding="utf-8",
    )
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()),
        encoding="utf-8",
    )
    ranked = {q: list(docs) for q, docs in lower.items()}
    for run in (ranked, RunTable.from_dict(lower), path, read_run(path)):
        with pytest.raises(ValueError, match=r"likely cause: the ids differ in case"):
            evaluate_run(run, qrels)
    for profile in ("trec_eval", "beir", "mteb", "ir_measures", "ranx"):
        with pytest.raises(ValueError, match=r"likely cause: the ids differ in case"):
            evaluate_run(lower, read_qrels(qrels), profile=profile)
    with pytest.raises(ValueError, match=r"likely cause: the ids differ in case"):
        compare({"a": RUN, "b": lower}, QRELS)


def test_check_doc_ids_false_scores_them_as_they_are() -> None:
    lower = respelt(RUN, str.lower)
    report = no_warning(lambda: evaluate_run(lower, QRELS, check_doc_ids=False))
    assert set(report.metrics.values()) == {0.0}
    assert report.n_queries == 6


def test_a_few_queries_respelt_among_many_that_meet_are_refused() -> None:
    # Five queries meet the qrels; the sixth only once its ids are upper-cased: a sixth of
    # the scored queries (a tenth or more) meets only once respelt.
    run = {**RUN, "q5": {d.lower(): s for d, s in RUN["q5"].items()}}
    with pytest.raises(ValueError, match="match the qrels' only once respelt") as caught:
        evaluate_run(run, QRELS)
    message = str(caught.value)
    assert "of the 1 scored queries (of 6) with no judged doc in their ranking" in message
    assert "query 'q5' retrieves 'd5-a', qrels judges 'D5-A'" in message
    assert "likely cause: the ids differ in case" in message


def test_one_query_respelt_in_ten_or_more_is_scored() -> None:
    # One query in eleven meets only once respelt: less than a tenth, scored as it is.
    qrels = {f"q{i}": {f"D{i}": 1} for i in range(11)}
    run = {f"q{i}": {f"D{i}": 1.0, "x": 0.5} for i in range(10)} | {"q10": {"d10": 1.0}}
    report = no_warning(lambda: evaluate_run(run, qrels, metrics=("mrr@10",)))
    assert report.metrics == {"mrr@10": 10 / 11}


def test_one_query_respelt_in_exactly_ten_is_refused() -> None:
    # The boundary: a tenth of the scored queries meets only once respelt (the respelt docs
    # are looked for from there on, and not below it).
    qrels = {f"q{i}": {f"D{i}": 1} for i in range(10)}
    run = {f"q{i}": {f"D{i}": 1.0, "x": 0.5} for i in range(9)} | {"q9": {"d9": 1.0}}
    with pytest.raises(ValueError, match="only once respelt"):
        evaluate_run(run, qrels, metrics=("mrr@10",))


def test_fewer_than_half_of_the_queries_meeting_the_qrels_warns() -> None:
    qrels = {f"q{i}": {f"d{i}": 1, "judged-0": 0} for i in range(4)}
    run = {"q0": {"d0": 1.0}, "q1": {"x": 1.0}, "q2": {"y": 1.0}, "q3": {"z": 1.0}}
    with pytest.warns(InputWarning) as caught:
        report = evaluate_run(run, qrels, metrics=("mrr@10",))
    assert report.metrics == {"mrr@10": 0.25}  # scored: the warning says why it is low
    assert [str(w.message) for w in caught] == [
        "only 1 of the 4 scored queries (25%) have a judged doc anywhere in the run's "
        "ranking; the 3 others, e.g. ('q1', 'q2', 'q3'), score 0: are the run's doc ids those "
        "of the qrels?"
    ]
    assert caught[0].filename == __file__  # it points at the caller
    no_warning(lambda: evaluate_run(run, qrels, check_doc_ids=False))


def test_half_meeting_is_enough_and_a_judged_non_relevant_doc_counts() -> None:
    # Sparse qrels are normal: a query counts once any judged doc (a 0 too) is retrieved.
    qrels = {f"q{i}": {f"d{i}": 1, f"n{i}": 0} for i in range(4)}
    run = {"q0": {"x": 2.0, "d0": 1.0}, "q1": {"n1": 1.0}, "q2": {"x": 1.0}, "q3": {"y": 1.0}}
    report = no_warning(lambda: evaluate_run(run, qrels, metrics=("mrr@10",)))
    assert report.metrics == {"mrr@10": 0.125}


@pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")  # random partial runs
@given(
    run=st.dictionaries(
        st.sampled_from([f"q{i}" for i in range(8)]),
        st.dictionaries(
            st.sampled_from([f"d{i}" for i in range(10)] + ["doc-a", "x7y"]),
            st.floats(-5, 5, allow_nan=False),
            min_size=1,
            max_size=6,
        ),
        min_size=1,
        max_size=6,
    ),
    qrels=st.dictionaries(
        st.sampled_from([f"q{i}" for i in range(8)]),
        st.dictionaries(
            st.sampled_from([f"d{i}" for i in range(10)] + ["doc-a", "x7y"]),
            st.integers(0, 2),
            min_size=1,
            max_size=5,
        ),
        min_size=1,
        max_size=6,
    ),
    averaging=st.sampled_from(["qrels", "intersection", "run"]),
)
def test_any_case_changed_copy_of_a_run_that_meets_the_qrels_is_refused(
    run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]], averaging: str
) -> None:
    table = RunTable.from_dict(run)
    scored = query_sets(table, qrels, averaging)[0]
    assume(doc_overlap(table, qrels, scored).met > 0)  # some scored query meets the qrels
    with pytest.raises(ValueError, match="likely cause: the ids differ in case"):
        evaluate_run(respelt(run, str.upper), qrels, averaging=averaging)  # type: ignore[arg-type]


# evaluate_retrieval and the compat shims.


def test_evaluate_retrieval_refuses_a_retriever_answering_in_another_case() -> None:
    queries = {q: f"text of {q}" for q in QRELS}

    def retriever(query: str, *, limit: int = 10) -> list[str]:
        i = query.rsplit("q", 1)[1]
        return [f"d{i}-a", f"d{i}-b"]

    with pytest.raises(ValueError, match=r"likely cause: the ids differ in case \('d0-a'"):
        evaluate_retrieval(retriever, QRELS, queries)
    with pytest.raises(ValueError, match="likely cause: the ids differ in case"):
        evaluate_pipeline(
            retriever, QRELS, queries, generate=lambda q, c: "", corpus={}, rag_metrics=()
        )
    report = no_warning(lambda: evaluate_retrieval(retriever, QRELS, queries, check_doc_ids=False))
    assert set(report.metrics.values()) == {0.0}


def test_compat_shims_score_misspelt_doc_ids_0_as_their_peers_do_and_say_so() -> None:
    lower = respelt(RUN, str.lower)
    said = "no scored query retrieves a judged doc.*likely cause: the ids differ in case.*scored as"
    with pytest.warns(InputWarning, match=said):
        per_query = pytrec_eval.RelevanceEvaluator(QRELS, {"ndcg_cut.10"}).evaluate(lower)
    assert {values["ndcg_cut_10"] for values in per_query.values()} == {0.0}
    with pytest.warns(InputWarning, match=said):
        aggregate = ir_measures.calc_aggregate([ir_measures.nDCG @ 10], QRELS, lower)
    assert list(aggregate.values()) == [0.0]
    with pytest.warns(InputWarning, match=said):
        assert ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(lower), "ndcg@10") == 0.0
    with pytest.warns(InputWarning, match=said):
        ndcg, *_ = beir.EvaluateRetrieval.evaluate(QRELS, lower, [10])
    assert ndcg == {"NDCG@10": 0.0}
    # The right spelling: no word.
    assert no_warning(lambda: ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(RUN), "ndcg@10")) > 0


# The real collections: a correct run meets its qrels, a case-changed one is refused.


def test_cacm_lower_cased_is_refused_and_the_real_runs_meet_their_qrels(tmp_path: Path) -> None:
    cacm = shared_path("datasets", "cacm")
    scifact = shared_path(
        "datasets", "scifact-runs", "run.scifact.test.bm25s-lucene-k1_1.2-b_0.75.txt.gz"
    )
    for run_path, qrels_path, share in (
        (cacm / "run.cacm-bm25.txt", cacm / "qrels.cacm.txt", 52 / 52),
        (scifact, shared_path("datasets", "scifact", "qrels", "test.tsv"), 291 / 300),
    ):
        table = RunTable.read(run_path)
        qrels = read_qrels(qrels_path)
        overlap = doc_overlap(table, qrels, query_sets(table, qrels, "qrels")[0])
        assert overlap.met / overlap.scored == share  # 9% of SciFact's top-10 docs are judged
        no_warning(lambda t=table, q=qrels: evaluate_run(t, q, metrics=("ndcg@10",)))
    lower = tmp_path / "run.lower.trec"
    lines = (cacm / "run.cacm-bm25.txt").read_text(encoding="utf-8").splitlines()
    lower.write_text(
        "".join(re.sub(r"CACM-", "cacm-", line) + "\n" for line in lines), encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"none of the 52 queries.*differ in case"):
        evaluate_run(lower, cacm / "qrels.cacm.txt")


# ef-eval evaluate.


def cli_run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def write_files(tmp_path: Path, run: dict[str, dict[str, float]]) -> tuple[str, str]:
    qrels, ranked = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()),
        encoding="utf-8",
    )
    ranked.write_text(
        "".join(
            f"{q} Q0 {d} {i} {s} tag\n"
            for q, docs in run.items()
            for i, (d, s) in enumerate(docs.items(), 1)
        ),
        encoding="utf-8",
    )
    return str(qrels), str(ranked)


def test_the_cli_refuses_in_one_line_naming_the_cause(tmp_path: Path) -> None:
    qrels, ranked = write_files(tmp_path, respelt(RUN, str.lower))
    code, out, err = cli_run("evaluate", qrels, ranked)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert err.startswith("Error: no scored query retrieves a judged doc")
    assert "likely cause: the ids differ in case ('d0-a' and 'D0-A')" in err
    code, out, err = cli_run(
        "evaluate", qrels, ranked, "--no-check-doc-ids", "-m", "mrr@10", "-o", "json"
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["metrics"] == {"mrr@10": 0.0}


def test_the_cli_shows_the_share_in_one_warning_line(tmp_path: Path) -> None:
    run = {q: ({"elsewhere": 1.0} if q != "q0" else docs) for q, docs in RUN.items()}
    qrels, ranked = write_files(tmp_path, run)
    code, out, err = cli_run("evaluate", qrels, ranked, "-m", "mrr@10", "-o", "json")
    assert code == 0
    assert json.loads(out)["metrics"]["mrr@10"] == pytest.approx(1 / 6)
    assert err.splitlines() == [
        "warning: only 1 of the 6 scored queries (17%) have a judged doc anywhere in the run's "
        "ranking; the 5 others, e.g. ('q1', 'q2', 'q3', ...), score 0: are the run's doc ids "
        "those of the qrels?"
    ]


def test_a_run_of_empty_rankings_is_refused_as_empty_not_as_misspelt() -> None:
    with pytest.raises(ValueError, match=r"^the run's rankings are empty: none of the 2 ") as info:
        evaluate_run({"q1": {}, "q2": []}, {"q1": {"d1": 1}, "q2": {"d2": 1}})
    assert "is it the run you meant?" in str(info.value)
    assert "spell" not in str(info.value)
    with pytest.warns(InputWarning, match="rankings are empty"):
        ranx.evaluate(ranx.Qrels({"q1": {"d1": 1}}), ranx.Run({"q1": {}}), "ndcg@10")
