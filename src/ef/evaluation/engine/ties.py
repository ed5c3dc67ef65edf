"""Tie policies: how docs with equal scores are ordered, and what the ties could change.

Four policies, applied to every metric of an evaluation alike:

* ``"trec_eval"`` (the default): score descending, compared as float32, then doc id
  descending, as trec_eval, pytrec_eval, BEIR's pytrec metrics and MTEB order them;
* ``"docno_asc"``: doc id ascending among equal scores (ir_measures' msmarco provider);
* ``"input_order"``: the order the run lists them (file order, or a mapping's order), as a
  stable sort gives (BEIR's own MRR, R_cap, Hole and accuracy);
* ``"expected"``: no order at all. Each metric is averaged over every order of each group of
  tied docs, exactly (McSherry and Najork, 2008). Built-in metrics have closed forms; a
  metric without one is averaged over the distinct orders of its groups (see
  :func:`expand`), which is exact but grows with the groups that mix judgements.

:func:`tie_diagnostic` says, per evaluation, which queries the choice could matter for.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..runs.order import TIE_POLICIES, check_tie_policy

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..hits import Ints, JudgedHits

__all__ = [
    "MAX_ORDERS",
    "TIE_POLICIES",
    "TieDiagnostic",
    "check_tie_policy",
    "expand",
    "expand_rankings",
    "mean_by_owner",
    "tie_diagnostic",
]

#: The most orders :func:`expand` enumerates for one query before it refuses.
MAX_ORDERS = 100_000


def _str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class TieDiagnostic:
    """Where tied scores could change a retrieval report: which scored queries have docs with
    equal scores (``tied``), ties across one of the report's cutoffs (``at_cutoff``: the docs
    at ranks ``k`` and ``k + 1`` tie, so which one counts depends on the tie policy), and
    ties between a relevant doc and a doc of another grade or an unjudged one
    (``at_relevant``). ``policy`` is the tie policy the report used.

    >>> ties = TieDiagnostic(policy="trec_eval", tied=["q1", "q2"], at_cutoff=["q2"])
    >>> str(ties)
    'ties (trec_eval): 2 queries with tied scores, 1 across a cutoff, 0 at a relevant doc'
    """

    policy: str = "trec_eval"
    tied: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    at_cutoff: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    at_relevant: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``."""
        return {
            "policy": self.policy,
            "tied": list(self.tied),
            "at_cutoff": list(self.at_cutoff),
            "at_relevant": list(self.at_relevant),
        }

    def __str__(self) -> str:
        return (
            f"ties ({self.policy}): {len(self.tied)} queries with tied scores, "
            f"{len(self.at_cutoff)} across a cutoff, {len(self.at_relevant)} at a relevant doc"
        )


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

    >>> from ef.evaluation.hits import JudgedHits
    >>> from ef.evaluation.metrics.retrieval.reciprocal_rank import reciprocal_rank_batch
    >>> hits = JudgedHits.from_rankings([["a", "b", "c"]], [{"c": 1}])
    >>> tied = hits.__class__.build(1, [0], [3], [1.0], [{"c": 1}], n_retrieved=[3],
    ...                             above=[0], tied=[3])  # a, b and c all score 1.0
    >>> repeats, owner = expand(tied)
    >>> reciprocal_rank_batch(repeats, None).tolist(), owner.tolist()
    ([1.0, 0.5, 0.3333333333333333], [0, 0, 0])
    """
    import numpy as np  # only once something is scored

    from ..hits import JudgedHits

    def refuse(query: int, orders: int, where: str) -> ValueError:
        name = repr(query_ids[query]) if query_ids is not None else f"index {query}"
        return ValueError(
            f"tie_policy='expected': {metric} has no tie-averaged form, and query {name}'s "
            f"tied docs{where} have {orders:,} distinct orders, more than {MAX_ORDERS:,} to "
            "average over; choose a deterministic tie policy"
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


def expand_rankings(
    rankings: Sequence[Sequence[str]],
    judgements: Sequence[Mapping[str, float]],
    hits: JudgedHits,
    metric: str = "this metric",
    query_ids: Sequence[str] | None = None,
) -> tuple[list[list[str]], list[Mapping[str, float]], Ints]:
    """Like :func:`expand`, for a metric scored on ranked doc ids: every distinct order of
    each query's tie groups as a ranking (its judgements alongside), and the query each is
    for. ``rankings`` are in the order ``hits`` ranks them."""
    import numpy as np  # only once something is scored

    repeats, owner = expand(hits, metric, query_ids)
    out: list[list[str]] = []
    out_judgements: list[Mapping[str, float]] = []
    for index, q in enumerate(owner.tolist()):
        ranking = list(rankings[q])
        judged = judgements[q]
        start, end = np.searchsorted(repeats.query, [index, index + 1])
        ranks, grades = repeats.rank[start:end].tolist(), repeats.grade[start:end].tolist()
        wanted = dict(zip(ranks, grades, strict=True))
        # The query's judged docs by grade, to be placed where this order puts each grade.
        pools: dict[float, list[str]] = {}
        moved = set()
        for rank in range(int(hits.n_retrieved[q])):
            grade = judged.get(ranking[rank])
            if grade is not None:
                pools.setdefault(float(grade), []).append(ranking[rank])
        placed: dict[int, str] = {}
        for rank, grade in sorted(wanted.items()):
            doc = pools[grade].pop(0)
            placed[rank - 1] = doc
            moved.add(doc)
        rest = iter(doc for doc in ranking if doc not in moved)
        out.append([placed[i] if i in placed else next(rest) for i in range(len(ranking))])
        out_judgements.append(judged)
    return out, out_judgements, owner


def mean_by_owner(values: Sequence[float], owner: Ints, n_queries: int) -> list[float]:
    """Each query's mean over its repeats (exactly summed)."""
    sums: list[list[float]] = [[] for _ in range(n_queries)]
    for value, q in zip(values, owner.tolist(), strict=True):
        sums[q].append(value)
    return [math.fsum(v) / len(v) for v in sums]


def tie_diagnostic(
    policy: str,
    query_ids: Sequence[str],
    hits: JudgedHits,
    stats: tuple[npt.NDArray[Any], npt.NDArray[Any]] | None,
) -> TieDiagnostic:
    """Which scored queries have ties, ties across a cutoff, and ties that hold a relevant
    doc together with a doc of another grade or an unjudged one (``stats`` from
    :meth:`~ef.evaluation.RunTable.tie_stats`; None for rankings without scores)."""
    import numpy as np  # only once something is scored

    if stats is None:
        return TieDiagnostic(policy=policy)
    has_ties, at_cutoff = stats
    at_relevant = np.zeros(len(query_ids), dtype=bool)
    above, tied = hits.tie_above(), hits.tie_size()
    candidates = (hits.grade > 0) & (tied > 1)
    if candidates.any():
        # A group is uniform when every one of its docs is judged with the same grade.
        keys = np.stack([hits.query, above, hits.grade.view(np.int64)], axis=1)
        _, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        same = counts[inverse.ravel()]
        at_relevant[hits.query[candidates & (same < tied)]] = True
    return TieDiagnostic(
        policy=policy,
        tied=[q for q, flag in zip(query_ids, has_ties.tolist(), strict=True) if flag],
        at_cutoff=[q for q, flag in zip(query_ids, at_cutoff.tolist(), strict=True) if flag],
        at_relevant=[q for q, flag in zip(query_ids, at_relevant.tolist(), strict=True) if flag],
    )
