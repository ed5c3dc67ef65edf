"""ERR@k: expected reciprocal rank, a cascade model of graded relevance.

    ERR@k = sum(R_i / i * prod(1 - R_j, j < i), i <= k), R = (2 ** grade - 1) / 2 ** max_grade

Chapelle et al., "Expected Reciprocal Rank for Graded Relevance", CIKM 2009; as gdeval
computes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import IRM, JUDGED_ONLY, check_arguments
from .reference import top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "ERR",
    "err_at_k",
    "err_batch",
    "err_expected",
]


def err_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    max_grade: float = 4.0,
    judged_only: bool = False,
) -> float:
    """Expected reciprocal rank (Chapelle et al., 2009), as gdeval computes it.

    A doc of grade ``g`` satisfies the user with probability ``R = (2**g - 1) / 2**max_grade``
    (grades clipped to ``[0, max_grade]``); ERR sums ``R_i / i`` times the chance that no doc
    above rank ``i`` satisfied. gdeval's ``max_grade`` is 4.

    >>> err_at_k(['d1', 'd2'], {'d1': 4, 'd2': 4}, 2)  # 15/16 + (1/16) * (15/16) / 2
    0.966796875
    """
    check_arguments("err_at_k(ranked, relevant, k)", (MAX_GRADE, max_grade))
    top = top_docs(ranked, relevant, k, judged_only)
    score = 0.0
    decay = 1.0
    for rank, doc in enumerate(top, start=1):
        grade = min(max(relevant.get(doc, 0.0), 0.0), max_grade)
        satisfied = (2.0**grade - 1.0) / 2.0**max_grade
        if satisfied > 0:
            score += satisfied * decay / rank
            decay *= 1.0 - satisfied
    return score


def err_batch(
    hits: JudgedHits, k: int | None, *, max_grade: float = 4.0, judged_only: bool = False
) -> Floats:
    """ERR@k of every query, as gdeval computes it.

    The chance that no doc above satisfied is a running product within each query: it is
    taken one position at a time across all queries at once, in the reference's order.
    """
    import numpy as np

    from .kernels import in_top, prepared

    hits = prepared(hits, judged_only)
    grade = np.clip(hits.grade, 0.0, max_grade)
    satisfied = (np.power(2.0, grade) - 1.0) / 2.0**max_grade
    mask = in_top(hits, k) & (satisfied > 0)
    satisfied = satisfied[mask]
    return _cascade(hits.n_queries, hits.query[mask], satisfied, hits.rank[mask], 1.0 - satisfied)


def _cascade(
    n_queries: int, query: Ints, gain: Floats, rank: Ints | Floats, kept: Floats
) -> Floats:
    """Per query, ``sum(gain_i / rank_i * prod(kept_j, j < i))`` over its items (in query
    order, each query's in rank order): the chance that nothing above satisfied, ``kept`` the
    chance an item does not, is a running product within each query, taken one position at
    a time across all queries at once."""
    import numpy as np

    from ..._hits import position_in_query

    position = position_in_query(query)
    order = np.argsort(position, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(position))] if position.size else np.zeros(1, int)
    score = np.zeros(n_queries, dtype=np.float64)
    decay = np.ones(n_queries, dtype=np.float64)
    for start, end in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        at = order[start:end]  # the n-th item of every query that has one
        owners = query[at]
        score[owners] += gain[at] * decay[owners] / rank[at]
        decay[owners] *= kept[at]
    return score


def _err_walk(above: Ints, tied: Ints, span: Ints, satisfied: Floats, count: Ints) -> Floats:
    """The expected ERR of groups, each as if nothing above it satisfied (the caller scales
    them); ``satisfied[g, :count[g]]`` are group ``g``'s chances to satisfy (``R``).

    A group's ``n`` satisfying docs come in a uniformly random order, independent of the
    ranks they take, so the ``(j + 1)``-th of them adds ``c[j] * Q[j]`` on average.
    ``c[j] = E[R of the (j + 1)-th * prod(1 - R) over the j before it] = M[j] - M[j + 1]``,
    ``M[j]`` the mean over ``j``-subsets of the product of their ``1 - R``; it is built one
    doc at a time, ``c`` with it, from terms that are never negative, so nothing cancels.
    ``Q[j] = E[1 / rank of the (j + 1)-th; within the top k]`` comes from the chance that
    ``j`` of them took the group's first ``i`` ranks, walking down the ranks. O(n ** 2 +
    ranks * n) per group; the groups walk together."""
    import numpy as np

    from .kernels import walking, walks

    out = np.zeros(span.size, dtype=np.float64)
    for part in walks(span, count):
        n, t, top = count[part, None], tied[part, None], above[part, None]
        j = np.arange(int(n.max()) + 1)[None, :]
        means = (j == 0).astype(np.float64) * np.ones((part.size, 1))
        share = means.copy()  # M[j] - M[j + 1] of no docs
        for m in range(1, j.size):
            r = np.where(m <= n, satisfied[part, m - 1, None], 0.0)
            grow = m <= n
            earlier_means = np.c_[np.zeros(part.size), means[:, :-1]]
            earlier_share = np.c_[np.zeros(part.size), share[:, :-1]]
            new_share = (
                ((m - j - 1) / m) * share + (j / m) * (1.0 - r) * earlier_share + (r / m) * means
            )
            new_means = ((m - j) / m) * means + (j / m) * (1.0 - r) * earlier_means
            share = np.where(grow, new_share, share)
            means = np.where(grow, new_means, means)
        chance = (j == 0).astype(np.float64) * np.ones((part.size, 1))
        reciprocal = np.zeros((part.size, j.size))
        walk = span[part]
        for i in range(int(walk[0])):
            k = walking(walk, i)
            c, left = chance[:k], t[:k] - i
            placed = c * np.maximum(n[:k] - j, 0) / left  # the (j + 1)-th takes rank i + 1
            reciprocal[:k] += placed / (top[:k] + i + 1)
            c = c * (t[:k] - n[:k] - i + j) / left
            c[:, 1:] += placed[:, :-1]
            chance[:k] = c
        out[part] = np.sum(np.where(j < n, share * reciprocal, 0.0), axis=1)
    return out


def _err_tied(hits: JudgedHits, k: int | None, max_grade: float) -> Floats:
    import numpy as np

    from ..._hits import position_in_query
    from .kernels import TieGroups

    grade = np.clip(hits.grade, 0.0, max_grade)
    satisfied = (np.power(2.0, grade) - 1.0) / 2.0**max_grade
    groups = TieGroups(hits)
    satisfies = satisfied > 0
    n_sat, span = groups.count(satisfies), groups.span(k)
    kept = np.where(satisfies, 1.0 - satisfied, 1.0)
    unsatisfied = np.multiply.reduceat(kept, groups.start[:-1]) if groups.n else kept
    keep = np.flatnonzero((n_sat > 0) & (span > 0))
    gained = np.zeros(groups.n, dtype=np.float64)
    single = keep[groups.size[keep] == 1]
    # A group of one doc holds one entry: its first.
    gained[single] = satisfied[groups.start[single]] / (groups.above[single] + 1)
    walk = keep[groups.size[keep] > 1]
    if walk.size:
        # Each walking group's chances to satisfy, in a row padded with zeros.
        owner = groups.entry[satisfies]
        at = np.searchsorted(walk, owner)
        inside = (at < walk.size) & (walk[np.minimum(at, walk.size - 1)] == owner)
        rows = np.zeros((walk.size, int(n_sat[walk].max())))
        rows[at[inside], position_in_query(owner[inside])] = satisfied[satisfies][inside]
        gained[walk] = _err_walk(
            groups.above[walk], groups.size[walk], span[walk], rows, n_sat[walk]
        )
    # Each group as one item: its expected ERR (at rank 1), then nothing of it satisfied.
    ones = np.ones(keep.size, dtype=np.float64)
    return _cascade(hits.n_queries, groups.query[keep], gained[keep], ones, unsatisfied[keep])


err_expected = tie_averaged(
    err_batch,
    _err_tied,
    """Expected ERR@k, exact. The groups above a group are all placed before it, so it adds
    its own expected ERR (:func:`_err_group`) times the chance that nothing above satisfied,
    ``prod(1 - R)`` over the groups above. O(hits) for groups of one doc; O(ranks in the top
    ``k`` * satisfying docs, plus their square) for each larger group holding a satisfying
    doc.""",
)


def _max_grade(value: float) -> None:
    # 2 ** 1024 is past a float: every doc would satisfy with probability 0, ERR 0.
    if not 0 < value < 1024:
        raise ValueError(
            f"parameter 'max_grade' must be > 0 and below 1024 (2 ** max_grade must be a "
            f"float), got {value!r}"
        )


MAX_GRADE = MetricParam(
    "max_grade",
    float,
    4.0,
    "the grade that satisfies the user almost surely (gdeval's 4), > 0 and below 1024",
    check=_max_grade,
)


ERR = RetrievalMetric(
    name="err",
    func=err_at_k,
    batch=err_batch,
    expected=err_expected,
    params=(MAX_GRADE, JUDGED_ONLY),
    synonyms=(Synonym(IRM, "ERR"),),
    formula="sum(R_i / i * prod(1 - R_j, j < i), i <= k), R = (2 ** grade - 1) / 2 ** max_grade",
    citation="Chapelle et al., CIKM 2009; as gdeval computes it",
)
