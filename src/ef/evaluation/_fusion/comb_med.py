"""CombMED: the median of a doc's scores over the runs that retrieved it.

    CombMED(d) = median over runs r that retrieved d of s_r(d)

Fox and Shaw, "Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994. Of an even
number of scores the median is the mean of the two middle ones (as numpy's, ranx's).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import present_scores

__all__ = ["COMB_MED", "comb_med"]


def comb_med(results: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Each doc's median score over the runs that retrieved it.

    >>> comb_med([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}, {"b": 0.0}])
    {'a': 1.0, 'b': 0.5, 'c': 0.25}
    """
    return {doc: statistics.median(scores) for doc, scores in present_scores(results).items()}


COMB_MED = FusionMethod(
    name="med",
    func=comb_med,
    formula="CombMED(d) = median_r s_r(d), over the runs that retrieved d",
    citation="Fox and Shaw, Combination of Multiple Searches, TREC-2, 1994",
)
