"""Weighted BordaFuse: Borda's count with a weight per run.

    W_BordaFuse(d) = sum over runs r of w_r * Borda_r(d)

with ``Borda_r`` as in :mod:`.bordafuse`. Aslam and Montague, "Models for Metasearch",
SIGIR 2001. The weights default to ``1 / n`` each (ranx requires them), which ranks as
BordaFuse does; :func:`~ef.evaluation.optimize_fusion` searches them as ``wsum``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._common import run_weights, weighted
from .bordafuse import borda_points

__all__ = ["W_BORDAFUSE", "weighted_bordafuse"]


def weighted_bordafuse(
    rankings: Sequence[Sequence[str]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Each doc's Borda points times its run's weight, summed over the runs.

    >>> weighted_bordafuse([["a", "b"], ["b", "c"]], weights=(0.25, 0.75))
    {'a': 1.5, 'b': 2.75, 'c': 1.75}
    """
    return borda_points(rankings, run_weights(weights, len(rankings)))


W_BORDAFUSE = weighted(
    "w_bordafuse",
    weighted_bordafuse,
    uses="ranks",
    formula="W_BordaFuse(d) = sum_r w_r * Borda_r(d), Borda_r as bordafuse's",
    citation="Aslam and Montague, Models for Metasearch, SIGIR 2001",
)
