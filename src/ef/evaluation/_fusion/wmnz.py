"""WMNZ (weighted CombMNZ): a doc's summed score times the summed weight of the runs that
retrieved it.

    WMNZ(d) = (sum over runs r that retrieved d of w_r) * (sum over those runs of s_r(d))

Wu and Crestani, "Data fusion with estimated weights", CIKM 2002 (ranx's citation). The
weights default to ``1 / n`` each (ranx requires them), which ranks as CombMNZ does;
:func:`~ef.evaluation.optimize_fusion` searches them as ``wsum``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import WEIGHTS, run_weights

__all__ = ["WMNZ", "weighted_mnz"]


def weighted_mnz(
    results: Sequence[Mapping[str, float]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Each doc's summed score times the summed weight of the runs that retrieved it.

    >>> weighted_mnz([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.5}], weights=(0.25, 0.75))
    {'a': 0.25, 'b': 1.5, 'c': 0.375}
    """
    weights = run_weights(weights, len(results))
    present: dict[str, tuple[float, float]] = {}
    for weight, scores in zip(weights, results, strict=True):
        for doc, score in scores.items():
            total, weighed = present.get(doc, (0.0, 0.0))
            present[doc] = (total + score, weighed + weight)
    return {doc: total * weighed for doc, (total, weighed) in present.items()}


WMNZ = FusionMethod(
    name="wmnz",
    func=weighted_mnz,
    params=[WEIGHTS],
    formula="WMNZ(d) = (sum_r w_r) * (sum_r s_r(d)), both over the runs that retrieved d",
    citation="Wu and Crestani, Data fusion with estimated weights, CIKM 2002",
)
