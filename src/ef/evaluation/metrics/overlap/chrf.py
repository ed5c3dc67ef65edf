"""chrF of a response against its gold answers: sacrebleu's ``sentence_chrf``, on 0 to 1.

    chrF = (1 + beta^2) * chrP * chrR / (beta^2 * chrP + chrR),  beta = 2

``chrP`` and ``chrR`` are the character n-gram precision and recall, averaged over n = 1..6,
whitespace removed (sacrebleu's defaults). With several gold answers sacrebleu scores the
response against each and keeps the best. The value is sacrebleu's score divided by 100.
chrF needs no tokenizer, so it suits languages that BLEU's ``13a`` tokenizer splits badly.

Popović, "chrF: character n-gram F-score for automatic MT evaluation", WMT 2015; Post,
"A call for clarity in reporting BLEU scores", WMT 2018 (sacrebleu).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ...types import RagSample
from ..rag import gold_answers
from ._library import library

__all__ = ["chrf", "sample_chrf"]


@functools.cache
def _scorer() -> Any:
    # The object sentence_chrf() builds on every call, made once: the same settings.
    metrics = library("sacrebleu.metrics", "sacrebleu")
    return metrics.CHRF()


def chrf(response: str, references: Sequence[str]) -> float:
    """sacrebleu's ``sentence_chrf(response, references).score / 100``.

    >>> round(chrf("the cat sat on the mat", ["the cat sat on a mat"]), 4)
    0.7208
    """
    return float(_scorer().sentence_score(response, list(references)).score) / 100


def sample_chrf(sample: RagSample) -> float | None:
    """chrF against the gold answers: sacrebleu's sentence_chrf / 100 (the text extra)."""
    gold = gold_answers(sample)
    if not gold:
        return None
    return chrf(sample.get("response") or "", gold)
