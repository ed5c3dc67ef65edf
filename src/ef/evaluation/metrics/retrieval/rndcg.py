"""Rndcg: nDCG averaged over the ranks where the ideal ranking's gain changes.

    Rndcg = mean(DCG@b / IDCG@b for each rank b after which the ideal gain changes
                 [and DCG / IDCG of the whole ranking, if it runs past the ideal one])

With grades 3, 2, 1 the ideal ranking lists the 3s, then the 2s, then the 1s: ``b`` are the
numbers of docs graded 3, 3 or 2, and 3, 2 or 1 (R for binary judgements, where Rndcg is
nDCG@R, plus nDCG of the whole ranking when it is longer than R + 1). Gains are the grades,
or ``gains[grade]``; 0 when nothing is relevant (``rel``, trec_eval's ``-l``).

trec_eval (NIST), usnistgov/trec_eval: ``Rndcg``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .dcg import GAINS
from .ndcg_rel import _ideal_prefix
from .params import CITE_TREC, JUDGED_ONLY, REL, TREC, check_arguments
from .reference import C_NAN, check_query, ideal_gains, relevant_total, top_docs, trec_gain

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["RNDCG", "rndcg", "rndcg_batch"]


NAN_IF_NO_GAIN = MetricParam(
    "nan_if_empty",
    bool,
    False,
    "NaN, as trec_eval gives (0 / 0), for a query with relevant docs but no positive gain "
    "(gains that zero them); 0 otherwise",
)


def _level(ideal: Sequence[float], i: int) -> float | None:
    """The ideal gain at rank ``i + 1``; None past the ideal ranking."""
    return ideal[i] if i < len(ideal) else None


def rndcg(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    gains: Mapping[float, float] | None = None,
    nan_if_empty: bool = False,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """nDCG averaged over the ranks where the ideal gain changes (trec_eval's Rndcg).

    Over the top ``k``, rank by rank as trec_eval's loop reads it.

    >>> round(rndcg(['x', 'd1', 'd2', 'y'], {'d1': 1, 'd2': 1}), 6)  # nDCG@2 and the whole's mean
    0.54014
    """
    check_arguments("rndcg(ranked, relevant, k)", (GAINS, gains), (REL, rel))
    check_query(ranked, relevant, "rndcg(ranked, relevant, k)")  # before relevant is read
    if relevant_total(relevant, rel) == 0:
        return 0.0
    ideal = ideal_gains(relevant.values(), gains)
    top = top_docs(ranked, relevant, k, judged_only)
    walk = _Walk(ideal)
    i = 0
    while i < len(top) and i <= len(ideal) and ideal:  # trec_eval's first loop
        walk.rank(i, trec_gain(relevant.get(top[i]), gains))
        i += 1
    if i < len(top):  # the ideal ranking ran out first: the rest, then the whole ranking
        for j in range(i, len(top)):
            walk.add(j, trec_gain(relevant.get(top[j]), gains))
        walk.whole()
    else:
        while ideal and i <= len(ideal):  # the rest of the ideal ranking
            walk.rank(i, 0.0)
            i += 1
    if not walk.changes:
        return C_NAN if nan_if_empty else 0.0
    return walk.total / walk.changes


class _Walk:
    """trec_eval's Rndcg loop state: the DCGs so far, and the nDCGs summed where the ideal
    gain changed."""

    def __init__(self, ideal: Sequence[float]) -> None:
        self.ideal = ideal
        self.dcg = self.ideal_dcg = self.total = 0.0
        self.changes = 0
        self.old = _level(ideal, 0)

    def rank(self, i: int, gain: float) -> None:
        """Rank ``i + 1``: a change of the ideal gain first, then this rank's gains."""
        level = _level(self.ideal, i)
        if level != self.old:
            self.whole()
            self.old = level
        self.add(i, gain)
        if level is not None:
            self.ideal_dcg += level / math.log2(i + 2)

    def add(self, i: int, gain: float) -> None:
        if gain != 0:
            self.dcg += gain / math.log2(i + 2)

    def whole(self) -> None:
        """nDCG so far, into the sum."""
        if self.ideal_dcg > 0:
            self.total += self.dcg / self.ideal_dcg
            self.changes += 1


def rndcg_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    nan_if_empty: bool = False,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """Rndcg of every query: nDCG at each change of the ideal gain (a walk over each query's
    judged docs and ideal gains)."""
    import numpy as np

    from .kernels import by_query, cut, prepared, relevant_counts

    hits = cut(prepared(hits, judged_only), k)
    out = np.zeros(hits.n_queries, dtype=np.float64)
    n_relevant = relevant_counts(hits, rel).tolist()
    for q, (ranks, grades, judged, n_retrieved) in enumerate(by_query(hits)):
        ideal = ideal_gains(judged, gains)
        if not n_relevant[q]:
            continue
        if not ideal:
            out[q] = C_NAN if nan_if_empty else 0.0
            continue
        prefix = _ideal_prefix(ideal)
        bounds = [b for b in range(1, len(ideal) + 1) if _level(ideal, b) != ideal[b - 1]]
        found = [
            (rank, gain)
            for rank, gain in ((r, trec_gain(g, gains)) for r, g in zip(ranks, grades, strict=True))
            if gain != 0
        ]
        dcg = total = 0.0
        at = 0
        for b in bounds:  # the docs above rank b + 1, then nDCG there
            while at < len(found) and found[at][0] <= b:
                dcg += found[at][1] / math.log2(found[at][0] + 1)
                at += 1
            total += dcg / prefix[b]
        changes = len(bounds)
        if len(ideal) + 1 < n_retrieved:
            for rank, gain in found[at:]:
                dcg += gain / math.log2(rank + 1)
            total += dcg / prefix[-1]
            changes += 1
        out[q] = total / changes
    return out


RNDCG = RetrievalMetric(
    name="rndcg",
    func=rndcg,
    batch=rndcg_batch,
    params=(GAINS, NAN_IF_NO_GAIN, REL, JUDGED_ONLY),
    cutoff=False,
    synonyms=(Synonym(TREC, "Rndcg", cutoff=False),),
    formula="mean(nDCG@b for each rank b where the ideal gain changes, and the whole "
    "ranking's nDCG if it runs past the ideal one)",
    citation=CITE_TREC,
)
