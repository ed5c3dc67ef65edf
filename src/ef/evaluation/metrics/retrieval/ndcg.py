"""nDCG@k: normalized discounted cumulative gain.

    nDCG@k = DCG@k / the same for the ideal ranking of every judged doc

DCG@k and its gains (the grade, ``gains[grade]``, ``2 ** gain - 1`` with
``dcg="exp-log2"``, nothing below ``rel``) are :mod:`.dcg`'s; this module adds the ideal.

Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4),
2002; exp-log2: Burges et al., ICML 2005.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .dcg import DCG_FORM, GAINS, _dcg_tied, _gain, _grade_gains, dcg_cutoffs, dcg_of
from .forms import one_cutoff, tie_averaged
from .params import IRM, JUDGED_ONLY, TREC, positive
from .reference import check_cutoff, guarded

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "NDCG",
    "ndcg_at_k",
    "ndcg_batch",
    "ndcg_cutoffs",
    "ndcg_expected",
]


def _ideal_dcg(
    relevant: Mapping[str, float],
    k: int | None,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    rel: float | None = None,
) -> float:
    ideal = sorted(
        (g for g in (_gain(grade, gains, dcg, rel) for grade in relevant.values()) if g > 0),
        reverse=True,
    )[:k]
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(ideal, start=1))


NDCG_REL = MetricParam(
    "rel",
    float,
    None,
    "grades below it gain nothing, in the ranking and the ideal (ranx's -l); unset: every "
    "grade > 0 gains, as trec_eval's -l leaves nDCG alone",
    check=positive("rel"),
)


@guarded(GAINS, DCG_FORM, NDCG_REL)
def ndcg_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> float:
    """Normalized DCG at cutoff ``k``: ef's primary retrieval metric.

    :func:`dcg_at_k` divided by the ideal DCG, the DCG of the best possible ranking of *all* the
    judged docs (not only the retrieved ones), cut at ``k``. 1.0 is a perfect ranking; 0.0 when
    no relevant doc was judged. Equals trec_eval's ``ndcg_cut.k`` (and ``ndcg`` for
    ``k=None``). Its gains are thresholded only if ``rel`` is set: then a grade below it
    gains nothing, in the ranking and in the ideal (ranx's ``-l``).

    >>> ndcg_at_k(['d1', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)   # perfect order
    1.0
    >>> round(ndcg_at_k(['x', 'd1'], {'d1': 1.0}, 2), 4)     # relevant doc at rank 2
    0.6309
    """
    check_cutoff(k)
    ideal = _ideal_dcg(relevant, k, gains, dcg, rel)
    if ideal <= 0:
        return 0.0
    return dcg_of(ranked, relevant, k, gains, dcg, judged_only, rel) / ideal


def _ideal_dcgs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None = None,
) -> Floats:
    """The ideal DCG of every query at every cutoff of ``ks``, a row each."""
    import numpy as np

    from ..._hits import position_in_query
    from .kernels import cutoff_column, per_query_at

    if gains or rel is not None:
        gain = _grade_gains(hits.judged, gains, dcg, rel)
        owner = hits.judged_owner()
        keep = gain > 0
        gain, owner = gain[keep], owner[keep]
        order = np.lexsort((-gain, owner))
        gain, owner = gain[order], owner[order]
        position = position_in_query(owner)
    else:  # the positive grades, already descending; 2 ** g - 1 keeps their order
        gain = _grade_gains(hits.ideal, None, dcg)
        owner = np.repeat(np.arange(hits.n_queries), hits.n_relevant)
        position = np.arange(hits.ideal.size) - hits.ideal_offsets[owner]
    # The ideal ranking's ranks are the positions from 1, each discounted once for all
    # cutoffs.
    discounted = gain / np.log2(position + 2.0)
    return per_query_at(hits.n_queries, owner, position + 1, cutoff_column(ks), discounted)


def ndcg_cutoffs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """nDCG@k of every query at every cutoff of ``ks``, a row each.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 1}])
    >>> ndcg_cutoffs(hits, (1, None)).round(4).tolist()
    [[0.0], [0.6309]]
    """
    from .kernels import prepared, safe_divide

    hits = prepared(hits, judged_only)
    found = dcg_cutoffs(hits, ks, gains=gains, dcg=dcg, rel=rel)
    return safe_divide(found, _ideal_dcgs(hits, ks, gains, dcg, rel))


ndcg_batch = one_cutoff(
    ndcg_cutoffs,
    """nDCG@k of every query, over the ideal DCG of all judged grades (linear gain unless
    ``gains`` or ``dcg="exp-log2"`` say otherwise; grades below ``rel`` gain nothing).""",
)


def _ndcg_tied(
    hits: JudgedHits,
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None,
) -> Floats:
    from .kernels import safe_divide

    found = _dcg_tied(hits, k, gains, dcg, rel)
    return safe_divide(found, _ideal_dcgs(hits, (k,), gains, dcg, rel)[0])


ndcg_expected = tie_averaged(
    ndcg_batch,
    _ndcg_tied,
    """Expected nDCG@k: each group's gains times the mean discount of its ranks in the top
    ``k``, ``sum(1 / log2(r + 1), r = above + 1 .. min(above + tied, k)) / tied``, over the
    ideal DCG (which no order changes). O(hits + the ranks of the groups holding a gain).

    >>> import attrs
    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 1}])
    >>> ndcg_expected(attrs.evolve(hits, above=[0], tied=[2]), 2).tolist()  # (1 + 1/log2 3) / 2
    [0.8154648767857288]
    """,
)


NDCG = RetrievalMetric(
    name="ndcg",
    func=ndcg_at_k,
    batch=ndcg_batch,
    batch_cutoffs=ndcg_cutoffs,
    expected=ndcg_expected,
    params=(GAINS, DCG_FORM, JUDGED_ONLY, NDCG_REL),
    synonyms=(
        Synonym(IRM, "nDCG"),
        Synonym(IRM, "NDCG"),
        Synonym(TREC, "ndcg_cut"),
        Synonym(TREC, "ndcg", cutoff=False),
    ),
    formula="sum(gain_i / log2(i + 1), i <= k) / the same for the ideal ranking of "
    "every judged doc",
    citation="Järvelin and Kekäläinen, ACM TOIS 20(4), 2002; exp-log2: Burges et al., ICML 2005",
)
