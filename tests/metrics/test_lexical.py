"""SQuAD-normalised lexical RAG metrics."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import (
    InvalidSampleError,
    context_precision,
    context_recall,
    exact_match,
    token_f1,
)
from ef.evaluation.metrics.has_answer import sample_has_answer
from ef.evaluation.metrics.lexical import normalize_answer
from ef.evaluation.metrics.rag import gold_answers, sample_exact_match, sample_token_f1


def squad_normalize(s: str) -> str:
    """The official SQuAD v1.1 evaluation script's normalize_answer, for ASCII comparison."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Eiffel Tower", "eiffel tower"),
        ("  an   apple, a day!  ", "apple day"),
        ("Theory of the atom", "theory of atom"),  # 'the' only as a whole word
        ("«Bonjour», dit-il.", "bonjour ditil"),
        ("¿Qué? ¡Sí!", "qué sí"),
        ("“Quoted” — text…", "quoted text"),
        ("$5 + 3 = 8", "5 3 8"),  # ASCII symbols go too, as in SQuAD
        ("ÉCOLE", "école"),
    ],
)
def test_normalize_answer(text: str, expected: str) -> None:
    assert normalize_answer(text) == expected


@given(st.text(alphabet=string.printable))
def test_normalisation_equals_squad_on_ascii(text: str) -> None:
    assert normalize_answer(text) == squad_normalize(text)


def test_exact_match_ignores_case_punctuation_and_articles() -> None:
    assert exact_match("The Eiffel Tower!", "eiffel   tower") == 1.0
    assert exact_match("Paris", "paris, france") == 0.0


@pytest.mark.parametrize(
    ("response", "reference", "expected"),
    [
        ("the quick brown fox", "a quick brown fox", 1.0),
        ("quick brown fox", "quick brown dog", 2 / 3),
        ("a a b", "a b b", 2 / 3),  # articles dropped: bag {b} against {b, b}
        ("cat", "dog", 0.0),
        ("", "", 1.0),  # SQuAD: both empty
        ("the", "", 1.0),  # only an article: empty after normalisation
        ("cat", "", 0.0),
        ("", "cat", 0.0),
    ],
)
def test_token_f1(response: str, reference: str, expected: float) -> None:
    assert token_f1(response, reference) == pytest.approx(expected)


def test_token_f1_counts_repeated_tokens_as_a_bag() -> None:
    # precision 2/3 (one 'x' unmatched), recall 2/2.
    assert token_f1("x x y", "x y") == pytest.approx(2 * (2 / 3) * 1 / (2 / 3 + 1))


@given(st.text(), st.text())
def test_lexical_scores_are_in_the_unit_interval(response: str, reference: str) -> None:
    for value in (
        exact_match(response, reference),
        token_f1(response, reference),
        context_recall(reference, [response]),
        context_precision(reference, [response, "unrelated"]),
    ):
        assert 0.0 <= value <= 1.0


@given(st.text())
def test_a_text_matches_itself(text: str) -> None:
    assert exact_match(text, text) == 1.0
    assert token_f1(text, text) == 1.0


def test_context_recall_counts_distinct_reference_tokens() -> None:
    assert context_recall("paris paris france", ["Paris!"]) == 0.5
    assert context_recall("paris france", ["in Paris", "and France"]) == 1.0
    assert context_recall("the", ["the"]) == 0.0  # no reference tokens
    assert context_recall("paris", []) == 0.0


def test_context_precision_counts_contexts_sharing_a_token() -> None:
    assert context_precision("paris", ["Paris.", "London", "paris again"]) == pytest.approx(2 / 3)
    assert context_precision("paris", []) == 0.0


# -- several gold answers (issue 16, item 2) --------------------------------------------------


def test_exact_match_and_f1_take_the_best_gold_answer() -> None:
    golds = ["London", "the city of Paris", "Paris"]
    assert exact_match("Paris!", golds) == 1.0
    assert token_f1("city of Paris", golds) == 1.0
    assert token_f1("Paris, France", ["London", "Paris"]) == pytest.approx(2 / 3)
    assert token_f1("Paris, France", ("London",)) == 0.0


def test_an_empty_list_of_gold_answers_is_an_error() -> None:
    with pytest.raises(ValueError, match="reference is an empty list"):
        exact_match("Paris", [])


