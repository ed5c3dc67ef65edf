"""The per-query helpers the reference functions of the metric modules share (numpy-free).

The reference functions read a ranking as :func:`top_docs` cuts it: its first ``k`` distinct
doc ids, a duplicate counting only at its first (best) rank.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "C_NAN",
    "NONPOOL",
    "UNJUDGED",
    "check_cutoff",
    "ideal_gains",
    "is_relevant_grade",
    "relevant_hits",
    "relevant_total",
    "top_docs",
    "trec_gain",
    "trec_rels",
]

#: trec_eval's relevance of a retrieved doc that is not in the qrels (RELVALUE_NONPOOL).
NONPOOL = -1.0
#: ... and of one judged with a negative grade: pooled but not judged (RELVALUE_UNJUDGED).
UNJUDGED = -2.0
#: C's 0 / 0 on x86: a NaN with its sign bit set, which glibc prints as ``-nan``.
C_NAN = -math.nan


def check_cutoff(k: int | None) -> None:
    """Refuse a cutoff that is not a positive int or None."""
    # bool is an int subclass; ndcg_at_k(..., True) is a bug, not a cutoff of 1.
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"cutoff k must be a positive int, got {k!r}")


def top_docs(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    judged_only: bool = False,
) -> list[str]:
    """The first ``k`` distinct doc ids of ``ranked`` (all of them when ``k`` is None); with
    ``judged_only``, of those judged with a grade of 0 or more."""
    check_cutoff(k)
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


def is_relevant_grade(grade: float | None, rel: float | None) -> bool:
    """Whether a judged ``grade`` (None: unjudged) counts as relevant at ``rel``."""
    if grade is None:
        return False
    return grade >= rel if rel is not None else grade > 0


def relevant_total(relevant: Mapping[str, float], rel: float | None = None) -> int:
    """The number of docs of ``relevant`` that count as relevant at ``rel``."""
    return sum(1 for grade in relevant.values() if is_relevant_grade(grade, rel))


def relevant_hits(top: Sequence[str], relevant: Mapping[str, float], rel: float | None) -> int:
    """The number of docs of ``top`` that count as relevant at ``rel``."""
    return sum(1 for doc in top if is_relevant_grade(relevant.get(doc), rel))


def trec_rels(top: Sequence[str], relevant: Mapping[str, float]) -> list[float]:
    """trec_eval's relevance of each doc of ``top``: its grade if 0 or more, :data:`UNJUDGED`
    for a negative grade, :data:`NONPOOL` for a doc without a judgement.

    >>> trec_rels(["d1", "x", "d2"], {"d1": 2, "d2": -1})
    [2, -1.0, -2.0]
    """
    rels: list[float] = []
    for doc in top:
        grade = relevant.get(doc)
        rels.append(NONPOOL if grade is None else UNJUDGED if grade < 0 else grade)
    return rels


def trec_gain(grade: float | None, gains: Mapping[float, float] | None = None) -> float:
    """A judged doc's gain as trec_eval's gain-based measures (G, ndcg_rel, Rndcg) take it:
    ``gains[grade]`` if listed, else the grade itself; 0 for a doc without a judgement or with
    a negative one.

    >>> trec_gain(2), trec_gain(2, {2: 9}), trec_gain(-1, {-1: 5}), trec_gain(None)
    (2.0, 9.0, 0.0, 0.0)
    """
    if grade is None or grade < 0:
        return 0.0
    if gains and grade in gains:
        return float(gains[grade])
    return float(grade)


def ideal_gains(grades: Iterable[float], gains: Mapping[float, float] | None = None) -> list[float]:
    """The positive gains of a query's judged docs, highest first: its ideal ranking's.

    >>> ideal_gains([0, 2, 1, -1, 2], {1: 3})
    [3.0, 2.0, 2.0]
    """
    return sorted((g for g in (trec_gain(x, gains) for x in grades) if g > 0), reverse=True)
