"""CombSUM: the sum of a doc's scores over the runs.

    CombSUM(d) = sum over runs r of s_r(d),   s_r(d) = 0 when r did not retrieve d

Fox and Shaw, "Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod

__all__ = ["COMB_SUM", "comb_sum"]


def comb_sum(results: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """The sum of each doc's scores over the runs; a run that missed the doc adds 0.

    >>> comb_sum([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}])
    {'a': 1.0, 'b': 1.5, 'c': 0.25}
    """
    fused: dict[str, float] = {}
    for scores in results:
        for doc, score in scores.items():
            fused[doc] = fused.get(doc, 0.0) + score
    return fused


COMB_SUM = FusionMethod(
    name="sum",
    func=comb_sum,
    formula="CombSUM(d) = sum_r s_r(d), 0 for a run that missed d",
    citation="Fox and Shaw, Combination of Multiple Searches, TREC-2, 1994",
)
