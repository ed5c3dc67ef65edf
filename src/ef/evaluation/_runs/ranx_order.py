"""The order ranx ranks a query's docs in, tied docs included.

ranx sorts each query's scores with numba's quicksort (``np.argsort`` of the negated scores
in nopython mode): not a stable sort, so tied docs land where its partitions leave them,
which depends on every score of the query. The order depends on how ranx was called:

* ``Run(d)`` sorts each query once (the negated scores); ``evaluate(..., make_comparable=True)``
  on a ``Qrels`` and a ``Run`` sorts it again, whether or not the query sets differ
  (:func:`ranx_order`, ``passes`` 1 or 2);
* a plain dict given to ``evaluate`` is sorted once the other way: the scores ascending, then
  reversed (:func:`ranx_dict_order`).

The ``ranx`` profile and :mod:`ef.evaluation.compat.ranx` reproduce those orders here, in plain
Python, for the queries that have ties; a test holds them equal to numba's own
``make_py_quicksort``.

The algorithm (as numba's ``numba/misc/quicksort.py``): partitions of 15 or more items are
split around the median of their first, middle and last items, the larger part pushed on a
stack; smaller ones are insertion-sorted.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["argsort", "ranx_dict_order", "ranx_order"]

_SMALL = 15  # numba's SMALL_QUICKSORT: insertion sort below this size


def _insertion_sort(keys: Sequence[float], order: list[int], low: int, high: int) -> None:
    for i in range(low + 1, high + 1):
        item = order[i]
        value = keys[item]
        j = i
        while j > low and value < keys[order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = item


def _partition(keys: Sequence[float], order: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    if keys[order[mid]] < keys[order[low]]:
        order[low], order[mid] = order[mid], order[low]
    if keys[order[high]] < keys[order[mid]]:
        order[high], order[mid] = order[mid], order[high]
    if keys[order[mid]] < keys[order[low]]:
        order[low], order[mid] = order[mid], order[low]
    pivot = keys[order[mid]]
    order[high], order[mid] = order[mid], order[high]  # the pivot waits at the end
    i, j = low, high - 1
    while True:
        while i < high and keys[order[i]] < pivot:
            i += 1
        while j >= low and pivot < keys[order[j]]:
            j -= 1
        if i >= j:
            break
        order[i], order[j] = order[j], order[i]
        i += 1
        j -= 1
    order[i], order[high] = order[high], order[i]
    return i


def argsort(keys: Sequence[float]) -> list[int]:
    """numba's quicksort argsort of ``keys`` (ascending; ties where its partitions put them).

    >>> argsort([3.0, 1.0, 2.0])
    [1, 2, 0]
    """
    order = list(range(len(keys)))
    if len(keys) < 2:
        return order
    stack = [(0, len(keys) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= _SMALL:
            i = _partition(keys, order, low, high)
            if high - i > i - low:  # the larger part waits on the stack
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion_sort(keys, order, low, high)
    return order


def ranx_order(docs: Sequence[str], scores: Sequence[float], passes: int = 1) -> list[str]:
    """``docs`` in the order ranx ranks them: ``passes`` quicksorts of the negated scores,
    each of the previous order (ranx sorts a second time under ``make_comparable=True``).

    >>> ranx_order(["a", "b", "c"], [1.0, 2.0, 1.0])
    ['b', 'a', 'c']
    """
    items = list(zip(docs, scores, strict=True))
    for _ in range(passes):
        order = argsort([-score for _, score in items])
        items = [items[i] for i in order]
    return [doc for doc, _ in items]


def ranx_dict_order(docs: Sequence[str], scores: Sequence[float]) -> list[str]:
    """``docs`` in the order ranx ranks a plain dict run given to ``evaluate``: its
    ``descending_sort``, a quicksort of the scores ascending, read backwards.

    >>> ranx_dict_order(["a", "b", "c"], [1.0, 2.0, 1.0])
    ['b', 'c', 'a']
    """
    return [docs[i] for i in reversed(argsort(scores))]
