"""rank_correlation(): Kendall's τ-b as scipy's kendalltau, τ_AP by the paper's definition."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import RankCorrelation, RetrievalEvalReport, rank_correlation
from ef.evaluation._engine.agreement import kendall_tau_b, tau_ap

from ..profiles_hypothesis import examples

grid = st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.5, 0.8])  # ties in both scorings


@settings(max_examples=examples(200), deadline=None)
@given(pairs=st.lists(st.tuples(grid, grid), min_size=2, max_size=15))
def test_tau_b_is_scipys_kendalltau_ties_and_all(pairs: list[tuple[float, float]]) -> None:
    x, y = [a for a, _ in pairs], [b for _, b in pairs]
    ours = kendall_tau_b(x, y)
    if len(set(x)) == 1 or len(set(y)) == 1:  # scipy warns and gives NaN: nothing to order
        assert math.isnan(ours)
        return
    assert ours == pytest.approx(scipy.stats.kendalltau(x, y).statistic, abs=1e-12)


def paper_tau_ap(truth: list[str], ranked: list[str]) -> float:
    """Yilmaz et al.'s formula as printed, on two rankings (best first) with no ties."""
    position = {item: i for i, item in enumerate(truth)}
    n = len(ranked)
    total = Fraction(0)
    for i in range(1, n):
        correct = sum(position[ranked[j]] < position[ranked[i]] for j in range(i))
        total += Fraction(correct, i)
    return float(2 * total / (n - 1) - 1)


def scores_of(ranking: list[str]) -> dict[str, float]:
    return {item: float(len(ranking) - i) for i, item in enumerate(ranking)}


@settings(max_examples=examples(200), deadline=None)
@given(st.permutations(list("abcdefgh")), st.permutations(list("abcdefgh")))
def test_without_ties_tau_ap_is_the_papers_formula(truth: list[str], ranked: list[str]) -> None:
    items = sorted(truth)
    reference, ordering = scores_of(truth), scores_of(ranked)
    ours = tau_ap([reference[i] for i in items], [ordering[i] for i in items])
    assert ours == pytest.approx(paper_tau_ap(truth, ranked), abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_over_every_permutation_tau_ap_and_tau_average_0(n: int) -> None:
    # The paper's property: for a ranking drawn at random, both have expectation 0.
    reference = list(range(n, 0, -1))
    every = list(itertools.permutations(reference))
    assert math.fsum(tau_ap(reference, list(p)) for p in every) == pytest.approx(0, abs=1e-9)
    assert math.fsum(kendall_tau_b(reference, list(p)) for p in every) == pytest.approx(0, abs=1e-9)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=2, max_size=10).filter(lambda v: len(set(v)) > 1))
def test_the_same_order_is_1_and_the_reverse_minus_1_ties_and_all(values: list[int]) -> None:
    stretched = [3 * v + 0.5 for v in values]  # another scoring, the same order
    reversed_ = [-v for v in values]
    assert tau_ap(values, stretched) == kendall_tau_b(values, stretched) == 1.0
    assert tau_ap(values, reversed_) == -1.0
    assert kendall_tau_b(values, reversed_) == pytest.approx(-1.0, abs=1e-12)


def test_worked_examples_by_hand() -> None:
    # Truth a > b > c > d. Swapping the top two: C(2..4) = 0/1, 2/2, 3/3, so
    # tau_ap = 2/3 * 2 - 1 = 1/3; tau = (5 - 1) / 6 = 2/3.
    truth = [4, 3, 2, 1]
    assert tau_ap(truth, [3, 4, 2, 1]) == pytest.approx(1 / 3, abs=1e-15)
    assert kendall_tau_b(truth, [3, 4, 2, 1]) == pytest.approx(2 / 3, abs=1e-15)
    # Swapping the bottom two: 1/1, 2/2, 2/3, so tau_ap = 2/3 * 8/3 - 1 = 7/9; tau is 2/3.
    assert tau_ap(truth, [4, 3, 1, 2]) == pytest.approx(7 / 9, abs=1e-15)
    assert kendall_tau_b(truth, [4, 3, 1, 2]) == pytest.approx(2 / 3, abs=1e-15)
    # Not symmetric. a > b > c as truth, c > a > b ranked: C = 0/1 (a under c), then 1/2
    # (b under c and a: a right, c wrong).
    assert tau_ap([3, 2, 1], [2, 1, 3]) == pytest.approx(2 / 2 * (0 + 1 / 2) - 1, abs=1e-15)
    # The other way: a > b > c ranked, c > a > b as truth: C = 1/1, 0/2.
    assert tau_ap([2, 1, 3], [3, 2, 1]) == pytest.approx(2 / 2 * (1 + 0) - 1, abs=1e-15)


