"""Vectorised retrieval metrics: every query at once, with numpy.

The per-query functions of :mod:`ef.evaluation.metrics.retrieval` are the readable
reference; these compute the same numbers for a whole run (a property test holds them equal
to 1e-12). They work on :class:`JudgedHits`: only the judged docs of each ranking, with their
rank and grade, plus each query's judgements and the number of docs it retrieved. Every
built-in metric is a function of those alone, and a run of 1,000 docs per query has only one
or two judged docs per query, so scoring costs a few array passes over the hits, whatever the
depth of the run.

Sums run over the hits in rank order, as the reference's loops do, so the values agree to
the last bit or nearly (numpy's ``log2`` may differ from ``math.log2`` in the last place).
Every function takes the same keyword parameters as its reference; ``k=None`` is the whole
ranking.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from ..hits import Bools, Floats, Ints, JudgedHits, position_in_query
from .retrieval import INFAP_EPSILON

__all__ = [
    "JudgedHits",  # re-exported: the input of every batch form (ef.evaluation.hits)
    "average_precision_batch",
    "bpref_batch",
    "capped_recall_batch",
    "err_batch",
    "f1_batch",
    "hole_batch",
    "inferred_average_precision_batch",
    "judged_batch",
    "ndcg_batch",
    "num_rel_batch",
    "num_rel_ret_batch",
    "num_ret_batch",
    "precision_batch",
    "r_precision_batch",
    "rbp_batch",
    "rbp_residual_batch",
    "recall_batch",
    "reciprocal_rank_batch",
    "success_batch",
]


def _per_query(hits: JudgedHits, mask: Bools, weights: Floats | None) -> Floats:
    w = None if weights is None else weights[mask]
    return np.bincount(hits.query[mask], weights=w, minlength=hits.n_queries).astype(np.float64)


def _within(hits: JudgedHits, k: int | None) -> Bools:
    if k is None:
        return np.ones(hits.rank.size, dtype=bool)
    return hits.rank <= k


def _is_relevant(grade: Floats, rel: float | None) -> Bools:
    return grade >= rel if rel is not None else grade > 0


def _relevant_within(hits: JudgedHits, k: int | None, rel: float | None = None) -> Bools:
    return _is_relevant(hits.grade, rel) & _within(hits, k)


def _n_relevant(hits: JudgedHits, rel: float | None) -> Ints:
    if rel is None:
        return hits.n_relevant
    mask = hits.judged >= rel
    return np.bincount(hits.judged_owner()[mask], minlength=hits.n_queries).astype(np.int64)


def _depth(hits: JudgedHits, k: int | None) -> Ints:
    """``k`` for every query, or each one's number of docs retrieved for ``k=None``."""
    if k is None:
        return hits.n_retrieved
    return np.full(hits.n_queries, k, dtype=np.int64)


def _prepared(hits: JudgedHits, judged_only: bool) -> JudgedHits:
    return hits.judged_only() if judged_only else hits


def _safe_divide(numerator: Floats, denominator: npt.NDArray[np.int64] | Floats) -> Floats:
    out = np.zeros_like(numerator)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _before_in_query(query: Ints, flags: Bools) -> Ints:
    """For each entry, how many entries of its query before it have ``flags`` set."""
    if query.size == 0:
        return query
    counts = np.cumsum(flags, dtype=np.int64) - flags
    starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
    lengths = np.diff(np.r_[starts, query.size])
    return counts - np.repeat(counts[starts], lengths)


def precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """P@k of every query: relevant docs in the top ``k``, over ``k`` (over the docs
    retrieved for ``k=None``)."""
    hits = _prepared(hits, judged_only)
    return _safe_divide(_per_query(hits, _relevant_within(hits, k, rel), None), _depth(hits, k))


def recall_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """recall@k of every query: relevant docs in the top ``k``, over all relevant docs."""
    hits = _prepared(hits, judged_only)
    found = _per_query(hits, _relevant_within(hits, k, rel), None)
    return _safe_divide(found, _n_relevant(hits, rel))


