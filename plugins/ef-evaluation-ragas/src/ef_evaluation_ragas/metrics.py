"""Ragas' deterministic (non-LLM) metrics as ef RAG metrics named ``ragas.<metric>``.

Each value is exactly what Ragas 0.4 computes for the sample; the bridge only decides when a
metric applies. A sample that lacks a field the metric needs, that has nothing for it to score (no
retrieved contexts for ``ragas.context_recall``, no reference contexts for
``ragas.context_precision``: Ragas' own metric would fail on ``max()`` of nothing), or for
which Ragas returns NaN ("cannot be computed", e.g. no retrieved ids), is skipped for that
metric, so it shows in ``coverage`` instead of poisoning the mean.

How they differ from ef's own lexical metrics:

==========================  ==================================================================
``ragas.exact_match``       ``response == reference``: case-sensitive, no normalisation
                            (ef's ``exact_match`` compares SQuAD-normalised text).
``ragas.string_presence``   ``reference in response``: case-sensitive substring.
``ragas.string_similarity`` ``1 - normalised Levenshtein distance`` (rapidfuzz), characters.
``ragas.bleu``              sacrebleu corpus BLEU / 100 over the ``". "``-split sentences;
                            a one-word exact match scores 0.0 (BLEU-4 has no 4-grams).
``ragas.rouge_l``           ROUGE-L F-measure, Porter-stemmed (rouge_score).
``ragas.chrf``              sacrebleu chrF / 100.
``ragas.context_recall``    share of ``reference_contexts`` whose best Levenshtein similarity
                            to a retrieved context is > 0.5 (ef's ``context_recall`` counts
                            reference *answer* tokens found in the contexts).
``ragas.context_precision`` average precision over ``retrieved_contexts``, a context counting
                            as relevant when its best similarity to a reference context is
                            >= 0.5; denominator + 1e-10, so a perfect list scores 0.9999999999.
``ragas.id_context_recall`` ``|set(retrieved ids) & set(reference ids)| / |set(reference ids)|``
                            (set-based: rank and grades ignored; ids compared as strings).
``ragas.id_context_precision`` the same over ``|set(retrieved ids)|``.
==========================  ==================================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs

from ef.evaluation import RagMetric, RagSample

from ._ragas import missing_dependency, quiet, ragas_module

__all__ = ["METRICS", "RagasMetricSpec", "ragas_metrics"]


@attrs.frozen
class RagasMetricSpec:
    """How one ef metric name maps onto a Ragas legacy metric class."""

    name: str
    ragas_class: str
    needs: tuple[str, str]
    description: str
    options: tuple[tuple[str, Any], ...] = ()
    #: Needed lists Ragas takes a ``max()`` over: empty, the sample has nothing to score
    #: (Ragas' ``evaluate()`` gives NaN there; its metric alone raises ``ValueError``).
    nonempty: tuple[str, ...] = ()


_ANSWER = ("response", "reference")
_CONTEXTS = ("retrieved_contexts", "reference_contexts")
_IDS = ("retrieved_context_ids", "reference_context_ids")

#: The metrics this plugin registers, in catalogue order.
METRICS: tuple[RagasMetricSpec, ...] = (
    RagasMetricSpec(
        "ragas.exact_match", "ExactMatch", _ANSWER,
        "Ragas ExactMatch: response == reference, case-sensitive, not normalised.",
    ),
    RagasMetricSpec(
        "ragas.string_presence", "StringPresence", _ANSWER,
        "Ragas StringPresence: 1.0 if the reference is a substring of the response.",
    ),
    RagasMetricSpec(
        "ragas.string_similarity", "NonLLMStringSimilarity", _ANSWER,
        "Ragas NonLLMStringSimilarity: 1 - normalised Levenshtein distance to the reference.",
    ),
    RagasMetricSpec(
        "ragas.bleu", "BleuScore", _ANSWER,
        "Ragas BleuScore: sacrebleu BLEU / 100 of the response against the reference.",
    ),
    RagasMetricSpec(
        "ragas.rouge_l", "RougeScore", _ANSWER,
        "Ragas RougeScore: ROUGE-L F-measure (stemmed) of the response against the reference.",
        (("rouge_type", "rougeL"), ("mode", "fmeasure")),
    ),
    RagasMetricSpec(
        "ragas.chrf", "ChrfScore", _ANSWER,
        "Ragas ChrfScore: sacrebleu chrF / 100 of the response against the reference.",
    ),
    RagasMetricSpec(
        "ragas.context_recall", "NonLLMContextRecall", _CONTEXTS,
        "Ragas NonLLMContextRecall: share of reference contexts matched (> 0.5) by a retrieval.",
        nonempty=("retrieved_contexts",),
    ),
    RagasMetricSpec(
        "ragas.context_precision", "NonLLMContextPrecisionWithReference", _CONTEXTS,
        "Ragas NonLLMContextPrecisionWithReference: AP of retrieved contexts matching a reference.",
        nonempty=("reference_contexts",),
    ),
    RagasMetricSpec(
        "ragas.id_context_recall", "IDBasedContextRecall", _IDS,
        "Ragas IDBasedContextRecall: share of reference context ids that were retrieved.",
    ),
    RagasMetricSpec(
        "ragas.id_context_precision", "IDBasedContextPrecision", _IDS,
        "Ragas IDBasedContextPrecision: share of retrieved context ids that are references.",
    ),
)  # fmt: skip


@cache
def _ragas_metric(spec: RagasMetricSpec) -> Any:
    """One Ragas metric object per spec and process (they are stateless between samples)."""
    module = ragas_module("ragas.metrics")
    try:
        with quiet():
            return getattr(module, spec.ragas_class)(**dict(spec.options))
    except ImportError as exc:  # a metric's own package: "sacrebleu is required for ..."
        raise missing_dependency(exc) from exc


def _scorer(spec: RagasMetricSpec) -> Callable[[RagSample], float | None]:
    def score(sample: RagSample) -> float | None:
        if any(sample.get(field) is None for field in spec.needs):
            return None
        if any(not sample.get(field) for field in spec.nonempty):
            return None  # nothing to score: outside the metric's coverage, as Ragas' NaN
        ragas = ragas_module()
        fields = {field: sample[field] for field in spec.needs}  # type: ignore[literal-required]
        with quiet():
            value = _ragas_metric(spec).single_turn_score(ragas.SingleTurnSample(**fields))
        value = float(value)
        # Ragas' NaN means "cannot be computed for this sample": a coverage gap, not a number.
        return None if math.isnan(value) else value

    score.__name__ = spec.name.replace(".", "_")
    score.__doc__ = spec.description
    return score


def ragas_metrics() -> list[RagMetric]:
    """The RagMetric objects this plugin registers (cheap: no Ragas import)."""
    return [
        RagMetric(name=spec.name, func=_scorer(spec), description=spec.description)
        for spec in METRICS
    ]
