"""The attrs converters the report values share: every mapping frozen, every list a tuple."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..engine.ties import TieDiagnostic
from ..types import FrozenDict

__all__ = [
    "brief_metrics",
    "frozen_groups",
    "frozen_mapping",
    "frozen_means",
    "frozen_nested",
    "frozen_scores",
    "frozen_series",
    "int_tuple",
    "pairs",
    "str_tuple",
    "tie_diagnostic_of",
]


def frozen_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return FrozenDict(value)


def frozen_nested(value: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    return FrozenDict({key: FrozenDict(inner) for key, inner in value.items()})


def frozen_series(
    value: Mapping[str, Iterable[float | None]],
) -> Mapping[str, tuple[float | None, ...]]:
    return FrozenDict({key: tuple(series) for key, series in value.items()})


def int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def tie_diagnostic_of(value: TieDiagnostic | Mapping[str, Any]) -> TieDiagnostic:
    return value if isinstance(value, TieDiagnostic) else TieDiagnostic(**value)


def frozen_scores(
    value: Mapping[str, Mapping[str, Sequence[float | None]]],
) -> Mapping[str, Mapping[str, tuple[float | None, ...]]]:
    return FrozenDict(
        {
            system: FrozenDict({k: tuple(v) for k, v in inner.items()})
            for system, inner in value.items()
        }
    )


def pairs(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


def frozen_groups(value: Mapping[str, Sequence[str]]) -> Mapping[str, tuple[str, ...]]:
    return FrozenDict({key: tuple(inner) for key, inner in value.items()})


def frozen_means(value: Mapping[str, Mapping[str, float]]) -> Mapping[str, Mapping[str, float]]:
    return FrozenDict({key: FrozenDict(inner) for key, inner in value.items()})


#: How many means a report's ``repr()`` shows: enough to recognise it, short for any size.
BRIEF_METRICS = 4


def brief_metrics(means: Mapping[str, float | None], first: str | None = None) -> str:
    """``"ndcg@10=0.6791, recall@100=0.9127, ... (20 metrics)"``: a few means for ``repr()``.

    >>> brief_metrics({"a": 0.5, "b": None, "c": 0.25}, first="c")
    'c=0.2500, a=0.5000, b=-'
    """
    keys = list(means)
    if first is not None and first in means:
        keys.remove(first)
        keys.insert(0, first)
    shown = ", ".join(
        f"{key}={'-' if means[key] is None else format(means[key], '.4f')}"
        for key in keys[:BRIEF_METRICS]
    )
    more = f", ... ({len(keys)} metrics)" if len(keys) > BRIEF_METRICS else ""
    return shown + more
