"""JudgedHits: where the judged docs of each query landed in its ranking.

The one input of every metric's batch and exact tie-averaged form (a plugin's too): a run's
rankings reduced to the judged docs they retrieved, with rank and grade, plus each query's
judgements and how many docs it retrieved. Part of the plugin interface; numpy is imported
only when this module is.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

__all__ = ["Bools", "Floats", "Ints", "JudgedHits", "position_in_query"]

# from_rankings places up to this many judged docs of a ranking by index() (a C scan each).
_FEW = 8

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


def _ints(values: object) -> Ints:
    return np.asarray(values, dtype=np.int64)


def _floats(values: object) -> Floats:
    return np.asarray(values, dtype=np.float64)


def _placed(ranked: Sequence[str], judged: Mapping[str, float]) -> list[tuple[int, str]]:
    """``(rank, doc)`` of the judged docs in ``ranked``, by rank.

    >>> _placed(["d3", "d1", "d2"], {"d2": 1, "d1": 0, "d9": 2})
    [(2, 'd1'), (3, 'd2')]
    """
    # Found by C-level scans: a few judged docs are looked up in the ranking one by one;
    # many are intersected with it first.
    if len(judged) <= _FEW:
        placed = []
        index = ranked.index
        for doc in judged:  # one scan a doc: most judged docs are retrieved
            try:
                placed.append((index(doc) + 1, doc))
            except ValueError:
                continue
        if len(placed) > 1:  # most queries place one judged doc, or none
            placed.sort()
        return placed
    common = judged.keys() & ranked
    if len(common) <= _FEW:
        return sorted((ranked.index(doc) + 1, doc) for doc in common)
    return [(r, doc) for r, doc in enumerate(ranked, start=1) if doc in common]


@attrs.frozen(eq=False)
class JudgedHits:
    """Where the judged docs of each query landed in its ranking.

    One entry per judged doc that was retrieved (any grade, 0 and negative included), sorted
    by query, then rank: ``query`` is the query's index (0 to ``n_queries - 1``), ``rank`` is
    1-based, ``grade`` is the judgement. Per query, ``n_relevant`` counts the docs judged
    relevant (grade > 0) whether retrieved or not, and ``ideal`` holds their grades in
    descending order, concatenated: query ``i``'s run from ``ideal_offsets[i]`` to
    ``ideal_offsets[i + 1]``. ``judged`` holds every grade of each query's judgements the same
    way (``judged_offsets``), and ``n_retrieved`` how many docs each query's ranking holds.

    Where the run has tied scores, ``above`` and ``tied`` say, per entry, how many docs of its
    query score strictly higher and how many share its score (itself included): the entry's
    ``rank`` lies in ``above + 1 .. above + tied``, where the tie policy put it. They are
    ``None`` for rankings without scores (each doc its own group); ``tie_above()`` and
    ``tie_size()`` give them either way. The ``expected`` tie policy averages a metric over
    every order of each tie group (McSherry and Najork, 2008) from these two.

    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"]], [{"d2": 2, "d1": 0}])
    >>> hits.rank.tolist(), hits.grade.tolist(), hits.n_relevant.tolist()
    ([1, 3], [0.0, 2.0], [1])
    >>> hits.judged.tolist(), hits.n_retrieved.tolist()
    ([2.0, 0.0], [3])
    """

    n_queries: int
    query: Ints = attrs.field(converter=_ints)
    rank: Ints = attrs.field(converter=_ints)
    grade: Floats = attrs.field(converter=_floats)
    n_relevant: Ints = attrs.field(converter=_ints)
    ideal: Floats = attrs.field(converter=_floats)
    ideal_offsets: Ints = attrs.field(converter=_ints)
    n_retrieved: Ints = attrs.field(converter=_ints, kw_only=True)
    judged: Floats = attrs.field(converter=_floats, kw_only=True)
    judged_offsets: Ints = attrs.field(converter=_ints, kw_only=True)
    above: Ints | None = attrs.field(
        default=None, converter=attrs.converters.optional(_ints), kw_only=True
    )
    tied: Ints | None = attrs.field(
        default=None, converter=attrs.converters.optional(_ints), kw_only=True
    )

    def tie_above(self) -> Ints:
        """Per entry, the docs of its query that score strictly higher (``rank - 1`` when
        nothing ties).

        >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 1}])
        >>> hits.tie_above().tolist(), hits.tie_size().tolist()
        ([1], [1])
        """
        return self.rank - 1 if self.above is None else self.above

    def tie_size(self) -> Ints:
        """Per entry, the docs of its query that share its score, itself included."""
        return np.ones_like(self.rank) if self.tied is None else self.tied

    @classmethod
    def from_rankings(
        cls, rankings: Sequence[Sequence[str]], judgements: Sequence[Mapping[str, float]]
    ) -> JudgedHits:
        """Hits of ranked doc-id lists (already de-duplicated), one qrels mapping per query."""
        query: list[int] = []
        rank: list[int] = []
        grade: list[float] = []
        for i, (ranked, judged) in enumerate(zip(rankings, judgements, strict=True)):
            for r, doc in _placed(ranked, judged):
                query.append(i)
                rank.append(r)
                grade.append(judged[doc])
        return cls.build(
            len(rankings), query, rank, grade, judgements, n_retrieved=[len(r) for r in rankings]
        )

    @classmethod
    def build(
        cls,
        n_queries: int,
        query: object,
        rank: object,
        grade: object,
        judgements: Sequence[Mapping[str, float]],
        *,
        n_retrieved: object,
        above: object | None = None,
        tied: object | None = None,
    ) -> JudgedHits:
        """Hits from their arrays (sorted by query, then rank), each query's qrels and the
        length of each query's ranking; ``above`` and ``tied`` describe tie groups."""
        sizes = [len(j) for j in judgements]
        grades = np.fromiter(
            itertools.chain.from_iterable(j.values() for j in judgements),
            dtype=np.float64,
            count=sum(sizes),
        )
        owner = np.repeat(np.arange(n_queries, dtype=np.int64), sizes)
        judged = grades[np.lexsort((-grades, owner))]  # each query's grades, best first
        judged_offsets = np.zeros(n_queries + 1, dtype=np.int64)
        np.cumsum(sizes, out=judged_offsets[1:])
        # The positive grades open each query's descending run of grades.
        positive = judged > 0
        n_relevant = np.bincount(owner[positive], minlength=n_queries).astype(np.int64)
        offsets = np.zeros(n_queries + 1, dtype=np.int64)
        np.cumsum(n_relevant, out=offsets[1:])
        return cls(
            n_queries,
            query,
            rank,
            grade,
            n_relevant,
            judged[positive],
            offsets,
            n_retrieved=n_retrieved,
            judged=judged,
            judged_offsets=judged_offsets,
            above=above,
            tied=tied,
        )

    def judged_only(self) -> JudgedHits:
        """These hits with every doc not judged 0 or more dropped from the rankings, and the
        judged docs ranked again, 1, 2, ... (trec_eval's ``-J``).

        >>> hits = JudgedHits.from_rankings([["x", "d1", "d2"]], [{"d2": 1, "d1": -1}])
        >>> hits.judged_only().rank.tolist(), hits.judged_only().n_retrieved.tolist()
        ([1], [1])
        """
        keep = self.grade >= 0
        query = self.query[keep]
        above, tied = self.above, self.tied
        if above is not None:
            # A tie group keeps its judged docs only, and starts after the judged docs above.
            above, tied = _regrouped(query, above[keep])
        return attrs.evolve(
            self,
            query=query,
            rank=position_in_query(query) + 1,
            grade=self.grade[keep],
            n_retrieved=np.bincount(query, minlength=self.n_queries),
            above=above,
            tied=tied,
        )

    def judged_owner(self) -> Ints:
        """The query index of every entry of ``judged``."""
        return np.repeat(np.arange(self.n_queries), np.diff(self.judged_offsets))


def _regrouped(query: Ints, above: Ints) -> tuple[Ints, Ints]:
    """Tie groups of the entries left: each group (the entries of a query with one ``above``)
    starts at its first entry's position in the query and holds its entries only."""
    if query.size == 0:
        return above, above
    starts = np.flatnonzero(np.r_[True, (query[1:] != query[:-1]) | (above[1:] != above[:-1])])
    lengths = np.diff(np.r_[starts, query.size])
    return (
        np.repeat(position_in_query(query)[starts], lengths),
        np.repeat(lengths, lengths),
    )


def position_in_query(query: Ints) -> Ints:
    """0, 1, 2, ... within each run of equal values of the sorted ``query``.

    >>> position_in_query(np.array([0, 0, 2, 2, 2, 5])).tolist()
    [0, 1, 0, 1, 2, 0]
    """
    # Each entry less the index of its query's first entry, which a binary search finds in
    # one C call (the batch forms call this on every scoring).
    position: Ints = np.arange(query.size) - np.searchsorted(query, query)
    return position
