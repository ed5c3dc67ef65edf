"""Every distinct order of a run's tie groups: the exact tie average of any batch metric.

A group of tied docs can be ordered in many ways; orders that only swap docs of one grade (or
two unjudged docs) give every metric the same value, so a metric's mean over the *distinct*
orders, each weighted by how many orders it stands for, is its expected value over all
orders. :func:`expand` repeats each query once per distinct order of its groups (as untied
hits); :func:`averaged_over_orders` gives a batch metric's mean over them. This is exact, and
grows with the groups that mix grades: a query with more than :data:`MAX_ORDERS` distinct
orders is refused. ``tie_policy="expected"`` averages over :func:`expand`'s repeats for every
metric without an expected form (binG, G, ndcg_rel, Rndcg, set_map, iprec_at_recall,
11pt_avg, and any plugin's); rprec_mult's expected form uses :func:`averaged_over_orders` where
a cutoff meets its depth.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from ...errors import ArgumentError, Keyword

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = ["MAX_ORDERS", "averaged_over_orders", "expand", "mean_by_owner"]

#: The most orders :func:`expand` enumerates for one query before it refuses.
MAX_ORDERS = 100_000


def _groups(hits: JudgedHits) -> Iterator[tuple[int, list[int], int, int]]:
    """Each tie group holding a judged doc: its query, its hits (indices), ``above``, size."""
    import numpy as np  # only once something is scored

    above, tied = hits.tie_above(), hits.tie_size()
    if hits.query.size == 0:
        return
    starts = np.flatnonzero(
        np.r_[True, (hits.query[1:] != hits.query[:-1]) | (above[1:] != above[:-1])]
    )
    ends = np.r_[starts[1:], hits.query.size]
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        yield int(hits.query[start]), list(range(start, end)), int(above[start]), int(tied[start])


def _n_orders(grades: Sequence[float], size: int) -> int:
    """Distinct orders of a group of ``size`` docs with these judged grades (the unjudged
    docs are alike, and so are the docs of one grade)."""
    counts = [len(list(g)) for _, g in itertools.groupby(sorted(grades))]
    counts.append(size - len(grades))
    orders = math.factorial(size)
    for count in counts:
        orders //= math.factorial(count)
    return orders


def _distinct_permutations(items: list[float]) -> Iterator[tuple[float, ...]]:
    """Every distinct order of ``items`` (lexicographic, each once)."""
    current = sorted(items)
    while True:
        yield tuple(current)
        i = len(current) - 2
        while i >= 0 and current[i] >= current[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(current) - 1
        while current[j] <= current[i]:
            j -= 1
        current[i], current[j] = current[j], current[i]
        current[i + 1 :] = reversed(current[i + 1 :])


def _group_orders(grades: list[float], above: int, size: int) -> list[list[tuple[int, float]]]:
    """Every distinct placement of a group's judged grades: ``[(rank, grade), ...]`` each."""
    placements = []
    for slots in itertools.combinations(range(above + 1, above + size + 1), len(grades)):
        for order in _distinct_permutations(grades):
            placements.append(list(zip(slots, order, strict=True)))
    return placements


