"""chrF of a response against its gold answers: sacrebleu's ``sentence_chrf``, on 0 to 1.

    chrF = (1 + beta^2) * chrP * chrR / (beta^2 * chrP + chrR),  beta = 2

``chrP`` and ``chrR`` are the character n-gram precision and recall, averaged over n = 1..6,
whitespace removed (sacrebleu's defaults). With several gold answers sacrebleu scores the
response against each and keeps the best. The value is sacrebleu's score divided by 100.
chrF needs no tokenizer, so it suits languages that BLEU's ``13a`` tokenizer splits badly.

``chrf(level=corpus)`` is sacrebleu's ``corpus_chrf(responses, references)`` over the samples
with a gold answer: each sample's character n-gram counts (against its best gold answer) are
summed over the samples, and ``chrP``, ``chrR`` and the F-score computed once from the
sums. It is one number for the whole set, not a mean: no sample has a value.

Popović, "chrF: character n-gram F-score for automatic MT evaluation", WMT 2015; Post,
"A call for clarity in reporting BLEU scores", WMT 2018 (sacrebleu).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ...types import RagSample
from ..rag import gold_answers
from ._library import corpus_streams, library

__all__ = ["chrf", "corpus_chrf", "sample_chrf", "samples_corpus_chrf"]


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


def sample_chrf(sample: RagSample, *, level: str = "sentence") -> float | None:
    """chrF against the gold answers: sacrebleu's sentence_chrf / 100 (the text extra)."""
    del level  # "corpus" goes to samples_corpus_chrf, over every sample at once
    gold = gold_answers(sample)
    if not gold:
        return None
    return chrf(sample.get("response") or "", gold)


@functools.cache
def _corpus_scorer() -> Any:
    # The object corpus_chrf() builds, with its defaults.
    metrics = library("sacrebleu.metrics", "sacrebleu")
    return metrics.CHRF()


def corpus_chrf(responses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    """sacrebleu's ``corpus_chrf(responses, references).score / 100``.

    ``references`` are sacrebleu's reference streams: ``references[j][i]`` is the ``j``-th
    gold answer of response ``i``, or ``None`` where it has fewer.

    >>> responses = ["the cat sat on the mat", "a dog"]
    >>> round(corpus_chrf(responses, [["the cat sat on a mat", "the cat"], [None, "a dog"]]), 4)
    0.7387
    """
    streams = [list(stream) for stream in references]
    return float(_corpus_scorer().corpus_score(list(responses), streams).score) / 100


def samples_corpus_chrf(
    samples: Sequence[RagSample], *, level: str = "corpus"
) -> tuple[float | None, int]:
    """Corpus CHRF over the samples with a gold answer, and how many they are: the
    ``corpus`` form of the RAG metric ``chrf(level=corpus)``."""
    responses, streams = corpus_streams(samples)
    if not responses:
        return None, 0
    return corpus_chrf(responses, streams), len(responses)
