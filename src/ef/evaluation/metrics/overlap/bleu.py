"""BLEU of a response against its gold answers: sacrebleu's ``sentence_bleu``, on 0 to 1.

    BLEU = BP * exp(sum(log p_n) / 4),  BP = min(1, exp(1 - r / c))

``p_n`` is the clipped n-gram precision (n = 1..4) of the response against all the gold
answers at once (sacrebleu's multi-reference counts: each n-gram is clipped at its highest
count in any one reference), ``c`` the response's length and ``r`` the closest reference
length. sacrebleu's sentence-level defaults apply: its ``13a`` tokenizer, case-sensitive,
``exp`` smoothing and the effective order (a short response is not 0 for lacking 4-grams).
The value is sacrebleu's score divided by 100, as Ragas' ``BleuScore`` reports it.

``bleu(level=corpus)`` is corpus BLEU, sacrebleu's ``corpus_bleu(responses, references)``
over the samples with a gold answer: the same formula with every count summed over the
samples before the division (``p_n`` is the sum of the clipped matches over the sum of the
response n-grams, ``c`` and ``r`` the summed lengths), with ``corpus_bleu``'s defaults (no
effective order). It is one number for the whole set, not a mean: no sample has a value.

Papineni et al., "BLEU: a method for automatic evaluation of machine translation", ACL 2002;
Post, "A call for clarity in reporting BLEU scores", WMT 2018 (sacrebleu).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...types import RagSample
from ._library import against_gold, corpus_score, over_corpus, sacrebleu_scorer, sentence_score

__all__ = ["bleu", "corpus_bleu", "sample_bleu", "samples_corpus_bleu"]


def bleu(response: str, references: Sequence[str]) -> float:
    """sacrebleu's ``sentence_bleu(response, references).score / 100``.

    >>> round(bleu("the cat sat on the mat", ["the cat sat on a mat"]), 4)
    0.5373
    >>> bleu("", ["a gold answer"])
    0.0
    """
    # sentence_bleu()'s setting: a short response is not 0 for lacking 4-grams
    return sentence_score(sacrebleu_scorer("BLEU", effective_order=True), response, references)


def sample_bleu(sample: RagSample, *, level: str = "sentence") -> float | None:
    """BLEU against the gold answers: sacrebleu's sentence_bleu / 100 (the text extra)."""
    del level  # "corpus" goes to samples_corpus_bleu, over every sample at once
    return against_gold(bleu, sample)


def corpus_bleu(responses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    """sacrebleu's ``corpus_bleu(responses, references).score / 100``.

    ``references`` are sacrebleu's reference streams: ``references[j][i]`` is the ``j``-th
    gold answer of response ``i``, or ``None`` where it has fewer.

    >>> responses = ["the cat sat on the mat", "a dog"]
    >>> round(corpus_bleu(responses, [["the cat sat on a mat", "the cat"], [None, "a dog"]]), 4)
    0.5584
    """
    return corpus_score(sacrebleu_scorer("BLEU"), responses, references)


def samples_corpus_bleu(
    samples: Sequence[RagSample], *, level: str = "corpus"
) -> tuple[float | None, int]:
    """Corpus BLEU over the samples with a gold answer, and how many they are: the
    ``corpus`` form of the RAG metric ``bleu(level=corpus)``."""
    del level  # the corpus form: one value over the samples
    return over_corpus(corpus_bleu, samples)
