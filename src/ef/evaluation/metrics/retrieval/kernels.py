"""The array helpers of the metrics' batch and tie-averaged (``expected``) forms.

Batch forms: every query at once, with numpy. The per-query reference functions are the
readable reference; the batch forms compute the same numbers for a whole run (a property test
holds them equal to 1e-12). They work on :class:`~ef.evaluation._hits.JudgedHits`: only the
judged docs of each ranking, with their rank and grade, plus each query's judgements and the
number of docs it retrieved. Every built-in metric is a function of those alone, and a run of
1,000 docs per query has only one or two judged docs per query, so scoring costs a few array
passes over the hits, whatever the depth of the run.

Sums run over the hits in rank order, as the reference's loops do, so the values agree to
the last bit or nearly (numpy's ``log2`` may differ from ``math.log2`` in the last place).
Every function takes the same keyword parameters as its reference; ``k=None`` is the whole
ranking.

Tie-averaged forms: each metric's exact mean over every order of the tied docs. A run that
gives several docs the same score does not say in which order they come; any one order
(trec_eval's, by doc id) favours some docs over others. The ``expected`` tie policy reports
instead the mean of the metric over every order of each group of tied docs, judged and
unjudged alike, the groups ordered independently (McSherry and Najork, "Computing
Information Retrieval Performance Measures Efficiently in the Presence of Tied Scores", ECIR
2008). The ``*_expected`` functions compute that mean exactly, without sampling or
enumerating orders.

Each takes the :class:`~ef.evaluation._hits.JudgedHits` of a run and the keyword parameters
of the matching ``*_batch`` function, and returns one value per query. Tie groups come from
``_hits.tie_above()`` and ``_hits.tie_size()`` (``rank`` is ignored): a group that ``above``
docs outscore and that holds ``tied`` docs spans the ranks ``above + 1`` to ``above +
tied``, and in a uniformly random order each of its docs is equally likely at each of those
ranks. Without ties every function returns the ``*_batch`` value itself.

A constant scorer over four docs, one of them relevant: the relevant doc is at rank 1, 2, 3
or 4 with chance 1/4 each.

>>> import attrs
>>> from ef.evaluation._hits import JudgedHits
>>> from ef.evaluation.metrics.retrieval.precision import precision_expected
>>> from ef.evaluation.metrics.retrieval.reciprocal_rank import reciprocal_rank_expected
>>> from ef.evaluation.metrics.retrieval.success import success_expected
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

The metric modules import this module (and numpy) only inside their batch and tie-averaged
forms, so that ``import ef.evaluation`` stays free of numpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from ..._hits import Bools, Floats, Ints, JudgedHits, position_in_query

__all__ = [
    "CELLS",
    "WHOLE",
    "TieGroups",
    "at_queries",
    "before_in_query",
    "by_query",
    "comb_ratio",
    "cut",
    "cutoff_column",
    "depths",
    "depths_at",
    "each_query",
    "expand",
    "expected_found",
    "first_groups",
    "found",
    "found_at",
    "in_top",
    "is_relevant",
    "log2_of",
    "per_query",
    "per_query_at",
    "prepared",
    "reach",
    "relevant_counts",
    "relevant_in_top",
    "relevant_ranks",
    "safe_divide",
    "untied",
    "walking",
    "walks",
]


def per_query(hits: JudgedHits, mask: Bools, weights: Floats | None) -> Floats:
    """Per query, the entries with ``mask`` set, counted or summed over ``weights``."""
    w = None if weights is None else weights[mask]
    return np.bincount(hits.query[mask], weights=w, minlength=hits.n_queries).astype(np.float64)


#: A cutoff of ``None`` (the whole ranking) as a rank that no entry's exceeds.
WHOLE = np.iinfo(np.int64).max


def cutoff_column(ks: Sequence[int | None]) -> Ints:
    """The cutoffs as a column, a row each: what the ``*_cutoffs`` forms compare ranks with.

    >>> cutoff_column([1, None]).tolist() == [[1], [WHOLE]]
    True
    """
    return np.array([WHOLE if k is None else k for k in ks], dtype=np.int64)[:, None]


def per_query_at(
    n_queries: int, query: Ints, rank: Ints, cuts: Ints, weights: Floats | None = None
) -> Floats:
    """Per cutoff of ``cuts`` (a row each) and query (a column each), the entries whose
    ``rank`` lies within the cutoff, counted or summed over ``weights``.

    One ``bincount`` for every cutoff at once. Each sum takes its entries in their order,
    as :func:`per_query` does for one cutoff, so a row equals its value to the last bit.

    >>> per_query_at(2, np.array([0, 0, 1]), np.array([1, 3, 2]), cutoff_column([2, None])).tolist()
    [[1.0, 1.0], [2.0, 1.0]]
    """
    # Row by row, each row's entries in their order: a bin per (cutoff, query).
    row, entry = np.nonzero(rank <= cuts)
    kept = None if weights is None else weights[entry]
    counts = np.bincount(
        row * n_queries + query[entry], weights=kept, minlength=cuts.shape[0] * n_queries
    )
    return counts.reshape(cuts.shape[0], n_queries).astype(np.float64)


def found_at(hits: JudgedHits, cuts: Ints, rel: float | None) -> Floats:
    """Per cutoff (row) and query, the relevant docs within the cutoff: :func:`found` at
    every cutoff of ``cuts`` at once (ties ranked as given)."""
    relevant = is_relevant(hits.grade, rel)
    return per_query_at(hits.n_queries, hits.query[relevant], hits.rank[relevant], cuts)


def depths_at(hits: JudgedHits, ks: Sequence[int | None]) -> Ints:
    """:func:`depths` at every cutoff of ``ks``, a row each (a cutoff as large as
    :data:`WHOLE` ranks as the whole ranking does, but divides by itself)."""
    return np.stack([depths(hits, k) for k in ks])


def in_top(hits: JudgedHits, k: int | None) -> Bools:
    """Per entry, whether its rank lies in the top ``k`` (every entry for ``k=None``)."""
    if k is None:
        return np.ones(hits.rank.size, dtype=bool)
    return hits.rank <= k


def is_relevant(grade: Floats, rel: float | None) -> Bools:
    """Per grade, whether it counts as relevant at ``rel`` (None: any grade > 0)."""
    return grade >= rel if rel is not None else grade > 0


def relevant_in_top(hits: JudgedHits, k: int | None, rel: float | None = None) -> Bools:
    """Per entry, whether it is relevant at ``rel`` and in the top ``k``."""
    return is_relevant(hits.grade, rel) & in_top(hits, k)


def relevant_ranks(hits: JudgedHits, k: int | None, rel: float | None) -> tuple[Ints, Ints, Ints]:
    """Each relevant entry in the top ``k``, in query and rank order: its query, its rank and
    how many relevant entries of its query are above it."""
    mask = relevant_in_top(hits, k, rel)
    query = hits.query[mask]
    return query, hits.rank[mask], position_in_query(query)


def at_queries(n_queries: int, queries: Ints, values: Floats) -> Floats:
    """Per query, its value of ``values`` where ``queries`` lists it, else 0.0."""
    out = np.zeros(n_queries, dtype=np.float64)
    out[queries] = values
    return out


def relevant_counts(hits: JudgedHits, rel: float | None) -> Ints:
    """Per query, its judged docs that count as relevant at ``rel``, retrieved or not."""
    if rel is None:
        return hits.n_relevant
    mask = hits.judged >= rel
    return np.bincount(hits.judged_owner()[mask], minlength=hits.n_queries).astype(np.int64)


def depths(hits: JudgedHits, k: int | None) -> Ints:
    """``k`` for every query, or each one's number of docs retrieved for ``k=None``."""
    if k is None:
        return hits.n_retrieved
    return np.full(hits.n_queries, k, dtype=np.int64)


