"""The AutoNuggetizer scores (ef.evaluation.metrics._nuggets): All, Vital and Weighted, strict
and not, on hand examples, against the paper's formulas restated in exact fractions, and the
lexical baseline assigner. The comparison with castorini's nuggetizer is in
test_nuggets_peers.py (the peers group: nuggetizer pulls in openai)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation.metrics._nuggets import (
    all_score,
    lexical_assignments,
    sample_nugget_score,
    vital_score,
    weighted_score,
)


def _nuggets(*pairs: tuple[str, str]) -> list[dict[str, Any]]:
    return [
        {"text": f"n{i}", "importance": imp, "assignment": a} for i, (imp, a) in enumerate(pairs)
    ]


# Hand examples: 2 vital (support, partial) and 3 okay (support, partial, not).
EXAMPLE = _nuggets(
    ("vital", "support"),
    ("vital", "partial_support"),
    ("okay", "support"),
    ("okay", "partial_support"),
    ("okay", "not_support"),
)


def test_all_on_a_hand_example() -> None:
    assert all_score(EXAMPLE) == (1 + 0.5 + 1 + 0.5) / 5
    assert all_score(EXAMPLE, strict=True) == 2 / 5


def test_vital_on_a_hand_example() -> None:
    assert vital_score(EXAMPLE) == 1.5 / 2
    assert vital_score(EXAMPLE, strict=True) == 1 / 2


def test_weighted_on_a_hand_example() -> None:
    # Weights 1, 1, 0.5, 0.5, 0.5 (sum 3.5); credits 1, 0.5, 1, 0.5, 0.
    assert weighted_score(EXAMPLE) == (1 + 0.5 + 0.5 * 1 + 0.5 * 0.5) / 3.5
    assert weighted_score(EXAMPLE, strict=True) == (1 + 0.5) / 3.5


def test_weighted_weighs_a_vital_nugget_twice_an_okay_one() -> None:
    vital_found = _nuggets(("vital", "support"), ("okay", "not_support"))
    okay_found = _nuggets(("vital", "not_support"), ("okay", "support"))
    assert weighted_score(vital_found) == 2 / 3
    assert weighted_score(okay_found) == 1 / 3
    # All cannot tell them apart; Vital ignores the okay nugget.
    assert all_score(vital_found) == all_score(okay_found) == 0.5
    assert vital_score(okay_found) == 0.0


def test_weighted_with_only_one_importance_is_all() -> None:
    only_okay = _nuggets(("okay", "support"), ("okay", "not_support"), ("okay", "partial_support"))
    assert weighted_score(only_okay) == all_score(only_okay) == 0.5


def test_no_nuggets_of_a_kind_score_zero_as_nuggetizer_does() -> None:
    only_okay = _nuggets(("okay", "support"))
    assert vital_score(only_okay) == 0.0
    assert all_score([]) == weighted_score([]) == vital_score([]) == 0.0


_PAIR = st.tuples(
    st.sampled_from(["vital", "okay"]),
    st.sampled_from(["support", "partial_support", "not_support"]),
)


def _credit(assignment: str, strict: bool) -> Fraction:
    return {
        "support": Fraction(1),
        "partial_support": Fraction(0 if strict else 1, 2),
        "not_support": Fraction(0),
    }[assignment]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PAIR, max_size=30), st.booleans())
def test_the_scores_equal_the_papers_formulas_in_exact_fractions(
    pairs: list[tuple[str, str]], strict: bool
) -> None:
    nuggets = _nuggets(*pairs)
    weight = {"vital": Fraction(1), "okay": Fraction(1, 2)}
    credits = [(imp, _credit(a, strict)) for imp, a in pairs]
    vital = [c for imp, c in credits if imp == "vital"]
    expected_all = sum(c for _, c in credits) / len(credits) if credits else 0
    expected_vital = sum(vital) / len(vital) if vital else 0
    total = sum(weight[imp] for imp, _ in credits)
    expected_weighted = sum(weight[imp] * c for imp, c in credits) / total if credits else 0
    assert all_score(nuggets, strict=strict) == float(expected_all)
    assert vital_score(nuggets, strict=strict) == float(expected_vital)
    assert weighted_score(nuggets, strict=strict) == float(expected_weighted)
    # strict only takes credit away
    assert weighted_score(nuggets, strict=True) <= weighted_score(nuggets)


def test_a_sample_without_nuggets_or_assignments_is_skipped() -> None:
    unassigned: dict[str, Any] = {"nuggets": [{"text": "Paris", "importance": "vital"}]}
    assert sample_nugget_score({}, score="nugget_all") is None
    assert sample_nugget_score(unassigned, score="nugget_all") is None  # type: ignore[arg-type]
    # the lexical baseline assigns them itself
    unassigned["response"] = "Paris."
    score = sample_nugget_score(unassigned, score="nugget_all", assigner="lexical")  # type: ignore[arg-type]
    assert score == 1.0


def test_lexical_assignments_by_share_of_words_found() -> None:
    nuggets = [
        {"text": "The Nile is the longest river", "importance": "vital"},  # nile is longest river
        {"text": "The Nile flows north", "importance": "okay"},  # nile flows north
        {"text": "!!!", "importance": "okay"},  # no word
    ]
    # all of the first's words; one of the second's three (under half)
    assert lexical_assignments("The longest river is the Nile.", nuggets) == [
        "support",
        "not_support",
        "not_support",
    ]
    assert lexical_assignments("The Nile flows north and is the longest river.", nuggets) == [
        "support",
        "support",
        "not_support",
    ]
    assert lexical_assignments("Nile north", nuggets)[1] == "partial_support"
    assert lexical_assignments("", nuggets) == ["not_support"] * 3
    assert lexical_assignments(None, nuggets) == ["not_support"] * 3


_WORDS = st.lists(st.sampled_from(["paris", "is", "the", "capital", "seine", "river", "rome"]))


@settings(max_examples=200, deadline=None)
@given(_WORDS, _WORDS, _WORDS)
def test_lexical_assignments_only_grow_as_the_response_grows(
    nugget: list[str], response: list[str], more: list[str]
) -> None:
    nuggets = [{"text": " ".join(nugget), "importance": "vital"}]
    order = ["not_support", "partial_support", "support"]
    before = lexical_assignments(" ".join(response), nuggets)[0]
    after = lexical_assignments(" ".join(response + more), nuggets)[0]
    assert order.index(after) >= order.index(before)
    # a response that says the nugget word for word supports it (if it has a word: 'the' is
    # an article, and a nugget of articles alone is supported by nothing)
    whole = lexical_assignments(" ".join(response + nugget), nuggets)[0]
    assert whole == ("support" if set(nugget) - {"the"} else "not_support")
