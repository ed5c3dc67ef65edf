"""The relevance level of an ir_datasets id's qrels, applied to an evaluation's binary measures.

ir_datasets records no relevance level (its issue #254). Where the dataset's documented
official measures agree on one above 1 (``AP(rel=2)``, ``RR(rel=2)`` for the TREC DL passage
judgements), a binary measure given no ``rel=`` takes it, and its report key says so
(``map(rel=2)``); an InputWarning tells which measures and why. A measure given ``rel=``
keeps it; graded measures (nDCG, ERR) use every grade and are left alone.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from .._engine.measures import Measure
from .._engine.scoring import resolve_measures
from .._formats._io import caller_stacklevel
from .._formats.irds import graded, official_measures, read_irds, relevance_level, relevance_note
from .._formats.sources import is_irds
from ..errors import InputWarning
from ..metrics.retrieval.params import REL
from ..types import Qrels

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry

Q = TypeVar("Q")

__all__ = ["irds_inputs", "irds_judgements", "irds_metrics", "levelled", "official_level"]


def _takes_a_level(measure: Measure) -> bool:
    """A binary measure whose level nobody named: trec_eval's ``rel`` (``-l``) left at its
    default. dcg's and ndcg's ``rel`` is ranx's cut of the gains, not a level: left alone."""
    return REL in measure.metric.params and REL.name not in dict(measure.params)


def irds_judgements(source: str, measures: Sequence[Measure]) -> tuple[Qrels, list[Measure]]:
    """The qrels of ``source`` (``irds:<id>``), and ``measures`` with the dataset's relevance
    level applied to the binary ones given none (one measure once, if two become the same)."""
    qrels = read_irds(source, "read_qrels", note=False)
    return qrels, levelled(measures, official_level(source, qrels, measures))


def official_level(source: str, qrels: Qrels, measures: Sequence[Measure]) -> int:
    """The relevance level to apply to ``measures`` scored against ``qrels``, the graded
    qrels of ``source`` (1: none), with the InputWarning that says which and why."""
    open_ = [m for m in measures if _takes_a_level(m)]
    if not graded(qrels) or not open_:  # nothing a level would change
        return 1
    official = official_measures(source)
    level, why = relevance_level(official)
    if level == 1:
        warnings.warn(
            InputWarning(relevance_note(source, official)), stacklevel=caller_stacklevel()
        )
        return 1
    keys = ", ".join(dict.fromkeys(m.with_params(rel=level).key for m in open_))
    warnings.warn(
        InputWarning(
            f"{source}: ir_datasets records no relevance level; {why}, so the binary "
            f"measures given none count grades from {level}: {keys}. Name the level to "
            "choose another, e.g. map(rel=1)"
        ),
        stacklevel=caller_stacklevel(),
    )
    return level


def levelled(measures: Sequence[Measure], level: int) -> list[Measure]:
    """``measures`` with ``level`` applied to the binary ones given none (one measure once,
    if two become the same); as they are for level 1."""
    if level == 1:
        return list(measures)
    applied = [m.with_params(rel=level) if _takes_a_level(m) else m for m in measures]
    return list({m.key: m for m in reversed(applied)}.values())[::-1]


def irds_metrics(
    source: str, metrics: Sequence[str], k_values: Sequence[int], registry: Registry
) -> tuple[Qrels, tuple[str, ...]]:
    """:func:`irds_judgements` for a caller that passes measure strings on to
    ``evaluate_run`` (``compare``, ``optimize_fusion``): the qrels, and ``metrics`` as they
    were, or as the keys of the measures once the level changed one (``map(rel=2)@10``)."""
    measures = resolve_measures(metrics, k_values, registry)
    qrels, applied = irds_judgements(source, measures)
    if applied == measures:
        return qrels, tuple(metrics)
    return qrels, tuple(m.key for m in applied)


def irds_inputs(
    qrels: Q,
    queries: Mapping[str, str] | str,
    metrics: Sequence[str],
    k_values: Sequence[int],
    registry: Registry,
) -> tuple[Q | Qrels, Mapping[str, str], Sequence[str]]:
    """The qrels and the queries of ``evaluate_retrieval`` and ``evaluate_pipeline``, each
    read from the dataset if it is an ``irds:<id>`` (the qrels' level applied to
    ``metrics``), else as it is: the caller's checks refuse what is neither (a path)."""
    if is_irds(queries):
        queries = read_irds(queries, "read_queries")
    if is_irds(qrels):
        judged, metrics = irds_metrics(qrels, metrics, k_values, registry)
        return judged, cast("Mapping[str, str]", queries), metrics
    return qrels, cast("Mapping[str, str]", queries), metrics