def prepared(hits: JudgedHits, judged_only: bool) -> JudgedHits:
    """``hits`` without the docs judged below 0 or not at all, if ``judged_only``."""
    return hits.judged_only() if judged_only else hits


def cut(hits: JudgedHits, k: int | None) -> JudgedHits:
    """``hits`` of each ranking's first ``k`` docs only (all of them for ``k=None``), as
    trec_eval's ``-M`` cuts it: for the batch forms of metrics that read a whole ranking.
    The tie groups are dropped (a batch form ranks as given)."""
    if k is None:
        return hits
    import attrs

    keep = hits.rank <= k
    return attrs.evolve(
        hits,
        query=hits.query[keep],
        rank=hits.rank[keep],
        grade=hits.grade[keep],
        n_retrieved=np.minimum(hits.n_retrieved, k),
        above=None,
        tied=None,
    )


_LOG2: list[Floats] = []


def log2_of(values: Ints) -> Floats:
    """``log2`` of positive ints, as C's ``log2`` gives it (``math.log2``), from a table.

    numpy's ``log2`` differs from the C library's in the last place for some ints (1,621 is
    the first): trec_eval's discounts are the C library's, so these are too.

    >>> log2_of(np.array([1, 2, 1621])).tolist() == [0.0, 1.0, math.log2(1621)]
    True
    """
    top = int(values.max(initial=0))
    if not _LOG2 or _LOG2[0].size <= top:
        size = max(top + 1, 4096)
        table = np.zeros(size, dtype=np.float64)
        table[1:] = [math.log2(i) for i in range(1, size)]
        _LOG2[:] = [table]
    found: Floats = _LOG2[0][values]
    return found


def safe_divide(numerator: Floats, denominator: npt.NDArray[np.int64] | Floats) -> Floats:
    """``numerator / denominator``, 0 where the denominator is 0."""
    out = np.zeros_like(numerator)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def before_in_query(query: Ints, flags: Bools) -> Ints:
    """For each entry of the sorted ``query``, how many entries of its query before it have
    ``flags`` set.

    >>> before_in_query(np.array([0, 0, 0, 1, 1]), np.array([1, 0, 1, 1, 1], dtype=bool)).tolist()
    [0, 1, 1, 0, 1]
    """
    counts = np.cumsum(flags, dtype=np.int64) - flags
    # Less the count at its query's first entry, found by a binary search (query is sorted).
    before: Ints = counts - counts[np.searchsorted(query, query)]
    return before


