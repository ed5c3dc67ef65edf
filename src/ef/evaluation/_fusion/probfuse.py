"""ProbFuse: each run's ranking cut into segments, a doc scored by the probability that a
doc of its segment is relevant (learned from training queries), over the segment's number.

    P_r(k) = mean over training queries q of (relevant docs in segment k of r's ranking for q)
             / (docs in that segment)     (a segment that is empty for q adds 0; q still counts)
    ProbFuse(d) = sum over runs r that retrieved d of P_r(k_r(d)) / k_r(d)

A ranking of ``N`` docs is cut into ``n_segments`` segments of ``ceil(N / n_segments)`` docs
(the last may be shorter), numbered ``k = 1, 2, ...``; ``k_r(d)`` is the segment of ``d``.
Lillis, Toolan, Collier and Dunnion, "ProbFuse: a probabilistic approach to data fusion",
SIGIR 2006. ``probs`` (one probability per segment per run) is learned by
:func:`~ef.evaluation.optimize_fusion` on training runs and qrels, which also searches
``n_segments`` over 1, 2, ..., 100 (ranx's); pass its ``params`` to
:func:`~ef.evaluation.fuse`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from ..interfaces import FusionMethod, FusionParam
from ._common import check_at_least, learned, mean_shares

__all__ = ["PROBFUSE", "probfuse", "probfuse_train"]


_positive = check_at_least("n_segments", 1)


def probfuse(
    rankings: Sequence[Sequence[str]],
    *,
    probs: Sequence[Sequence[float]],
    n_segments: int | None = None,
) -> dict[str, float]:
    """The sum over the runs of the probability of each doc's segment over its number.

    ``n_segments``, if given, must be the length of each run's ``probs``.

    >>> probfuse([["a", "b", "c", "d"], ["b", "c"]], probs=[(0.5, 0.25), (0.75, 0.5)])
    {'a': 0.5, 'b': 1.25, 'c': 0.375, 'd': 0.125}
    """
    fused: dict[str, float] = {}
    for ranking, segment_probs in zip(rankings, probs, strict=True):
        count = len(segment_probs)
        if n_segments is not None and count != n_segments:
            raise ValueError(f"probs holds {count} segments per run, n_segments is {n_segments}")
        size = math.ceil(len(ranking) / count) if count else 0
        for index, doc in enumerate(ranking):
            segment = index // size
            fused[doc] = fused.get(doc, 0.0) + segment_probs[segment] / (segment + 1)
    return fused


def probfuse_train(
    hits: Sequence[Sequence[Sequence[int]]], relevant: Sequence[int], *, n_segments: int | None
) -> dict[str, tuple[tuple[float, ...], ...]]:
    """``{"probs": ...}``: for each run, the mean over the training queries of the share of
    relevant docs in each of its ``n_segments`` segments.

    >>> probfuse_train([[[1, 0, 0, 1], [0, 1]]], [2, 1], n_segments=2)
    {'probs': ((0.25, 0.75),)}
    """
    if n_segments is None:
        raise ValueError("probfuse learns its probs for a number of segments: give n_segments")
    _positive(n_segments)
    count = n_segments

    def shares(hit_list: Sequence[int]) -> Iterator[tuple[int, float]]:
        size = math.ceil(len(hit_list) / count)
        for k in range(count):
            segment = hit_list[k * size : (k + 1) * size]
            if segment:
                yield k, sum(segment) / len(segment)

    return {"probs": mean_shares(hits, count, shares)}


PROBFUSE = FusionMethod(
    name="probfuse",
    func=probfuse,
    params=[
        learned("probs", "per run, the probability of relevance of each segment (learned)"),
        FusionParam(
            "n_segments",
            int,
            description="the segments of each ranking, for training; default len(probs)",
            grid=range(1, 101),
            check=_positive,
        ),
    ],
    uses="ranks",
    train=probfuse_train,
    formula="ProbFuse(d) = sum_r P_r(k_r(d)) / k_r(d), k_r(d) = the segment of d in r, P_r learned",
    citation="Lillis, Toolan, Collier and Dunnion, ProbFuse, SIGIR 2006",
)
