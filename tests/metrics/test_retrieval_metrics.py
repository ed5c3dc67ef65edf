"""The per-query retrieval metrics: hand-checked values, edge cases and properties."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import (
    average_precision,
    dcg_at_k,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

from ..strategies import cutoffs, judgements, rankings

AT_K: list[Callable[..., float]] = [ndcg_at_k, recall_at_k, precision_at_k]
OPTIONAL_K: list[Callable[..., float]] = [reciprocal_rank, average_precision]
ALL = AT_K + OPTIONAL_K


def test_graded_ndcg_by_hand() -> None:
    relevant = {"a": 3, "b": 2, "c": 1}
    ranked = ["c", "x", "a"]
    dcg = 1 / math.log2(2) + 0 + 3 / math.log2(4)
    ideal = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert dcg_at_k(ranked, relevant, 3) == pytest.approx(dcg, abs=1e-15)
    assert ndcg_at_k(ranked, relevant, 3) == pytest.approx(dcg / ideal, abs=1e-15)


def test_ideal_dcg_uses_every_judged_doc_not_only_retrieved() -> None:
    # Only one of two relevant docs retrieved, at rank 1: nDCG@2 < 1 (LlamaIndex's old bug
    # built the ideal from the retrieved list and reported 1.0).
    assert ndcg_at_k(["a"], {"a": 1, "b": 1}, 2) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_negative_and_zero_grades_are_non_relevant() -> None:
    relevant = {"a": -1, "b": 0, "c": 1}
    assert recall_at_k(["a", "b", "c"], relevant, 3) == 1.0
    assert precision_at_k(["a", "b", "c"], relevant, 3) == pytest.approx(1 / 3)
    assert reciprocal_rank(["a", "b", "c"], relevant) == pytest.approx(1 / 3)
    assert dcg_at_k(["a", "b"], relevant, 2) == 0.0


def test_precision_divides_by_k_even_for_short_rankings() -> None:
    assert precision_at_k(["d1"], {"d1": 1}, 10) == 0.1


def test_average_precision_divides_by_all_relevant() -> None:
    # trec_eval map_cut: R=10, both hits at ranks 1-2 -> 0.2.
    relevant = {f"d{i}": 1 for i in range(10)}
    assert average_precision(["d0", "d1"], relevant, k=2) == pytest.approx(0.2)


def test_reciprocal_rank_and_map_without_cutoff_use_the_whole_ranking() -> None:
    ranked = [f"x{i}" for i in range(500)] + ["d1"]
    assert reciprocal_rank(ranked, {"d1": 1}) == pytest.approx(1 / 501)
    assert average_precision(ranked, {"d1": 1}) == pytest.approx(1 / 501)


@pytest.mark.parametrize("metric", ALL)
def test_no_relevant_judgement_scores_zero(metric) -> None:
    assert metric(["a", "b"], {"a": 0, "b": -1}, 2) == 0.0
    assert metric(["a", "b"], {}, 2) == 0.0


@pytest.mark.parametrize("metric", ALL)
def test_empty_ranking_scores_zero(metric) -> None:
    assert metric([], {"a": 1}, 5) == 0.0


@pytest.mark.parametrize("metric", ALL)
@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_bad_cutoff_is_a_value_error(metric, k) -> None:
    with pytest.raises(ValueError, match="cutoff k must be a positive int"):
        metric(["a"], {"a": 1}, k)


@pytest.mark.parametrize("metric", ALL)
def test_a_duplicate_counts_only_at_its_best_rank(metric) -> None:
    relevant = {"a": 2, "b": 1}
    assert metric(["a", "a", "x", "b"], relevant, 3) == metric(["a", "x", "b"], relevant, 3)


@pytest.mark.parametrize("metric", ALL)
def test_metrics_do_not_mutate_their_inputs(metric) -> None:
    ranked, relevant = ["b", "a"], {"a": 1, "b": 0}
    metric(ranked, relevant, 2)
    assert ranked == ["b", "a"]
    assert relevant == {"a": 1, "b": 0}


@given(ranked=rankings, relevant=judgements, k=cutoffs)
def test_values_lie_in_the_unit_interval(ranked, relevant, k) -> None:
    for metric in ALL:
        assert 0.0 <= metric(ranked, relevant, k) <= 1.0 + 1e-12


@given(relevant=judgements, k=cutoffs)
def test_an_ideal_ranking_scores_one(relevant, k) -> None:
    ideal = sorted((d for d, g in relevant.items() if g > 0), key=lambda d: -relevant[d])
    if not ideal:
        return
    assert ndcg_at_k(ideal, relevant, k) == pytest.approx(1.0, abs=1e-12)
    assert reciprocal_rank(ideal, relevant, k) == 1.0
    assert recall_at_k(ideal, relevant, max(k, len(ideal))) == 1.0
    assert average_precision(ideal, relevant, max(k, len(ideal))) == pytest.approx(1.0)
    assert precision_at_k(ideal, relevant, min(k, len(ideal))) == 1.0


@given(ranked=rankings, relevant=judgements, k=cutoffs, extra=st.lists(st.text(min_size=1)))
def test_appending_non_relevant_docs_never_changes_recall(ranked, relevant, k, extra) -> None:
    tail = [f"nonrel-{e}" for e in extra]
    for metric in (recall_at_k, ndcg_at_k, average_precision, reciprocal_rank):
        assert metric(ranked + tail, relevant, k) == metric(ranked, relevant, k)


@given(ranked=rankings, relevant=judgements, k=cutoffs)
def test_recall_dcg_and_ap_never_decrease_with_k(ranked, relevant, k) -> None:
    for metric in (recall_at_k, dcg_at_k, average_precision):
        assert metric(ranked, relevant, k + 1) >= metric(ranked, relevant, k)
