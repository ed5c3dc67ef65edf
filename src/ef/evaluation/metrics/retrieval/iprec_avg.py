"""11pt_avg: interpolated precision averaged over recall levels (11 of them by default).

    iprec_avg = mean(iprec_at_recall(x) for x in 0.0, 0.1, ..., 1.0)

Each level's interpolated precision is :mod:`~ef.evaluation.metrics.retrieval.
iprec_at_recall`'s, with the same ``rounding`` of a level to a number of relevant docs.

Salton and McGill, Introduction to Modern Information Retrieval, 1983; trec_eval (NIST),
usnistgov/trec_eval: ``11pt_avg``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .iprec_at_recall import NAN_IF_EMPTY, ROUNDING, recall_rank
from .params import BINARY, REL, TREC, check_arguments
from .reference import C_NAN, is_relevant_grade, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["IPREC_AVG", "iprec_avg", "iprec_avg_batch", "recall_levels"]


_ELEVEN = "0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0"


def recall_levels(text: str) -> list[float]:
    """The recall levels of ``recalls``: comma-separated numbers, in the order given.

    >>> recall_levels("0.25, .5,0.75")
    [0.25, 0.5, 0.75]
    """
    levels = []
    for part in text.split(","):
        try:
            level = float(part)
        except ValueError:
            level = math.nan
        if not math.isfinite(level):
            raise ValueError(
                f"parameter 'recalls' is comma-separated numbers, e.g. '0.2,0.5,0.8'; got "
                f"{part.strip()!r} in {text!r}"
            )
        levels.append(level)
    return levels


def _check_levels(text: str) -> None:
    """Refuse a level that is not a number, or not a recall level (0 to 1)."""
    outside = [x for x in recall_levels(text) if not 0 <= x <= 1]
    if outside:
        raise ValueError(
            f"parameter 'recalls' holds recall levels between 0 and 1 (shares of the relevant "
            f"docs); got {', '.join(map(repr, outside))} in {text!r}"
        )


RECALLS = MetricParam(
    "recalls",
    str,
    _ELEVEN,
    "the recall levels averaged over, comma-separated, each 0 to 1",
    check=_check_levels,
)


def _averaged(  # noqa: PLR0917 - one query's numbers, in the order of the loop
    ranks: Sequence[int],
    n_retrieved: int,
    n_relevant: int,
    levels: Sequence[float],
    rounding: str,
    nan_if_empty: bool,
) -> float:
    """trec_eval's loop, at the ranks of the relevant docs retrieved (``ranks``, ascending):
    reading them from the bottom, keep the highest precision seen, and add it to the sum
    each time as many relevant docs remain as the next recall level (from the last) stands
    for; the levels never reached add the last value kept."""
    cuts = [recall_rank(x, n_relevant, rounding) for x in levels]
    n_found = len(ranks)
    current = len(cuts) - 1
    while current >= 0 and cuts[current] > n_found:
        current -= 1
    empty = C_NAN if nan_if_empty else 0.0
    best = n_found / n_retrieved if n_retrieved else empty
    total = 0.0
    for j in range(n_found, 0, -1):
        best = max(best, j / ranks[j - 1])
        while current >= 0 and j == cuts[current]:
            total += best
            current -= 1
    while current >= 0:
        total += best
        current -= 1
    return total / len(cuts)


def iprec_avg(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    recalls: str = _ELEVEN,
    rounding: str = "plus0.9",
    nan_if_empty: bool = False,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Interpolated precision averaged over the recall levels ``recalls``.

    Over the top ``k``, summed in trec_eval's order (from the last level).

    >>> iprec_avg(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}, recalls="0.5,1.0")  # (1 + 2/3) / 2
    0.8333333333333333
    """
    check_arguments(
        "iprec_avg(ranked, relevant, k)", (RECALLS, recalls), (ROUNDING, rounding), (REL, rel)
    )
    top = top_docs(ranked, relevant, k, judged_only)
    found = [is_relevant_grade(relevant.get(doc), rel) for doc in top]
    n_relevant = relevant_total(relevant, rel)
    cuts = [recall_rank(x, n_relevant, rounding) for x in recall_levels(recalls)]
    so_far = sum(found)
    current = len(cuts) - 1
    while current >= 0 and cuts[current] > so_far:
        current -= 1
    empty = C_NAN if nan_if_empty else 0.0
    best = so_far / len(top) if top else empty
    total = 0.0
    i = len(top)
    while i > 0 and so_far > 0:  # every rank from the bottom, as trec_eval's loop
        best = max(best, so_far / i)
        if found[i - 1]:
            while current >= 0 and so_far == cuts[current]:
                total += best
                current -= 1
            so_far -= 1
        i -= 1
    while current >= 0:
        total += best
        current -= 1
    return total / len(cuts)


def iprec_avg_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    recalls: str = _ELEVEN,
    rounding: str = "plus0.9",
    nan_if_empty: bool = False,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """iprec_avg of every query (a loop over the relevant docs retrieved, query by query)."""
    import numpy as np

    from .kernels import cut, prepared, relevant_counts, relevant_in_top

    hits = cut(prepared(hits, judged_only), k)
    mask = relevant_in_top(hits, None, rel)
    query, rank = hits.query[mask], hits.rank[mask].tolist()
    bounds = np.searchsorted(query, np.arange(hits.n_queries + 1)).tolist()
    levels = recall_levels(recalls)
    n_relevant = relevant_counts(hits, rel).tolist()
    n_retrieved = hits.n_retrieved.tolist()
    return np.asarray(
        [
            _averaged(
                rank[bounds[q] : bounds[q + 1]],
                n_retrieved[q],
                n_relevant[q],
                levels,
                rounding,
                nan_if_empty,
            )
            for q in range(hits.n_queries)
        ],
        dtype=np.float64,
    )


IPREC_AVG = RetrievalMetric(
    name="iprec_avg",
    func=iprec_avg,
    batch=iprec_avg_batch,
    params=(RECALLS, ROUNDING, NAN_IF_EMPTY, *BINARY),
    cutoff=False,
    aliases=("eleven_pt_avg",),
    synonyms=(Synonym(TREC, "11pt_avg", cutoff=False),),
    formula="mean(iprec_at_recall(x) for x in recalls), by default 0.0, 0.1, ..., 1.0",
    citation="Salton and McGill, 1983; trec_eval's 11pt_avg",
)
