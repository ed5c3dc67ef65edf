"""Sample-level RAG metrics: which fields each lexical metric needs, and sample validation.

Each function takes one validated :class:`~ef.evaluation.RagSample` and returns a float, or
``None`` when the sample lacks a field the metric needs (it is then skipped for that metric and
the report's ``coverage`` says how many samples were scored).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidSampleError
from ..types import RagSample
from . import lexical

__all__ = [
    "sample_context_precision",
    "sample_context_recall",
    "sample_exact_match",
    "sample_non_empty",
    "sample_token_f1",
    "validate_sample",
]

_TEXT_FIELDS = ("user_input", "response", "reference")
_CONTEXT_FIELDS = ("retrieved_contexts", "reference_contexts")


def validate_sample(sample: object, index: int) -> RagSample:
    """Check the shape of ``sample`` (the ``index``-th one) and return it.

    A field set to ``None`` counts as absent. Raises :class:`~ef.evaluation.errors.
    InvalidSampleError` naming the index when ``sample`` is not a mapping, a text field is not a
    string, or a contexts field is not a list of strings.

    >>> validate_sample({"response": 42}, 3)
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: sample 3: 'response' must be a string, got int 42
    """
    if not isinstance(sample, Mapping):
        raise InvalidSampleError(
            f"sample {index}: expected a mapping with RagSample keys (user_input, response, "
            f"retrieved_contexts, reference, reference_contexts), got {type(sample).__name__}"
        )
    for field in _TEXT_FIELDS:
        value = sample.get(field)
        if value is not None and not isinstance(value, str):
            raise InvalidSampleError(
                f"sample {index}: {field!r} must be a string, got {type(value).__name__} "
                f"{_short(value)}"
            )
    for field in _CONTEXT_FIELDS:
        value = sample.get(field)
        if value is None:
            continue
        if not isinstance(value, (list, tuple)):
            raise InvalidSampleError(
                f"sample {index}: {field!r} must be a list of strings, got "
                f"{type(value).__name__} {_short(value)}"
            )
        for position, item in enumerate(value):
            if not isinstance(item, str):
                raise InvalidSampleError(
                    f"sample {index}: {field}[{position}] must be a string, got "
                    f"{type(item).__name__} {_short(item)}"
                )
    return sample  # type: ignore[return-value]  # checked above, field by field


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