def test_context_recall_is_the_best_recalled_gold_answer() -> None:
    contexts = ["Paris is the capital.", "France is in Europe."]
    assert context_recall(["Lyon", "paris france"], contexts) == 1.0
    assert context_recall(["Lyon Marseille", "paris lille"], contexts) == 0.5
    assert context_recall(["the", "a"], contexts) == 0.0  # no gold answer has a token


def test_context_precision_counts_a_context_sharing_a_token_with_any_gold_answer() -> None:
    contexts = ["Paris is the capital.", "Lyon is not.", "Unrelated."]
    assert context_precision(["paris", "lyon"], contexts) == pytest.approx(2 / 3)
    assert context_precision(["paris"], contexts) == pytest.approx(1 / 3)


def test_context_metrics_use_the_chosen_normalisation() -> None:
    assert context_precision("北京", ["北京是中国的首都"]) == 1.0
    assert context_precision("北京", ["北京是中国的首都"], normalize="squad") == 0.0
    assert context_recall("北京", ["北京是首都"], normalize="mlqa", lang="zh") == 1.0


@pytest.mark.parametrize(
    "score",
    [
        sample_exact_match,
        sample_token_f1,
        lambda s: sample_has_answer(s, k=None),
    ],
    ids=["exact_match", "token_f1", "has_answer"],
)
def test_a_string_of_references_is_refused_not_read_letter_by_letter(score) -> None:
    # Called directly, not through validate_sample: "Paris" would otherwise be read as the
    # gold answers "P", "a", "r", "i", "s", and the response "P" match one of them.
    sample = {"id": "s1", "response": "P", "retrieved_contexts": ["P"], "references": "Paris"}
    with pytest.raises(InvalidSampleError, match="'references' must be a list of strings"):
        score(sample)


@pytest.mark.parametrize(
    "references",
    [iter(["Paris"]), (t for t in ["Paris"]), {"Paris"}, 3],
    ids=["iterator", "generator", "set", "int"],
)
def test_references_that_are_no_list_are_refused_not_emptied(references) -> None:
    # An iterator would be emptied by the first metric to read it: the sample, with its
    # response right, would then have no gold answer. validate_sample takes lists alone.
    sample = {"id": "s1", "response": "Paris", "references": references}
    with pytest.raises(InvalidSampleError, match="'references' must be a list of strings"):
        gold_answers(sample)


# Issue 25: arguments of the wrong shape name the function and the argument, never a bare
# AttributeError, and never a number (a str of contexts was read one character at a time).


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: exact_match(None, "x"), r"^exact_match\(response, reference\): response is None"),  # type: ignore[arg-type]
        (
            lambda: token_f1(["Paris"], "paris"),  # type: ignore[arg-type]
            r"^token_f1\(response, reference\): response is a list; .* arguments swapped\?",
        ),
        (lambda: token_f1("a", 3), r"^token_f1\(response, reference\): reference is an int"),  # type: ignore[arg-type]
        (
            lambda: context_recall(["paris france"], "Paris is in France."),
            r"^context_recall\(reference, retrieved_contexts\): retrieved_contexts is a str; "
            r".*arguments swapped\?",
        ),
        (
            lambda: context_precision("paris", "Paris is in France."),
            r"^context_precision\(reference, retrieved_contexts\): retrieved_contexts is a str; "
            r"expected a list of passages \(\['Paris is in France\.'\] for one\)",
        ),
        (
            lambda: context_recall("paris", ["Paris", None]),  # type: ignore[list-item]
            r"^context_recall\(reference, retrieved_contexts\): retrieved_contexts\[1\] is None",
        ),
    ],
)
def test_arguments_of_the_wrong_shape_name_the_function(call, message) -> None:
    with pytest.raises(TypeError, match=message):
        call()


def test_contexts_of_any_sequence_or_iterator_score_as_a_list() -> None:
    import numpy as np

    contexts = ["Paris is the capital.", "Lyon is not."]
    expected = context_recall("paris lyon", contexts)
    assert expected == 1.0
    assert context_recall("paris lyon", tuple(contexts)) == expected
    assert context_recall("paris lyon", iter(contexts)) == expected  # type: ignore[arg-type]
    assert context_recall("paris lyon", np.array(contexts)) == expected  # type: ignore[arg-type]
