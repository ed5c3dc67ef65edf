"""Weighted sum (WSum): CombSUM with a weight per run.

    WSum(d) = sum over runs r of w_r * s_r(d),   s_r(d) = 0 when r did not retrieve d

A linear combination of (normalised) scores, the weighted form of CombSUM: Fox and Shaw,
"Combination of Multiple Searches", TREC-2, NIST SP 500-215, 1994; Vogt and Cottrell,
"Fusion via a linear combination of scores", Information Retrieval 1(3), 1999. The weights
are any finite numbers, one per run; without them every run weighs ``1 / n`` (ranx requires
them), which ranks as CombSUM does. :func:`~ef.evaluation.optimize_fusion` searches them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import weighed_scores, weighted

__all__ = ["WSUM", "weighted_sum"]


def weighted_sum(
    results: Sequence[Mapping[str, float]], *, weights: Sequence[float] | None = None
) -> dict[str, float]:
    """The sum of each doc's scores times its run's weight; a run that missed the doc adds 0.

    ``weights`` holds one number per run; ``None`` weighs each run ``1 / n``.

    >>> weighted_sum([{"a": 1.0, "b": 0.5}, {"b": 1.0, "c": 0.5}], weights=(0.25, 0.75))
    {'a': 0.25, 'b': 0.875, 'c': 0.375}
    """
    present = weighed_scores(results, weights)
    return {doc: sum(weight * score for score, weight in pairs) for doc, pairs in present.items()}


WSUM = weighted(
    "wsum",
    weighted_sum,
    formula="WSum(d) = sum_r w_r * s_r(d), 0 for a run that missed d",
    citation="Fox and Shaw, TREC-2, 1994; Vogt and Cottrell, Information Retrieval, 1999",
)
