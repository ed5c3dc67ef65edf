"""Log_ISR: the inverse square ranks summed, times the log of the number of runs that
retrieved the doc.

    Log_ISR(d) = log(n(d)) * sum over runs r that retrieved d of 1 / rank_r(d)^2

Mourão, Martins and Magalhães, "Multimodal medical information retrieval with unsupervised
rank fusion", Computerized Medical Imaging and Graphics 39, 2015. A doc that one run alone
retrieved scores 0 (log 1). Only the ranks count, so normalisation does not change it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import inverse_square_ranks

__all__ = ["LOG_ISR", "inverse_square_ranks", "log_isr"]


def log_isr(rankings: Sequence[Sequence[str]]) -> dict[str, float]:
    """The sum of ``1 / rank**2`` times the log of the number of runs that retrieved each doc.

    >>> log_isr([["a", "b"], ["b", "c"]])
    {'a': 0.0, 'b': 0.8664339756999316, 'c': 0.0}
    """
    return {
        doc: sum(values) * math.log(len(values))
        for doc, values in inverse_square_ranks(rankings).items()
    }


LOG_ISR = FusionMethod(
    name="log_isr",
    func=log_isr,
    uses="ranks",
    formula="Log_ISR(d) = log(n(d)) * sum_r 1 / rank_r(d)^2, over the runs that retrieved d",
    citation="Mourão, Martins and Magalhães, Comput. Med. Imaging Graph. 39, 2015",
)
