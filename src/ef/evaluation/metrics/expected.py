"""Tie-averaged retrieval metrics: each metric's exact mean over every order of the tied docs.

A run that gives several docs the same score does not say in which order they come; any one
order (trec_eval's, by doc id) favours some docs over others. The ``expected`` tie policy
reports instead the mean of the metric over every order of each group of tied docs, judged
and unjudged alike, the groups ordered independently (McSherry and Najork, "Computing
Information Retrieval Performance Measures Efficiently in the Presence of Tied Scores", ECIR
2008). These functions compute that mean exactly, without sampling or enumerating orders.

Each takes the :class:`~ef.evaluation.metrics.batch.JudgedHits` of a run and the keyword
parameters of the matching ``*_batch`` function, and returns one value per query. Tie groups
come from ``hits.tie_above()`` and ``hits.tie_size()`` (``rank`` is ignored): a group that
``above`` docs outscore and that holds ``tied`` docs spans the ranks ``above + 1`` to
``above + tied``, and in a uniformly random order each of its docs is equally likely at each
of those ranks. Without ties every function returns the ``*_batch`` value itself.

A constant scorer over four docs, one of them relevant: the relevant doc is at rank 1, 2, 3
or 4 with chance 1/4 each.

>>> import attrs
>>> hits = JudgedHits.from_rankings([["a", "b", "c", "d1"]], [{"d1": 1}])
>>> hits = attrs.evolve(hits, above=[0], tied=[4])  # d1 ties with all four docs
>>> rr = reciprocal_rank_expected(hits, None)  # (1 + 1/2 + 1/3 + 1/4) / 4 = 25/48
>>> bool(abs(rr[0] - 25 / 48) < 1e-15)
True
>>> precision_expected(hits, 2).tolist(), success_expected(hits, 2).tolist()
([0.25], [0.5])

Metrics linear in per-rank indicators (precision, recall, DCG, RBP, ...) spread each doc
evenly over its group's ranks and cost a pass over the hits. The others condition on the
groups' contents: reciprocal rank and success on the first group holding a relevant doc,
AP on the relevant docs above, bpref, infAP and ERR on what comes before each relevant doc
within its group; a group whose docs are all alike costs nothing more, and a group that mixes
relevant docs with others and is not cut by ``k`` has a closed form or a short loop over its
ranks (see each function).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping

import numpy as np

from ..hits import position_in_query
from . import batch
from .batch import (
    Bools,
    Floats,
    Ints,
    JudgedHits,
    _depth,
    _gains,
    _ideal_dcg,
    _is_relevant,
    _n_nonrelevant,
    _n_relevant,
    _per_query,
    _prepared,
    _safe_divide,
)
from .retrieval import INFAP_EPSILON

__all__ = [
    "average_precision_expected",
    "bpref_expected",
    "capped_recall_expected",
    "err_expected",
    "f1_expected",
    "hole_expected",
    "inferred_average_precision_expected",
    "judged_expected",
    "ndcg_expected",
    "num_rel_expected",
    "num_rel_ret_expected",
    "num_ret_expected",
    "precision_expected",
    "r_precision_expected",
    "rbp_expected",
    "rbp_residual_expected",
    "recall_expected",
    "reciprocal_rank_expected",
    "success_expected",
]


def _untied(hits: JudgedHits) -> bool:
    """Whether every doc of ``hits`` is its own tie group (then the mean is the value)."""
    return hits.tied is None or bool(np.all(hits.tied == 1))


class _Groups:
    """The tie groups holding entries of some hits, in query then rank order.

    ``entry`` maps each entry to its group; per group, ``query``, ``above`` (docs scoring
    higher) and ``size`` (docs in it, judged or not). Groups without a judged doc are absent.
    """

    def __init__(self, hits: JudgedHits) -> None:
        query, above = hits.query, hits.tie_above()
        if query.size:
            first = np.r_[True, (query[1:] != query[:-1]) | (above[1:] != above[:-1])]
        else:
            first = np.zeros(0, dtype=bool)
        self.entry: Ints = np.cumsum(first, dtype=np.int64) - 1
        starts = np.flatnonzero(first)
        self.n = int(starts.size)
        #: Each group's entries run from ``start[g]`` to ``start[g + 1]``.
        self.start: Ints = np.r_[starts, query.size].astype(np.int64)
        self.query: Ints = query[starts]
        self.above: Ints = above[starts]
        self.size: Ints = hits.tie_size()[starts]

    def count(self, mask: Bools) -> Ints:
        """Per group, its entries with ``mask`` set."""
        return np.bincount(self.entry[mask], minlength=self.n).astype(np.int64)

    def span(self, k: int | None) -> Ints:
        """Per group, how many of its ranks lie in the top ``k``."""
        if k is None:
            return self.size
        return np.clip(k - self.above, 0, self.size)

    def before(self, values: Ints) -> Ints:
        """Per group, the sum of ``values`` over the groups of its query above it."""
        if values.size == 0:
            return values
        counts = np.cumsum(values) - values
        starts = np.flatnonzero(np.r_[True, self.query[1:] != self.query[:-1]])
        lengths = np.diff(np.r_[starts, values.size])
        return counts - np.repeat(counts[starts], lengths)


def _reach(hits: JudgedHits, k: int | Ints | None) -> Floats:
    """Per entry, the chance that its doc lands in the top ``k`` (``k`` may be per entry)."""
    if k is None:
        return np.ones(hits.query.size, dtype=np.float64)
    reach: Floats = np.clip((k - hits.tie_above()) / hits.tie_size(), 0.0, 1.0)
    return reach


def _found(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    """Per query, the expected number of relevant docs in the top ``k``."""
    return _per_query(hits, _is_relevant(hits.grade, rel), _reach(hits, k))


def _expand(count: Ints) -> tuple[Ints, Ints]:
    """``(owner, position)`` for positions 1 .. ``count[i]`` of every ``i``, flattened."""
    owner = np.repeat(np.arange(count.size), count)
    offsets = np.cumsum(count) - count
    return owner, np.arange(owner.size) - offsets[owner] + 1


def _first_groups(groups: _Groups, counts: Ints) -> tuple[Ints, Ints]:
    """``(queries, groups)``: the first group of each query with ``counts`` > 0."""
    some = np.flatnonzero(counts > 0)
    queries, first = np.unique(groups.query[some], return_index=True)
    return queries, some[first]


def _comb_ratio(n: int, d: int, m: int) -> float:
    """``C(n, m) / C(d, m)``, correctly rounded."""
    return math.comb(n, m) / math.comb(d, m)


#: How many cells (groups times padded states) one step of a walk down tie groups holds.
_CELLS = 1 << 21


def _walks(span: Ints, *sizes: Ints) -> Iterator[Ints]:
    """The indices of ``span`` in batches to walk down together, each sorted by ``span``
    descending (so the groups still walking at a step are a prefix). In a batch each of
    ``sizes`` lies within a factor of two of its largest, which sets the padded state, and
    the batch holds at most :data:`_CELLS` cells."""
    key = np.zeros(span.size, dtype=np.int64)
    for size in sizes:
        key = key * 64 + np.frexp(size)[1]  # the bit length
    order = np.lexsort((-span, key))
    for part in np.split(order, np.flatnonzero(np.diff(key[order])) + 1):
        if part.size == 0:
            continue
        cells = math.prod(int(size[part].max()) + 1 for size in sizes)
        step = max(1, _CELLS // cells)
        for start in range(0, part.size, step):
            yield part[start : start + step]


def _walking(span: Ints, i: int) -> int:
    """How many of ``span`` (sorted descending) exceed ``i``."""
    return int(np.searchsorted(-span, -i, side="left"))


def precision_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected P@k over the orders of tied docs: each relevant doc counts with the share of
    its group's ranks within the top ``k``, ``clip((k - above) / tied, 0, 1)``. O(hits).

    >>> import attrs
    >>> hits = JudgedHits.from_rankings([["d1", "x", "y"]], [{"d1": 1}])
    >>> precision_expected(attrs.evolve(hits, above=[0], tied=[3]), 1).tolist()
    [0.3333333333333333]
    """
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.precision_batch(hits, k, rel=rel)
    return _safe_divide(_found(hits, k, rel), _depth(hits, k))


