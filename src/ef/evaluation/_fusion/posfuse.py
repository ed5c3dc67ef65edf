"""PosFuse: a doc scored by the probability that the doc at its rank is relevant, learned
per run and rank from training queries.

    P_r(p) = mean over the training queries whose ranking by r reaches rank p of
             (1 if the doc r ranked at p is relevant, else 0)
    PosFuse(d) = sum over runs r that retrieved d of P_r(rank_r(d))   (0 past the last rank)

Lillis, Zhang, Toolan, Collier, Leonard and Dunnion, "Estimating probabilities for
effective data fusion", SIGIR 2010. ``probs`` (a probability per rank per run) is learned by
:func:`~ef.evaluation.optimize_fusion` on training runs and qrels; pass its ``params`` to
:func:`~ef.evaluation.fuse`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import learned

__all__ = ["POSFUSE", "posfuse", "posfuse_train", "position_probs"]


def position_probs(hits: Sequence[Sequence[Sequence[int]]]) -> tuple[tuple[float, ...], ...]:
    """For each run, the share of relevant docs at each rank over the training queries whose
    ranking reaches it.

    >>> position_probs([[[1, 0, 1], [0, 1]]])
    ((0.5, 0.5, 1.0),)
    """
    learned = []
    for run_hits in hits:
        depth = max((len(hit_list) for hit_list in run_hits), default=0)
        found, seen = [0.0] * depth, [0] * depth
        for hit_list in run_hits:
            for rank, hit in enumerate(hit_list):
                found[rank] += hit
                seen[rank] += 1
        learned.append(tuple(f / n for f, n in zip(found, seen, strict=True)))
    return tuple(learned)


def posfuse(
    rankings: Sequence[Sequence[str]], *, probs: Sequence[Sequence[float]]
) -> dict[str, float]:
    """The sum over the runs of the probability learned for each doc's rank.

    >>> posfuse([["a", "b"], ["b", "c", "d"]], probs=[(0.5, 0.25), (0.75, 0.5)])
    {'a': 0.5, 'b': 1.0, 'c': 0.5, 'd': 0.0}
    """
    fused: dict[str, float] = {}
    for ranking, rank_probs in zip(rankings, probs, strict=True):
        for index, doc in enumerate(ranking):
            prob = rank_probs[index] if index < len(rank_probs) else 0.0
            fused[doc] = fused.get(doc, 0.0) + prob
    return fused


def posfuse_train(
    hits: Sequence[Sequence[Sequence[int]]], relevant: Sequence[int]
) -> dict[str, tuple[tuple[float, ...], ...]]:
    """``{"probs": ...}``: :func:`position_probs` of the training hit lists."""
    return {"probs": position_probs(hits)}


POSFUSE = FusionMethod(
    name="posfuse",
    func=posfuse,
    params=[learned("probs", "per run, the probability of relevance at each rank (learned)")],
    uses="ranks",
    train=posfuse_train,
    formula="PosFuse(d) = sum_r P_r(rank_r(d)), P_r(p) learned: the share of relevant docs at "
    "rank p",
    citation="Lillis et al., Estimating probabilities for effective data fusion, SIGIR 2010",
)