def reciprocal_rank_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """1 / rank of each query's first relevant doc within the top ``k`` (0 if none)."""
    hits = _prepared(hits, judged_only)
    mask = _relevant_within(hits, k, rel)
    queries, first = np.unique(hits.query[mask], return_index=True)
    out = np.zeros(hits.n_queries, dtype=np.float64)
    out[queries] = 1.0 / hits.rank[mask][first]
    return out


def average_precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """AP@k of every query: precision at each relevant hit in the top ``k``, over all relevant."""
    hits = _prepared(hits, judged_only)
    mask = _relevant_within(hits, k, rel)
    query, rank = hits.query[mask], hits.rank[mask]
    precision = (position_in_query(query) + 1) / rank
    total = np.bincount(query, weights=precision, minlength=hits.n_queries)
    return _safe_divide(total.astype(np.float64), _n_relevant(hits, rel))


def _gains(
    grade: Floats, gains: Mapping[float, float] | None, dcg: str, rel: float | None = None
) -> Floats:
    """Each grade's gain, as :func:`~ef.evaluation.metrics.retrieval._gain` gives it."""
    value = np.where(grade > 0, grade, 0.0)
    if gains:
        keys = np.fromiter(gains.keys(), dtype=np.float64)
        values = np.fromiter(gains.values(), dtype=np.float64)
        order = np.argsort(keys)
        keys, values = keys[order], values[order]
        at = np.clip(np.searchsorted(keys, grade), 0, keys.size - 1)
        listed = keys[at] == grade
        value = np.where(listed, values[at], value)
    if dcg == "exp-log2":
        value = np.power(2.0, value) - 1.0
    if rel is not None:
        value = np.where(grade >= rel, value, 0.0)
    return value


def _ideal_dcg(
    hits: JudgedHits,
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None = None,
) -> Floats:
    if gains or rel is not None:
        gain = _gains(hits.judged, gains, dcg, rel)
        owner = hits.judged_owner()
        keep = gain > 0
        gain, owner = gain[keep], owner[keep]
        order = np.lexsort((-gain, owner))
        gain, owner = gain[order], owner[order]
        position = position_in_query(owner)
    else:  # the positive grades, already descending; 2 ** g - 1 keeps their order
        gain = _gains(hits.ideal, None, dcg)
        owner = np.repeat(np.arange(hits.n_queries), hits.n_relevant)
        position = np.arange(hits.ideal.size) - hits.ideal_offsets[owner]
    within = position < k if k is not None else np.ones(position.size, dtype=bool)
    discounted = gain[within] / np.log2(position[within] + 2.0)
    return np.bincount(owner[within], weights=discounted, minlength=hits.n_queries).astype(
        np.float64
    )


def ndcg_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """nDCG@k of every query, over the ideal DCG of all judged grades (linear gain unless
    ``gains`` or ``dcg="exp-log2"`` say otherwise; grades below ``rel`` gain nothing)."""
    hits = _prepared(hits, judged_only)
    gain = _gains(hits.grade, gains, dcg, rel)
    mask = (gain != 0) & _within(hits, k)
    discounted = gain[mask] / np.log2(hits.rank[mask] + 1.0)
    found = np.bincount(hits.query[mask], weights=discounted, minlength=hits.n_queries)
    ideal = _ideal_dcg(hits, k, gains, dcg, rel)
    return _safe_divide(found.astype(np.float64), ideal)


def r_precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """R-precision of every query: relevant docs in the top R (and top ``k``), over R."""
    hits = _prepared(hits, judged_only)
    n_relevant = _n_relevant(hits, rel)
    mask = _relevant_within(hits, k, rel) & (hits.rank <= n_relevant[hits.query])
    return _safe_divide(_per_query(hits, mask, None), n_relevant)