def recall_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected recall@k: the expected relevant docs in the top ``k`` over R. O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.recall_batch(hits, k, rel=rel)
    return _safe_divide(_found(hits, k, rel), _n_relevant(hits, rel))


def num_rel_ret_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected relevant docs in the top ``k``. O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.num_rel_ret_batch(hits, k, rel=rel)
    return _found(hits, k, rel)


def capped_recall_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected R_cap@k: the expected relevant docs in the top ``k`` over ``min(k, R)``
    (the denominator does not depend on the order). O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.capped_recall_batch(hits, k, rel=rel)
    depth = np.minimum(_depth(hits, k), _n_relevant(hits, rel))
    return _safe_divide(_found(hits, k, rel), depth)


def f1_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected F1@k. With ``f`` relevant docs in the top ``k``, F1 is ``2 f / (k + R)``
    whatever ``f`` (0 included), so its mean is ``2 E[f] / (k + R)``. O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.f1_batch(hits, k, rel=rel)
    depth, n_relevant = _depth(hits, k), _n_relevant(hits, rel)
    total = np.where((depth > 0) & (n_relevant > 0), depth + n_relevant, 0)
    return _safe_divide(2.0 * _found(hits, k, rel), total)


def r_precision_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected R-precision: precision at the cutoff ``min(k, R)``, each relevant doc
    counted with the share of its group's ranks above that cutoff. O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.r_precision_batch(hits, k, rel=rel)
    n_relevant = _n_relevant(hits, rel)
    cutoff = n_relevant if k is None else np.minimum(n_relevant, k)
    found = _per_query(hits, _is_relevant(hits.grade, rel), _reach(hits, cutoff[hits.query]))
    return _safe_divide(found, n_relevant)


