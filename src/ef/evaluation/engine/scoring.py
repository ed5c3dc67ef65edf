"""Scoring rankings against qrels: the engine behind evaluate_retrieval() and evaluate_run().

Pure glue between resolved metrics and per-query rankings: which ``"<name>@<k>"`` keys to
compute, each metric's value per query (checked to be a number), and the means.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import PluginError
from ..interfaces import RetrievalMetric, is_score
from ..plugin_engine.registry import Registry
from .measures import Measure, parse_measures

if TYPE_CHECKING:
    from ..hits import JudgedHits

__all__ = [
    "Measure",
    "check_k_values",
    "mean_of",
    "resolve_measures",
    "score_all",
    "split_key",
]


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
    """The measures that ``metrics`` name, in any syntax :func:`~ef.evaluation.engine.measures.
    parse_measure` reads: ``"ndcg"`` at every cutoff of ``k_values``, ``"ndcg@10"`` at cutoff
    10 only, ``"P(rel=2)@5"``, ``"ndcg_cut.10"``. Unknown names raise UnknownNameError."""
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a sequence of names, e.g. ({metrics!r},), not a str")
    check_k_values(k_values)
    measures = parse_measures(list(metrics), k_values=k_values, registry=registry)
    if not measures:
        raise ValueError("metrics is empty; name at least one, e.g. metrics=('ndcg',)")
    return measures


def _checked(metric: RetrievalMetric, value: object, query_id: str) -> float:
    if not is_score(value):
        # A NaN or a None would poison the mean silently; say which metric and which query.
        raise PluginError(
            f"retrieval metric {metric.name!r} returned {value!r} for query {query_id!r}; "
            "a retrieval metric must return a number"
        )
    return float(value)  # type: ignore[arg-type]  # is_score checked it


def _plain_floats(raw: object, values: list[Any]) -> bool:
    """True if every value is a float and none is NaN (a float64 array is checked at once)."""
    if getattr(raw, "dtype", None) == "float64" and getattr(raw, "ndim", None) == 1:
        import numpy as np  # a batch metric returned an array: numpy is loaded already

        return not np.isnan(raw).any()  # type: ignore[call-overload]  # raw is an ndarray
    return all(type(v) is float and not math.isnan(v) for v in values)


def score_all(
    measures: Sequence[Measure],
    query_ids: Sequence[str],
    judgements: Sequence[Mapping[str, float]],
    hits: JudgedHits,
    rankings: Callable[[], Sequence[Sequence[str]]],
    *,
    expected: bool = False,
) -> dict[str, dict[str, float]]:
    """Every measure's value for every query: ``{query_id: {key: value}}``.

    A metric with a ``batch`` form computes all queries at once from ``hits``; one without is
    called query by query on ``rankings()``, which is built only if some metric needs it.
    With ``expected``, each value is the metric's mean over the orders of the query's tied
    docs: its ``expected`` form if it has one, else its mean over :func:`~ef.evaluation.
    ties.expand`'s repeats.
    """
    columns: dict[str, list[float]] = {}
    ranked: Sequence[Sequence[str]] | None = None
    for m in measures:
        raw: object = None
        values: list[Any]
        if expected:
            if m.metric.expected is not None:
                raw = m.metric.expected(hits, m.k, **m.kwargs)
                values = raw.tolist() if hasattr(raw, "tolist") else list(raw)
            else:
                ranked = rankings() if ranked is None and m.metric.batch is None else ranked
                values = _tie_averaged(m, query_ids, hits, judgements, ranked)
            if len(values) != len(query_ids):
                raise PluginError(
                    f"retrieval metric {m.metric.name!r}: its expected form returned "
                    f"{len(values)} values for {len(query_ids)} queries"
                )
        elif m.metric.batch is not None:
            raw = m.metric.batch(hits, m.k, **m.kwargs)
            # An array's tolist() gives Python floats in one step; any sequence will do.
            values = raw.tolist() if hasattr(raw, "tolist") else list(raw)
            if len(values) != len(query_ids):
                raise PluginError(
                    f"retrieval metric {m.metric.name!r}: its batch form returned "
                    f"{len(values)} values for {len(query_ids)} queries"
                )
        else:
            ranked = rankings() if ranked is None else ranked
            kwargs = m.kwargs
            values = [
                m.metric.func(r, j, m.k, **kwargs) for r, j in zip(ranked, judgements, strict=True)
            ]
        if not _plain_floats(raw, values):
            # Only a value that is not a plain, non-NaN float needs the full check.
            values = [_checked(m.metric, v, q) for v, q in zip(values, query_ids, strict=True)]
        columns[m.key] = values
    keys = list(columns)
    rows = zip(*columns.values(), strict=True)
    return {
        query_id: dict(zip(keys, row, strict=True))
        for query_id, row in zip(query_ids, rows, strict=True)
    }


def _tie_averaged(
    m: Measure,
    query_ids: Sequence[str],
    hits: JudgedHits,
    judgements: Sequence[Mapping[str, float]],
    ranked: Sequence[Sequence[str]] | None,
) -> list[float]:
    """A metric without an expected form, averaged over every distinct order of the ties."""
    from .ties import expand, expand_rankings, mean_by_owner

    name = f"metric {m.metric.name!r}"
    if m.metric.batch is not None:
        repeats, owner = expand(hits, name, query_ids)
        raw = m.metric.batch(repeats, m.k, **m.kwargs)
        values = raw.tolist() if hasattr(raw, "tolist") else list(raw)
    else:
        assert ranked is not None  # built by the caller for a metric without a batch form
        orders, judged, owner = expand_rankings(ranked, judgements, hits, name, query_ids)
        values = [m.metric.func(r, j, m.k, **m.kwargs) for r, j in zip(orders, judged, strict=True)]
    checked = [
        _checked(m.metric, v, query_ids[q]) for v, q in zip(values, owner.tolist(), strict=True)
    ]
    return mean_by_owner(checked, owner, hits.n_queries)


def mean_of(
    measures: Sequence[Measure], per_query: Mapping[str, Mapping[str, float]]
) -> dict[str, float]:
    """Each measure's mean over the queries of ``per_query`` (exactly summed); the sum for a
    metric that aggregates by sum (``num_ret``, as trec_eval and ir_measures report it)."""
    n = len(per_query)
    rows = list(per_query.values())
    means: dict[str, float] = {}
    for m in measures:
        key = m.key  # formatted anew on every access: once per measure, not per query
        total = math.fsum([row[key] for row in rows])
        means[key] = total if m.metric.aggregate == "sum" else total / n
    return means
