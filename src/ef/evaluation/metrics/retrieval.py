"""Per-query retrieval metrics: the readable reference implementations.

Semantics (pinned in DESIGN §4, equal to trec_eval 9.0.8's ``ndcg_cut``, ``recall``, ``P``,
``recip_rank`` and ``map_cut``):

* ``ranked`` is used in the order given. A doc id that appears again lower down counts only at
  its first (best) rank, so a duplicate can never be rewarded twice.
* ``relevant`` maps doc ids to grades. A grade > 0 is relevant; 0 and negative grades are judged
  non-relevant; a doc missing from ``relevant`` is unjudged and counts as non-relevant.
* Graded judgements feed nDCG as linear gain (the grade itself); every other metric is binary.
* A query with no relevant judgement scores 0.0 on every metric.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

__all__ = [
    "average_precision",
    "dcg_at_k",
    "ndcg_at_k",
    "precision_at_k",
    "recall_at_k",
    "reciprocal_rank",
]


def _check_cutoff(k: int | None) -> None:
    # bool is an int subclass; ndcg_at_k(..., True) is a bug, not a cutoff of 1.
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"cutoff k must be a positive int, got {k!r}")


def _top_k(ranked: Sequence[str], k: int | None) -> Iterator[str]:
    """The first ``k`` distinct doc ids of ``ranked`` (all of them when ``k`` is None)."""
    _check_cutoff(k)
    seen: set[str] = set()
    limit = math.inf if k is None else k
    for doc in ranked:
        if len(seen) >= limit:
            return
        if doc not in seen:
            seen.add(doc)
            yield doc


def _gain(relevant: Mapping[str, float], doc: str) -> float:
    grade = relevant.get(doc, 0.0)
    return float(grade) if grade > 0 else 0.0


def _n_relevant(relevant: Mapping[str, float]) -> int:
    return sum(1 for grade in relevant.values() if grade > 0)


def dcg_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """Discounted cumulative gain of ``ranked`` at cutoff ``k``.

    ``sum(grade_i / log2(i + 2))`` over the top ``k`` results (``i`` 0-indexed), with
    ``grade_i`` the relevance of the i-th doc (0 if unjudged or not positive): the linear-gain
    DCG of Järvelin and Kekäläinen (2002) that BEIR, pytrec_eval and trec_eval use.

    >>> round(dcg_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 3), 4)
    1.5
    """
    return sum(
        _gain(relevant, doc) / math.log2(rank + 1)
        for rank, doc in enumerate(_top_k(ranked, k), start=1)
    )


def _ideal_dcg(relevant: Mapping[str, float], k: int) -> float:
    gains = sorted((float(g) for g in relevant.values() if g > 0), reverse=True)[:k]
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """Normalized DCG at cutoff ``k``: ef's primary retrieval metric.

    :func:`dcg_at_k` divided by the ideal DCG, the DCG of the best possible ranking of *all* the
    judged docs (not only the retrieved ones), cut at ``k``. 1.0 is a perfect ranking; 0.0 when
    no relevant doc was judged. Equals trec_eval's ``ndcg_cut.k``.

    >>> ndcg_at_k(['d1', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)   # perfect order
    1.0
    >>> round(ndcg_at_k(['x', 'd1'], {'d1': 1.0}, 2), 4)     # relevant doc at rank 2
    0.6309
    """
    _check_cutoff(k)
    ideal = _ideal_dcg(relevant, k)
    return dcg_at_k(ranked, relevant, k) / ideal if ideal > 0 else 0.0


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """Fraction of the relevant docs that appear in the top ``k`` results.

    The denominator is every relevant doc of the query (trec_eval's ``recall.k``), not
    ``min(R, k)`` (BEIR's ``R_cap``).

    >>> recall_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)
    0.5
    >>> recall_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 3)
    1.0
    """
    n_relevant = _n_relevant(relevant)
    if n_relevant == 0:
        _check_cutoff(k)
        return 0.0
    hits = sum(1 for doc in _top_k(ranked, k) if relevant.get(doc, 0) > 0)
    return hits / n_relevant


def precision_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """Fraction of the top ``k`` results that are relevant.

    The denominator is always ``k``, even when fewer than ``k`` docs were retrieved: trec_eval
    pads short rankings with non-relevant docs (``P.k``).

    >>> precision_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)
    0.5
    """
    hits = sum(1 for doc in _top_k(ranked, k) if relevant.get(doc, 0) > 0)
    return hits / k


def reciprocal_rank(
    ranked: Sequence[str], relevant: Mapping[str, float], k: int | None = None
) -> float:
    """Reciprocal of the rank of the first relevant result (0 if none).

    Averaged over queries this is MRR. ``k`` optionally caps how far down the ranking to look;
    with ``k=None`` it equals trec_eval's ``recip_rank``.

    >>> reciprocal_rank(['x', 'd1', 'd2'], {'d1': 1.0})
    0.5
    >>> reciprocal_rank(['x', 'd1'], {'d1': 1.0}, k=1)       # relevant doc past the cutoff
    0.0
    """
    for rank, doc in enumerate(_top_k(ranked, k), start=1):
        if relevant.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


def average_precision(
    ranked: Sequence[str], relevant: Mapping[str, float], k: int | None = None
) -> float:
    """Average precision of ``ranked``: the per-query term of MAP.

    The sum of the precision measured at each relevant result's rank, divided by the number of
    relevant docs of the query, so relevant docs that were never retrieved count as 0. ``k``
    optionally caps the ranking (trec_eval's ``map_cut.k``; ``k=None`` is its ``map``).

    >>> average_precision(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0})
    0.8333333333333333
    """
    n_relevant = _n_relevant(relevant)
    if n_relevant == 0:
        _check_cutoff(k)
        return 0.0
    hits = 0
    total = 0.0
    for rank, doc in enumerate(_top_k(ranked, k), start=1):
        if relevant.get(doc, 0) > 0:
            hits += 1
            total += hits / rank
    return total / n_relevant