def judged_expected(hits: JudgedHits, k: int | None) -> Floats:
    """Expected share of the top ``k`` that is judged (any grade). O(hits)."""
    if _untied(hits):
        return batch.judged_batch(hits, k)
    shown = _depth(hits, k)
    if k is not None:
        shown = np.minimum(shown, hits.n_retrieved)
    return _safe_divide(_per_query(hits, np.ones(hits.query.size, bool), _reach(hits, k)), shown)


def hole_expected(hits: JudgedHits, k: int | None) -> Floats:
    """Expected share of the top ``k`` that is unjudged (or negative), over ``k``. O(hits)."""
    if _untied(hits):
        return batch.hole_batch(hits, k)
    depth = _depth(hits, k)
    shown = np.minimum(depth, hits.n_retrieved)
    judged = _per_query(hits, hits.grade >= 0, _reach(hits, k))
    return _safe_divide(shown - judged, depth)


def num_ret_expected(hits: JudgedHits, k: int | None, *, judged_only: bool = False) -> Floats:
    """Docs in each query's top ``k``: the same in every order, so :func:`num_ret_batch`."""
    return batch.num_ret_batch(hits, k, judged_only=judged_only)


def num_rel_expected(hits: JudgedHits, k: int | None, *, rel: float | None = None) -> Floats:
    """Relevant docs of each query: independent of the ranking, so :func:`num_rel_batch`."""
    return batch.num_rel_batch(hits, k, rel=rel)


def _span_sums(start: Ints, count: Ints, f: Callable[[Floats], Floats]) -> Floats:
    """``f(start + 1) + ... + f(start + count)`` for every pair, summed rank by rank."""
    owner, position = _expand(count)
    ranks = (start[owner] + position).astype(np.float64)
    return np.bincount(owner, weights=f(ranks), minlength=count.size).astype(np.float64)


def _log_discount(rank: Floats) -> Floats:
    discount: Floats = 1.0 / np.log2(rank + 1.0)
    return discount