def expand(
    hits: JudgedHits, metric: str = "this metric", query_ids: Sequence[str] | None = None
) -> tuple[JudgedHits, Ints]:
    """``hits`` with every query repeated once per distinct order of its tie groups, and the
    query each repeat belongs to: a metric's mean over a query's repeats is its expected value
    over the orders of its ties (all orders of a group are equally likely, and orders that
    only swap docs of one grade, or two unjudged docs, give every metric the same value).

    Only groups that mix grades (or judged and unjudged docs) have more than one order. A
    query with more than :data:`MAX_ORDERS` of them is refused, named by ``query_ids`` (its
    index without them).

    >>> from ef.evaluation._hits import JudgedHits
    >>> from ef.evaluation.metrics.retrieval.reciprocal_rank import reciprocal_rank_batch
    >>> hits = JudgedHits.from_rankings([["a", "b", "c"]], [{"c": 1}])
    >>> tied = hits.__class__.build(1, [0], [3], [1.0], [{"c": 1}], n_retrieved=[3],
    ...                             above=[0], tied=[3])  # a, b and c all score 1.0
    >>> repeats, owner = expand(tied)
    >>> reciprocal_rank_batch(repeats, None).tolist(), owner.tolist()
    ([1.0, 0.5, 0.3333333333333333], [0, 0, 0])
    """
    import numpy as np  # only once something is scored

    from ..._hits import JudgedHits

    def refuse(query: int, orders: int, where: str) -> ValueError:
        name = repr(query_ids[query]) if query_ids is not None else f"index {query}"
        return ArgumentError(
            Keyword("tie_policy", "expected"),
            f": {metric} has no closed tie-averaged form, and query {name}'s "
            f"tied docs{where} have {orders:,} distinct orders, more than {MAX_ORDERS:,} to "
            "average over; choose a deterministic tie policy",
        )

    per_query: dict[int, list[list[list[tuple[int, float]]]]] = {}
    for query, members, above, size in _groups(hits):
        grades = hits.grade[members].tolist()
        if size == 1 or (len(grades) == size and len(set(grades)) == 1):
            placements = [list(zip(hits.rank[members].tolist(), grades, strict=True))]
        else:
            orders = _n_orders(grades, size)
            if orders > MAX_ORDERS:
                raise refuse(query, orders, f" (a group of {size} at rank {above + 1})")
            placements = _group_orders(grades, above, size)
        per_query.setdefault(query, []).append(placements)
    owner: list[int] = []
    query_col: list[int] = []
    rank_col: list[int] = []
    grade_col: list[float] = []
    judgements: list[Mapping[str, float]] = []
    n_retrieved: list[int] = []
    source = _judgements_of(hits)
    for q in range(hits.n_queries):
        groups = per_query.get(q, [[[]]])
        total = math.prod(len(g) for g in groups)
        if total > MAX_ORDERS:
            raise refuse(q, total, "")
        for combination in itertools.product(*groups):
            placed = sorted(itertools.chain.from_iterable(combination))
            index = len(owner)
            owner.append(q)
            query_col.extend([index] * len(placed))
            rank_col.extend(r for r, _ in placed)
            grade_col.extend(g for _, g in placed)
            judgements.append(source[q])
            n_retrieved.append(int(hits.n_retrieved[q]))
    repeats = JudgedHits.build(
        len(owner), query_col, rank_col, grade_col, judgements, n_retrieved=n_retrieved
    )
    return repeats, np.asarray(owner, dtype=np.int64)


def _judgements_of(hits: JudgedHits) -> list[Mapping[str, float]]:
    """Stand-in judgements with each query's grades (the batch metrics read only grades)."""
    grades = hits.judged
    offsets = hits.judged_offsets.tolist()
    return [
        {f"#{i}": g for i, g in enumerate(grades[start:end].tolist())}
        for start, end in itertools.pairwise(offsets)
    ]


def averaged_over_orders(
    hits: JudgedHits, batch: Callable[[JudgedHits], Floats], metric: str = "this metric"
) -> Floats:
    """``batch``'s value of each query averaged over every distinct order of its tie groups
    (:func:`expand`), exactly summed; ``batch(hits)`` itself when nothing ties.

    >>> from ef.evaluation._hits import JudgedHits
    >>> from ef.evaluation.metrics.retrieval.reciprocal_rank import reciprocal_rank_batch
    >>> tied = JudgedHits.build(1, [0], [2], [1.0], [{"c": 1}], n_retrieved=[2],
    ...                         above=[0], tied=[2])  # x and c tie
    >>> averaged_over_orders(tied, lambda h: reciprocal_rank_batch(h, None)).tolist()
    [0.75]
    """
    import numpy as np

    from .kernels import untied

    if untied(hits):  # one order: its value is the mean
        return batch(hits)
    repeats, owner = expand(hits, metric)
    values = np.asarray(batch(repeats), dtype=np.float64).tolist()
    return np.asarray(mean_by_owner(values, owner, hits.n_queries), dtype=np.float64)


def mean_by_owner(values: Sequence[float], owner: Ints, n_queries: int) -> list[float]:
    """Each query's mean over its repeats (:func:`expand`'s ``owner``), exactly summed."""
    sums: list[list[float]] = [[] for _ in range(n_queries)]
    for value, q in zip(values, owner.tolist(), strict=True):
        sums[q].append(value)
    return [math.fsum(v) / len(v) for v in sums]
