"""Registers ndcg, recall, precision, mrr and map."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..interfaces import RetrievalMetric
from ..metrics import batch, retrieval


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric]:
    return [
        RetrievalMetric(name="ndcg", func=retrieval.ndcg_at_k, batch=batch.ndcg_batch),
        RetrievalMetric(name="recall", func=retrieval.recall_at_k, batch=batch.recall_batch),
        RetrievalMetric(
            name="precision", func=retrieval.precision_at_k, batch=batch.precision_batch
        ),
        RetrievalMetric(
            name="mrr", func=retrieval.reciprocal_rank, batch=batch.reciprocal_rank_batch
        ),
        RetrievalMetric(
            name="map", func=retrieval.average_precision, batch=batch.average_precision_batch
        ),
    ]
