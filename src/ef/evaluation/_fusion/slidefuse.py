"""SlideFuse: PosFuse with each rank's probability averaged over a window of ranks around it.

    SlideFuse(d) = sum over runs r that retrieved d of
                   mean of P_r(q) over the ranks q from max(p - w, 1) to min(p + w, N_r)

where ``p = rank_r(d)``, ``N_r`` the number of docs ``r`` ranked for the query, and
``P_r`` PosFuse's learned probability per rank (0 past the last rank learned). Lillis,
Toolan, Collier and Dunnion, "Extending Probabilistic Data Fusion Using Sliding Windows",
ECIR 2008. ``probs`` is learned by :func:`~ef.evaluation.optimize_fusion` on training runs
and qrels, which also searches the half-width ``w`` over 1, 2, ..., 100 (ranx's); ranx's
fuse requires ``w``, and so does this method.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod, FusionParam
from ._common import check_at_least, learned
from .posfuse import position_probs

__all__ = ["SLIDEFUSE", "slidefuse", "slidefuse_train"]


def slidefuse(
    rankings: Sequence[Sequence[str]], *, probs: Sequence[Sequence[float]], w: int
) -> dict[str, float]:
    """The sum over the runs of the mean probability of the ranks within ``w`` of each doc's.

    >>> slidefuse([["a", "b", "c"], ["c"]], probs=[(0.5, 0.25, 0.0), (0.75,)], w=1)
    {'a': 0.375, 'b': 0.25, 'c': 0.875}
    """
    fused: dict[str, float] = {}
    for ranking, rank_probs in zip(rankings, probs, strict=True):
        last = len(ranking) - 1
        for index, doc in enumerate(ranking):
            start, end = max(index - w, 0), min(index + w, last)
            window = sum(rank_probs[start : end + 1]) / (end - start + 1)
            fused[doc] = fused.get(doc, 0.0) + window
    return fused


def slidefuse_train(
    hits: Sequence[Sequence[Sequence[int]]], relevant: Sequence[int], *, w: int | None = None
) -> dict[str, tuple[tuple[float, ...], ...]]:
    """``{"probs": ...}``: PosFuse's probability per rank (``w`` does not change it)."""
    return {"probs": position_probs(hits)}


SLIDEFUSE = FusionMethod(
    name="slidefuse",
    func=slidefuse,
    params=[
        learned("probs", "per run, the probability of relevance at each rank (learned)"),
        FusionParam(
            "w",
            int,
            description="the window's half-width in ranks (required, as in ranx)",
            grid=range(1, 101),
            check=check_at_least("w", 0),
            required=True,
        ),
    ],
    uses="ranks",
    train=slidefuse_train,
    formula="SlideFuse(d) = sum_r mean of P_r over the ranks within w of rank_r(d), P_r learned "
    "as PosFuse's",
    citation="Lillis, Toolan, Collier and Dunnion, Extending Probabilistic Data Fusion Using "
    "Sliding Windows, ECIR 2008",
)
