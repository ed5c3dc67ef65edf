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

from ..interfaces import FusionMethod
from ._common import WEIGHTS, run_weights

__all__ = ["MIXED", "mixed"]


def mixed(
    results: Sequence[Mapping[str, float]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Each doc's weighted sum of scores times the square root of its number of runs.

    >>> mixed([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.5}], weights=(0.25, 0.75))
    {'a': 0.25, 'b': 1.2374368670764582, 'c': 0.375}
    """
    weights = run_weights(weights, len(results))
    present: dict[str, list[float]] = {}
    for weight, scores in zip(weights, results, strict=True):
        for doc, score in scores.items():
            present.setdefault(doc, []).append(score * weight)
    return {doc: sum(values) * math.sqrt(len(values)) for doc, values in present.items()}


MIXED = FusionMethod(
    name="mixed",
    func=mixed,
    params=[WEIGHTS],
    formula="Mixed(d) = sqrt(n(d)) * sum_r w_r * s_r(d), over the runs that retrieved d",
    citation="Wu and Crestani, Data fusion with estimated weights, CIKM 2002",
)
