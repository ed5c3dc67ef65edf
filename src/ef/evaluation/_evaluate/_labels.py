"""The labels the nugget and claim metrics score: put into samples, made by a named plugin in
an explicit call (never inside evaluate_rag), and RAGChecker's metrics in one call."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._plugin_engine.failures import owner_of, plugin_call
from .._plugin_engine.registry import Registry, registry_or_default
from .._reports import RagEvalReport
from ..errors import InvalidSampleError, PluginError
from ..metrics._claims import CLAIM_METRIC_NAMES, CLAIMS_KEY, checked_labels
from ..types import (
    ASSIGNMENTS,
    NUGGETS_KEY,
    RagSample,
    checked_nuggets,
    sample_where,
    validate_sample,
)
from .rag import evaluate_rag, sample_id

__all__ = ["assign_nuggets", "evaluate_claims", "label_claims", "with_nuggets"]


def _checked(samples: Iterable[RagSample | Mapping[str, Any]], call: str) -> list[RagSample]:
    if isinstance(samples, (str, Mapping)):
        raise TypeError(f"{call}(samples): pass a list of samples (dicts)")
    return [validate_sample(sample, i) for i, sample in enumerate(samples)]


def with_nuggets(
    samples: Iterable[RagSample | Mapping[str, Any]],
    nuggets: Mapping[str, Sequence[Mapping[str, Any]]],
) -> list[dict[str, Any]]:
    """Copies of ``samples``, each with the nuggets of its query under the key ``nuggets``.

    ``nuggets`` maps a query id to its nuggets (``{"text", "importance"[, "assignment"]}``),
    as :func:`~ef.evaluation.read_nuggets` reads a TREC RAG file; a sample's query id is its
    ``id`` (:func:`~ef.evaluation.sample_id`). A sample whose id ``nuggets`` lacks is copied
    as it is.

    >>> samples = [{"id": "q1", "response": "Paris."}, {"id": "q2", "response": "Four."}]
    >>> nuggets = {"q1": [{"text": "Paris is the capital", "importance": "vital"}]}
    >>> [sorted(s) for s in with_nuggets(samples, nuggets)]
    [['id', 'nuggets', 'response'], ['id', 'response']]
    """
    checked = _checked(samples, "with_nuggets")
    out = []
    for index, sample in enumerate(checked):
        mine = nuggets.get(sample_id(sample, index))
        copy = dict(sample)
        if mine is not None:
            try:
                assigned = any(isinstance(n, Mapping) and "assignment" in n for n in mine)
                copy[NUGGETS_KEY] = [dict(n) for n in checked_nuggets(mine, assigned=assigned)]
            except InvalidSampleError as exc:
                raise InvalidSampleError(f"{sample_where(sample, index)}: {exc}") from None
        out.append(copy)
    return out


def assign_nuggets(
    samples: Iterable[RagSample | Mapping[str, Any]],
    assigner: str,
    *,
    registry: Registry | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Copies of ``samples`` whose nuggets carry the assignments of the assigner named
    ``assigner``: ``support``, ``partial_support`` or ``not_support`` in each nugget's
    ``assignment``, which ``nugget_all``, ``nugget_vital`` and ``nugget_weighted`` then
    score.

    This is the one place a nugget assigner runs, and only the one named: ``lexical`` (the
    built-in word-overlap baseline, no judge), or a plugin's, such as the Ragas bridge's,
    which calls the user's LLM. ``options`` go to the assigner (``llm=...``). Samples without
    ``nuggets`` are copied as they are; earlier assignments are replaced.

    Raises:
        UnknownNameError: for an assigner no plugin provides (the message lists them).
        InvalidSampleError: for a malformed sample or nugget, naming the sample.
        PluginError: if the assigner raises, or returns other than one valid label per
            nugget of each sample; the message names the assigner and its plugin.

    >>> samples = [{"id": "q1", "response": "Paris is the capital of France.",
    ...             "nuggets": [{"text": "Paris is the capital", "importance": "vital"}]}]
    >>> [n["assignment"] for n in assign_nuggets(samples, "lexical")[0]["nuggets"]]
    ['support']
    """
    registry = registry_or_default(registry)
    method = registry.nugget_assigner(assigner)
    checked = _checked(samples, "assign_nuggets")
    positions, nuggets = _nuggets_to_assign(checked)
    if not positions:
        return [dict(sample) for sample in checked]
    with plugin_call(registry, "nugget_assigner", method.name, "its assign"):
        labels = list(method.assign([checked[i] for i in positions], **options))
    out = [dict(sample) for sample in checked]
    _check_count(labels, len(positions), registry, "nugget_assigner", method.name)
    for index, mine, theirs in zip(positions, nuggets, labels, strict=True):
        if not _is_assignment(theirs, len(mine)):
            owner = owner_of(registry, "nugget_assigner", method.name)
            raise PluginError(
                f"nugget assigner {method.name!r} ({owner}) returned {theirs!r:.120} for "
                f"{sample_where(checked[index], index)}, which has {len(mine)} nuggets; it "
                f"must return one of {', '.join(ASSIGNMENTS)} per nugget, in order"
            )
        out[index][NUGGETS_KEY] = [
            {**nugget, "assignment": label} for nugget, label in zip(mine, theirs, strict=True)
        ]
    return out


