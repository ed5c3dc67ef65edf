"""has_answer@k: open-domain QA's top-k retrieval accuracy, as DPR and Pyserini report it.

    has_answer@k = 1 if one of the top k retrieved contexts contains a reference answer, else 0

Its mean over the samples is the "top-k accuracy" of NQ and TriviaQA tables. A context
contains an answer, with ``match="string"`` (the default), when the answer's tokens occur in
the context's tokens, in order and contiguous. Both texts are put in Unicode NFD, split by
DrQA's simple tokenizer (a token is a run of letters, digits and marks, ``[\\p{L}\\p{N}\\p{M}]+``,
or any other single character that is neither a separator nor a control, ``[^\\p{Z}\\p{C}]``)
and lower-cased. So ``Paris`` is found in ``Paris, France`` but not in ``Parisian``, and
``U.S.`` (four tokens: ``u . s .``) in ``the U.S. army``. With ``match="regex"`` each answer
is a Python regular expression, searched case-insensitively in the NFD context (TREC QA's
answer patterns, as for CuratedTREC).

The answers are the sample's gold answers: its ``reference`` and those of the extra key
``references`` (:func:`~ef.evaluation.metrics.rag.gold_answers`). Two cases where DPR's code
would return a plausible number from an input that is surely a mistake are refused instead,
naming the answer: an answer with no token (empty, or only spaces) and a pattern that matches
the empty text would be found in every context; and a pattern that is no regular
expression, which DPR takes for "not found".

Karpukhin et al., Dense Passage Retrieval for Open-Domain Question Answering, EMNLP 2020;
DrQA's SimpleTokenizer (Chen et al., ACL 2017). The logic is that of ``has_answers`` in
castorini/pyserini ``pyserini/eval/evaluate_dpr_retrieval.py`` (its ``--regex`` mode too) and
``has_answer`` in facebookresearch/DPR ``dpr/data/qa_validation.py``; the tests restate it and
compare. Pyserini's script also drops the first line of each context (the passage's title);
here a context is matched whole.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import InvalidSampleError
from ..interfaces import MetricParam, RagMetric
from ..types import RagSample
from .rag import gold_answers

__all__ = [
    "HAS_ANSWER",
    "MATCH",
    "contains_answer",
    "drqa_tokens",
    "first_answer_rank",
    "sample_has_answer",
]

#: How an answer is looked for in a context: DPR's ``match_type``.
MATCH = MetricParam(
    "match",
    str,
    "string",
    "string: the answer's DrQA tokens in the context's, in order; "
    "regex: the answer is a regular expression searched in the context",
    choices=("string", "regex"),
)

# Never inside a token: a control character (\p{C}), which the tokenizer skips.
_SEP = "\x00"

# DrQA's pattern on ASCII text, where \p{L}\p{N}\p{M} are the letters and digits and \p{Z}\p{C}
# the space and the controls; Python's re runs it several times as fast as regex.
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+|[!-~]")


@functools.cache
def _tokenizer() -> Any:
    # DrQA's SimpleTokenizer pattern and flags; the regex module reads \p{...} classes.
    import regex

    return regex.compile(
        r"[\p{L}\p{N}\p{M}]+|[^\p{Z}\p{C}]", flags=regex.IGNORECASE | regex.UNICODE
    )


def drqa_tokens(text: str) -> list[str]:
    """The lower-cased tokens of DrQA's simple tokenizer, after Unicode NFD normalisation.

    >>> drqa_tokens("The U.S. Army's 1st   division")
    ['the', 'u', '.', 's', '.', 'army', "'", 's', '1st', 'division']
    >>> drqa_tokens("Café") == drqa_tokens("Cafe\\u0301")  # NFD: one spelling
    True
    """
    if text.isascii():  # NFD leaves ASCII text as it is; lower() keeps each character's class
        tokens: list[str] = _ASCII_TOKEN.findall(text.lower())
        return tokens
    return [token.lower() for token in _tokenizer().findall(unicodedata.normalize("NFD", text))]


def _joined(tokens: Sequence[str]) -> str:
    # A token sequence occurs in another exactly when its joined form is a substring of the
    # other's: tokens never hold the separator, so a match can only start and end at one.
    return _SEP + _SEP.join(tokens) + _SEP


@functools.lru_cache(maxsize=4096)
def _pattern(answer: str) -> re.Pattern[str]:
    pattern = unicodedata.normalize("NFD", answer)
    try:
        # Pyserini's flags, and Python's re, as its evaluate_dpr_retrieval.py uses.
        compiled = re.compile(pattern, flags=re.IGNORECASE | re.UNICODE | re.MULTILINE)
    except re.error as exc:
        raise InvalidSampleError(
            f"has_answer(match='regex'): the answer {answer!r} is no regular expression "
            f"({exc}); DPR would count it as never found"
        ) from None
    if compiled.search("") is not None:
        raise InvalidSampleError(
            f"has_answer(match='regex'): the answer pattern {answer!r} matches the empty "
            "text, so it would be found in every context"
        )
    return compiled


def _needle(answer: str) -> str:
    tokens = drqa_tokens(answer)
    if not tokens:
        raise InvalidSampleError(
            f"has_answer: the answer {answer!r} has no token, so it would be found in every "
            "context; give a non-empty answer"
        )
    return _joined(tokens)


def contains_answer(context: str, answers: Sequence[str], match: str = "string") -> bool:
    """Whether ``context`` contains one of ``answers``, matched as DPR does (``match`` is
    ``"string"`` or ``"regex"``).

    >>> contains_answer("Paris is the capital of France.", ["paris"])
    True
    >>> contains_answer("A Parisian cafe.", ["Paris"])
    False
    >>> contains_answer("Mount Everest, 8849 m", [r"Mo?u?n?t\\.? Everest"], match="regex")
    True
    """
    return first_answer_rank([context], answers, match) == 0


def first_answer_rank(
    contexts: Sequence[str], answers: Sequence[str], match: str = "string", limit: int | None = None
) -> int | None:
    """The 0-based rank of the first of ``contexts`` (the first ``limit``) that contains one
    of ``answers``, or ``None`` if none does.

    Raises ``InvalidSampleError`` for an answer that every context would contain, or, with
    ``match="regex"``, an answer that is no regular expression.

    >>> first_answer_rank(["Rome.", "Paris, France.", "Paris again"], ["paris"])
    1
    >>> first_answer_rank(["Rome.", "Paris, France."], ["paris"], limit=1) is None
    True
    """
    contains = _matcher(answers, match)
    for rank, context in enumerate(contexts[:limit]):
        if contains(context):
            return rank
    return None


def _string_matcher(answers: Sequence[str]) -> Callable[[str], bool]:
    """Whether a context's DrQA tokens hold those of one of ``answers``, in order and contiguous."""
    needles = [_needle(answer) for answer in answers]

    def contains(context: str) -> bool:
        haystack = _joined(drqa_tokens(context))
        return any(needle in haystack for needle in needles)

    return contains