def by_query(
    hits: JudgedHits,
) -> Iterator[tuple[list[int], list[float], list[float], int]]:
    """Each query's ``(ranks, grades, judged grades, docs retrieved)`` as Python lists: for
    the batch forms that walk a query's hits one by one."""
    ranks, grades = hits.rank.tolist(), hits.grade.tolist()
    judged, offsets = hits.judged.tolist(), hits.judged_offsets.tolist()
    bounds = np.searchsorted(hits.query, np.arange(hits.n_queries + 1)).tolist()
    for q, n in enumerate(hits.n_retrieved.tolist()):
        start, end = bounds[q], bounds[q + 1]
        yield ranks[start:end], grades[start:end], judged[offsets[q] : offsets[q + 1]], n


def each_query(
    hits: JudgedHits,
    k: int | None,
    judged_only: bool,
    value: Callable[[list[int], list[float], list[float]], float],
) -> Floats:
    """``value(ranks, grades, judged grades)`` of each query's hits within ``k``
    (:func:`by_query`): the batch form of a metric that walks each query's judged docs in
    Python.

    >>> from ..._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"], ["y"]], [{"d1": 1, "d2": 2}, {}])
    >>> each_query(hits, 2, False, lambda ranks, grades, judged: sum(grades)).tolist()
    [1.0, 0.0]
    """
    hits = cut(prepared(hits, judged_only), k)
    walked = (value(ranks, grades, judged) for ranks, grades, judged, _ in by_query(hits))
    return np.fromiter(walked, dtype=np.float64, count=hits.n_queries)


def untied(hits: JudgedHits) -> bool:
    """Whether every doc of ``hits`` is its own tie group (then the mean is the value)."""
    return hits.tied is None or bool(np.all(hits.tied == 1))


class TieGroups:
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


def reach(hits: JudgedHits, k: int | Ints | None) -> Floats:
    """Per entry, the chance that its doc lands in the top ``k`` (``k`` may be per entry)."""
    if k is None:
        return np.ones(hits.query.size, dtype=np.float64)
    chance: Floats = np.clip((k - hits.tie_above()) / hits.tie_size(), 0.0, 1.0)
    return chance


def expected_found(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    """Per query, the expected number of relevant docs in the top ``k``."""
    return per_query(hits, is_relevant(hits.grade, rel), reach(hits, k))


def found(hits: JudgedHits, k: int | None, rel: float | None, *, expected: bool = False) -> Floats:
    """Per query, the relevant docs in the top ``k``; with ``expected``, their expected number
    over the orders of tied docs (the count itself where nothing ties). The numerator of
    precision, recall, R_cap, F and utility, and num_rel_ret itself."""
    if expected and not untied(hits):
        return expected_found(hits, k, rel)
    return per_query(hits, relevant_in_top(hits, k, rel), None)


def expand(count: Ints) -> tuple[Ints, Ints]:
    """``(owner, position)`` for positions 1 .. ``count[i]`` of every ``i``, flattened."""
    owner = np.repeat(np.arange(count.size), count)
    offsets = np.cumsum(count) - count
    return owner, np.arange(owner.size) - offsets[owner] + 1


def first_groups(groups: TieGroups, counts: Ints) -> tuple[Ints, Ints]:
    """``(queries, groups)``: the first group of each query with ``counts`` > 0."""
    some = np.flatnonzero(counts > 0)
    queries, first = np.unique(groups.query[some], return_index=True)
    return queries, some[first]


def comb_ratio(n: int, d: int, m: int) -> float:
    """``C(n, m) / C(d, m)``, correctly rounded."""
    return math.comb(n, m) / math.comb(d, m)


#: How many cells (groups times padded states) one step of a walk down tie groups holds.
CELLS = 1 << 21


def walks(span: Ints, *sizes: Ints) -> Iterator[Ints]:
    """The indices of ``span`` in batches to walk down together.

    Each batch is sorted by ``span`` descending (so the groups still walking at a step are a
    prefix). In a batch each of ``sizes`` lies within a factor of two of its largest, which
    sets the padded state, and the batch holds at most :data:`CELLS` cells.
    """
    key = np.zeros(span.size, dtype=np.int64)
    for size in sizes:
        key = key * 64 + np.frexp(size)[1]  # the bit length
    order = np.lexsort((-span, key))
    for part in np.split(order, np.flatnonzero(np.diff(key[order])) + 1):
        if part.size == 0:
            continue
        cells = math.prod(int(size[part].max()) + 1 for size in sizes)
        step = max(1, CELLS // cells)
        for start in range(0, part.size, step):
            yield part[start : start + step]


def walking(span: Ints, i: int) -> int:
    """How many of ``span`` (sorted descending) exceed ``i``."""
    return int(np.searchsorted(-span, -i, side="left"))
