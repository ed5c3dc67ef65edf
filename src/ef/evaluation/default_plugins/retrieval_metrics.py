"""Registers ndcg, recall, precision, mrr and map."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..interfaces import RetrievalMetric
from ..metrics import retrieval


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric]:
    return [
        RetrievalMetric(name="ndcg", func=retrieval.ndcg_at_k),
        RetrievalMetric(name="recall", func=retrieval.recall_at_k),
        RetrievalMetric(name="precision", func=retrieval.precision_at_k),
        RetrievalMetric(name="mrr", func=retrieval.reciprocal_rank),
        RetrievalMetric(name="map", func=retrieval.average_precision),
    ]