def ndcg_expected(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """Expected nDCG@k: each group's gains times the mean discount of its ranks in the top
    ``k``, ``sum(1 / log2(r + 1), r = above + 1 .. min(above + tied, k)) / tied``, over the
    ideal DCG (which no order changes). O(hits + the ranks of the groups holding a gain).

    >>> import attrs
    >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 1}])
    >>> ndcg_expected(attrs.evolve(hits, above=[0], tied=[2]), 2).tolist()  # (1 + 1/log2 3) / 2
    [0.8154648767857288]
    """
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.ndcg_batch(hits, k, gains=gains, dcg=dcg, rel=rel)
    groups = _Groups(hits)
    gain = _gains(hits.grade, gains, dcg, rel)
    has_gain = gain != 0
    group_gain = np.bincount(groups.entry[has_gain], weights=gain[has_gain], minlength=groups.n)
    span = groups.span(k)
    keep = (groups.count(has_gain) > 0) & (span > 0)
    discount = _span_sums(groups.above[keep], span[keep], _log_discount)
    found = np.bincount(
        groups.query[keep],
        weights=group_gain[keep] * discount / groups.size[keep],
        minlength=hits.n_queries,
    ).astype(np.float64)
    return _safe_divide(found, _ideal_dcg(hits, k, gains, dcg, rel))


def _rbp_gain(hits: JudgedHits, rel: float | None, graded: bool) -> Floats:
    """Each entry's RBP gain, as :func:`~ef.evaluation.metrics.batch.rbp_batch` takes it."""
    if graded:
        if rel is not None:
            raise ValueError("rbp: rel does not apply to graded gains; set one of rel, graded")
        top = np.ones(hits.n_queries, dtype=np.float64)
        some = np.diff(hits.judged_offsets) > 0
        top[some] = np.maximum(1.0, hits.judged[hits.judged_offsets[:-1][some]])
        gain: Floats = np.maximum(hits.grade, 0.0) / top[hits.query]
        return gain
    return _is_relevant(hits.grade, rel).astype(np.float64)


def _rbp_weight(hits: JudgedHits, k: int | None, p: float) -> Floats:
    """Per entry, ``(1 - p) * E[p ** (rank - 1); rank <= k]``: over the ``m`` ranks of its
    group in the top ``k``, ``p ** above * (1 - p ** m) / tied``."""
    above, tied = hits.tie_above(), hits.tie_size()
    span = tied if k is None else np.clip(k - above, 0, tied)
    weight: Floats = np.power(p, above.astype(np.float64)) * (
        1.0 - np.power(p, span.astype(np.float64))
    )
    return weight / tied


def rbp_expected(
    hits: JudgedHits,
    k: int | None,
    *,
    p: float = 0.9,
    rel: float | None = None,
    graded: bool = False,
    judged_only: bool = False,
) -> Floats:
    """Expected RBP: ``sum(gain * p ** above * (1 - p ** m) / tied)`` over the hits, ``m``
    the ranks of the hit's group within the top ``k``. O(hits)."""
    hits = _prepared(hits, judged_only)
    gain = _rbp_gain(hits, rel, graded)
    if _untied(hits):
        return batch.rbp_batch(hits, k, p=p, rel=rel, graded=graded)
    mask = gain != 0
    return _per_query(hits, mask, gain * _rbp_weight(hits, k, p))


def rbp_residual_expected(hits: JudgedHits, k: int | None, *, p: float = 0.9) -> Floats:
    """Expected RBP residual. trec_eval's residual is ``p ** n`` plus the unjudged docs'
    share when some doc of the top ``k`` is unjudged, else 0: its mean is
    ``p ** n * P(some unjudged) + (1 - p ** n) - E[the judged docs' share]``. The top ``k``
    is all judged only if every group inside it is, and the group cut by ``k`` puts judged
    docs on all its ``m`` ranks there: ``C(judged, m) / C(tied, m)``. O(hits)."""
    if _untied(hits):
        return batch.rbp_residual_batch(hits, k, p=p)
    shown = np.minimum(_depth(hits, k), hits.n_retrieved)
    judged = hits.grade >= 0
    judged_share = _per_query(hits, judged, _rbp_weight(hits, k, p))
    groups = _Groups(hits)
    n_judged, span = groups.count(judged), groups.span(k)
    covered = np.bincount(groups.query, weights=span, minlength=hits.n_queries)
    all_judged = (covered == shown).astype(np.float64)
    all_judged[groups.query[(span == groups.size) & (n_judged < groups.size)]] = 0.0
    for g in np.flatnonzero((span > 0) & (span < groups.size)).tolist():
        query = int(groups.query[g])
        if all_judged[query]:
            all_judged[query] *= _comb_ratio(int(n_judged[g]), int(groups.size[g]), int(span[g]))
    tail = np.power(p, shown.astype(np.float64))
    residual = tail * (1.0 - all_judged) + (1.0 - tail) - judged_share
    return np.where(all_judged == 1.0, 0.0, residual)


def _first_reciprocals(above: Ints, tied: Ints, relevant: Ints, span: Ints) -> Floats:
    """``E[1 / rank of the first relevant doc; within the top k]`` for groups of ``tied``
    docs at ranks ``above + 1 ..`` holding ``relevant`` relevant ones, ``span`` of their ranks
    in the top ``k``: the first is at the group's ``j``-th rank with chance
    ``C(tied - j, relevant - 1) / C(tied, relevant)``, walked down ``j`` for all at once."""
    length = np.minimum(span, tied - relevant + 1)
    order = np.argsort(-length, kind="stable")
    length = length[order]
    a, t, r = above[order], tied[order].astype(np.float64), relevant[order]
    chance = r / t
    total = chance / (a + 1)
    for j in range(2, int(length.max(initial=0)) + 1):
        n = _walking(length, j - 1)
        # The chance at rank j over the chance at rank j - 1.
        chance[:n] *= (t[:n] - j - r[:n] + 2) / (t[:n] - j + 1)
        total[:n] += chance[:n] / (a[:n] + j)
    out = np.zeros(length.size, dtype=np.float64)
    out[order] = np.where(length > 0, total, 0.0)
    return out


def reciprocal_rank_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected reciprocal rank: only the first group holding a relevant doc matters; with
    ``r`` relevant of its ``tied`` docs, its first relevant doc is at its ``j``-th rank with
    chance ``C(tied - j, r - 1) / C(tied, r)``. O(hits + the ranks of each query's first
    such group, when it mixes relevant and other docs)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.reciprocal_rank_batch(hits, k, rel=rel)
    groups = _Groups(hits)
    relevant = groups.count(_is_relevant(hits.grade, rel))
    queries, first = _first_groups(groups, relevant)
    above, tied, n_rel = groups.above[first], groups.size[first], relevant[first]
    span = groups.span(k)[first]
    value = np.where((span > 0) & (n_rel == tied), 1.0 / (above + 1), 0.0)
    mixed = (span > 0) & (n_rel < tied)
    value[mixed] = _first_reciprocals(above[mixed], tied[mixed], n_rel[mixed], span[mixed])
    out = np.zeros(hits.n_queries, dtype=np.float64)
    out[queries] = value
    return out


def success_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected success@k: 1 if the first group holding a relevant doc lies within the top
    ``k``; if ``k`` cuts it after ``m`` of its ``tied`` ranks, 1 less the chance that its
    ``r`` relevant docs all miss them, ``C(tied - r, m) / C(tied, m)``. O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.success_batch(hits, k, rel=rel)
    groups = _Groups(hits)
    relevant = groups.count(_is_relevant(hits.grade, rel))
    queries, first = _first_groups(groups, relevant)
    tied, n_rel, span = groups.size[first], relevant[first], groups.span(k)[first]
    value = (span == tied).astype(np.float64)
    for i in np.flatnonzero((span > 0) & (span < tied)).tolist():
        t, m = int(tied[i]), int(span[i])
        value[i] = 1.0 - _comb_ratio(t - int(n_rel[i]), t, m)
    out = np.zeros(hits.n_queries, dtype=np.float64)
    out[queries] = value
    return out


def average_precision_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected AP@k. A relevant doc of a group (``r`` relevant among ``tied``, ``A`` more
    above) is at each of its group's ranks ``above + j`` with chance ``1 / tied``; there
    ``(j - 1) (r - 1) / (tied - 1)`` of the others are expected above it, and its precision
    is linear in that count: ``sum(r / tied * (A + 1 + (j - 1) (r - 1) / (tied - 1)) /
    (above + j))`` over the group's ranks in the top ``k``, over R. O(hits + the ranks of
    the groups holding a relevant doc).

    >>> import attrs
    >>> hits = JudgedHits.from_rankings([["d1", "d2", "x"]], [{"d1": 1, "d2": 1}])
    >>> hits = attrs.evolve(hits, above=[0, 0], tied=[3, 3])
    >>> # d1 and d2 take ranks {1, 2}, {1, 3} or {2, 3}: AP 1, 5/6 or 7/12, so 29/36 on average
    >>> round(float(average_precision_expected(hits, None)[0]), 12)
    0.805555555556
    """
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.average_precision_batch(hits, k, rel=rel)
    groups = _Groups(hits)
    relevant = groups.count(_is_relevant(hits.grade, rel))
    span = groups.span(k)
    keep = np.flatnonzero((relevant > 0) & (span > 0))
    relevant_above = groups.before(relevant)[keep]
    above, tied, n_rel = groups.above[keep], groups.size[keep], relevant[keep]
    others = _safe_divide((n_rel - 1).astype(np.float64), tied - 1)
    owner, position = _expand(span[keep])
    precision = (relevant_above[owner] + 1 + (position - 1) * others[owner]) / (
        above[owner] + position
    )
    total = np.bincount(
        groups.query[keep][owner],
        weights=(n_rel / tied)[owner] * precision,
        minlength=hits.n_queries,
    ).astype(np.float64)
    return _safe_divide(total, _n_relevant(hits, rel))


def _capped_sum(start: Ints, count: Ints, cap: Ints) -> Ints:
    """``min(start, cap) + min(start + 1, cap) + ... `` over ``count`` terms."""
    rising = np.clip(cap - start, 0, count)
    result: Ints = rising * start + rising * (rising - 1) // 2 + (count - rising) * cap
    return result


def _suffix_sums(values: list[int]) -> list[int]:
    """``out[i] = values[i] + values[i + 1] + ...``, and a 0 at the end."""
    out = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        out[i] = out[i + 1] + values[i]
    return out


def _bpref_cut(tied: int, nonrel: int, span: int, nonrel_above: int, n_relevant: int) -> float:
    """``E[min(nonrel_above + Y, R); rank <= above + span]`` for one relevant doc of a group
    of ``tied`` docs holding ``nonrel`` judged non-relevant ones, ``Y`` of them above it.
    ``Y`` is uniform on ``0 .. nonrel`` and independent of the ranks the doc and those
    ``nonrel`` take; given ``Y = y``, the doc is within ``span`` iff at least ``y + 1`` of
    the ``nonrel + 1`` land on the first ``span`` ranks (hypergeometric). Exact in integers."""
    specials = nonrel + 1
    ways = [
        math.comb(specials, x) * math.comb(tied - specials, span - x) if x <= span else 0
        for x in range(specials + 1)
    ]
    at_least = _suffix_sums(ways)
    numerator = sum(min(nonrel_above + y, n_relevant) * at_least[y + 1] for y in range(specials))
    return numerator / (math.comb(tied, span) * specials)


def bpref_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected bpref. A relevant doc scores ``1 - min(n, R) / min(N, R)``, ``n`` the judged
    non-relevant docs above it: those of the groups above (``n0``) and ``Y`` of its own
    group's ``s``, ``Y`` uniform on ``0 .. s``. A group within the top ``k`` adds
    ``r * (1 - mean(min(n0 + y, R), y = 0 .. s) / min(N, R))`` (a closed form); a group cut
    by ``k`` after ``m`` ranks weights each ``y`` by the chance that the doc is still within
    them (:func:`_bpref_cut`, O(s) for each such group). O(hits)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.bpref_batch(hits, k, rel=rel)
    groups = _Groups(hits)
    judged = hits.grade >= 0
    is_relevant = judged & _is_relevant(hits.grade, rel)
    relevant, nonrel = groups.count(is_relevant), groups.count(judged & ~is_relevant)
    nonrel_above, span = groups.before(nonrel), groups.span(k)
    n_relevant = _n_relevant(hits, rel)
    cap = np.minimum(_n_nonrelevant(hits, rel), n_relevant)[groups.query]
    n_rel_group = n_relevant[groups.query]
    # E[min(n, R)] for one relevant doc of each group, given it is within the top k.
    capped = _capped_sum(nonrel_above, nonrel + 1, n_rel_group) / (nonrel + 1)
    penalty = np.where(span == groups.size, capped, 0.0)
    # A group cut by k: with no judged non-relevant doc in it, n = n0 on every rank.
    cut = (span > 0) & (span < groups.size) & (relevant > 0)
    alone = cut & (nonrel == 0)
    penalty[alone] = (np.minimum(nonrel_above, n_rel_group) * span / groups.size)[alone]
    for g in np.flatnonzero(cut & (nonrel > 0)).tolist():
        penalty[g] = _bpref_cut(
            int(groups.size[g]),
            int(nonrel[g]),
            int(span[g]),
            int(nonrel_above[g]),
            int(n_rel_group[g]),
        )
    value = relevant * (span / groups.size - _safe_divide(penalty, cap))
    total = np.bincount(groups.query, weights=value, minlength=hits.n_queries)
    return _safe_divide(total.astype(np.float64), n_relevant)


def _infap_walk(
    above: Ints, tied: Ints, span: Ints, counts: tuple[Ints, Ints, Ints], before: Ints
) -> Floats:
    """The expected infAP sum of the relevant docs of groups, exact, by a walk down their
    ranks in the top ``k``: after ``i`` ranks, ``chance[g, a, b]`` is the chance that ``a``
    relevant and ``b`` judged non-relevant docs of group ``g`` took them, the other ``i - a -
    b`` being pooled or unjudged; ``pooled / (pooled + unjudged)`` of those are pooled on
    average, and infAP's term is linear in the pooled count. ``counts`` are each group's
    relevant, judged non-relevant and pooled docs; ``before`` (groups by 3) those of the
    groups above. O(ranks * relevant * judged non-relevant) per group, walked together."""
    relevant, nonrel, pooled = counts
    out = np.zeros(span.size, dtype=np.float64)
    for part in _walks(span, relevant, nonrel):
        r, s = relevant[part, None, None], nonrel[part, None, None]
        t, top = tied[part, None, None], above[part, None, None]
        rel_above, nonrel_above, pooled_above = (before[part, c, None, None] for c in range(3))
        rest = t - r - s
        pooled_share = _safe_divide(pooled[part, None, None].astype(np.float64), rest)
        a = np.arange(int(r.max()) + 1)[None, :, None]
        b = np.arange(int(s.max()) + 1)[None, None, :]
        precision = (rel_above + a + INFAP_EPSILON) / (
            rel_above + a + nonrel_above + b + 2 * INFAP_EPSILON
        )
        judged_before = rel_above + nonrel_above + pooled_above + a + b
        chance = np.zeros((part.size, a.size, b.size))
        chance[:, 0, 0] = 1.0
        total = np.zeros(part.size)
        walk = span[part]
        for i in range(int(walk[0])):
            n = _walking(walk, i)
            c, left, others = chance[:n], t[:n] - i, i - a - b
            to_relevant = c * np.maximum(r[:n] - a, 0) / left
            value = (1.0 + (judged_before[:n] + others * pooled_share[:n]) * precision[:n]) / (
                top[:n] + i + 1
            )
            total[:n] += np.sum(to_relevant * value, axis=(1, 2))
            to_nonrel = c * np.maximum(s[:n] - b, 0) / left
            c = c * (rest[:n] - others) / left
            c[:, 1:, :] += to_relevant[:, :-1, :]
            c[:, :, 1:] += to_nonrel[:, :, :-1]
            chance[:n] = c
        out[part] = total
    return out


def inferred_average_precision_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected infAP, exact. A relevant doc's term depends jointly on the relevant, judged
    non-relevant and pooled docs above it; groups of one doc take trec_eval's formula as
    :func:`~ef.evaluation.metrics.batch.inferred_average_precision_batch` does, and each
    larger group holding a relevant doc a walk down its ranks in the top ``k``
    (:func:`_infap_walk`, O(ranks * relevant * judged non-relevant) for that group; the
    groups walk together, one numpy step per rank)."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.inferred_average_precision_batch(hits, k, rel=rel)
    groups = _Groups(hits)
    pooled = hits.grade < 0
    is_relevant = ~pooled & _is_relevant(hits.grade, rel)
    relevant = groups.count(is_relevant)
    nonrel = groups.count(~pooled & ~is_relevant)
    n_pooled = groups.count(pooled)
    rel_above, nonrel_above = groups.before(relevant), groups.before(nonrel)
    pooled_above = groups.before(n_pooled)
    span = groups.span(k)
    value = np.zeros(groups.n, dtype=np.float64)
    single = (relevant > 0) & (span > 0) & (groups.size == 1)
    j = groups.above[single].astype(np.float64)
    rl, nl, pl = rel_above[single] + 1, nonrel_above[single], pooled_above[single]
    later = j > 0
    one = np.ones(j.size, dtype=np.float64)
    jl, rll, nll, pll = j[later], rl[later], nl[later], pl[later]
    one[later] = 1.0 / (jl + 1.0) + (jl / (jl + 1.0)) * ((rll - 1 + nll + pll) / jl) * (
        (rll - 1 + INFAP_EPSILON) / (rll - 1 + nll + 2 * INFAP_EPSILON)
    )
    value[single] = one
    walk = (relevant > 0) & (span > 0) & (groups.size > 1)
    value[walk] = _infap_walk(
        groups.above[walk],
        groups.size[walk],
        span[walk],
        (relevant[walk], nonrel[walk], n_pooled[walk]),
        np.c_[rel_above, nonrel_above, pooled_above][walk],
    )
    total = np.bincount(groups.query, weights=value, minlength=hits.n_queries)
    return _safe_divide(total.astype(np.float64), _n_relevant(hits, rel))


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
    out = np.zeros(span.size, dtype=np.float64)
    for part in _walks(span, count):
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
            k = _walking(walk, i)
            c, left = chance[:k], t[:k] - i
            placed = c * np.maximum(n[:k] - j, 0) / left  # the (j + 1)-th takes rank i + 1
            reciprocal[:k] += placed / (top[:k] + i + 1)
            c = c * (t[:k] - n[:k] - i + j) / left
            c[:, 1:] += placed[:, :-1]
            chance[:k] = c
        out[part] = np.sum(np.where(j < n, share * reciprocal, 0.0), axis=1)
    return out


def err_expected(
    hits: JudgedHits, k: int | None, *, max_grade: float = 4.0, judged_only: bool = False
) -> Floats:
    """Expected ERR@k, exact. The groups above a group are all placed before it, so it adds
    its own expected ERR (:func:`_err_group`) times the chance that nothing above satisfied,
    ``prod(1 - R)`` over the groups above. O(hits) for groups of one doc; O(ranks in the top
    ``k`` * satisfying docs, plus their square) for each larger group holding a satisfying
    doc."""
    hits = _prepared(hits, judged_only)
    if _untied(hits):
        return batch.err_batch(hits, k, max_grade=max_grade)
    grade = np.clip(hits.grade, 0.0, max_grade)
    satisfied = (np.power(2.0, grade) - 1.0) / 2.0**max_grade
    groups = _Groups(hits)
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
    # The chance that nothing above satisfied is a running product within each query, taken
    # one group at a time across all queries at once.
    owners = groups.query[keep]
    level = position_in_query(owners)
    order = np.argsort(level, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(level))] if level.size else np.zeros(1, int)
    score = np.zeros(hits.n_queries, dtype=np.float64)
    decay = np.ones(hits.n_queries, dtype=np.float64)
    for start, end in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        at = keep[order[start:end]]
        queries = groups.query[at]
        score[queries] += gained[at] * decay[queries]
        decay[queries] *= unsatisfied[at]
    return score