def _nuggets_to_assign(
    samples: Sequence[RagSample],
) -> tuple[list[int], list[list[Mapping[str, Any]]]]:
    """The positions of the samples that carry nuggets, and their nuggets, checked."""
    positions, nuggets = [], []
    for index, sample in enumerate(samples):
        value = sample.get(NUGGETS_KEY)  # an extra key
        if value is None:
            continue
        try:
            nuggets.append(checked_nuggets(value, assigned=False))
        except InvalidSampleError as exc:
            raise InvalidSampleError(f"{sample_where(sample, index)}: {exc}") from None
        positions.append(index)
    return positions, nuggets


def _is_assignment(labels: object, n_nuggets: int) -> bool:
    """Whether an assigner's answer for a sample is a list of one label per nugget."""
    return (
        isinstance(labels, (list, tuple))
        and len(labels) == n_nuggets
        and all(label in ASSIGNMENTS for label in labels)
    )


def _check_count(
    results: Sequence[object], expected: int, registry: Registry, kind: str, name: str
) -> None:
    if len(results) != expected:
        raise PluginError(
            f"{kind.replace('_', ' ')} {name!r} ({owner_of(registry, kind, name)}) returned "
            f"{len(results)} results for {expected} samples; it must return one per sample, "
            "in order"
        )


def label_claims(
    samples: Iterable[RagSample | Mapping[str, Any]],
    labeler: str,
    *,
    registry: Registry | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Copies of ``samples``, each with the claims and entailment labels of the claim labeler
    named ``labeler`` under the key ``claims``, which the ``claims.*`` metrics (RAGChecker's)
    then score.

    This is the one place a claim labeler runs, and only the one named (the Ragas bridge
    provides one that calls the user's LLM); ``options`` go to it. ef ships no labeler: a
    labeler judges entailment, and ef never calls a model.

    Raises:
        UnknownNameError: for a labeler no plugin provides (the message lists them).
        PluginError: if the labeler raises, or returns other than one valid ``claims``
            mapping per sample; the message names the labeler and its plugin.
    """
    registry = registry_or_default(registry)
    method = registry.claim_labeler(labeler)
    checked = _checked(samples, "label_claims")
    with plugin_call(registry, "claim_labeler", method.name, "its label"):
        results = list(method.label(checked, **options))
    _check_count(results, len(checked), registry, "claim_labeler", method.name)
    out = []
    for index, (sample, claims) in enumerate(zip(checked, results, strict=True)):
        contexts = sample.get("retrieved_contexts")
        try:
            checked_labels(claims, None if contexts is None else len(contexts))
        except InvalidSampleError as exc:
            owner = owner_of(registry, "claim_labeler", method.name)
            raise PluginError(
                f"claim labeler {method.name!r} ({owner}) returned bad labels for "
                f"{sample_where(sample, index)}: {exc}"
            ) from None
        out.append({**sample, CLAIMS_KEY: dict(claims)})
    return out


def evaluate_claims(
    samples: Iterable[RagSample | Mapping[str, Any]],
    *,
    metrics: Sequence[str] = CLAIM_METRIC_NAMES,
    registry: Registry | None = None,
) -> RagEvalReport:
    """RAGChecker's claim-level diagnostics of samples that carry claim labels (``claims``).

    The same as ``evaluate_rag(samples, metrics=[...])`` with the ``claims.*`` metrics:
    overall ``precision``, ``recall`` and ``f1`` of the response's claims; the retriever's
    ``claim_recall`` and ``context_precision``; the generator's ``context_utilization``,
    ``noise_sensitivity_in_relevant`` and ``_in_irrelevant``, ``hallucination``,
    ``self_knowledge`` and ``faithfulness``. Each is a mean over the samples that carry the
    labels it needs, as a fraction (RAGChecker prints it times 100, to one decimal). No model is
    called: :func:`label_claims` makes the labels.

    >>> sample = {"response": "Paris. It has 3 million people.", "claims": {
    ...     "answer2response": ["Entailment", "Neutral"],
    ...     "response2answer": ["Entailment"],
    ...     "retrieved2response": [["Entailment"], ["Neutral"]],
    ...     "retrieved2answer": [["Entailment"]]}}
    >>> report = evaluate_claims([sample])
    >>> report.metrics["claims.precision"], report.metrics["claims.hallucination"]
    (0.5, 0.5)
    """
    return evaluate_rag(samples, metrics=metrics, registry=registry)
