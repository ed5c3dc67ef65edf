"""Per-query retrieval metrics: the readable reference implementations.

Semantics (pinned in DESIGN §4 and ``docs/semantics.md``; equal to trec_eval 9.0.8 wherever
trec_eval defines the measure):

* ``ranked`` is used in the order given. A doc id that appears again lower down counts only at
  its first (best) rank, so a duplicate can never be rewarded twice.
* ``relevant`` maps doc ids to grades. A grade > 0 is relevant; 0 and negative grades are judged
  non-relevant; a doc missing from ``relevant`` is unjudged and counts as non-relevant.
  Where trec_eval tells them apart (bpref, infAP, ``judged_only``, hole, the RBP residual), a
  negative grade is trec_eval's "pooled but not judged", as trec_eval reads it.
* Graded judgements feed nDCG as linear gain (the grade itself); every other metric is binary.
* A query with no relevant judgement scores 0.0 on every relevance metric.
* ``k=None`` is the whole ranking (``"ndcg@all"``). Where a metric divides by ``k`` (precision,
  F1, hole), it divides by the number of docs retrieved instead.

Every binary metric takes ``rel`` (the lowest grade that counts as relevant, trec_eval's
``-l``; ``None`` is any grade > 0) and ``judged_only`` (drop the docs without a judgement of 0
or more from the ranking before scoring, trec_eval's ``-J``), both keyword-only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = [
    "average_precision",
    "bpref",
    "capped_recall_at_k",
    "dcg_at_k",
    "err_at_k",
    "f1_at_k",
    "hole_at_k",
    "inferred_average_precision",
    "judged_at_k",
    "ndcg_at_k",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "precision_at_k",
    "r_precision",
    "rbp",
    "rbp_residual",
    "recall_at_k",
    "reciprocal_rank",
    "success_at_k",
]

#: trec_eval's INFAP_EPSILON.
INFAP_EPSILON = 0.00001


def _check_cutoff(k: int | None) -> None:
    # bool is an int subclass; ndcg_at_k(..., True) is a bug, not a cutoff of 1.
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"cutoff k must be a positive int, got {k!r}")


def _top(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    judged_only: bool = False,
) -> list[str]:
    """The first ``k`` distinct doc ids of ``ranked`` (all of them when ``k`` is None); with
    ``judged_only``, of those judged with a grade of 0 or more."""
    _check_cutoff(k)
    seen: set[str] = set()
    top: list[str] = []
    for doc in ranked:
        if k is not None and len(top) >= k:
            break
        if doc in seen:
            continue
        seen.add(doc)
        if judged_only and relevant.get(doc, -1) < 0:
            continue
        top.append(doc)
    return top


def _is_relevant(grade: float | None, rel: float | None) -> bool:
    if grade is None:
        return False
    return grade >= rel if rel is not None else grade > 0


def _n_relevant(relevant: Mapping[str, float], rel: float | None = None) -> int:
    return sum(1 for grade in relevant.values() if _is_relevant(grade, rel))


def _hits(top: Sequence[str], relevant: Mapping[str, float], rel: float | None) -> int:
    return sum(1 for doc in top if _is_relevant(relevant.get(doc), rel))


def _gain(
    grade: float | None,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    rel: float | None = None,
) -> float:
    """A judged grade's gain: the grade (0 if not positive), or ``gains[grade]``; with
    ``dcg="exp-log2"``, 2 ** that - 1 (Burges et al.). A grade below ``rel`` gains 0."""
    if grade is None or (rel is not None and grade < rel):
        return 0.0
    if gains is not None and grade in gains:
        value = float(gains[grade])
    else:
        value = float(grade) if grade > 0 else 0.0
    return 2.0**value - 1.0 if dcg == "exp-log2" else value


def dcg_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> float:
    """Discounted cumulative gain of ``ranked`` at cutoff ``k``.

    ``sum(grade_i / log2(i + 2))`` over the top ``k`` results (``i`` 0-indexed), with
    ``grade_i`` the relevance of the i-th doc (0 if unjudged or not positive): the linear-gain
    DCG of Järvelin and Kekäläinen (2002) that BEIR, pytrec_eval and trec_eval use.
    ``gains`` maps grades to other gains (trec_eval's ``ndcg.1=3,2=9``; unlisted grades keep
    their own); ``dcg="exp-log2"`` takes ``2 ** gain - 1`` (Burges et al., 2005). With
    ``rel``, a grade below it gains nothing (ranx's ``-l``; trec_eval's ``-l`` leaves nDCG
    alone, so it is unset by default).

    >>> round(dcg_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 3), 4)
    1.5
    """
    return sum(
        _gain(relevant.get(doc), gains, dcg, rel) / math.log2(rank + 1)
        for rank, doc in enumerate(_top(ranked, relevant, k, judged_only), start=1)
    )


def _ideal_dcg(
    relevant: Mapping[str, float],
    k: int | None,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    rel: float | None = None,
) -> float:
    ideal = sorted(
        (g for g in (_gain(grade, gains, dcg, rel) for grade in relevant.values()) if g > 0),
        reverse=True,
    )[:k]
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(ideal, start=1))


def ndcg_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> float:
    """Normalized DCG at cutoff ``k``: ef's primary retrieval metric.

    :func:`dcg_at_k` divided by the ideal DCG, the DCG of the best possible ranking of *all* the
    judged docs (not only the retrieved ones), cut at ``k``. 1.0 is a perfect ranking; 0.0 when
    no relevant doc was judged. Equals trec_eval's ``ndcg_cut.k`` (and ``ndcg`` for
    ``k=None``). Its gains are thresholded only if ``rel`` is set: then a grade below it
    gains nothing, in the ranking and in the ideal (ranx's ``-l``).

    >>> ndcg_at_k(['d1', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)   # perfect order
    1.0
    >>> round(ndcg_at_k(['x', 'd1'], {'d1': 1.0}, 2), 4)     # relevant doc at rank 2
    0.6309
    """
    _check_cutoff(k)
    ideal = _ideal_dcg(relevant, k, gains, dcg, rel)
    if ideal <= 0:
        return 0.0
    found = dcg_at_k(ranked, relevant, k, gains=gains, dcg=dcg, judged_only=judged_only, rel=rel)
    return found / ideal


def recall_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Fraction of the relevant docs that appear in the top ``k`` results.

    The denominator is every relevant doc of the query (trec_eval's ``recall.k``), not
    ``min(R, k)`` (BEIR's ``R_cap``, :func:`capped_recall_at_k`).

    >>> recall_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)
    0.5
    >>> recall_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 3)
    1.0
    """
    top = _top(ranked, relevant, k, judged_only)
    n_relevant = _n_relevant(relevant, rel)
    return _hits(top, relevant, rel) / n_relevant if n_relevant else 0.0


def precision_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Fraction of the top ``k`` results that are relevant.

    The denominator is always ``k``, even when fewer than ``k`` docs were retrieved: trec_eval
    pads short rankings with non-relevant docs (``P.k``). For ``k=None`` it is the number of
    docs retrieved (trec_eval's ``set_P``).

    >>> precision_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)
    0.5
    """
    top = _top(ranked, relevant, k, judged_only)
    depth = k if k is not None else len(top)
    return _hits(top, relevant, rel) / depth if depth else 0.0


def reciprocal_rank(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Reciprocal of the rank of the first relevant result (0 if none).

    Averaged over queries this is MRR. ``k`` optionally caps how far down the ranking to look;
    with ``k=None`` it equals trec_eval's ``recip_rank``.

    >>> reciprocal_rank(['x', 'd1', 'd2'], {'d1': 1.0})
    0.5
    >>> reciprocal_rank(['x', 'd1'], {'d1': 1.0}, k=1)       # relevant doc past the cutoff
    0.0
    """
    for rank, doc in enumerate(_top(ranked, relevant, k, judged_only), start=1):
        if _is_relevant(relevant.get(doc), rel):
            return 1.0 / rank
    return 0.0


def average_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Average precision of ``ranked``: the per-query term of MAP.

    The sum of the precision measured at each relevant result's rank, divided by the number of
    relevant docs of the query, so relevant docs that were never retrieved count as 0. ``k``
    optionally caps the ranking (trec_eval's ``map_cut.k``; ``k=None`` is its ``map``).

    >>> average_precision(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0})
    0.8333333333333333
    """
    top = _top(ranked, relevant, k, judged_only)
    n_relevant = _n_relevant(relevant, rel)
    if n_relevant == 0:
        return 0.0
    hits = 0
    total = 0.0
    for rank, doc in enumerate(top, start=1):
        if _is_relevant(relevant.get(doc), rel):
            hits += 1
            total += hits / rank
    return total / n_relevant


def r_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Precision at rank R, R being the number of relevant docs of the query (``Rprec``).

    Equal to recall at R. With a cutoff ``k``, the ranking is cut at ``k`` first, as
    trec_eval's ``-M k`` does.

    >>> r_precision(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1, 'd3': 1})  # 2 of the top 3
    0.6666666666666666
    """
    n_relevant = _n_relevant(relevant, rel)
    top = _top(ranked, relevant, k, judged_only)
    return _hits(top[:n_relevant], relevant, rel) / n_relevant if n_relevant else 0.0


def bpref(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Binary preference (Buckley and Voorhees, 2004), as trec_eval computes it.

    For each relevant doc retrieved, ``1 - min(n, R) / min(N, R)``, where ``n`` counts the
    judged non-relevant docs ranked above it, ``N`` all the judged non-relevant docs and ``R``
    the relevant ones; summed and divided by ``R``. Unjudged docs and negative grades are
    ignored.

    >>> bpref(['n1', 'd1', 'd2'], {'d1': 1, 'd2': 1, 'n1': 0, 'n2': 0})  # (1/2 + 1/2) / 2
    0.5
    """
    top = _top(ranked, relevant, k, judged_only)
    n_relevant = _n_relevant(relevant, rel)
    n_nonrel = sum(1 for grade in relevant.values() if grade >= 0 and not _is_relevant(grade, rel))
    nonrel_so_far = 0
    total = 0.0
    for doc in top:
        grade = relevant.get(doc)
        if grade is None or grade < 0:
            continue
        if not _is_relevant(grade, rel):
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - min(nonrel_so_far, n_relevant) / min(n_nonrel, n_relevant)
        else:
            total += 1.0
    return total / n_relevant if n_relevant else 0.0


def inferred_average_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Inferred AP (Yilmaz and Aslam, 2006), as trec_eval's ``infAP`` computes it.

    For judgements made on a random sample of the pool: a negative grade marks a doc pooled but
    not judged, a missing one a doc never pooled. The precision above each relevant doc is
    estimated from the judged docs above it; docs never pooled count as non-relevant.

    >>> round(inferred_average_precision(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}), 4)  # ~ AP
    0.8333
    """
    top = _top(ranked, relevant, k, judged_only)
    n_relevant = _n_relevant(relevant, rel)
    rel_so_far = nonrel_so_far = pooled_so_far = 0
    total = 0.0
    for j, doc in enumerate(top):
        grade = relevant.get(doc)
        if grade is None:
            continue
        if grade < 0:
            pooled_so_far += 1
            continue
        if not _is_relevant(grade, rel):
            nonrel_so_far += 1
            continue
        rel_so_far += 1
        if j == 0:
            total += 1.0
        else:
            total += 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
                (rel_so_far - 1 + nonrel_so_far + pooled_so_far) / j
            ) * (
                (rel_so_far - 1 + INFAP_EPSILON)
                / (rel_so_far - 1 + nonrel_so_far + 2 * INFAP_EPSILON)
            )
    return total / n_relevant if n_relevant else 0.0


def success_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """1.0 if any of the top ``k`` results is relevant, else 0.0 (success@k, hit_rate@k).

    >>> success_at_k(['x', 'd1'], {'d1': 1}, 1), success_at_k(['x', 'd1'], {'d1': 1}, 2)
    (0.0, 1.0)
    """
    top = _top(ranked, relevant, k, judged_only)
    return 1.0 if _hits(top, relevant, rel) else 0.0


def _f1(hits: int, depth: int, n_relevant: int) -> float:
    precision = hits / depth if depth else 0.0
    recall = hits / n_relevant if n_relevant else 0.0
    total = precision + recall
    return 2.0 * precision * recall / total if total > 0 else 0.0


def f1_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Harmonic mean of precision@k and recall@k (0 when both are 0).

    Precision divides by ``k`` as :func:`precision_at_k` does; for ``k=None`` by the number of
    docs retrieved, which is trec_eval's ``set_F``.

    >>> f1_at_k(['d1', 'x'], {'d1': 1, 'd2': 1}, 2)  # P = 1/2, R = 1/2
    0.5
    """
    top = _top(ranked, relevant, k, judged_only)
    depth = k if k is not None else len(top)
    return _f1(_hits(top, relevant, rel), depth, _n_relevant(relevant, rel))


def judged_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int | None) -> float:
    """Share of the top ``k`` results that have a judgement, of any grade.

    ir_measures' ``Judged``. Divided by the number of docs in the top ``k``, which is fewer
    than ``k`` for a short ranking; 0.0 for an empty one.

    >>> judged_at_k(['d1', 'x', 'd2'], {'d1': 1, 'd2': 0}, 2), judged_at_k(['d1'], {'d1': 0}, 10)
    (0.5, 1.0)
    """
    top = _top(ranked, relevant, k)
    return sum(1 for doc in top if doc in relevant) / len(top) if top else 0.0


def hole_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int | None) -> float:
    """Share of the top ``k`` results with no judgement, or a negative one.

    trec_eval's ``unj.k``. Divided by ``k``, as a short ranking is padded with judged docs;
    for ``k=None`` by the number of docs retrieved.

    >>> hole_at_k(['d1', 'x', 'd2'], {'d1': 1, 'd2': 0}, 2), hole_at_k(['x'], {}, 10)
    (0.5, 0.1)
    """
    top = _top(ranked, relevant, k)
    depth = k if k is not None else len(top)
    unjudged = sum(1 for doc in top if relevant.get(doc, -1) < 0)
    return unjudged / depth if depth else 0.0


def num_ret(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    judged_only: bool = False,
) -> float:
    """Number of docs retrieved (in the top ``k``).

    >>> num_ret(['d1', 'x', 'd2'], {'d1': 2, 'd2': 1}), num_ret(['d1', 'x'], {}, judged_only=True)
    (3.0, 0.0)
    """
    return float(len(_top(ranked, relevant, k, judged_only)))


def num_rel(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
) -> float:
    """Number of relevant docs of the query, retrieved or not.

    ``ranked`` and ``k`` are ignored.

    >>> num_rel([], {'d1': 2, 'd2': 1, 'd3': 0}), num_rel([], {'d1': 2, 'd2': 1}, rel=2)
    (2.0, 1.0)
    """
    _check_cutoff(k)
    return float(_n_relevant(relevant, rel))


def num_rel_ret(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Number of relevant docs retrieved (in the top ``k``).

    >>> num_rel_ret(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1, 'd3': 1})
    2.0
    """
    return float(_hits(_top(ranked, relevant, k, judged_only), relevant, rel))


def rbp(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    p: float = 0.9,
    rel: float | None = None,
    graded: bool = False,
    judged_only: bool = False,
) -> float:
    """Rank-biased precision (Moffat and Zobel, 2008).

    ``(1 - p) * sum(gain_i * p ** (i - 1))`` over the ranks ``i`` of the top ``k``. ``p`` is
    the user's persistence (trec_eval's default 0.9; ir_measures' is 0.8). The gain is binary
    (1 for a relevant doc) unless ``graded``: then it is the grade over the query's highest
    grade (if above 1), trec_eval's ``rbp``, and ``rel`` does not apply.

    >>> rbp(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}, p=0.5)  # 0.5 * (1 + 0.25)
    0.625
    >>> rbp(['d1', 'x', 'd2'], {'d1': 2, 'd2': 1}, p=0.5, graded=True)  # 0.5 * (1 + 0.25 / 2)
    0.5625
    """
    if graded and rel is not None:
        raise ValueError("rbp: rel does not apply to graded gains; set one of rel, graded")
    top = _top(ranked, relevant, k, judged_only)
    top_grade = max(1.0, max(relevant.values(), default=0.0))
    gained = 0.0
    for rank, doc in enumerate(top, start=1):
        grade = relevant.get(doc)
        if graded:
            gain = max(grade, 0.0) / top_grade if grade is not None else 0.0
        else:
            gain = 1.0 if _is_relevant(grade, rel) else 0.0
        if gain != 0:
            gained += gain * p ** (rank - 1)
    return (1.0 - p) * gained


def rbp_residual(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    p: float = 0.9,
) -> float:
    """How much RBP could still grow, as trec_eval's ``rbp_resid`` computes it.

    With ``n`` docs in the top ``k``: ``p ** n`` (the ranks past them) plus
    ``(1 - p) * sum(p ** (i - 1))`` over the ranks ``i`` of the unjudged docs (no judgement,
    or a negative one) among them. As in trec_eval, it is 0 when no doc of the top ``k`` is
    unjudged, the ``p ** n`` notwithstanding.

    >>> rbp_residual(['d1', 'x'], {'d1': 1}, p=0.5)  # 0.5 ** 2 + 0.5 * 0.5 (x at rank 2)
    0.5
    >>> rbp_residual(['d1'], {'d1': 1}, p=0.5)  # nothing unjudged
    0.0
    """
    top = _top(ranked, relevant, k)
    unjudged = [rank for rank, doc in enumerate(top, start=1) if relevant.get(doc, -1) < 0]
    if not unjudged:
        return 0.0
    return p ** len(top) + (1.0 - p) * sum(p ** (rank - 1) for rank in unjudged)


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
    top = _top(ranked, relevant, k, judged_only)
    score = 0.0
    decay = 1.0
    for rank, doc in enumerate(top, start=1):
        grade = min(max(relevant.get(doc, 0.0), 0.0), max_grade)
        satisfied = (2.0**grade - 1.0) / 2.0**max_grade
        if satisfied > 0:
            score += satisfied * decay / rank
            decay *= 1.0 - satisfied
    return score


def capped_recall_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Relevant docs in the top ``k`` over ``min(k, R)``: BEIR's capped recall ``R_cap@k``.

    trec_eval's ``relative_P.k``. 1.0 when the top ``k`` holds as many relevant docs as it
    can. For ``k=None``, over ``min(retrieved, R)`` (trec_eval's ``set_relative_P``); 0.0
    when that is 0.

    >>> capped_recall_at_k(['d1', 'x'], {'d1': 1, 'd2': 1, 'd3': 1}, 1)
    1.0
    """
    top = _top(ranked, relevant, k, judged_only)
    depth = min(k if k is not None else len(top), _n_relevant(relevant, rel))
    return _hits(top, relevant, rel) / depth if depth else 0.0
