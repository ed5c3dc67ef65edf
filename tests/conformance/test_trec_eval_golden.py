"""evaluate_run against trec_eval's own expected outputs (``../shared/validation``).

Every measure we implement that a golden file prints (``P_k``, ``recall_k``, ``ndcg_cut_k``,
``map_cut_k``, ``map`` = ``map@1000``, ``recip_rank`` = ``mrr@1000``), per query and for
``all``, must print the same with ``%.4f``; see ``_trec.matches_printed`` for the one
tolerance. Measures we do not implement (bpref, Rprec, ndcg without cutoff, success_k, ...)
are ignored. The commands that made each file are in the READMEs beside them.

Averaging: trec_eval without ``-c`` averages over the topics in both qrels and run
(``averaging="intersection"``); with ``-c`` over every judged topic, a missing one scoring 0
(``averaging="qrels"``). trec_eval 10.0 with ``-c -q`` also prints the missing topics'
(zero) rows; 9.0.8 does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ef.evaluation import evaluate_run

from ..conftest import shared_path
from ._trec import (
    TREC_CUTOFFS,
    Averaging,
    Golden,
    cached_report,
    check_run_depth,
    ef_key,
    load_qrels,
    load_run,
    matches_printed,
    mismatches,
)

TREC = ("validation", "trec_eval")
TREC9 = ("validation", "trec_eval", "v9.0.8")
GENERATED = ("validation", "generated")
CACM = ("datasets", "cacm")
SCIFACT_QRELS = {
    "beir-tsv": ("datasets", "scifact", "qrels", "test.tsv"),
    "trec": ("datasets", "beir-anserini", "qrels.beir-v1.0.0-scifact.test.txt"),
}
SCIFACT_RUNS = ("k1_1.2-b_0.75", "k1_0.9-b_0.4")

#: Measures of the default set we implement: map, recip_rank, P at 9 cutoffs.
DEFAULT_SET = 11
#: ... and of all_trec: also recall, ndcg_cut and map_cut at the same 9 cutoffs.
ALL_TREC = DEFAULT_SET + 3 * len(TREC_CUTOFFS)

#: out.test.meas_params asks for ``-mndcg_cut.10,20,23.4``; trec_eval parses the cutoff with
#: atol-like truncation and prints ``ndcg_cut_23``. A cutoff 23.4 is not an int and our API
#: refuses ``"ndcg@23.4"`` (see test_meas_params_non_int_cutoff), so that row is not one of
#: ours to compare.
MEAS_PARAMS_SKIP = frozenset({"ndcg_cut_23"})


@dataclass(frozen=True)
class Case:
    id: str
    qrels: tuple[str, ...]
    run: tuple[str, ...]
    golden: tuple[str, ...]
    averaging: Averaging
    #: How many implemented measures the ``all`` rows hold (guards against comparing nothing).
    n_measures: int
    #: Made with ``-q``: per-query rows, else averages only.
    per_query: bool = False
    #: trec_eval 10.0 ``-c -q``: the missing topics' zero rows are printed.
    prints_missing: bool = False
    missing: tuple[str, ...] = ()
    n_extra: int = 0
    skip: frozenset[str] = frozenset()
    #: Large inputs: read once per session and shared with the differential tests.
    read_once: bool = False


def _trec_eval_cases() -> list[Case]:
    cases = []
    for version, folder in (("10.0", TREC), ("9.0.8", TREC9)):
        qrels, results, trunc = (
            (*folder, name) for name in ("qrels.test", "results.test", "results.trunc")
        )
        cases += [
            Case(f"{version}/out.test", qrels, results, (*folder, "out.test"), "intersection", DEFAULT_SET),
            Case(f"{version}/out.test.a", qrels, results, (*folder, "out.test.a"), "intersection", ALL_TREC),
            Case(
                f"{version}/out.test.aq", qrels, results, (*folder, "out.test.aq"), "intersection",
                ALL_TREC, per_query=True,
            ),
            Case(
                f"{version}/out.test.aqc", qrels, trunc, (*folder, "out.test.aqc"), "qrels",
                ALL_TREC, per_query=True, prints_missing=version == "10.0", missing=("302",),
            ),
            Case(
                f"{version}/out.test.meas_params", qrels, results, (*folder, "out.test.meas_params"),
                "intersection", 7, per_query=True, skip=MEAS_PARAMS_SKIP,
            ),
        ]  # fmt: skip
    # 10.0 only: '#' comment lines in qrels are skipped; the docno 'CR#93E-1860' is data.
    cases.append(
        Case(
            "10.0/qrels.test.with-comments", (*TREC, "qrels.test.with-comments"),
            (*TREC, "results.test"), (*TREC, "out.test"), "intersection", DEFAULT_SET,
        )
    )  # fmt: skip
    return cases


def _generated_cases() -> list[Case]:
    cases = []
    for version in ("9.0.8", "10.0"):
        # trec_eval -m all_trec -q (no -c): the run's 12 unjudged topics are not counted.
        cases.append(
            Case(
                f"cacm-{version}", (*CACM, "qrels.cacm.txt"), (*CACM, "run.cacm-bm25.txt"),
                (*GENERATED, f"cacm-bm25.trec_eval-{version}.all_trec.q.txt"), "intersection",
                ALL_TREC, per_query=True, n_extra=12,
            )
        )  # fmt: skip
        # trec_eval -c -q -m all_trec on the TREC qrels; the BEIR tsv has the same pairs.
        for run in SCIFACT_RUNS:
            for qrels_name, qrels in SCIFACT_QRELS.items():
                cases.append(
                    Case(
                        f"scifact-{run}-{version}-{qrels_name}", qrels,
                        ("datasets", "scifact-runs", f"run.scifact.test.bm25s-lucene-{run}.txt.gz"),
                        (*GENERATED, f"scifact.bm25s-lucene-{run}.trec_eval-{version}.all_trec.c.q.txt"),
                        "qrels", ALL_TREC, per_query=True, prints_missing=version == "10.0",
                        read_once=True,
                    )
                )  # fmt: skip
    return cases


CASES = _trec_eval_cases() + _generated_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_matches_golden_file(case: Case) -> None:
    golden = Golden(shared_path(*case.golden))
    cutoffs = golden.cutoffs(case.skip)
    if case.read_once:
        report = cached_report(case.run, case.qrels, case.averaging, cutoffs)
    else:
        check_run_depth(load_run(*case.run))
        report = evaluate_run(
            shared_path(*case.run),
            shared_path(*case.qrels),
            k_values=cutoffs,
            metrics=("ndcg", "precision", "recall", "map", "map@1000", "mrr@1000"),
            averaging=case.averaging,
        )

    # out.test.meas_params names its measures, so no num_q row: count its per-query rows.
    num_q = len(golden.query_ids) if golden.num_q is None else golden.num_q
    assert report.n_queries == num_q
    assert report.missing == case.missing
    assert len(report.extra) == case.n_extra
    assert dict(report.skipped) == {
        qid: "not in the run" for qid in case.missing if case.averaging == "intersection"
    }

    expected_all = golden.implemented("all", case.skip)
    assert len(expected_all) == case.n_measures, sorted(expected_all)
    bad = mismatches(report.metrics, expected_all, "all")

    if case.per_query:
        printed = set(report.per_query)
        if not case.prints_missing:
            printed -= set(report.missing)
        assert golden.query_ids == printed
        for qid in sorted(golden.query_ids):
            expected = golden.implemented(qid, case.skip)
            assert len(expected) == case.n_measures, (qid, sorted(expected))
            bad += mismatches(report.per_query[qid], expected, qid)
    else:
        assert golden.query_ids == set()
    assert not bad, f"{len(bad)} values differ from {golden.path}:\n" + "\n".join(bad[:20])


def test_missing_topic_rows_are_zero_under_qrels_averaging() -> None:
    # 10.0 -c -q prints topic 302 (absent from results.trunc) with every measure 0.0000; our
    # averaging="qrels" scores it 0 too, and the intersection drops it from the mean.
    golden = Golden(shared_path(*TREC, "out.test.aqc"))
    paths = shared_path(*TREC, "results.trunc"), shared_path(*TREC, "qrels.test")
    as_c = evaluate_run(*paths, k_values=TREC_CUTOFFS, metrics=("precision", "map@1000"))
    assert set(as_c.per_query["302"].values()) == {0.0}
    assert {printed for _, printed in golden.implemented("302").values()} == {"0.0000"}
    without_c = evaluate_run(
        *paths, k_values=(10,), metrics=("map@1000",), averaging="intersection"
    )
    assert without_c.n_queries == 2
    assert without_c.skipped == {"302": "not in the run"}
    # (0.0324 + 0 + 0.2723) / 3 = 0.1016 with -c; over the two answered topics, 0.1523.
    assert f"{as_c.metrics['map@1000']:.4f}" == golden.values["all"]["map"] == "0.1016"
    assert f"{without_c.metrics['map@1000']:.4f}" == "0.1523"


def test_comment_test_counts_a_topic_without_relevant_docs() -> None:
    """out.comment.test: MS MARCO v2.1 docnos with '#'; 31 judged topics, 301 in the run.

    trec_eval 10.0 without ``-c`` averages over the intersection, so both our averaging
    modes agree here (every judged topic is in the run). One judged topic, 2024-36302, has no
    positive judgement: trec_eval counts it (num_q = 31) with 0 on every measure, while we
    skip it by design (DESIGN §4), so our means are over 30 topics. Rescaled by 30/31 they
    must print what trec_eval printed.
    """
    golden = Golden(shared_path(*TREC, "out.comment.test"))
    run, qrels = (
        shared_path(*TREC, "results.comment.test"),
        shared_path(*TREC, "qrels.comment.test"),
    )
    reports = {
        averaging: evaluate_run(
            run,
            qrels,
            k_values=golden.cutoffs(),
            metrics=("precision", "map@1000", "mrr@1000"),
            averaging=averaging,
        )
        for averaging in ("intersection", "qrels")
    }
    report = reports["intersection"]
    assert report == reports["qrels"]
    assert report.missing == ()
    assert len(report.extra) == 301 - 31
    assert report.skipped == {"2024-36302": "no positive judgement"}
    assert report.n_queries == 30
    assert golden.num_q == report.n_queries + len(report.skipped) == 31

    expected = golden.implemented("all")
    assert len(expected) == DEFAULT_SET
    rescaled = {
        key: value * report.n_queries / golden.num_q for key, value in report.metrics.items()
    }
    bad = mismatches(rescaled, expected, "all")
    assert not bad, "\n".join(bad)
    # Unscaled, the means are visibly different (e.g. map 0.2779 vs trec_eval's 0.2689).
    assert not matches_printed(report.metrics["map@1000"], expected["map"][1])


def test_meas_params_non_int_cutoff() -> None:
    # Why ndcg_cut_23 is skipped above: trec_eval took "23.4"; we refuse a non-int cutoff.
    golden = Golden(shared_path(*TREC, "out.test.meas_params"))
    assert "ndcg_cut_23" in golden.values["all"]
    assert ef_key("ndcg_cut_23") == "ndcg@23"
    with pytest.raises(ValueError, match="positive int"):
        evaluate_run(
            shared_path(*TREC, "results.test"),
            shared_path(*TREC, "qrels.test"),
            metrics=("ndcg@23.4",),
        )


def test_beir_tsv_and_trec_qrels_are_the_same_judgements() -> None:
    # The generated goldens were made from the TREC copy (trec_eval cannot read the tsv).
    beir, trec = (load_qrels(*parts) for parts in SCIFACT_QRELS.values())
    assert beir == trec
    assert len(beir) == 300
