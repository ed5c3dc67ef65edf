"""CombMIN: a doc's worst score over the runs that retrieved it.

    CombMIN(d) = min over runs r that retrieved d of s_r(d)

Fox and Shaw, "Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994.

A run that missed the doc takes no part (ranx gives it the score 1e9, which is the same for
every score below 1e9). So a doc retrieved by one run only keeps that run's score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import present_scores

__all__ = ["COMB_MIN", "comb_min"]


def comb_min(results: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Each doc's lowest score over the runs that retrieved it.

    >>> comb_min([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}])
    {'a': 1.0, 'b': 0.5, 'c': 0.25}
    """
    return {doc: min(scores) for doc, scores in present_scores(results).items()}


COMB_MIN = FusionMethod(
    name="min",
    func=comb_min,
    formula="CombMIN(d) = min_r s_r(d), over the runs that retrieved d",
    citation="Fox and Shaw, Combination of Multiple Searches, TREC-2, 1994",
)
