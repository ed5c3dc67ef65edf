"""CombGMNZ: CombSUM times the number of runs that retrieved the doc, raised to gamma.

    CombGMNZ(d) = n(d)^gamma * sum over runs r that retrieved d of s_r(d)

Joon Ho Lee, "Analyses of Multiple Evidence Combination", SIGIR 1997. ``gamma = 1`` is
CombMNZ, ``gamma = 0`` CombSUM; ranx requires ``gamma`` (it has no default), and so does
this method. :func:`~ef.evaluation.optimize_fusion` searches 0.01, 0.02, ..., 1 (ranx's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..interfaces import FusionMethod, FusionParam
from ._common import present_scores

__all__ = ["COMB_GMNZ", "comb_gmnz"]


def comb_gmnz(results: Sequence[Mapping[str, float]], *, gamma: float) -> dict[str, float]:
    """Each doc's summed score times (the number of runs that retrieved it) ** ``gamma``.

    >>> comb_gmnz([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.25}], gamma=0.5)
    {'a': 1.0, 'b': 2.121320343559643, 'c': 0.25}
    """
    return {
        doc: sum(scores) * len(scores) ** gamma for doc, scores in present_scores(results).items()
    }


COMB_GMNZ = FusionMethod(
    name="gmnz",
    func=comb_gmnz,
    params=[
        FusionParam(
            "gamma",
            float,
            description="the exponent of n(d): 1 is CombMNZ, 0 CombSUM (required, as in ranx)",
            grid=[i / 100 for i in range(1, 101)],
            required=True,
        )
    ],
    formula="CombGMNZ(d) = n(d)^gamma * sum_r s_r(d), n(d) = the number of runs that retrieved d",
    citation="Joon Ho Lee, Analyses of Multiple Evidence Combination, SIGIR 1997",
)
