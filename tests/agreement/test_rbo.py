"""rbo(): RBO_ext of Webber, Moffat and Zobel (2010), worked by hand and by its properties."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import RboReport, rbo, write_run
from ef.evaluation._engine.agreement import rbo_ext

from ..profiles_hypothesis import examples

rankings = st.lists(st.sampled_from("abcdefghijklmnop"), max_size=12, unique=True)
persistence = st.sampled_from([0.1, 0.5, 0.8, 0.9, 0.98])


def equation_32(short: list[str], long: list[str], p: Fraction) -> Fraction:
    """The paper's equation 32 term by term, in exact arithmetic (``len(short) <= len(long)``).

    ``X_d`` counts the items of both tops of depth ``d``; past the end of the short ranking
    its top is the whole of it."""
    s, l = len(short), len(long)  # noqa: E741
    overlap = [len(set(short[:d]) & set(long[:d])) for d in range(l + 1)]
    x_s = overlap[s]
    seen = sum(Fraction(overlap[d], d) * p**d for d in range(1, l + 1))
    beyond = sum(Fraction(x_s * (d - s), s * d) * p**d for d in range(s + 1, l + 1))
    return (1 - p) / p * (seen + beyond) + (Fraction(overlap[l] - x_s, l) + Fraction(x_s, s)) * p**l


@settings(max_examples=examples(300), deadline=None)
@given(rankings.filter(bool), rankings.filter(bool), persistence)
def test_rbo_ext_is_equation_32(a: list[str], b: list[str], p: float) -> None:
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    expected = equation_32(short, long, Fraction(p))
    assert rbo_ext(a, b, p) == pytest.approx(float(expected), abs=1e-12)


@settings(max_examples=examples(200), deadline=None)
@given(rankings, rankings, persistence)
def test_symmetric_and_between_0_and_1(a: list[str], b: list[str], p: float) -> None:
    value = rbo_ext(a, b, p)
    assert value == pytest.approx(rbo_ext(b, a, p), abs=1e-12)
    assert -1e-12 <= value <= 1 + 1e-12


@settings(max_examples=examples(100), deadline=None)
@given(rankings.filter(bool), persistence)
def test_equal_rankings_agree_and_disjoint_ones_do_not(a: list[str], p: float) -> None:
    assert rbo_ext(a, list(a), p) == pytest.approx(1.0, abs=1e-12)
    assert rbo_ext(a, [f"other-{item}" for item in a], p) == 0.0


def test_worked_examples_by_hand() -> None:
    # abcd against badc, p = 1/2: X = 0, 2, 2, 4, so the sum of X_d / d * p**d is
    # 0 + 1/4 + 1/12 + 1/16; (1 - p) / p = 1; the tail X_4 / 4 * p**4 = 1/16: 22/48 = 11/24.
    assert rbo_ext(list("abcd"), list("badc"), 0.5) == pytest.approx(11 / 24, abs=1e-15)
    # [a] against [a, b]: b may follow a in the short ranking too; nothing disagrees.
    assert rbo_ext(["a"], ["a", "b"], 0.5) == 1.0
    # [a] against [b, a], p = 1/2: X_1 = 0, X_2 = 1 (X_s = 0): 1/2 * 1/4 = 1/8, plus the
    # tail ((1 - 0) / 2 + 0) * 1/4 = 1/8: 1/4.
    assert rbo_ext(["a"], ["b", "a"], 0.5) == pytest.approx(1 / 4, abs=1e-15)
    assert rbo_ext([], [], 0.9) == 1.0  # as the rbo package: two empty rankings agree
    assert rbo_ext([], ["a"], 0.9) == 0.0


def test_rbo_of_runs_per_query_and_mean(tmp_path: Path) -> None:
    bm25 = {"q1": {"d1": 4.0, "d2": 3.0, "d3": 2.0, "d4": 1.0}, "q2": {"d5": 1.0}, "q3": {}}
    dense = {"q1": ["d2", "d1", "d4", "d3"], "q2": ["d5"], "q4": ["d9"]}
    report = rbo(bm25, dense, p=0.5)
    assert report.per_query == {"q1": pytest.approx(11 / 24, abs=1e-15), "q2": 1.0}
    assert report.mean == pytest.approx((11 / 24 + 1) / 2, abs=1e-15)
    assert (report.only_a, report.only_b) == (("q3",), ("q4",))
    path = tmp_path / "bm25.trec"
    write_run(path, bm25)
    from_file = rbo(path, dense, p=0.5)
    assert from_file.per_query == report.per_query
    assert rbo(bm25, dense, p=0.5, depth=2).per_query["q1"] == rbo_ext(
        ["d1", "d2"], ["d2", "d1"], 0.5
    )
    assert str(report) == "RBO_ext (p = 0.5) = 0.7292, mean of 2 queries"
    assert report.to_dict()["only_b"] == ["q4"]
    assert math.isnan(RboReport(p=0.9, depth=None, per_query={}).mean)


def test_ties_are_ranked_by_the_tie_policy() -> None:
    tied = {"q1": {"a": 1.0, "b": 1.0}}
    assert rbo(tied, {"q1": ["b", "a"]}, p=0.5).per_query["q1"] == 1.0  # trec_eval: b first
    assert rbo(tied, {"q1": ["a", "b"]}, p=0.5, tie_policy="docno_asc").per_query["q1"] == 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"p": 1.0}, "p must be a number between 0 and 1, got 1.0"),
        ({"p": 0}, "p must be a number between 0 and 1, got 0"),
        ({"p": True}, "p must be a number between 0 and 1, got True"),
        ({"depth": 0}, "depth must be None or a positive int, got 0"),
        ({"tie_policy": "random"}, "tie_policy must be one of"),
    ],
)
def test_bad_options_are_value_errors(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        rbo({"q1": ["a"]}, {"q1": ["a"]}, **kwargs)


def test_runs_with_no_query_in_common_are_an_error() -> None:
    with pytest.raises(ValueError, match="no query in common"):
        rbo({"q1": ["a"]}, {"q2": ["a"]})
