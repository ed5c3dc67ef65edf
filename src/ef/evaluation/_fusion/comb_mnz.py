"""CombMNZ: CombSUM times the number of runs that retrieved the doc.

    CombMNZ(d) = |{r : d in r}| * sum over runs r that retrieved d of s_r(d)

Fox and Shaw, "Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import present_scores

__all__ = ["COMB_MNZ", "comb_mnz"]


def comb_mnz(results: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Each doc's summed score times the number of runs that retrieved it.

    >>> comb_mnz([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}])
    {'a': 1.0, 'b': 3.0, 'c': 0.25}
    """
    return {doc: sum(scores) * len(scores) for doc, scores in present_scores(results).items()}


COMB_MNZ = FusionMethod(
    name="mnz",
    func=comb_mnz,
    formula="CombMNZ(d) = n(d) * sum_r s_r(d), n(d) = the number of runs that retrieved d",
    citation="Fox and Shaw, Combination of Multiple Searches, TREC-2, 1994",
)
