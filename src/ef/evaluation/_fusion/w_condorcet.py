"""Weighted CondorcetFuse: CondorcetFuse with a weight per run's vote.

See :mod:`.condorcet` for the order; each run's vote counts its weight. Montague and
Aslam, "Condorcet Fusion for Improved Retrieval", CIKM 2002. The weights default to
``1 / n`` each (ranx requires them), which ranks as CondorcetFuse does;
:func:`~ef.evaluation.optimize_fusion` searches them as ``wsum``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._common import run_weights, weighted
from .condorcet import condorcet_points

__all__ = ["W_CONDORCET", "weighted_condorcet"]


def weighted_condorcet(
    rankings: Sequence[Sequence[str]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """Each doc's place in the weighted pairwise-majority order, the winner scoring the most.

    >>> weighted_condorcet([["a", "b"], ["b", "a"]], weights=(0.25, 0.75))
    {'b': 2.0, 'a': 1.0}
    """
    return condorcet_points(rankings, run_weights(weights, len(rankings)))


W_CONDORCET = weighted(
    "w_condorcet",
    weighted_condorcet,
    uses="ranks",
    formula="W_Condorcet(d) = c - position of d in the candidates sorted by weighted pairwise "
    "majority",
    citation="Montague and Aslam, Condorcet Fusion for Improved Retrieval, CIKM 2002",
)
