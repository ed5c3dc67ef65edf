"""WMNZ (weighted CombMNZ): a doc's summed score times the summed weight of the runs that
retrieved it.

    WMNZ(d) = (sum over runs r that retrieved d of w_r) * (sum over those runs of s_r(d))

Wu and Crestani, "Data fusion with estimated weights", CIKM 2002 (ranx's citation). The
weights default to ``1 / n`` each (ranx requires them), which ranks as CombMNZ does;
:func:`~ef.evaluation.optimize_fusion` searches them as ``wsum``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import weighed_scores, weighted

__all__ = ["WMNZ", "weighted_mnz"]


def weighted_mnz(
    results: Sequence[Mapping[str, float]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Each doc's summed score times the summed weight of the runs that retrieved it.

    >>> weighted_mnz([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.5}], weights=(0.25, 0.75))
    {'a': 0.25, 'b': 1.5, 'c': 0.375}
    """
    return {
        doc: sum(score for score, _ in pairs) * sum(weight for _, weight in pairs)
        for doc, pairs in weighed_scores(results, weights).items()
    }


WMNZ = weighted(
    "wmnz",
    weighted_mnz,
    formula="WMNZ(d) = (sum_r w_r) * (sum_r s_r(d)), both over the runs that retrieved d",
    citation="Wu and Crestani, Data fusion with estimated weights, CIKM 2002",
)
