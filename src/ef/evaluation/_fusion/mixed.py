"""Mixed: the weighted sum of a doc's scores times the square root of the number of runs
that retrieved it.

    Mixed(d) = sqrt(n(d)) * sum over runs r that retrieved d of w_r * s_r(d)

Wu and Crestani, "Data fusion with estimated weights", CIKM 2002 (ranx's citation). The
weights default to ``1 / n`` each (ranx requires them); :func:`~ef.evaluation.optimize_fusion`
searches them as ``wsum``'s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ._common import weighed_scores, weighted

__all__ = ["MIXED", "mixed"]


def mixed(
    results: Sequence[Mapping[str, float]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Each doc's weighted sum of scores times the square root of its number of runs.

    >>> mixed([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.5}], weights=(0.25, 0.75))
    {'a': 0.25, 'b': 1.2374368670764582, 'c': 0.375}
    """
    return {
        doc: sum(score * weight for score, weight in pairs) * math.sqrt(len(pairs))
        for doc, pairs in weighed_scores(results, weights).items()
    }


MIXED = weighted(
    "mixed",
    mixed,
    formula="Mixed(d) = sqrt(n(d)) * sum_r w_r * s_r(d), over the runs that retrieved d",
    citation="Wu and Crestani, Data fusion with estimated weights, CIKM 2002",
)
