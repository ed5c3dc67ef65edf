"""Registers the built-in retrieval metrics: ndcg, recall, precision, mrr, map and the rest of
trec_eval's, ir_measures' and BEIR's common measures, each with its names in their syntaxes.

Each metric is declared in one module of :mod:`ef.evaluation.metrics.retrieval` (a variant
beside its parent: ``gm_map`` with ``map``, ``gm_bpref`` with ``bpref``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..interfaces import RetrievalMetric

#: The class of what this plugin's ef_evaluation_metrics() returns, by name: the registry
#: calls it only when retrieval metrics are asked for (RAG metrics alone load none of their
#: modules).
PROVIDES = ("RetrievalMetric",)


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric]:
    # Imported when the registry first resolves a metric, as in every built-in plugin here:
    # registering this module costs nothing (docs/architecture.md).
    from ..metrics.retrieval import BUILTIN

    return list(BUILTIN)
