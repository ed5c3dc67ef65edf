"""An example ef-evaluation plugin: ``hits`` (retrieval) and ``answer_length`` (RAG)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ef.evaluation import RagMetric, RagSample, RetrievalMetric, hookimpl


def hits_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """1.0 if any of the top k results is relevant, else 0.0.

    >>> hits_at_k(["x", "d1"], {"d1": 1}, 2), hits_at_k(["x", "d1"], {"d1": 1}, 1)
    (1.0, 0.0)
    """
    return float(any(relevant.get(doc, 0) > 0 for doc in ranked[:k]))


def answer_length(sample: RagSample) -> float | None:
    """Number of whitespace-separated tokens in the response; None without a response.

    >>> answer_length({"response": "Paris, France"}), answer_length({})
    (2.0, None)
    """
    response = sample.get("response")
    return None if response is None else float(len(response.split()))


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric | RagMetric]:
    return [
        RetrievalMetric(name="hits", func=hits_at_k),
        RagMetric(name="answer_length", func=answer_length),
    ]
