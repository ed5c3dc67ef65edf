"""Differential test: our per-query metrics against trec_eval's C code via pytrec-eval-terrier.

pytrec_eval ranks by score, so each ranking is given strictly decreasing scores; the trec_eval
measures compared are ndcg_cut.k, recall.k, P.k, map_cut.k, map and recip_rank (no cutoff).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from ef.evaluation import (
    average_precision,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

from ..profiles_hypothesis import examples
from ..strategies import cutoffs, judgements, rankings

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is a test dependency")

TOLERANCE = 1e-9


def trec_eval(ranked: list[str], relevant: dict[str, int], k: int) -> dict[str, float]:
    measures = {f"ndcg_cut.{k}", f"recall.{k}", f"P.{k}", f"map_cut.{k}", "map", "recip_rank"}
    evaluator = pytrec_eval.RelevanceEvaluator({"q": relevant}, measures)
    run = {"q": {doc: float(len(ranked) - i) for i, doc in enumerate(ranked)}}
    values: dict[str, float] = evaluator.evaluate(run)["q"]
    return values


@settings(max_examples=examples(400), deadline=None)
@given(ranked=rankings, relevant=judgements, k=cutoffs)
def test_matches_trec_eval(ranked, relevant, k) -> None:
    if not relevant or not ranked:
        return  # pytrec_eval drops a query with empty qrels or an empty run
    expected = trec_eval(ranked, relevant, k)
    ours = {
        f"ndcg_cut_{k}": ndcg_at_k(ranked, relevant, k),
        f"recall_{k}": recall_at_k(ranked, relevant, k),
        f"P_{k}": precision_at_k(ranked, relevant, k),
        f"map_cut_{k}": average_precision(ranked, relevant, k),
        "map": average_precision(ranked, relevant),
        "recip_rank": reciprocal_rank(ranked, relevant),
    }
    for measure, value in ours.items():
        assert value == pytest.approx(expected[measure], abs=TOLERANCE, rel=0), measure


def test_the_differential_harness_can_fail() -> None:
    # Guard against a harness that compares nothing: a known value through the same path.
    values = trec_eval(["x", "d1"], {"d1": 1}, 2)
    assert values["recip_rank"] == pytest.approx(0.5)
    assert values["ndcg_cut_2"] == pytest.approx(ndcg_at_k(["x", "d1"], {"d1": 1}, 2))