def _n_nonrelevant(hits: JudgedHits, rel: float | None) -> Ints:
    mask = (hits.judged >= 0) & ~_is_relevant(hits.judged, rel)
    return np.bincount(hits.judged_owner()[mask], minlength=hits.n_queries).astype(np.int64)


def bpref_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """bpref of every query, as trec_eval computes it."""
    hits = _prepared(hits, judged_only)
    within = _within(hits, k) & (hits.grade >= 0)
    query, grade = hits.query[within], hits.grade[within]
    relevant = _is_relevant(grade, rel)
    nonrel_above = _before_in_query(query, ~relevant)[relevant]
    owner = query[relevant]
    n_relevant = _n_relevant(hits, rel)
    cap = np.minimum(_n_nonrelevant(hits, rel), n_relevant)[owner]
    penalty = np.zeros(owner.size, dtype=np.float64)
    some = nonrel_above > 0
    penalty[some] = np.minimum(nonrel_above[some], n_relevant[owner][some]) / cap[some]
    total = np.bincount(owner, weights=1.0 - penalty, minlength=hits.n_queries)
    return _safe_divide(total.astype(np.float64), n_relevant)


def inferred_average_precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """infAP of every query, as trec_eval computes it."""
    hits = _prepared(hits, judged_only)
    within = _within(hits, k)
    query, grade, rank = hits.query[within], hits.grade[within], hits.rank[within]
    pooled = grade < 0
    relevant = ~pooled & _is_relevant(grade, rel)
    nonrel = ~pooled & ~relevant
    rel_so_far = _before_in_query(query, relevant)[relevant] + 1
    nonrel_so_far = _before_in_query(query, nonrel)[relevant]
    pooled_so_far = _before_in_query(query, pooled)[relevant]
    j = (rank[relevant] - 1).astype(np.float64)
    owner = query[relevant]
    value = np.ones(owner.size, dtype=np.float64)
    later = j > 0
    jl, rl, nl, pl = j[later], rel_so_far[later], nonrel_so_far[later], pooled_so_far[later]
    value[later] = 1.0 / (jl + 1.0) + (jl / (jl + 1.0)) * ((rl - 1 + nl + pl) / jl) * (
        (rl - 1 + INFAP_EPSILON) / (rl - 1 + nl + 2 * INFAP_EPSILON)
    )
    total = np.bincount(owner, weights=value, minlength=hits.n_queries)
    return _safe_divide(total.astype(np.float64), _n_relevant(hits, rel))


def success_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """1.0 for every query with a relevant doc in the top ``k``, else 0.0."""
    hits = _prepared(hits, judged_only)
    return (_per_query(hits, _relevant_within(hits, k, rel), None) > 0).astype(np.float64)


def f1_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """F1@k of every query: the harmonic mean of precision@k and recall@k."""
    hits = _prepared(hits, judged_only)
    found = _per_query(hits, _relevant_within(hits, k, rel), None)
    precision = _safe_divide(found, _depth(hits, k))
    recall = _safe_divide(found, _n_relevant(hits, rel))
    total = precision + recall
    return _safe_divide(2.0 * precision * recall, total)


def judged_batch(hits: JudgedHits, k: int | None) -> Floats:
    """Share of each query's top ``k`` that is judged, over the docs in its top ``k``."""
    shown = _depth(hits, k)
    if k is not None:
        shown = np.minimum(shown, hits.n_retrieved)
    return _safe_divide(_per_query(hits, _within(hits, k), None), shown)


def hole_batch(hits: JudgedHits, k: int | None) -> Floats:
    """Share of each query's top ``k`` that is unjudged (or negative), over ``k``."""
    depth = _depth(hits, k)
    shown = np.minimum(depth, hits.n_retrieved)
    judged = _per_query(hits, _within(hits, k) & (hits.grade >= 0), None)
    return _safe_divide(shown - judged, depth)


def num_ret_batch(hits: JudgedHits, k: int | None, *, judged_only: bool = False) -> Floats:
    """Docs retrieved in each query's top ``k``."""
    hits = _prepared(hits, judged_only)
    return np.minimum(_depth(hits, k), hits.n_retrieved).astype(np.float64)


