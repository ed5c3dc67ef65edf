"""BLEU of a response against its gold answers: sacrebleu's ``sentence_bleu``, on 0 to 1.

    BLEU = BP * exp(sum(log p_n) / 4),  BP = min(1, exp(1 - r / c))

``p_n`` is the clipped n-gram precision (n = 1..4) of the response against all the gold
answers at once (sacrebleu's multi-reference counts: each n-gram is clipped at its highest
count in any one reference), ``c`` the response's length and ``r`` the closest reference
length. sacrebleu's sentence-level defaults apply: its ``13a`` tokenizer, case-sensitive,
``exp`` smoothing and the effective order (a short response is not 0 for lacking 4-grams).
The value is sacrebleu's score divided by 100, as Ragas' ``BleuScore`` reports it.

Papineni et al., "BLEU: a method for automatic evaluation of machine translation", ACL 2002;
Post, "A call for clarity in reporting BLEU scores", WMT 2018 (sacrebleu).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ...types import RagSample
from ..rag import gold_answers
from ._library import library

__all__ = ["bleu", "sample_bleu"]


@functools.cache
def _scorer() -> Any:
    # The object sentence_bleu() builds on every call, made once: the same settings.
    metrics = library("sacrebleu.metrics", "sacrebleu")
    return metrics.BLEU(effective_order=True)


def bleu(response: str, references: Sequence[str]) -> float:
    """sacrebleu's ``sentence_bleu(response, references).score / 100``.

    >>> round(bleu("the cat sat on the mat", ["the cat sat on a mat"]), 4)
    0.5373
    >>> bleu("", ["a gold answer"])
    0.0
    """
    return float(_scorer().sentence_score(response, list(references)).score) / 100


def sample_bleu(sample: RagSample) -> float | None:
    """BLEU against the gold answers: sacrebleu's sentence_bleu / 100 (the text extra)."""
    gold = gold_answers(sample)
    if not gold:
        return None
    return bleu(sample.get("response") or "", gold)
