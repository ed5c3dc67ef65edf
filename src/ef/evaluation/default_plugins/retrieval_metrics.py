"""Registers the built-in retrieval metrics: ndcg, recall, precision, mrr, map and the rest of
trec_eval's, ir_measures' and BEIR's common measures, each with its names in their syntaxes.

Each metric is declared in its own module of :mod:`ef.evaluation.metrics.retrieval`.
"""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..interfaces import RetrievalMetric
from ..metrics.retrieval import BUILTIN


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric]:
    return list(BUILTIN)
