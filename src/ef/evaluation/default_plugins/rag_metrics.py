"""Registers the RAG metrics of evaluate_rag(): the lexical ones, and the overlap ones of the
``text`` extra (their libraries are imported when a sample is scored, never here)."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..interfaces import RagMetric
from ..metrics import overlap, rag


@hookimpl
def ef_evaluation_metrics() -> list[RagMetric]:
    return [
        RagMetric(name="exact_match", func=rag.sample_exact_match),
        RagMetric(name="token_f1", func=rag.sample_token_f1),
        RagMetric(name="context_recall", func=rag.sample_context_recall),
        RagMetric(name="context_precision", func=rag.sample_context_precision),
        RagMetric(name="non_empty_rate", func=rag.sample_non_empty),
        RagMetric(name="bleu", func=overlap.sample_bleu),
        RagMetric(name="chrf", func=overlap.sample_chrf),
        RagMetric(name="rouge_l", func=overlap.sample_rouge_l),
    ]
