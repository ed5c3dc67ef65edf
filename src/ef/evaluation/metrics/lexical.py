"""Deterministic, reference-based lexical RAG metrics (no LLM, no model).

Text is compared after SQuAD normalisation (Rajpurkar et al., 2016, the official evaluation
script): lower-case, remove punctuation, drop the articles a/an/the, fold whitespace. Unlike
the SQuAD script, punctuation is Unicode-aware: every character in a Unicode punctuation
category (``P*``) is removed, as is every ASCII ``string.punctuation`` character (which
includes symbols such as ``$`` and ``+``), so « », “ ” and ¿ are stripped too.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Sequence

__all__ = [
    "context_precision",
    "context_recall",
    "exact_match",
    "normalize_answer",
    "token_f1",
]

_ARTICLES = re.compile(r"\b(a|an|the)\b")


class _PunctuationTable(dict[int, "int | None"]):
    """A ``str.translate`` table that deletes punctuation, filled lazily per code point.

    Classifying all 1.1M code points up front costs about 0.4 s; text only ever uses a few
    hundred distinct ones, so each is classified once, on first sight.
    """

    def __missing__(self, codepoint: int) -> int | None:
        char = chr(codepoint)
        drop = char in string.punctuation or unicodedata.category(char).startswith("P")
        self[codepoint] = None if drop else codepoint
        return self[codepoint]


_PUNCTUATION = _PunctuationTable()


def normalize_answer(text: str) -> str:
    """SQuAD-normalise ``text``: lower-case, no punctuation, no articles, single spaces.

    >>> normalize_answer('The  Eiffel-Tower!')
    'eiffeltower'
    >>> normalize_answer('«Où est la gare ?»')
    'où est la gare'
    """
    text = text.lower().translate(_PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def _tokens(text: str) -> list[str]:
    return normalize_answer(text).split()


def exact_match(response: str, reference: str) -> float:
    """1.0 if ``response`` equals ``reference`` after normalization, else 0.0.

    >>> exact_match('The Eiffel Tower', 'eiffel tower')
    1.0
    >>> exact_match('Paris', 'London')
    0.0
    """
    return float(normalize_answer(response) == normalize_answer(reference))


def token_f1(response: str, reference: str) -> float:
    """Token-overlap F1 of ``response`` against ``reference`` (the SQuAD F1).

    The harmonic mean of token precision and recall over the normalized token bags, a graded
    credit where :func:`exact_match` is all-or-nothing. As in SQuAD, when either side has no
    tokens the score is 1.0 if both are empty and 0.0 otherwise.

    >>> token_f1('the quick brown fox', 'a quick brown fox')
    1.0
    >>> round(token_f1('quick brown fox', 'quick brown dog'), 4)
    0.6667
    """
    predicted, gold = _tokens(response), _tokens(reference)
    if not predicted or not gold:
        return float(predicted == gold)
    common = sum((Counter(predicted) & Counter(gold)).values())
    if common == 0:
        return 0.0
    precision = common / len(predicted)
    recall = common / len(gold)
    return 2 * precision * recall / (precision + recall)


def context_recall(reference: str, retrieved_contexts: Sequence[str]) -> float:
    """Lexical recall of the reference tokens by the retrieved contexts.

    The fraction of the (normalized) reference's distinct tokens that appear anywhere in
    ``retrieved_contexts``: a deterministic proxy for "did retrieval surface the information
    the answer needs". A reference with no tokens scores 0.0. For the LLM-judged context
    recall, use :func:`~ef.evaluation.as_ragas_dataset` and Ragas.

    >>> context_recall('paris france', ['Paris is the capital of France.'])
    1.0
    >>> context_recall('paris france', ['London is in England.'])
    0.0
    """
    wanted = set(_tokens(reference))
    if not wanted:
        return 0.0
    found: set[str] = set()
    for context in retrieved_contexts:
        found.update(_tokens(context))
    return len(wanted & found) / len(wanted)


def context_precision(reference: str, retrieved_contexts: Sequence[str]) -> float:
    """Fraction of the retrieved contexts that lexically overlap the reference.

    A deterministic proxy for retrieval precision: a context counts as useful if it shares at
    least one (normalized) token with the reference answer. No contexts scores 0.0.

    >>> context_precision('paris', ['Paris is in France.', 'Unrelated text.'])
    0.5
    """
    if not retrieved_contexts:
        return 0.0
    wanted = set(_tokens(reference))
    useful = sum(1 for context in retrieved_contexts if wanted.intersection(_tokens(context)))
    return useful / len(retrieved_contexts)
