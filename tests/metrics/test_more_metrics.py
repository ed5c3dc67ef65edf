"""The metrics of issue 8 by hand, and the parameters rel and judged_only."""

from __future__ import annotations

import math

import pytest

from ef.evaluation import evaluate_retrieval, evaluate_run
from ef.evaluation.metrics.retrieval import (
    INFAP_EPSILON,
    average_precision,
    bpref,
    capped_recall_at_k,
    err_at_k,
    f1_at_k,
    hole_at_k,
    inferred_average_precision,
    judged_at_k,
    ndcg_at_k,
    num_rel,
    num_rel_ret,
    num_ret,
    precision_at_k,
    r_precision,
    rbp,
    rbp_residual,
    recall_at_k,
    success_at_k,
)

# a (2), x (unjudged), b (1), n (0), m (-1: pooled, not judged), c (3)
RANKED = ["a", "x", "b", "n", "m", "c"]
JUDGED = {"a": 2, "b": 1, "n": 0, "m": -1, "c": 3, "d": 1, "e": 0}


def test_relevance_level() -> None:
    # rel=2: a and c are relevant (R = 2); b and d are not.
    assert precision_at_k(RANKED, JUDGED, 6, rel=2) == 2 / 6
    assert recall_at_k(RANKED, JUDGED, 3, rel=2) == 1 / 2
    assert average_precision(RANKED, JUDGED, rel=2) == (1 / 1 + 2 / 6) / 2
    assert num_rel(RANKED, JUDGED, rel=2) == 2.0
    assert num_rel(RANKED, JUDGED) == 4.0  # a, b, c, d
    # nDCG's gains ignore rel unless it is given (trec_eval's -l leaves nDCG alone); given,
    # grades below it gain nothing, in the ranking and the ideal (ranx's -l): b (1) drops.
    # Top 3: a (2), x, b (1): DCG = 2 + 1/log2(4) = 2.5, or 2 with rel=2.
    # Ideal: c 3, a 2, then b/d 1: 3 + 2/log2(3) + 1/2; with rel=2: 3 + 2/log2(3).
    assert ndcg_at_k(RANKED, JUDGED, 3) == pytest.approx(2.5 / (3 + 2 / math.log2(3) + 0.5))
    assert ndcg_at_k(RANKED, JUDGED, 3, rel=2) == pytest.approx(2 / (3 + 2 / math.log2(3)))


def test_judged_only_drops_unjudged_and_negative_docs() -> None:
    # Judged only: a, b, n, c (x unjudged and m negative are dropped).
    assert precision_at_k(RANKED, JUDGED, 4, judged_only=True) == 3 / 4
    assert precision_at_k(RANKED, JUDGED, 4) == 2 / 4
    assert num_ret(RANKED, JUDGED, judged_only=True) == 4.0
    assert average_precision(RANKED, JUDGED, judged_only=True) == (1 + 2 / 2 + 3 / 4) / 4


def test_rprec_success_f1_and_capped_recall() -> None:
    # R = 4 (a, b, c, d): the top 4 hold a and b.
    assert r_precision(RANKED, JUDGED) == 2 / 4
    assert r_precision(RANKED, JUDGED, 2) == 1 / 4  # cut at 2 first (-M 2)
    assert success_at_k(RANKED, JUDGED, 1) == 1.0
    assert success_at_k(["x", "n"], JUDGED, 2) == 0.0
    p, r = 2 / 3, 2 / 4
    assert f1_at_k(RANKED, JUDGED, 3) == pytest.approx(2 * p * r / (p + r))
    assert f1_at_k(RANKED, JUDGED, None) == pytest.approx(2 * (3 / 6) * (3 / 4) / (3 / 6 + 3 / 4))
    assert capped_recall_at_k(RANKED, JUDGED, 3) == 2 / 3  # min(3, R=4)
    assert capped_recall_at_k(RANKED, JUDGED, 10) == 3 / 4  # min(10, 4)
    assert capped_recall_at_k(RANKED[:2], JUDGED, None) == 1 / 2  # min(retrieved=2, 4)


def test_judged_hole_and_the_counts() -> None:
    assert judged_at_k(RANKED, JUDGED, 5) == 4 / 5  # m (negative) counts as judged
    assert judged_at_k(RANKED[:2], JUDGED, 10) == 1 / 2  # over the 2 docs shown
    assert judged_at_k([], JUDGED, 10) == 0.0
    assert hole_at_k(RANKED, JUDGED, 5) == 2 / 5  # x and m
    assert hole_at_k(RANKED[:2], JUDGED, 10) == 1 / 10  # padded with judged docs
    assert hole_at_k(RANKED, JUDGED, None) == 2 / 6
    assert num_ret(RANKED, JUDGED, 4) == 4.0
    assert num_rel_ret(RANKED, JUDGED) == 3.0
    assert num_rel_ret(RANKED, JUDGED, rel=3) == 1.0


