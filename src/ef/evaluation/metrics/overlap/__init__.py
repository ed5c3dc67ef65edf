"""Generation-overlap RAG metrics through their reference libraries: BLEU, chrF, ROUGE-L.

Each metric is one module (``bleu``, ``chrf``, ``rouge_l``) that calls the library the
field trusts, with its default settings, so the numbers are that library's: sacrebleu for
BLEU and chrF (Post, 2018), Google's rouge-score for ROUGE-L. The libraries come with the
``text`` extra (``pip install "ef-evaluation[text]"``) and are imported on first use; without
them a metric raises :class:`~ef.evaluation.MissingDependencyError` naming the extra.

The gold answers of a sample are its ``reference`` and then the extra key ``references``
(further gold answers, DESIGN §4). A sample with no gold answer is skipped; one with a gold
answer and no response is unanswered and scores 0. BLEU and chrF also have a corpus level
(``bleu(level=corpus)``): sacrebleu's corpus score over all the samples at once, one number
with no value per sample.
"""

from __future__ import annotations

# The sample-level forms only: the plain functions keep their modules' names free
# (ef.evaluation.metrics.overlap.bleu is the module; its function is bleu.bleu).
from ._library import LEVEL
from .bleu import sample_bleu, samples_corpus_bleu
from .chrf import sample_chrf, samples_corpus_chrf
from .rouge_l import sample_rouge_l

__all__ = [
    "LEVEL",
    "sample_bleu",
    "sample_chrf",
    "sample_rouge_l",
    "samples_corpus_bleu",
    "samples_corpus_chrf",
]
