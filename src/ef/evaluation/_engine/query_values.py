"""QueryValues: every scored query's metric values, held as one column of floats per key.

A report of 200,000 queries held as ``{query_id: {key: value}}`` spends about 470 bytes a
query on its rows (a dict and five float objects each); held as columns, 8 bytes a value.
QueryValues is the read-only mapping the engine builds for a report's ``per_query``: it reads,
compares, prints, pickles and serialises as the dict of dicts it stands for, and each row is
made (a :class:`~ef.evaluation.types.FrozenDict`) only when it is read.

>>> values = QueryValues(["q1", "q2"], {"ndcg@10": [0.5, 1.0], "P@10": [0.1, 0.2]})
>>> values["q2"]
{'ndcg@10': 1.0, 'P@10': 0.2}
>>> values == {"q1": {"ndcg@10": 0.5, "P@10": 0.1}, "q2": {"ndcg@10": 1.0, "P@10": 0.2}}
True
>>> list(values.column("ndcg@10")), len(values)
([0.5, 1.0], 2)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .._runs.positional import PositionalMapping
from ..types import FrozenDict

__all__ = ["QueryValues"]


def _floats(values: Iterable[float]) -> array[float]:
    # A column given as array("d") is kept (the engine hands over its own); else copied.
    return values if isinstance(values, array) and values.typecode == "d" else array("d", values)


class QueryValues(PositionalMapping[str, Mapping[str, float]]):
    """``{query_id: {key: value}}`` for the queries ``query_ids`` (distinct, in order), from
    ``columns``: each key's values, one per query, in the same order. Read-only.

    >>> values = QueryValues(["q1"], {"mrr@10": [1.0]})
    >>> values
    {'q1': {'mrr@10': 1.0}}
    >>> QueryValues(["q1", "q2"], {"mrr@10": [1.0]})
    Traceback (most recent call last):
        ...
    ValueError: per-query values: column 'mrr@10' has 1 values for 2 queries
    """

    __slots__ = ("_columns", "_hash", "_index", "_keys")

    def __init__(self, query_ids: Iterable[str], columns: Mapping[str, Iterable[float]]) -> None:
        self._keys: tuple[str, ...] = tuple(query_ids)
        self._columns: dict[str, array[float]] = {k: _floats(v) for k, v in columns.items()}
        for key, column in self._columns.items():
            if len(column) != len(self._keys):
                raise ValueError(
                    f"per-query values: column {key!r} has {len(column)} values for "
                    f"{len(self._keys)} queries"
                )
        # Built on the first look-up by id: a report only summarised never needs it.
        self._index: dict[str, int] | None = None
        self._hash: int | None = None

    def column(self, key: str) -> memoryview:
        """The values of ``key``, one per query in order (a read-only view: no copy)."""
        return memoryview(self._columns[key]).toreadonly()

    def _position(self) -> dict[str, int]:
        if self._index is None:
            index = {query_id: i for i, query_id in enumerate(self._keys)}
            if len(index) != len(self._keys):
                raise ValueError("per-query values: a query id is listed twice")
            self._index = index
        return self._index

    def _row_at(self, i: int) -> FrozenDict[str, float]:
        return FrozenDict({key: column[i] for key, column in self._columns.items()})

    def _each_row(self) -> Iterator[FrozenDict[str, float]]:
        if not self._columns:  # rows with no key: one per query all the same
            yield from (FrozenDict() for _ in self._keys)
            return
        keys = tuple(self._columns)
        for row in zip(*self._columns.values(), strict=True):
            yield FrozenDict(zip(keys, row, strict=True))

    def __getitem__(self, query_id: str) -> FrozenDict[str, float]:
        return self._row_at(self._position()[query_id])

    def __contains__(self, query_id: object) -> bool:
        return query_id in self._position()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, QueryValues):
            return self._keys == other._keys and self._columns == other._columns
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:  # the FrozenDict of rows it equals hashes so
            self._hash = hash(tuple(self.items()))
        return self._hash

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __reduce__(self) -> tuple[type[QueryValues], tuple[Sequence[str], dict[str, Any]]]:
        return (type(self), (self._keys, self._columns))