def num_rel_batch(hits: JudgedHits, k: int | None, *, rel: float | None = None) -> Floats:
    """Relevant docs of each query, retrieved or not."""
    return _n_relevant(hits, rel).astype(np.float64)


def num_rel_ret_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Relevant docs in each query's top ``k``."""
    hits = _prepared(hits, judged_only)
    return _per_query(hits, _relevant_within(hits, k, rel), None)


def rbp_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    p: float = 0.9,
    rel: float | None = None,
    graded: bool = False,
    judged_only: bool = False,
) -> Floats:
    """Rank-biased precision of every query (binary gain, or graded as trec_eval's)."""
    hits = _prepared(hits, judged_only)
    if graded:
        if rel is not None:
            raise ValueError("rbp: rel does not apply to graded gains; set one of rel, graded")
        # Each query's grades run in descending order: the first is its highest.
        top = np.ones(hits.n_queries, dtype=np.float64)
        some = np.diff(hits.judged_offsets) > 0
        top[some] = np.maximum(1.0, hits.judged[hits.judged_offsets[:-1][some]])
        gain = np.maximum(hits.grade, 0.0) / top[hits.query]
    else:
        gain = _is_relevant(hits.grade, rel).astype(np.float64)
    mask = (gain != 0) & _within(hits, k)
    weights = gain * np.power(p, (hits.rank - 1).astype(np.float64))
    return (1.0 - p) * _per_query(hits, mask, weights)


def rbp_residual_batch(hits: JudgedHits, k: int | None, *, p: float = 0.9) -> Floats:
    """The RBP residual of every query, as trec_eval's ``rbp_resid`` (0 if nothing in the top
    ``k`` is unjudged)."""
    shown = np.minimum(_depth(hits, k), hits.n_retrieved)
    judged = _within(hits, k) & (hits.grade >= 0)
    n_judged = _per_query(hits, judged, None)
    weights = np.power(p, (hits.rank - 1).astype(np.float64))
    tail = np.power(p, shown.astype(np.float64))
    # (1 - p) * (p ** 0 + ... + p ** (shown - 1)) = 1 - tail, less the judged docs' share.
    unjudged = (1.0 - tail) - (1.0 - p) * _per_query(hits, judged, weights)
    return np.where(shown > n_judged, tail + unjudged, 0.0)


def err_batch(
    hits: JudgedHits, k: int | None, *, max_grade: float = 4.0, judged_only: bool = False
) -> Floats:
    """ERR@k of every query, as gdeval computes it.

    The chance that no doc above satisfied is a running product within each query: it is
    taken one position at a time across all queries at once, in the reference's order.
    """
    hits = _prepared(hits, judged_only)
    grade = np.clip(hits.grade, 0.0, max_grade)
    satisfied = (np.power(2.0, grade) - 1.0) / 2.0**max_grade
    mask = _within(hits, k) & (satisfied > 0)
    query, rank, satisfied = hits.query[mask], hits.rank[mask], satisfied[mask]
    position = position_in_query(query)
    order = np.argsort(position, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(position))] if position.size else np.zeros(1, int)
    score = np.zeros(hits.n_queries, dtype=np.float64)
    decay = np.ones(hits.n_queries, dtype=np.float64)
    for start, end in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        at = order[start:end]  # the n-th satisfying doc of every query that has one
        owners = query[at]
        score[owners] += satisfied[at] * decay[owners] / rank[at]
        decay[owners] *= 1.0 - satisfied[at]
    return score


def capped_recall_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Relevant docs in the top ``k`` over ``min(k, R)`` (BEIR's R_cap)."""
    hits = _prepared(hits, judged_only)
    found = _per_query(hits, _relevant_within(hits, k, rel), None)
    return _safe_divide(found, np.minimum(_depth(hits, k), _n_relevant(hits, rel)))
