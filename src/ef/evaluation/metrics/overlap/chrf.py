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

from collections.abc import Sequence

from ...types import RagSample
from ._library import against_gold, corpus_score, over_corpus, sacrebleu_scorer, sentence_score

__all__ = ["chrf", "corpus_chrf", "sample_chrf", "samples_corpus_chrf"]


def chrf(response: str, references: Sequence[str]) -> float:
    """sacrebleu's ``sentence_chrf(response, references).score / 100``.

    >>> round(chrf("the cat sat on the mat", ["the cat sat on a mat"]), 4)
    0.7208
    """
    return sentence_score(sacrebleu_scorer("CHRF"), response, references)


def sample_chrf(sample: RagSample, *, level: str = "sentence") -> float | None:
    """chrF against the gold answers: sacrebleu's sentence_chrf / 100 (the text extra)."""
    del level  # "corpus" goes to samples_corpus_chrf, over every sample at once
    return against_gold(chrf, sample)


def corpus_chrf(responses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    """sacrebleu's ``corpus_chrf(responses, references).score / 100``.

    ``references`` are sacrebleu's reference streams: ``references[j][i]`` is the ``j``-th
    gold answer of response ``i``, or ``None`` where it has fewer.

    >>> responses = ["the cat sat on the mat", "a dog"]
    >>> round(corpus_chrf(responses, [["the cat sat on a mat", "the cat"], [None, "a dog"]]), 4)
    0.7387
    """
    return corpus_score(sacrebleu_scorer("CHRF"), responses, references)


def samples_corpus_chrf(
    samples: Sequence[RagSample], *, level: str = "corpus"
) -> tuple[float | None, int]:
    """Corpus CHRF over the samples with a gold answer, and how many they are: the
    ``corpus`` form of the RAG metric ``chrf(level=corpus)``."""
    del level  # the corpus form: one value over the samples
    return over_corpus(corpus_chrf, samples)
