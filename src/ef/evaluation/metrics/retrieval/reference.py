"""The per-query helpers the reference functions of the metric modules share (numpy-free).

The reference functions read a ranking as :func:`top_docs` cuts it: its first ``k`` distinct
doc ids, a duplicate counting only at its first (best) rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["check_cutoff", "is_relevant_grade", "relevant_hits", "relevant_total", "top_docs"]


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
