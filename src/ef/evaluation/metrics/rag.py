"""Sample-level RAG metrics: which fields each lexical metric needs (samples are validated
by :func:`ef.evaluation.types.validate_sample`, re-exported here).

Each function takes one validated :class:`~ef.evaluation.RagSample` and returns a float, or
``None`` when the sample lacks a field the metric needs (it is then skipped for that metric and
the report's ``coverage`` says how many samples were scored).
"""

from __future__ import annotations

from ..types import SAMPLE_FIELDS, RagSample, validate_sample
from . import lexical

__all__ = [
    "SAMPLE_FIELDS",
    "sample_context_precision",
    "sample_context_recall",
    "sample_exact_match",
    "sample_non_empty",
    "sample_token_f1",
    "validate_sample",
]


def sample_exact_match(sample: RagSample) -> float | None:
    """1.0 if the response equals the reference after SQuAD normalisation, else 0.0."""
    response, reference = sample.get("response"), sample.get("reference")
    if response is None or reference is None:
        return None
    return lexical.exact_match(response, reference)


def sample_token_f1(sample: RagSample) -> float | None:
    """Token-overlap F1 of the response against the reference (the SQuAD F1)."""
    response, reference = sample.get("response"), sample.get("reference")
    if response is None or reference is None:
        return None
    return lexical.token_f1(response, reference)


def sample_context_recall(sample: RagSample) -> float | None:
    """Share of the reference's distinct tokens found in the retrieved contexts."""
    reference, contexts = sample.get("reference"), sample.get("retrieved_contexts")
    if reference is None or contexts is None:
        return None
    return lexical.context_recall(reference, contexts)


def sample_context_precision(sample: RagSample) -> float | None:
    """Share of the retrieved contexts that share a token with the reference."""
    reference, contexts = sample.get("reference"), sample.get("retrieved_contexts")
    if reference is None or contexts is None:
        return None
    return lexical.context_precision(reference, contexts)


def sample_non_empty(sample: RagSample) -> float | None:
    """Share of samples that retrieved any context (1.0 if this one did)."""
    contexts = sample.get("retrieved_contexts")
    if contexts is None:
        return None
    return float(len(contexts) > 0)
