"""SegFuse: each run's ranking cut into segments of growing size, a doc scored by the
probability of relevance of its segment (learned from training queries) times its
normalised score plus one.

    segment k (k = 1, ..., 10) holds the ranks from 10 * 2^(k-2) - 4 to 10 * 2^(k-1) - 5
        (1-5, 6-15, 16-35, 36-75, ..., 2556-5115; deeper ranks score 0)
    P_r(k) = mean over training queries of (relevant docs of r in segment k) / (its size)
    SegFuse(d) = sum over runs r that retrieved d of P_r(k_r(d)) * (s_r(d) + 1)

Shokouhi, "Segmentation of Search Engine Results for Effective Data-Fusion", ECIR 2007.
``probs`` (10 probabilities per run) is learned by :func:`~ef.evaluation.optimize_fusion`
on training runs and qrels; pass its ``params`` to :func:`~ef.evaluation.fuse`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence

from ..interfaces import FusionMethod
from ._common import learned, mean_shares

__all__ = ["SEGFUSE", "SEGMENT_BOUNDS", "segfuse", "segfuse_train"]

#: Where each segment starts and ends (0-based, end excluded): 0, 5, 15, 35, ..., 5115.
SEGMENT_BOUNDS = (0, *(10 * 2 ** (k - 1) - 5 for k in range(1, 11)))


def _segment(index: int) -> int:
    for k in range(len(SEGMENT_BOUNDS) - 1):
        if index < SEGMENT_BOUNDS[k + 1]:
            return k
    return len(SEGMENT_BOUNDS) - 1  # past the last segment: no probability


def segfuse(
    results: Sequence[Mapping[str, float]], *, probs: Sequence[Sequence[float]]
) -> dict[str, float]:
    """The sum over the runs of the probability of each doc's segment times its score + 1.

    >>> segfuse([{"a": 1.0, "b": 0.5}, {"b": 1.0}], probs=[(0.5, 0.1), (0.25, 0.1)])
    {'a': 1.0, 'b': 1.25}
    """
    fused: dict[str, float] = {}
    for scores, segment_probs in zip(results, probs, strict=True):
        for index, (doc, score) in enumerate(scores.items()):
            k = _segment(index)
            prob = segment_probs[k] if k < len(segment_probs) else 0.0
            fused[doc] = fused.get(doc, 0.0) + prob * (score + 1)
    return fused


def segfuse_train(
    hits: Sequence[Sequence[Sequence[int]]], relevant: Sequence[int]
) -> dict[str, tuple[tuple[float, ...], ...]]:
    """``{"probs": ...}``: for each run, the mean over the training queries of the share of
    relevant docs in each segment (a short hit list fills the segment with misses).

    >>> segfuse_train([[[1, 0, 0, 1, 1, 1]]], [4])["probs"][0][:3]
    (0.6, 0.1, 0.0)
    """

    def shares(hit_list: Sequence[int]) -> Iterator[tuple[int, float]]:
        for k, (start, end) in enumerate(itertools.pairwise(SEGMENT_BOUNDS)):
            yield k, sum(hit_list[start:end]) / (end - start)

    return {"probs": mean_shares(hits, len(SEGMENT_BOUNDS) - 1, shares)}


SEGFUSE = FusionMethod(
    name="segfuse",
    func=segfuse,
    params=[
        learned(
            "probs", "per run, the probability of relevance of each of the 10 segments (learned)"
        )
    ],
    train=segfuse_train,
    formula="SegFuse(d) = sum_r P_r(k_r(d)) * (s_r(d) + 1), segments of 5, 10, 20, ... ranks, "
    "P_r learned",
    citation="Shokouhi, Segmentation of Search Engine Results for Effective Data-Fusion, ECIR 2007",
)
