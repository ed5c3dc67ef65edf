"""Scoring rankings against qrels: the engine behind evaluate_retrieval() and evaluate_run().

Pure glue between resolved metrics and per-query rankings: which ``"<name>@<k>"`` keys to
compute, each metric's value per query (checked to be a number), and the means.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ._registry import Registry
from .errors import PluginError
from .interfaces import RetrievalMetric, is_score

if TYPE_CHECKING:
    from .metrics.batch import JudgedHits

__all__ = [
    "Measure",
    "check_k_values",
    "mean_of",
    "resolve_measures",
    "score_all",
    "split_key",
]

_WITH_CUTOFF = re.compile(r"^(?P<name>[^@\s]+)@(?P<k>[^@\s]*)$")


@attrs.frozen
class Measure:
    """One metric at one cutoff: what a report key (``ndcg@10``) stands for."""

    metric: RetrievalMetric
    k: int

    @property
    def key(self) -> str:
        return f"{self.metric.name}@{self.k}"


def split_key(key: str) -> tuple[str, int | None]:
    """``"ndcg@10"`` -> ``("ndcg", 10)``; a key without a cutoff -> ``(key, None)``."""
    name, at, k = key.rpartition("@")
    if not at or not k.isdigit():
        return key, None
    return name, int(k)


def check_k_values(k_values: Sequence[int]) -> tuple[int, ...]:
    """``k_values`` as a tuple of distinct positive ints; a clear ValueError otherwise."""
    ks = tuple(k_values)
    if not ks:
        raise ValueError("k_values is empty; give at least one cutoff, e.g. k_values=(10,)")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k_values must be positive ints, got {k!r} in {ks!r}")
    return tuple(dict.fromkeys(ks))  # duplicates would only repeat report keys


def resolve_measures(
    metrics: Iterable[str], k_values: Sequence[int], registry: Registry
) -> list[Measure]:
    """The measures that ``metrics`` name: ``"ndcg"`` at every cutoff of ``k_values``,
    ``"ndcg@10"`` at cutoff 10 only. Unknown names raise UnknownNameError."""
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a sequence of names, e.g. ({metrics!r},), not a str")
    ks = check_k_values(k_values)
    measures: dict[str, Measure] = {}
    for entry in metrics:
        match = _WITH_CUTOFF.match(entry) if isinstance(entry, str) else None
        if match is None:
            chosen = [Measure(registry.retrieval_metric(entry), k) for k in ks]
        else:
            k = match["k"]
            if not k.isdigit() or int(k) < 1:
                raise ValueError(f"{entry!r}: the cutoff after '@' must be a positive int")
            chosen = [Measure(registry.retrieval_metric(match["name"]), int(k))]
        for measure in chosen:
            measures.setdefault(measure.key, measure)
    if not measures:
        raise ValueError("metrics is empty; name at least one, e.g. metrics=('ndcg',)")
    return list(measures.values())


def _checked(metric: RetrievalMetric, value: object, query_id: str) -> float:
    if not is_score(value):
        # A NaN or a None would poison the mean silently; say which metric and which query.
        raise PluginError(
            f"retrieval metric {metric.name!r} returned {value!r} for query {query_id!r}; "
            "a retrieval metric must return a number"
        )
    return float(value)  # type: ignore[arg-type]  # is_score checked it


def _clean_floats(raw: object, values: Sequence[Any]) -> bool:
    """True if every value is a plain float and none is NaN: one numpy pass for a float64
    array (what the built-in batch metrics return), a Python pass otherwise."""
    if type(raw).__module__ == "numpy" and getattr(raw, "dtype", None) == "float64":
        import numpy as np

        array: Any = raw
        return not bool(np.isnan(array).any())
    return all(type(v) is float and not math.isnan(v) for v in values)


def score_all(
    measures: Sequence[Measure],
    query_ids: Sequence[str],
    judgements: Sequence[Mapping[str, float]],
    hits: JudgedHits,
    rankings: Callable[[], Sequence[Sequence[str]]],
) -> dict[str, dict[str, float]]:
    """Every measure's value for every query: ``{query_id: {key: value}}``.

    A metric with a ``batch`` form computes all queries at once from ``hits``; one without is
    called query by query on ``rankings()``, which is built only if some metric needs it.
    """
    columns: dict[str, list[float]] = {}
    ranked: Sequence[Sequence[str]] | None = None
    for m in measures:
        if m.metric.batch is not None:
            raw = m.metric.batch(hits, m.k)
            # An array's tolist() gives Python floats in one step; any sequence will do.
            values: list[Any] = raw.tolist() if hasattr(raw, "tolist") else list(raw)
            if len(values) != len(query_ids):
                raise PluginError(
                    f"retrieval metric {m.metric.name!r}: its batch form returned "
                    f"{len(values)} values for {len(query_ids)} queries"
                )
        else:
            ranked = rankings() if ranked is None else ranked
            values = [m.metric.func(r, j, m.k) for r, j in zip(ranked, judgements, strict=True)]
        if not _clean_floats(raw if m.metric.batch is not None else None, values):
            # Only a value that is not a plain, non-NaN float needs the full check.
            values = [_checked(m.metric, v, q) for v, q in zip(values, query_ids, strict=True)]
        columns[m.key] = values
    keys = list(columns)
    rows = zip(*columns.values(), strict=True)
    return {
        query_id: dict(zip(keys, row, strict=True))
        for query_id, row in zip(query_ids, rows, strict=True)
    }


def mean_of(
    measures: Sequence[Measure], per_query: Mapping[str, Mapping[str, float]]
) -> dict[str, float]:
    """Each measure's mean over the queries of ``per_query`` (exactly summed)."""
    n = len(per_query)
    rows = list(per_query.values())
    keys = [m.key for m in measures]  # a key is formatted anew on every access
    return {key: math.fsum([row[key] for row in rows]) / n for key in keys}
