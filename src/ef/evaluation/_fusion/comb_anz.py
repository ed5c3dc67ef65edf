"""CombANZ: the mean of a doc's scores over the runs that retrieved it.

    CombANZ(d) = (sum over runs r that retrieved d of s_r(d)) / |{r : d in r}|

Fox and Shaw, "Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import present_scores

__all__ = ["COMB_ANZ", "comb_anz"]


def comb_anz(results: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Each doc's summed score divided by the number of runs that retrieved it.

    >>> comb_anz([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}])
    {'a': 1.0, 'b': 0.75, 'c': 0.25}
    """
    return {doc: sum(scores) / len(scores) for doc, scores in present_scores(results).items()}


COMB_ANZ = FusionMethod(
    name="anz",
    func=comb_anz,
    formula="CombANZ(d) = sum_r s_r(d) / n(d), n(d) = the number of runs that retrieved d",
    citation="Fox and Shaw, Combination of Multiple Searches, TREC-2, 1994",
)
