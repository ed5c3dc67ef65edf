"""The attrs converters the report values share: every mapping frozen, every list a tuple."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._engine.query_values import QueryValues
from .._engine.ties import TieDiagnostic
from ..types import FrozenDict

__all__ = [
    "brief_metrics",
    "field_of",
    "frozen_groups",
    "frozen_mapping",
    "frozen_means",
    "frozen_nested",
    "frozen_scores",
    "frozen_series",
    "int_tuple",
    "mapping_of",
    "number_of",
    "numbers_of",
    "optional_number_of",
    "pairs",
    "str_tuple",
    "tie_diagnostic_of",
]


def frozen_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return FrozenDict(value)


def frozen_nested(value: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    # The engine's columns, and a FrozenDict of plain values, never change: kept, not copied
    # (a report of 200,000 queries holds one copy of their values).
    if isinstance(value, QueryValues):
        return value
    return FrozenDict(
        {
            key: inner if type(inner) is FrozenDict else FrozenDict(inner)
            for key, inner in value.items()
        }
    )


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


# --- Reading a report's dict form back (from_dict) --------------------------------------
# JSON has no NaN or infinity. A saved report writes NaN as null where a value is always a
# number, and "NaN" where null already means "not scored" (RAG); infinities as "Infinity".
_MARKERS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def number_of(value: Any, where: str) -> float:
    """A number of a float-only field: null (NaN written by JSON) is NaN."""
    if value is None:
        return math.nan
    return _checked(value, where)


def optional_number_of(value: Any, where: str) -> float | None:
    """A number of a field where None means "not scored": null stays None."""
    if value is None:
        return None
    return _checked(value, where)


def _checked(value: Any, where: str) -> float:
    if isinstance(value, str) and value in _MARKERS:
        return _MARKERS[value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: expected a number, got {value!r}")
    return value


def numbers_of(value: Any, where: str) -> dict[str, float]:
    return {
        key: number_of(inner, f"{where}[{key!r}]")
        for key, inner in mapping_of(value, where).items()
    }


def mapping_of(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def field_of(data: Mapping[str, Any], key: str, what: str) -> Any:
    """``data[key]``, or a ValueError naming the report and the key it lacks."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a {what} dict is a mapping, got {type(data).__name__}")
    try:
        return data[key]
    except KeyError:
        raise ValueError(f"not a {what} dict: it has no {key!r}") from None


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
