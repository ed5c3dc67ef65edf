"""G: normalised gain, a gain discounted by the cost of reading down to it.

    G@k = sum(g_i / log2(2 + cost_i - gained_i) for each doc i in the top k with g_i != 0)
          / sum(the ideal ranking's gains)

``g_i`` is doc ``i``'s gain (its grade, or ``gains[grade]``); ``gained_i`` the gains of the
docs down to and including ``i``; ``cost_i`` what reading down to ``i`` costs, each rank
costing the ideal ranking's gain there when that is 1 or more, else 1. A ranking as good as
the ideal one pays no more than it gains, so a relevant doc is discounted by log2(2).

Buckley, in trec_eval (NIST), usnistgov/trec_eval: ``G``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .dcg import GAINS
from .params import CITE_TREC, JUDGED_ONLY, TREC, check_arguments
from .reference import check_query, ideal_gains, top_docs, trec_gain

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "NORMALIZED_GAIN",
    "normalized_gain",
    "normalized_gain_batch",
]


def _step(ideal: Sequence[float], i: int) -> float:
    """What reading rank ``i + 1`` costs: the ideal gain there if 1 or more, else 1."""
    return ideal[i] if i < len(ideal) and ideal[i] >= 1.0 else 1.0


def _total(ideal: Sequence[float]) -> float:
    """The ideal gains summed left to right, as trec_eval's C loop adds them: not ``sum()``,
    which since Python 3.12 compensates its rounding and can differ in the last bit."""
    total = 0.0
    for gain in ideal:
        total += gain
    return total


def normalized_gain(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    gains: Mapping[float, float] | None = None,
    judged_only: bool = False,
) -> float:
    """Gain discounted by the cost of reading down to it, normalised (trec_eval's G).

    Over the top ``k``; 0 when no doc has a positive gain.

    >>> normalized_gain(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1})  # (1/log2(2) + 1/log2(3)) / 2
    0.8154648767857288
    """
    check_arguments("normalized_gain(ranked, relevant, k)", (GAINS, gains))
    check_query(ranked, relevant, "normalized_gain(ranked, relevant, k)")  # before relevant is read
    ideal = ideal_gains(relevant.values(), gains)
    gained = cost = total = 0.0
    for i, doc in enumerate(top_docs(ranked, relevant, k, judged_only)):
        gain = trec_gain(relevant.get(doc), gains)
        gained += gain
        cost += _step(ideal, i)
        if gain != 0:
            total += gain / math.log2(2 + cost - gained)
    best = _total(ideal)
    return total / best if best > 0 else 0.0


class _Costs:
    """The cost of reading down to each rank, summed rank by rank as trec_eval does; past the
    ideal ranking each rank costs 1, added at once while that is exact."""

    def __init__(self, ideal: Sequence[float]) -> None:
        self.ideal = ideal
        self.sums: list[float] = []
        cost = 0.0
        for i in range(len(ideal)):
            cost += _step(ideal, i)
            self.sums.append(cost)
        self.exact = cost.is_integer() and cost < 2.0**52

    def at(self, i: int) -> float:
        """The cost of ranks 1 to ``i + 1``."""
        if i < len(self.sums):
            return self.sums[i]
        last = self.sums[-1] if self.sums else 0.0
        if self.exact:
            return last + (i + 1 - len(self.sums))
        while len(self.sums) <= i:
            last += 1.0
            self.sums.append(last)
        return self.sums[i]


def normalized_gain_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    judged_only: bool = False,
) -> Floats:
    """G@k of every query (a walk over each query's judged docs)."""
    from .kernels import each_query

    def value(ranks: list[int], grades: list[float], judged: list[float]) -> float:
        ideal = ideal_gains(judged, gains)
        best = _total(ideal)
        if best <= 0:
            return 0.0
        costs = _Costs(ideal)
        gained = total = 0.0
        for rank, grade in zip(ranks, grades, strict=True):
            gain = trec_gain(grade, gains)
            gained += gain
            if gain != 0:
                total += gain / math.log2(2 + costs.at(rank - 1) - gained)
        return total / best

    return each_query(hits, k, judged_only, value)


NORMALIZED_GAIN = RetrievalMetric(
    name="normalized_gain",
    func=normalized_gain,
    batch=normalized_gain_batch,
    params=(GAINS, JUDGED_ONLY),
    cutoff=False,
    synonyms=(Synonym(TREC, "G", cutoff=False),),
    formula="sum(g_i / log2(2 + cost_i - gained_i)) / sum(ideal gains); cost_i: the ideal "
    "gains down to i, each at least 1",
    citation=CITE_TREC,
)
