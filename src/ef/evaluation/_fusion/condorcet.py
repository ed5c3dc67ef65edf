"""CondorcetFuse: the docs sorted by pairwise majority, each run voting by rank.

    d beats d'  when  sum of w_r over the runs r that rank d above d'
                    > sum of w_r over the runs r that rank d' above d
    Condorcet(d) = c - position of d in the docs sorted by "beats"   (c candidates)

A run ranks every doc it retrieved above every doc it missed; a run that missed both docs
of a pair does not vote. The candidates (every doc any run retrieved) are sorted by a
comparison sort, from their first-seen order, as Montague and Aslam's Condorcet-fuse does:
"Condorcet Fusion for Improved Retrieval", CIKM 2002. Unweighted, each run has weight 1.

Where the majority is a strict order of the docs (the usual case), any sort gives it and
this is ranx's ranking. Where it is not (a cycle, a tied vote), the sort's result depends on
where it starts: ranx starts from a Python set of the doc ids, whose order varies with the
interpreter's hash seed, and counts a tied vote, and a run that missed both docs, for one
side; here the start is the first-seen order and a tied pair keeps it, so the result is the
same on every run.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import candidates

__all__ = ["CONDORCET", "condorcet", "condorcet_points"]


def condorcet_points(
    rankings: Sequence[Sequence[str]], weights: Sequence[float]
) -> dict[str, float]:
    """``c - position`` of each candidate in the candidates sorted by weighted majority."""
    docs = list(candidates(rankings))
    positions = [{doc: index for index, doc in enumerate(ranking)} for ranking in rankings]

    def compare(x: str, y: str) -> int:
        x_votes = y_votes = 0.0
        for weight, position in zip(weights, positions, strict=True):
            px, py = position.get(x), position.get(y)
            if px is None and py is None:
                continue  # this run missed both: no vote
            if py is None or (px is not None and px < py):
                x_votes += weight
            else:
                y_votes += weight
        return -1 if x_votes > y_votes else 1 if y_votes > x_votes else 0

    ordered = sorted(docs, key=functools.cmp_to_key(compare))
    count = len(ordered)
    return {doc: float(count - index) for index, doc in enumerate(ordered)}


def condorcet(rankings: Sequence[Sequence[str]]) -> dict[str, float]:
    """Each doc's place in the pairwise-majority order, the winner scoring the most.

    >>> condorcet([["a", "b", "c"], ["b", "a", "c"], ["a", "c", "b"]])
    {'a': 3.0, 'b': 2.0, 'c': 1.0}
    """
    return condorcet_points(rankings, [1.0] * len(rankings))


CONDORCET = FusionMethod(
    name="condorcet",
    func=condorcet,
    uses="ranks",
    formula="Condorcet(d) = c - position of d in the candidates sorted by pairwise majority "
    "(a run ranks its docs above those it missed)",
    citation="Montague and Aslam, Condorcet Fusion for Improved Retrieval, CIKM 2002",
)
