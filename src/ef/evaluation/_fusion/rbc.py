"""Rank-biased centroid (RBC): each run's ranks weighed as rank-biased precision weighs
them, summed.

    RBC(d) = sum over runs r that retrieved d of (1 - phi) * phi^(rank_r(d) - 1)

Bailey, Moffat, Scholer and Thomas, "Retrieval Consistency in the Presence of Query
Variations", SIGIR 2017. ``phi`` (the persistence, in [0, 1]) is required, as in ranx;
:func:`~ef.evaluation.optimize_fusion` searches 0.01, 0.02, ..., 1 (ranx's). Only the ranks
count, so normalisation does not change it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod, FusionParam
from ._common import check_unit

__all__ = ["RBC", "rank_biased_centroid"]


def rank_biased_centroid(rankings: Sequence[Sequence[str]], *, phi: float) -> dict[str, float]:
    """The sum of ``(1 - phi) * phi ** (rank - 1)`` over the runs that retrieved each doc.

    >>> rank_biased_centroid([["a", "b"], ["b", "c"]], phi=0.5)
    {'a': 0.5, 'b': 0.75, 'c': 0.25}
    """
    fused: dict[str, float] = {}
    for ranking in rankings:
        for index, doc in enumerate(ranking):
            fused[doc] = fused.get(doc, 0.0) + (1 - phi) * phi**index
    return fused


RBC = FusionMethod(
    name="rbc",
    func=rank_biased_centroid,
    params=[
        FusionParam(
            "phi",
            float,
            description="the persistence, in [0, 1]: larger phi weighs deeper ranks more "
            "(required, as in ranx)",
            grid=[i / 100 for i in range(1, 101)],
            check=check_unit("phi"),
            required=True,
        )
    ],
    uses="ranks",
    formula="RBC(d) = sum_r (1 - phi) * phi^(rank_r(d) - 1), over the runs that retrieved d",
    citation="Bailey, Moffat, Scholer and Thomas, SIGIR 2017",
)
