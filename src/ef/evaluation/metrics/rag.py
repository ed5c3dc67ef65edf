"""Sample-level RAG metrics: which fields each lexical metric needs, and sample validation.

Each function takes one validated :class:`~ef.evaluation.RagSample` and returns a float, or
``None`` when the sample lacks a field the metric needs (it is then skipped for that metric and
the report's ``coverage`` says how many samples were scored).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import InvalidSampleError
from ..types import RagSample
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

_TEXT_FIELDS = (
    "user_input",
    "response",
    "reference",
    "persona_name",
    "query_style",
    "query_length",
)
_TEXT_LIST_FIELDS = ("retrieved_contexts", "reference_contexts", "multi_responses")
_ID_LIST_FIELDS = ("retrieved_context_ids", "reference_context_ids")

#: Every field of Ragas' SingleTurnSample, in its order.
SAMPLE_FIELDS = (
    "user_input",
    "retrieved_contexts",
    "reference_contexts",
    "retrieved_context_ids",
    "reference_context_ids",
    "response",
    "multi_responses",
    "reference",
    "rubrics",
    "persona_name",
    "query_style",
    "query_length",
)


def _is_id(item: object) -> bool:
    return isinstance(item, str) or (isinstance(item, int) and not isinstance(item, bool))


def validate_sample(sample: object, index: int) -> RagSample:
    """Check the shape of ``sample`` (the ``index``-th one) and return it.

    A field set to ``None`` counts as absent; keys that are not RagSample fields are left
    alone. Raises :class:`~ef.evaluation.InvalidSampleError` naming the index when ``sample``
    is not a mapping, a text field is not a string, a contexts field is not a list of strings,
    an id list holds something other than strings and ints, or ``rubrics`` is not a mapping
    of strings.

    >>> validate_sample({"response": 42}, 3)
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: sample 3: 'response' must be a string, got int 42
    """
    if not isinstance(sample, Mapping):
        raise InvalidSampleError(
            f"sample {index}: expected a mapping with RagSample keys (user_input, response, "
            f"retrieved_contexts, reference, ...), got {type(sample).__name__}"
        )
    for field in _TEXT_FIELDS:
        value = sample.get(field)
        if value is not None and not isinstance(value, str):
            raise InvalidSampleError(
                f"sample {index}: {field!r} must be a string, got {type(value).__name__} "
                f"{_short(value)}"
            )
    for field in _TEXT_LIST_FIELDS:
        _check_list(sample, field, _is_text, ("a list of strings", "a string"), index)
    for field in _ID_LIST_FIELDS:
        _check_list(sample, field, _is_id, ("a list of ids", "a string or an int"), index)
    rubrics = sample.get("rubrics")
    if rubrics is not None and not (
        isinstance(rubrics, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in rubrics.items())
    ):
        raise InvalidSampleError(
            f"sample {index}: 'rubrics' must map strings to strings, got {_short(rubrics)}"
        )
    return sample  # type: ignore[return-value]  # checked above, field by field


def _is_text(item: object) -> bool:
    return isinstance(item, str)


def _check_list(
    sample: Mapping[str, Any],
    field: str,
    check: Callable[[object], bool],
    what: tuple[str, str],
    index: int,
) -> None:
    value = sample.get(field)
    if value is None:
        return
    if not isinstance(value, (list, tuple)):
        raise InvalidSampleError(
            f"sample {index}: {field!r} must be {what[0]}, got {type(value).__name__} "
            f"{_short(value)}"
        )
    for position, item in enumerate(value):
        if not check(item):
            raise InvalidSampleError(
                f"sample {index}: {field}[{position}] must be {what[1]}, got "
                f"{type(item).__name__} {_short(item)}"
            )


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