def test_bpref_by_hand() -> None:
    # R = 4, N = 2 judged non-relevant (n, e). a: none above -> 1; b: none -> 1; c: n above
    # -> 1 - min(1, 4) / min(2, 4) = 0.5; m (negative) and x are ignored.
    assert bpref(RANKED, JUDGED) == (1 + 1 + 0.5) / 4
    assert bpref(["n", "e", "a"], {"a": 1, "n": 0, "e": 0}) == 0.0  # 1 - 2/1 capped by R


def test_infap_by_hand() -> None:
    # j (0-based) of a, b, c: 0, 2, 5. Above b: a (rel), x (not pooled). Above c: a, b (rel),
    # n (non-rel), m (pooled, not judged).
    eps = INFAP_EPSILON
    b = 1 / 3 + (2 / 3) * ((1 + 0 + 0) / 2) * ((1 + eps) / (1 + 0 + 2 * eps))
    c = 1 / 6 + (5 / 6) * ((2 + 1 + 1) / 5) * ((2 + eps) / (2 + 1 + 2 * eps))
    assert inferred_average_precision(RANKED, JUDGED) == pytest.approx((1 + b + c) / 4, abs=1e-15)


def test_err_by_hand() -> None:
    # gdeval: R = (2^g - 1) / 16; a (2): 3/16 at rank 1, b (1): 1/16 at 3, c (3): 7/16 at 6.
    ra, rb, rc = 3 / 16, 1 / 16, 7 / 16
    expected = ra + (1 - ra) * rb / 3 + (1 - ra) * (1 - rb) * rc / 6
    assert err_at_k(RANKED, JUDGED, 10) == pytest.approx(expected, abs=1e-15)
    assert err_at_k(RANKED, JUDGED, 2) == ra
    assert err_at_k(["c"], {"c": 9}, 1) == 15 / 16  # clipped at max_grade=4
    assert err_at_k(["c"], {"c": 1}, 1, max_grade=1) == 1 / 2


def test_rbp_and_its_residual_by_hand() -> None:
    p = 0.5
    assert rbp(RANKED, JUDGED, p=p) == (1 - p) * (1 + p**2 + p**5)  # a, b, c
    assert rbp(RANKED, JUDGED, 3, p=p) == (1 - p) * (1 + p**2)
    # graded (trec_eval's rbp): grade / 3, the highest grade.
    assert rbp(RANKED, JUDGED, p=p, graded=True) == pytest.approx(
        (1 - p) * (2 / 3 + p**2 / 3 + p**5), abs=1e-15
    )
    with pytest.raises(ValueError, match="rel does not apply to graded gains"):
        rbp(RANKED, JUDGED, graded=True, rel=2)
    # unjudged: x (rank 2) and m (rank 5); 6 docs retrieved.
    assert rbp_residual(RANKED, JUDGED, p=p) == pytest.approx(p**6 + (1 - p) * (p + p**4))
    assert rbp_residual(RANKED, JUDGED, 1, p=p) == 0.0  # nothing unjudged in the top 1
    assert rbp_residual(["a"], JUDGED, p=p) == 0.0  # as trec_eval, despite p ** 1


def test_ndcg_gains_and_exponential_gain() -> None:
    ranked, judged = ["b", "a"], {"a": 2, "b": 1, "n": 0}
    linear = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert ndcg_at_k(ranked, judged, 2) == pytest.approx(linear)
    exponential = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert ndcg_at_k(ranked, judged, 2, dcg="exp-log2") == pytest.approx(exponential)
    # grade 0 gains 5, grade 2 keeps its own: the ideal puts n first.
    custom = (1 + 2 / math.log2(3)) / (5 + 2 / math.log2(3))
    assert ndcg_at_k(ranked, judged, 2, gains={0: 5.0}) == pytest.approx(custom)
    # a negative gain is a penalty in the DCG and never part of the ideal.
    assert ndcg_at_k(["n", "a"], judged, 2, gains={0: -1.0}) == pytest.approx(
        (-1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    )


def test_sum_aggregation_and_the_report_table() -> None:
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}
    qrels = {"q1": {"a": 1}, "q2": {"c": 1, "d": 1}}
    report = evaluate_run(run, qrels, k_values=(1,), metrics=("num_ret", "num_rel", "ndcg", "AP"))
    assert report.metrics["num_ret"] == 3.0  # summed, as trec_eval's "all" row
    assert report.metrics["num_rel"] == 3.0
    assert report.per_query["q2"]["num_ret"] == 1.0
    assert report.k_values == (1,)
    assert str(report).splitlines()[1:] == [
        "metric       @1     all",
        "num_ret       -  3.0000",
        "num_rel       -  3.0000",
        "ndcg     1.0000       -",
        "map           -  0.7500",
    ]