def test_ties_are_left_out_and_their_order_does_not_matter() -> None:
    # b and c tied in the reference: the pair is no evidence; a stays on top.
    assert tau_ap([3, 2, 2], [3, 2, 1]) == tau_ap([3, 2, 2], [3, 1, 2]) == 1.0
    # Tied in the ordering: c's only untied pair above it is a (right): 1/1; b likewise.
    assert tau_ap([3, 2, 1], [3, 1, 1]) == 1.0
    assert math.isnan(tau_ap([1, 1, 1], [3, 2, 1]))  # no untied pair at all
    assert math.isnan(kendall_tau_b([1, 1, 1], [3, 2, 1]))


def test_rank_correlation_takes_numbers_or_reports() -> None:
    ndcg = {"bm25": 0.40, "dense": 0.45, "splade": 0.48, "hybrid": 0.50}
    swapped = {"bm25": 0.30, "dense": 0.38, "splade": 0.44, "hybrid": 0.41}
    result = rank_correlation(ndcg, swapped)
    assert result == RankCorrelation(
        systems=("hybrid", "splade", "dense", "bm25"), tau=result.tau, tau_ap=result.tau_ap
    )
    assert (result.tau, result.tau_ap) == pytest.approx((2 / 3, 1 / 3), abs=1e-12)
    reports = {
        name: RetrievalEvalReport({"ndcg@10": value}, {"q1": {"ndcg@10": value}}, 1, (10,))
        for name, value in swapped.items()
    }
    by_report = rank_correlation(ndcg, reports, metric="nDCG@10")  # any tool's spelling
    assert by_report == result
    assert str(result) == "tau = 0.6667, tau_ap = 0.3333 over 4 systems"
    assert result.to_dict()["systems"] == ["hybrid", "splade", "dense", "bm25"]


@pytest.mark.parametrize(
    ("a", "b", "kwargs", "error", "message"),
    [
        ({"x": 1.0}, {"x": 2.0}, {}, ValueError, "two or more systems, got 1"),
        ({"x": 1.0, "y": 2.0}, {"x": 1.0, "z": 2.0}, {}, ValueError, r"only in a \['y'\]"),
        ({"x": 1.0, "y": math.nan}, {"x": 1.0, "y": 2.0}, {}, ValueError, "not a finite"),
        ({"x": 1.0, "y": True}, {"x": 1.0, "y": 2.0}, {}, TypeError, "a bool; expected"),
        ({"x": 1.0, "y": "0.5"}, {"x": 1.0, "y": 2.0}, {}, TypeError, "a str; expected"),
    ],
)
def test_bad_orderings_are_clear_errors(a, b, kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        rank_correlation(a, b, **kwargs)


def test_a_report_needs_a_metric_it_has() -> None:
    report = RetrievalEvalReport({"ndcg@10": 0.5}, {"q1": {"ndcg@10": 0.5}}, 1, (10,))
    values = {"x": 0.1, "y": 0.2}
    with pytest.raises(ValueError, match=r"b\['x'\] is a report: name the metric="):
        rank_correlation(values, {"x": report, "y": report})
    with pytest.raises(KeyError):
        rank_correlation(values, {"x": report, "y": report}, metric="map@100")
