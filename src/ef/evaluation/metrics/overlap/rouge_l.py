"""ROUGE-L of a response against its gold answers: Google's rouge-score, F-measure.

    P = LCS / len(response),  R = LCS / len(reference),  ROUGE-L = 2 * P * R / (P + R)

``LCS`` is the length of the longest common subsequence of tokens. rouge-score's defaults
apply: ``RougeScorer(["rougeL"])``, with ``use_stemmer=False`` (the library's default; the
ROUGE-1.5.5 Perl script's ``-m`` stems, so pass through rouge-score yourself to match that)
and its tokenizer, which lower-cases and keeps only runs of ASCII letters and digits: text
in other scripts loses its non-ASCII letters (``"été"`` reads as ``"t"``). With several gold
answers the score is the best F-measure over them (rouge-score's ``score_multi``).

Lin, "ROUGE: a package for automatic evaluation of summaries", ACL workshop 2004;
google-research/google-research, ``rouge``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ...types import RagSample
from ._library import against_gold, library

__all__ = ["rouge_l", "sample_rouge_l"]


@functools.cache
def _scorer() -> Any:
    rouge_scorer = library("rouge_score.rouge_scorer", "rouge-score")
    return rouge_scorer.RougeScorer(["rougeL"])


def rouge_l(response: str, references: Sequence[str]) -> float:
    """rouge-score's ``RougeScorer(["rougeL"]).score_multi(references, response)`` F-measure.

    >>> round(rouge_l("the cat sat on the mat", ["the cat sat on a mat"]), 4)
    0.8333
    >>> rouge_l("the cat", ["a dog", "the cat"])  # the best of the gold answers
    1.0
    """
    scores = _scorer().score_multi(list(references), response)
    return float(scores["rougeL"].fmeasure)


def sample_rouge_l(sample: RagSample) -> float | None:
    """ROUGE-L F-measure, best over the gold answers: rouge-score (the text extra)."""
    return against_gold(rouge_l, sample)