RUN = {
    "q1": {"q1": 9.0, "d1": 2.0, "d2": 1.0},
    "q2": {"d3": 1.0},
    "q4": {"d9": 1.0},
}
QRELS = {"q1": {"d1": 1}, "q2": {"d3": 0}, "q3": {"d5": 1}, "q5": {}}


def test_averaging_run_scores_every_judged_query_of_the_run() -> None:
    report = evaluate_run(RUN, QRELS, metrics=("mrr@10", "num_ret"), averaging="run")
    # q2 has no relevant doc but is judged and in the run: scored (0), as trec_eval counts it.
    assert list(report.per_query) == ["q1", "q2"]
    assert report.per_query["q2"] == {"mrr@10": 0.0, "num_ret": 1.0}
    assert report.metrics["mrr@10"] == 0.5 / 2
    assert report.missing == ("q3",)
    assert report.extra == ("q4",)
    assert report.skipped == {"q3": "not in the run", "q5": "no judgement"}
    for averaging, scored in (("qrels", ["q1", "q3"]), ("intersection", ["q1"])):
        other = evaluate_run(RUN, QRELS, metrics=("mrr@10",), averaging=averaging)  # type: ignore[arg-type]
        assert list(other.per_query) == scored
        assert other.skipped["q2"] == "no positive judgement"


def test_averaging_run_names_an_empty_judgement() -> None:
    report = evaluate_run(
        {"q": {"a": 1.0}, "r": {"b": 1.0}}, {"q": {"a": 1}, "r": {}}, averaging="run"
    )
    assert report.skipped == {"r": "no judgement"}
    assert list(report.per_query) == ["q"]


def test_ignore_identical_ids_drops_the_query_itself() -> None:
    kept = evaluate_run(RUN, QRELS, metrics=("mrr@10", "num_ret"))
    dropped = evaluate_run(RUN, QRELS, metrics=("mrr@10", "num_ret"), ignore_identical_ids=True)
    assert kept.per_query["q1"] == {"mrr@10": 0.5, "num_ret": 3.0}
    assert dropped.per_query["q1"] == {"mrr@10": 1.0, "num_ret": 2.0}
    assert RUN["q1"] == {"q1": 9.0, "d1": 2.0, "d2": 1.0}  # the caller's run is untouched


def test_ignore_identical_ids_in_evaluate_retrieval() -> None:
    def retriever(query, *, limit):
        return ["q1", "d1", "d2"][:limit]

    qrels, queries = {"q1": {"d1": 1}}, {"q1": "text"}
    kept = evaluate_retrieval(retriever, qrels, queries, k_values=(2,), metrics=("mrr",))
    dropped = evaluate_retrieval(
        retriever, qrels, queries, k_values=(2,), metrics=("mrr",), ignore_identical_ids=True
    )
    assert (kept.metrics["mrr@2"], dropped.metrics["mrr@2"]) == (0.5, 1.0)
    # As BEIR: the doc is dropped from the results fetched (limit = 1: nothing is left, and
    # a ranking with no judged doc is scored as it is only once asked to).
    first_only = evaluate_retrieval(
        retriever,
        qrels,
        queries,
        k_values=(1,),
        metrics=("mrr",),
        ignore_identical_ids=True,
        check_doc_ids=False,
    )
    assert first_only.metrics["mrr@1"] == 0.0


def test_whole_ranking_measures_in_evaluate_retrieval_fetch_max_k() -> None:
    seen = []

    def retriever(query, *, limit):
        seen.append(limit)
        return ["x", "d1"][:limit]

    report = evaluate_retrieval(
        retriever, {"q": {"d1": 1}}, {"q": "t"}, k_values=(5,), metrics=("map@all", "rprec")
    )
    assert report.metrics == {"map@all": 0.5, "rprec": 0.0}
    assert seen == [5]
    assert report.k_values == ()
