"""Vectorised retrieval metrics: every query at once, with numpy.

The per-query functions of :mod:`ef.evaluation.metrics.retrieval` are the readable
reference; these compute the same numbers for a whole run (a property test holds them equal
to 1e-12). They work on :class:`JudgedHits`: only the judged docs of each ranking, with their
rank and grade. Every built-in metric is a function of those alone, and a run of 1,000 docs
per query has only one or two judged docs per query, so scoring costs a few array passes over
the hits, whatever the depth of the run.

Sums run over the hits in rank order, as the reference's loops do, so the values agree to
the last bit or nearly (numpy's ``log2`` may differ from ``math.log2`` in the last place).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

# from_rankings places up to this many judged docs of a ranking by index() (a C scan each).
_FEW = 8

__all__ = [
    "JudgedHits",
    "average_precision_batch",
    "ndcg_batch",
    "precision_batch",
    "recall_batch",
    "reciprocal_rank_batch",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def _ints(values: object) -> Ints:
    return np.asarray(values, dtype=np.int64)


def _floats(values: object) -> Floats:
    return np.asarray(values, dtype=np.float64)


@attrs.frozen(eq=False)
class JudgedHits:
    """Where the judged docs of each query landed in its ranking.

    One entry per judged doc that was retrieved (any grade, 0 and negative included), sorted
    by query, then rank: ``query`` is the query's index (0 to ``n_queries - 1``), ``rank`` is
    1-based, ``grade`` is the judgement. Per query, ``n_relevant`` counts the docs judged
    relevant (grade > 0) whether retrieved or not, and ``ideal`` holds their grades in
    descending order, concatenated: query ``i``'s run from ``ideal_offsets[i]`` to
    ``ideal_offsets[i + 1]``.

    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"]], [{"d2": 2, "d1": 0}])
    >>> hits.rank.tolist(), hits.grade.tolist(), hits.n_relevant.tolist()
    ([1, 3], [0.0, 2.0], [1])
    """

    n_queries: int
    query: Ints = attrs.field(converter=_ints)
    rank: Ints = attrs.field(converter=_ints)
    grade: Floats = attrs.field(converter=_floats)
    n_relevant: Ints = attrs.field(converter=_ints)
    ideal: Floats = attrs.field(converter=_floats)
    ideal_offsets: Ints = attrs.field(converter=_ints)

    @classmethod
    def from_rankings(
        cls, rankings: Sequence[Sequence[str]], judgements: Sequence[Mapping[str, float]]
    ) -> JudgedHits:
        """Hits of ranked doc-id lists (already de-duplicated), one qrels mapping per query."""
        query: list[int] = []
        rank: list[int] = []
        grade: list[float] = []
        for i, (ranked, judged) in enumerate(zip(rankings, judgements, strict=True)):
            # Where the judged docs rank, found by C-level scans: a few judged docs are looked
            # up in the ranking one by one; many are intersected with it first.
            if len(judged) <= _FEW:
                placed = sorted((ranked.index(doc) + 1, doc) for doc in judged if doc in ranked)
            else:
                common = judged.keys() & ranked
                if len(common) <= _FEW:
                    placed = sorted((ranked.index(doc) + 1, doc) for doc in common)
                else:
                    placed = [(r, doc) for r, doc in enumerate(ranked, start=1) if doc in common]
            for r, doc in placed:
                query.append(i)
                rank.append(r)
                grade.append(judged[doc])
        return cls.build(len(rankings), query, rank, grade, judgements)

    @classmethod
    def build(
        cls,
        n_queries: int,
        query: object,
        rank: object,
        grade: object,
        judgements: Sequence[Mapping[str, float]],
    ) -> JudgedHits:
        """Hits from their arrays (sorted by query, then rank) and each query's qrels."""
        positives = [sorted((g for g in j.values() if g > 0), reverse=True) for j in judgements]
        lengths = np.fromiter((len(p) for p in positives), dtype=np.int64, count=n_queries)
        offsets = np.zeros(n_queries + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        ideal = np.fromiter((g for p in positives for g in p), dtype=np.float64)
        return cls(n_queries, query, rank, grade, lengths, ideal, offsets)


def _per_query(hits: JudgedHits, mask: npt.NDArray[np.bool_], weights: Floats | None) -> Floats:
    w = None if weights is None else weights[mask]
    return np.bincount(hits.query[mask], weights=w, minlength=hits.n_queries).astype(np.float64)


def _relevant_within(hits: JudgedHits, k: int) -> npt.NDArray[np.bool_]:
    return (hits.grade > 0) & (hits.rank <= k)


def _safe_divide(numerator: Floats, denominator: npt.NDArray[np.int64] | Floats) -> Floats:
    out = np.zeros_like(numerator)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def precision_batch(hits: JudgedHits, k: int) -> Floats:
    """P@k of every query: relevant docs in the top ``k``, over ``k``."""
    return _per_query(hits, _relevant_within(hits, k), None) / k


def recall_batch(hits: JudgedHits, k: int) -> Floats:
    """recall@k of every query: relevant docs in the top ``k``, over all relevant docs."""
    return _safe_divide(_per_query(hits, _relevant_within(hits, k), None), hits.n_relevant)


def reciprocal_rank_batch(hits: JudgedHits, k: int) -> Floats:
    """1 / rank of each query's first relevant doc within the top ``k`` (0 if none)."""
    mask = _relevant_within(hits, k)
    queries, first = np.unique(hits.query[mask], return_index=True)
    out = np.zeros(hits.n_queries, dtype=np.float64)
    out[queries] = 1.0 / hits.rank[mask][first]
    return out


def _position_in_query(query: Ints) -> Ints:
    """0, 1, 2, ... within each run of equal values of the sorted ``query``."""
    if query.size == 0:
        return query
    starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
    lengths = np.diff(np.r_[starts, query.size])
    return np.arange(query.size) - np.repeat(starts, lengths)


def average_precision_batch(hits: JudgedHits, k: int) -> Floats:
    """AP@k of every query: precision at each relevant hit in the top ``k``, over all relevant."""
    mask = _relevant_within(hits, k)
    query, rank = hits.query[mask], hits.rank[mask]
    precision = (_position_in_query(query) + 1) / rank
    total = np.bincount(query, weights=precision, minlength=hits.n_queries)
    return _safe_divide(total.astype(np.float64), hits.n_relevant)


def ndcg_batch(hits: JudgedHits, k: int) -> Floats:
    """nDCG@k of every query, with linear gain, over the ideal DCG of all judged grades."""
    mask = (hits.grade > 0) & (hits.rank <= k)
    gains = hits.grade[mask] / np.log2(hits.rank[mask] + 1.0)
    dcg = np.bincount(hits.query[mask], weights=gains, minlength=hits.n_queries)
    owner = np.repeat(np.arange(hits.n_queries), hits.n_relevant)
    position = np.arange(hits.ideal.size) - hits.ideal_offsets[owner]
    within = position < k
    ideal_gains = hits.ideal[within] / np.log2(position[within] + 2.0)
    ideal = np.bincount(owner[within], weights=ideal_gains, minlength=hits.n_queries)
    return _safe_divide(dcg.astype(np.float64), ideal.astype(np.float64))
