"""Reciprocal rank fusion (RRF).

    RRF(d) = sum over runs r that retrieved d of 1 / (k + rank_r(d)),   ranks from 1, k = 60

Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and individual
Rank Learning Methods", SIGIR 2009. ``k = 60`` is the paper's value and ranx's default. Only
the ranks count, so normalisation does not change it; a run that missed the doc adds 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod, FusionParam
from ._common import check_at_least

__all__ = ["RRF", "reciprocal_rank_fusion"]


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], *, k: int = 60) -> dict[str, float]:
    """The sum of ``1 / (k + rank)`` over the runs that retrieved each doc.

    >>> fused = reciprocal_rank_fusion([["a", "b"], ["b", "c"]], k=1)
    >>> fused
    {'a': 0.5, 'b': 0.8333333333333333, 'c': 0.3333333333333333}
    """
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            fused[doc] = fused.get(doc, 0.0) + 1 / (k + rank)
    return fused


RRF = FusionMethod(
    name="rrf",
    func=reciprocal_rank_fusion,
    params=[
        FusionParam(
            "k",
            int,
            60,
            "the rank offset; larger k flattens the top ranks' advantage",
            grid=range(10, 101, 10),
            check=check_at_least("k", 0),
        )
    ],
    uses="ranks",
    formula="RRF(d) = sum_r 1 / (k + rank_r(d)), over the runs that retrieved d",
    citation="Cormack, Clarke and Büttcher, SIGIR 2009",
)
