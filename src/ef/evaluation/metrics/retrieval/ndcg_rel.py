"""ndcg_rel: nDCG averaged over the relevant docs, at the rank of each one found.

    ndcg_rel = (sum(DCG@r_i / IDCG@r_i for each doc i with a positive gain, found at r_i)
                + (L - found) * DCG / IDCG) / L

``L`` is the number of docs with a positive gain (the ideal ranking's length), ``DCG`` and
``IDCG`` of the whole ranking; the relevant docs not found count at the nDCG of the whole
ranking. Gains are the grades, or ``gains[grade]``.

trec_eval (NIST), usnistgov/trec_eval: ``ndcg_rel``.
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

__all__ = ["NDCG_REL", "ndcg_rel", "ndcg_rel_batch"]


def _finish(total: float, missing: int, dcg: float, ideal_dcg: float, n_ideal: int) -> float:
    if ideal_dcg <= 0:
        return 0.0  # nothing to gain: trec_eval's sum is 0 * 0 / 0, not > 0
    total += float(missing) * dcg / ideal_dcg
    return total / n_ideal if total > 0 else 0.0


def ndcg_rel(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    gains: Mapping[float, float] | None = None,
    judged_only: bool = False,
) -> float:
    """nDCG at each relevant doc found, averaged over the relevant docs (trec_eval's ndcg_rel).

    The relevant docs not found count at the nDCG of the whole top ``k``.

    >>> round(ndcg_rel(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}), 6)  # (1 + 1.5 / (1 + 1/log2(3))) / 2
    0.95986
    """
    check_arguments("ndcg_rel(ranked, relevant, k)", (GAINS, gains))
    check_query(ranked, relevant, "ndcg_rel(ranked, relevant, k)")  # before relevant is read
    ideal = ideal_gains(relevant.values(), gains)
    dcg = ideal_dcg = total = 0.0
    found = 0
    top = top_docs(ranked, relevant, k, judged_only)
    for i, doc in enumerate(top):
        gain = trec_gain(relevant.get(doc), gains)
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        if i < len(ideal):
            ideal_dcg += ideal[i] / math.log2(i + 2)
        if gain > 0:
            total += dcg / ideal_dcg
            found += 1
    for i in range(len(top), len(ideal)):
        ideal_dcg += ideal[i] / math.log2(i + 2)
    return _finish(total, len(ideal) - found, dcg, ideal_dcg, len(ideal))


def _ideal_prefix(ideal: Sequence[float]) -> list[float]:
    """``out[b]``: the ideal DCG of ranks 1 to ``b``, summed rank by rank."""
    out = [0.0]
    for i, gain in enumerate(ideal):
        out.append(out[-1] + gain / math.log2(i + 2))
    return out


def ndcg_rel_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    judged_only: bool = False,
) -> Floats:
    """ndcg_rel of every query (a walk over each query's judged docs)."""
    from .kernels import each_query

    def value(ranks: list[int], grades: list[float], judged: list[float]) -> float:
        ideal = ideal_gains(judged, gains)
        if not ideal:
            return 0.0
        prefix = _ideal_prefix(ideal)
        dcg = total = 0.0
        found = 0
        for rank, grade in zip(ranks, grades, strict=True):
            gain = trec_gain(grade, gains)
            if gain != 0:
                dcg += gain / math.log2(rank + 1)
            if gain > 0:
                total += dcg / prefix[min(rank, len(ideal))]
                found += 1
        return _finish(total, len(ideal) - found, dcg, prefix[-1], len(ideal))

    return each_query(hits, k, judged_only, value)


NDCG_REL = RetrievalMetric(
    name="ndcg_rel",
    func=ndcg_rel,
    batch=ndcg_rel_batch,
    params=(GAINS, JUDGED_ONLY),
    cutoff=False,
    synonyms=(Synonym(TREC, "ndcg_rel", cutoff=False),),
    formula="(sum(nDCG at the rank of each relevant doc found) + the relevant docs not "
    "found * nDCG) / the relevant docs",
    citation=CITE_TREC,
)
