"""Ids and qrels packed in a few flat arrays, for what a large run keeps to its end.

A run of 200,000 queries read in batches keeps little per query, but as Python objects even
that adds up: a string per query id (about 56 bytes), and for its qrels a dict per query, a
string per doc id and a float per grade (about 75 MB in all). Packed, strings are one long
string and the offsets where each ends (:class:`PackedStrings`), and qrels two such columns
and an array of grades (:class:`PackedQrels`, about 11 MB for the same qrels): a handful of
objects however many queries, and nothing left scattered among a batch's short-lived ones.

>>> ids = PackedStrings(["q1", "q10", "q2"])
>>> list(ids), ids[1], len(ids)
(['q1', 'q10', 'q2'], 'q10', 3)
>>> qrels = PackedQrels.of({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}})
>>> qrels["q1"], "q2" in qrels, "q3" in qrels, list(qrels)
({'d1': 1.0, 'd2': 0.0}, True, False, ['q1', 'q2'])
>>> qrels == {"q1": {"d1": 1.0, "d2": 0.0}, "q2": {"d3": 2.0}}
True
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import accumulate, chain, pairwise
from typing import Any, overload

from .positional import PositionalMapping

__all__ = ["PackedQrels", "PackedStrings", "packed_qrels"]


def _ints(values: list[int]) -> array[int]:
    """``values`` (not negative) in 4 bytes each where they fit, half of 8, else in 8."""
    return array("i" if max(values, default=0) < 2**31 else "q", values)


class PackedStrings(Sequence[str]):
    """Read-only strings, in order, held as one string and the offset where each ends.

    >>> PackedStrings(["a", "", "bc"])[-1], PackedStrings([]) == []
    ('bc', True)
    """

    __slots__ = ("_ends", "_joined")

    def __init__(self, strings: Iterable[str]) -> None:
        strings = strings if isinstance(strings, (list, tuple)) else list(strings)
        self._joined = "".join(strings)
        self._ends = _ints(list(chain((0,), accumulate(map(len, strings)))))

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("PackedStrings index out of range")
        return self._joined[self._ends[i] : self._ends[i + 1]]

    def __len__(self) -> int:
        return len(self._ends) - 1

    def __iter__(self) -> Iterator[str]:
        joined = self._joined
        return (joined[a:b] for a, b in pairwise(self._ends))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has no hash

    def __repr__(self) -> str:
        return f"PackedStrings({list(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[str, array[int]]]:
        return (_unpickled, (self._joined, self._ends))


def _unpickled(joined: str, ends: array[int]) -> PackedStrings:
    strings = PackedStrings(())
    strings._joined, strings._ends = joined, ends
    return strings


class PackedQrels(PositionalMapping[str, Mapping[str, float]]):
    """Read-only ``{query_id: {doc_id: grade}}`` packed in flat arrays; build it with
    :meth:`of`. Queries keep their order (the report's order under ``averaging="qrels"``),
    and each query's judgements theirs.

    A query's judgements are made (a fresh dict) only when they are read. A query id is
    found by its ``hash()`` in a sorted array, then compared (so a clash of hashes cannot
    mislead): reading a batch's queries costs a binary search each.

    >>> qrels = PackedQrels.of({"q1": {"d1": 1}})
    >>> qrels.get("q1"), qrels.get("q9"), len(qrels)
    ({'d1': 1.0}, None, 1)
    >>> qrels["q9"]
    Traceback (most recent call last):
        ...
    KeyError: 'q9'
    """

    __slots__ = ("_by_hash", "_docs", "_grades", "_hashes", "_keys", "_rows")

    def __init__(
        self, queries: PackedStrings, rows: array[int], docs: PackedStrings, grades: array[float]
    ) -> None:
        self._keys = queries
        self._rows = rows  # query i's judgements are rows rows[i] .. rows[i + 1] - 1
        self._docs = docs  # each row's doc id
        self._grades = grades  # each row's grade
        # Each query's hash, sorted, and the query it is: a look-up is a binary search (in C:
        # one by the ids themselves would cost a slice of ``queries`` at each step).
        hashes = array("q", map(hash, queries))
        self._by_hash = _ints(sorted(range(len(hashes)), key=hashes.__getitem__))
        self._hashes = array("q", map(hashes.__getitem__, self._by_hash))

    @classmethod
    def of(cls, qrels: Mapping[str, Mapping[str, float]]) -> PackedQrels:
        """``qrels`` packed (its grades as floats)."""
        if isinstance(qrels, PackedQrels):
            return qrels
        docs: list[str] = []
        grades = array("d")
        rows = [0]
        for judged in qrels.values():
            docs.extend(judged)
            grades.extend(map(float, judged.values()))
            rows.append(len(docs))
        return cls(PackedStrings(qrels), _ints(rows), PackedStrings(docs), grades)

    def _find(self, query_id: object) -> int:
        """The position of ``query_id``, or -1."""
        if not isinstance(query_id, str):
            return -1
        key = hash(query_id)
        at = bisect_left(self._hashes, key)
        while at < len(self._hashes) and self._hashes[at] == key:
            i = self._by_hash[at]
            if self._keys[i] == query_id:
                return i
            at += 1  # another query with the same hash
        return -1

    def _row_at(self, i: int) -> dict[str, float]:
        docs, grades = self._docs, self._grades
        return {docs[r]: grades[r] for r in range(self._rows[i], self._rows[i + 1])}

    def __getitem__(self, query_id: str) -> dict[str, float]:
        i = self._find(query_id)
        if i < 0:
            raise KeyError(query_id)
        return self._row_at(i)

    def __contains__(self, query_id: object) -> bool:
        return self._find(query_id) >= 0

    def get(self, query_id: object, default: Any = None) -> Any:  # one search, no KeyError
        i = self._find(query_id)
        return default if i < 0 else self._row_at(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return len(self) == len(other) and all(
                key in other and other[key] == judged for key, judged in self.items()
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a dict, which has no hash

    def __repr__(self) -> str:
        return f"<PackedQrels: {len(self)} queries, {len(self._grades)} judgements>"

    def __reduce__(self) -> tuple[type[PackedQrels], tuple[Any, ...]]:
        # The hash index is built again where it lands: str hashes differ between processes.
        return (type(self), (self._keys, self._rows, self._docs, self._grades))


def packed_qrels(
    qrels: Mapping[str, Mapping[str, float]],
) -> Mapping[str, Mapping[str, float]]:
    """``qrels`` packed (:meth:`PackedQrels.of`), or as they are if an id is not a str: the
    checks that follow then say so as they do for a dict (``1`` is not the run's ``'1'``).

    >>> type(packed_qrels({"q1": {"d1": 1}})).__name__, packed_qrels({1: {"d1": 1}})
    ('PackedQrels', {1: {'d1': 1}})
    """
    if isinstance(qrels, PackedQrels):
        return qrels
    every_id_a_str = all(
        isinstance(query_id, str) and all(isinstance(doc_id, str) for doc_id in judged)
        for query_id, judged in qrels.items()
    )
    return PackedQrels.of(qrels) if every_id_a_str else qrels
