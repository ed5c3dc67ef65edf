"""An example ef-evaluation plugin: ``hits`` (retrieval) and ``answer_length`` (RAG)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ef.evaluation import RagMetric, RagSample, RetrievalMetric, hookimpl

if TYPE_CHECKING:
    import numpy as np

    from ef.evaluation.interfaces import JudgedHits


def hits_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int | None) -> float:
    """1.0 if any of the top k results is relevant, else 0.0.

    ``k=None`` (``"hits@all"``) looks at the whole ranking.
    """
    return float(any(relevant.get(doc, 0) > 0 for doc in ranked[:k]))


def hits_batch(hits: JudgedHits, k: int | None) -> np.ndarray:
    """``hits_at_k`` for every query at once: does a relevant doc rank within ``k``?"""
    import numpy as np  # only once something is scored

    found = hits.grade > 0
    if k is not None:
        found &= hits.rank <= k
    return (np.bincount(hits.query[found], minlength=hits.n_queries) > 0).astype(float)


def answer_length(sample: RagSample) -> float | None:
    """Number of whitespace-separated tokens in the response; None without a response."""
    response = sample.get("response")
    return None if response is None else float(len(response.split()))


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric | RagMetric]:
    return [
        RetrievalMetric(name="hits", func=hits_at_k, batch=hits_batch),
        RagMetric(name="answer_length", func=answer_length),
    ]
