"""The one place each report of an evaluation is built: a RetrievalEvalReport from an engine
Evaluation, and a PipelineEvalReport from its two parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .._engine.scoring import Evaluation
from .._reports.retrieval import RetrievalEvalReport

if TYPE_CHECKING:
    from .._reports.pipeline import PipelineEvalReport
    from .._reports.rag import RagEvalReport

__all__ = ["pipeline_report", "retrieval_report"]


def retrieval_report(evaluation: Evaluation) -> RetrievalEvalReport:
    """The report of ``evaluation``; a ValueError with the reasons if no query was scored."""
    if not evaluation.per_query:
        reasons = sorted(set(evaluation.skipped.values())) or ["qrels is empty"]
        raise ValueError(f"no query can be scored ({'; '.join(reasons)})")
    # An Evaluation holds the report's fields by their names: all but the count of queries.
    fields = attrs.asdict(evaluation, recurse=False)
    return RetrievalEvalReport(n_queries=len(evaluation.per_query), **fields)


def pipeline_report(
    retrieval: RetrievalEvalReport | None,
    rag: RagEvalReport,
    samples: Sequence[Mapping[str, Any]],
    *,
    skipped: Mapping[str, str],
    manifest: Mapping[str, Any],
) -> PipelineEvalReport:
    """The report of a pipeline run: the retrieval report of the rankings (None without
    qrels), the RAG report of ``samples`` (one per query, in the same order), the queries
    left out and why."""
    from .._reports.pipeline import PipelineEvalReport  # a pipeline's: not loaded for a run's

    return PipelineEvalReport(
        retrieval=retrieval, rag=rag, samples=samples, skipped=skipped, manifest=manifest
    )