def _regex_matcher(answers: Sequence[str]) -> Callable[[str], bool]:
    """Whether one of the patterns ``answers`` is found in a context, in NFD."""
    patterns = [_pattern(answer) for answer in answers]

    def contains(context: str) -> bool:
        text = unicodedata.normalize("NFD", context)
        return any(pattern.search(text) for pattern in patterns)

    return contains


#: Each value of ``match``, and what makes the test of a context for the answers.
_MATCHERS: tuple[tuple[str, Callable[[Sequence[str]], Callable[[str], bool]]], ...] = (
    ("string", _string_matcher),
    ("regex", _regex_matcher),
)


def _matcher(answers: Sequence[str], match: str) -> Callable[[str], bool]:
    """The test of a context for ``answers``, as ``match`` says; it checks the answers."""
    for name, make in _MATCHERS:
        if match == name:
            return make(answers)
    raise ValueError(f"match must be 'string' or 'regex', got {match!r}")


def sample_has_answer(sample: RagSample, *, k: int | None, match: str = "string") -> float | None:
    """1.0 if one of the top ``k`` retrieved contexts contains a reference answer, else 0.0
    (DPR's top-k retrieval accuracy); ``None`` without contexts or answers.

    >>> sample = {"reference": "Paris", "retrieved_contexts": ["Rome.", "Paris, France."]}
    >>> sample_has_answer(sample, k=1), sample_has_answer(sample, k=2)
    (0.0, 1.0)
    """
    contexts, answers = sample.get("retrieved_contexts"), gold_answers(sample)
    if contexts is None or not answers:
        return None
    return 0.0 if first_answer_rank(contexts, answers, match, k) is None else 1.0


HAS_ANSWER = RagMetric(
    name="has_answer",
    func=sample_has_answer,
    description="Whether a gold answer is in one of the top k retrieved contexts "
    "(DPR's top-k retrieval accuracy).",
    params=(MATCH,),
    cutoff=True,
    formula="1 if a gold answer's DrQA tokens (NFD, lower-cased) occur, in order, in "
    "one of the top k contexts, else 0",
    citation="Karpukhin et al., EMNLP 2020 (DPR); as Pyserini's evaluate_dpr_retrieval.py",
)
