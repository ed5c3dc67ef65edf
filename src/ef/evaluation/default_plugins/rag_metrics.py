"""Registers the lexical RAG metrics of evaluate_rag(), and DPR's has_answer@k."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..interfaces import RagMetric
from ..metrics import rag
from ..metrics.has_answer import HAS_ANSWER


@hookimpl
def ef_evaluation_metrics() -> list[RagMetric]:
    return [
        RagMetric(name="exact_match", func=rag.sample_exact_match),
        RagMetric(name="token_f1", func=rag.sample_token_f1),
        RagMetric(name="context_recall", func=rag.sample_context_recall),
        RagMetric(name="context_precision", func=rag.sample_context_precision),
        RagMetric(name="non_empty_rate", func=rag.sample_non_empty),
        HAS_ANSWER,
    ]
