"""MAPFuse: a doc scored by its run's mean average precision (on training queries) over
its rank.

    MAPFuse(d) = sum over runs r that retrieved d of MAP_r / rank_r(d)

Lillis, Zhang, Toolan, Collier, Leonard and Dunnion, "Estimating probabilities for
effective data fusion", SIGIR 2010. ``map_scores`` (one MAP per run) is learned by
:func:`~ef.evaluation.optimize_fusion` on training runs and qrels (each run's MAP over the
whole ranking, a query with no relevant doc scoring 0); pass its ``params`` to
:func:`~ef.evaluation.fuse`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import learned

__all__ = ["MAPFUSE", "mapfuse", "mapfuse_train"]


def mapfuse(rankings: Sequence[Sequence[str]], *, map_scores: Sequence[float]) -> dict[str, float]:
    """The sum over the runs of the run's MAP over each doc's rank.

    >>> mapfuse([["a", "b"], ["b", "c"]], map_scores=(0.5, 0.25))
    {'a': 0.5, 'b': 0.5, 'c': 0.125}
    """
    fused: dict[str, float] = {}
    for ranking, score in zip(rankings, map_scores, strict=True):
        for rank, doc in enumerate(ranking, start=1):
            fused[doc] = fused.get(doc, 0.0) + score / rank
    return fused


def _average_precision(hit_list: Sequence[int], relevant: int) -> float:
    if relevant == 0:
        return 0.0
    found, total = 0, 0.0
    for rank, hit in enumerate(hit_list, start=1):
        if hit:
            found += 1
            total += found / rank
    return total / relevant


def mapfuse_train(
    hits: Sequence[Sequence[Sequence[int]]], relevant: Sequence[int]
) -> dict[str, tuple[float, ...]]:
    """``{"map_scores": ...}``: each run's mean average precision on the training queries.

    >>> mapfuse_train([[[1, 0, 1], [0, 1]]], [2, 2])
    {'map_scores': (0.5416666666666666,)}
    """
    scores = []
    for run_hits in hits:
        precisions = [_average_precision(h, n) for h, n in zip(run_hits, relevant, strict=True)]
        scores.append(sum(precisions) / len(precisions) if precisions else 0.0)
    return {"map_scores": tuple(scores)}


MAPFUSE = FusionMethod(
    name="mapfuse",
    func=mapfuse,
    params=[
        learned("map_scores", "per run, its MAP on the training queries (learned)", vector=False)
    ],
    uses="ranks",
    train=mapfuse_train,
    formula="MAPFuse(d) = sum_r MAP_r / rank_r(d), MAP_r learned on training queries",
    citation="Lillis et al., Estimating probabilities for effective data fusion, SIGIR 2010",
)
