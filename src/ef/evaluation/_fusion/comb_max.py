"""CombMAX: a doc's best score over the runs that retrieved it.

    CombMAX(d) = max over runs r that retrieved d of s_r(d)

Fox and Shaw, "Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994.

ranx gives a run that missed the doc the score -1e9, so a doc whose scores all lie below
-1e9 gets -1e9 there; here the runs that missed it take no part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import present_scores

__all__ = ["COMB_MAX", "comb_max"]


def comb_max(results: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Each doc's highest score over the runs that retrieved it.

    >>> comb_max([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}])
    {'a': 1.0, 'b': 1.0, 'c': 0.25}
    """
    return {doc: max(scores) for doc, scores in present_scores(results).items()}


COMB_MAX = FusionMethod(
    name="max",
    func=comb_max,
    formula="CombMAX(d) = max_r s_r(d), over the runs that retrieved d",
    citation="Fox and Shaw, Combination of Multiple Searches, TREC-2, 1994",
)
