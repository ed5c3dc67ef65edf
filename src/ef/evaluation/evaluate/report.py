"""The one place a RetrievalEvalReport is built: from an engine Evaluation."""

from __future__ import annotations

from ..engine.scoring import Evaluation
from ..reports import RetrievalEvalReport

__all__ = ["retrieval_report"]


def retrieval_report(evaluation: Evaluation) -> RetrievalEvalReport:
    """The report of ``evaluation``; a ValueError with the reasons if no query was scored."""
    if not evaluation.per_query:
        reasons = sorted(set(evaluation.skipped.values())) or ["qrels is empty"]
        raise ValueError(f"no query can be scored ({'; '.join(reasons)})")
    return RetrievalEvalReport(
        metrics=evaluation.metrics,
        per_query=evaluation.per_query,
        n_queries=len(evaluation.per_query),
        k_values=evaluation.k_values,
        skipped=evaluation.skipped,
        missing=evaluation.missing,
        extra=evaluation.extra,
        manifest=evaluation.manifest,
        ties=evaluation.ties,
    )
