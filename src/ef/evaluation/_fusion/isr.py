"""Inverse square rank (ISR).

    ISR(d) = |{r : d in r}| * sum over runs r that retrieved d of 1 / rank_r(d)^2

Mourão, Martins and Magalhães, "Multimodal medical information retrieval with unsupervised
rank fusion", Computerized Medical Imaging and Graphics 39, 2015. Only the ranks count, so
normalisation does not change it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import inverse_square_ranks

__all__ = ["ISR", "inverse_square_rank"]


def inverse_square_rank(rankings: Sequence[Sequence[str]]) -> dict[str, float]:
    """The number of runs that retrieved each doc times the sum of ``1 / rank**2``.

    >>> inverse_square_rank([["a", "b"], ["b", "c"]])
    {'a': 1.0, 'b': 2.5, 'c': 0.25}
    """
    present = inverse_square_ranks(rankings)
    return {doc: sum(values) * len(values) for doc, values in present.items()}


ISR = FusionMethod(
    name="isr",
    func=inverse_square_rank,
    uses="ranks",
    formula="ISR(d) = n(d) * sum_r 1 / rank_r(d)^2, n(d) = the number of runs that retrieved d",
    citation="Mourão, Martins and Magalhães, Comput. Med. Imaging Graph. 39, 2015",
)
