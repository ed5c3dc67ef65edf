"""PositionalMapping: a read-only mapping held by position, whose rows are made when read.

The engine's column-backed mappings (a report's per-query values,
:class:`~ef.evaluation._engine.query_values.QueryValues`, and packed qrels,
:class:`~ef.evaluation._runs.packed.PackedQrels`) keep their keys in order and each row's
parts at the key's position. Iterating their values or items walks the positions, so that no
index by key is built for a report that is only printed or saved.

>>> class Squares(PositionalMapping[str, int]):
...     _keys = ("a", "b", "c")
...     def _row_at(self, i):
...         return i * i
...     def __getitem__(self, key):
...         return self._row_at(self._keys.index(key))
>>> squares = Squares()
>>> list(squares.items()), list(squares.values()), len(squares), squares["c"]
([('a', 0), ('b', 1), ('c', 4)], [0, 1, 4], 3, 4)
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, Sequence, ValuesView
from typing import TypeVar

__all__ = ["PositionalMapping"]

K = TypeVar("K")
V = TypeVar("V")


class PositionalMapping(Mapping[K, V]):
    """A read-only mapping of the keys ``_keys`` (distinct, in order), whose row at position
    ``i`` is ``_row_at(i)``; a subclass adds ``__getitem__`` (its look-up by key), and may
    make ``_each_row`` faster than a row at a time."""

    __slots__ = ()
    _keys: Sequence[K]

    def _row_at(self, i: int) -> V:
        raise NotImplementedError  # pragma: no cover - every subclass has its own

    def _each_row(self) -> Iterator[V]:
        """Every row, in the keys' order."""
        return map(self._row_at, range(len(self._keys)))

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def values(self) -> ValuesView[V]:
        return _Values(self)

    def items(self) -> ItemsView[K, V]:
        return _Items(self)


class _Values(ValuesView[V]):
    _mapping: PositionalMapping[object, V]

    def __iter__(self) -> Iterator[V]:
        return self._mapping._each_row()  # by position: no index by key is built


class _Items(ItemsView[K, V]):
    _mapping: PositionalMapping[K, V]

    def __iter__(self) -> Iterator[tuple[K, V]]:
        return zip(self._mapping._keys, self._mapping._each_row(), strict=True)
