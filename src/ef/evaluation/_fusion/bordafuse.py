"""BordaFuse: Borda's count, each run voting points by rank over the query's candidates.

    Borda_r(d) = c - rank_r(d) + 1           if run r retrieved d
               = (c - |r| + 1) / 2           otherwise
    BordaFuse(d) = sum over runs r of Borda_r(d)

where ``c`` is the number of candidates (the docs any run retrieved for the query) and
``|r|`` the number run ``r`` retrieved: the docs a run missed share the points left over
(the mean of ``1 .. c - |r|``). Aslam and Montague, "Models for Metasearch", SIGIR 2001.
Only the ranks count, so normalisation does not change it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import candidates

__all__ = ["BORDAFUSE", "borda_points", "bordafuse"]


def borda_points(rankings: Sequence[Sequence[str]], weights: Sequence[float]) -> dict[str, float]:
    """Each candidate's Borda points, weighed by its run's weight and summed over the runs."""
    docs = candidates(rankings)
    count = len(docs)
    fused = dict.fromkeys(docs, 0.0)
    for weight, ranking in zip(weights, rankings, strict=True):
        unranked = (count - len(ranking) + 1) / 2
        points = {doc: count - index for index, doc in enumerate(ranking)}
        for doc in docs:
            fused[doc] += weight * points.get(doc, unranked)
    return fused


def bordafuse(rankings: Sequence[Sequence[str]]) -> dict[str, float]:
    """Each doc's Borda points summed over the runs.

    >>> bordafuse([["a", "b"], ["b", "c"]])  # 3 candidates; a run that missed one gives it 1
    {'a': 4.0, 'b': 5.0, 'c': 3.0}
    """
    return borda_points(rankings, [1.0] * len(rankings))


BORDAFUSE = FusionMethod(
    name="bordafuse",
    func=bordafuse,
    uses="ranks",
    formula="BordaFuse(d) = sum_r (c - rank_r(d) + 1), (c - |r| + 1) / 2 for a run that missed "
    "d, c = the number of candidates",
    citation="Aslam and Montague, Models for Metasearch, SIGIR 2001",
)
