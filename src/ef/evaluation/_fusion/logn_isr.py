"""LogN_ISR: Log_ISR with the log's argument shifted by sigma, so that a doc one run alone
retrieved does not score 0.

    LogN_ISR(d) = log(n(d) + sigma) * sum over runs r that retrieved d of 1 / rank_r(d)^2

Mourão, Martins and Magalhães, "Multimodal medical information retrieval with unsupervised
rank fusion", Computerized Medical Imaging and Graphics 39, 2015. ``sigma`` lies in [0, 1],
0.01 by default (ranx's); :func:`~ef.evaluation.optimize_fusion` searches 0.01, 0.02, ..., 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..interfaces import FusionMethod, FusionParam
from ._common import check_unit, inverse_square_ranks

__all__ = ["LOGN_ISR", "logn_isr"]


def logn_isr(rankings: Sequence[Sequence[str]], *, sigma: float = 0.01) -> dict[str, float]:
    """The sum of ``1 / rank**2`` times ``log(n(d) + sigma)``.

    >>> logn_isr([["a", "b"], ["b", "c"]], sigma=0.5)
    {'a': 0.4054651081081644, 'b': 1.1453634148426939, 'c': 0.1013662770270411}
    """
    return {
        doc: sum(values) * math.log(len(values) + sigma)
        for doc, values in inverse_square_ranks(rankings).items()
    }


LOGN_ISR = FusionMethod(
    name="logn_isr",
    func=logn_isr,
    params=[
        FusionParam(
            "sigma",
            float,
            0.01,
            "added to n(d) inside the log, in [0, 1]",
            grid=[i / 100 for i in range(1, 101)],
            check=check_unit("sigma"),
        )
    ],
    uses="ranks",
    formula="LogN_ISR(d) = log(n(d) + sigma) * sum_r 1 / rank_r(d)^2, over the runs that "
    "retrieved d",
    citation="Mourão, Martins and Magalhães, Comput. Med. Imaging Graph. 39, 2015",
)
