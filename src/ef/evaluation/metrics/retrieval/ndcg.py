"""nDCG@k and DCG@k: (normalized) discounted cumulative gain.

    DCG@k = sum(gain_i / log2(i + 1), i <= k)
    nDCG@k = DCG@k / the same for the ideal ranking of every judged doc

``gain_i`` is the grade of the doc at rank ``i`` (linear gain), or ``gains[grade]``; with
``dcg="exp-log2"``, ``2 ** gain - 1``.

Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4),
2002; exp-log2: Burges et al., ICML 2005.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .params import IRM, JUDGED_ONLY, TREC, positive
from .reference import check_cutoff, top_docs

if TYPE_CHECKING:
    from ...hits import Floats, Ints, JudgedHits

__all__ = [
    "NDCG",
    "dcg_at_k",
    "ndcg_at_k",
    "ndcg_batch",
    "ndcg_expected",
]


def _gain(
    grade: float | None,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    rel: float | None = None,
) -> float:
    """A judged grade's gain: the grade (0 if not positive), or ``gains[grade]``; with
    ``dcg="exp-log2"``, 2 ** that - 1 (Burges et al.). A grade below ``rel`` gains 0."""
    if grade is None or (rel is not None and grade < rel):
        return 0.0
    if gains is not None and grade in gains:
        value = float(gains[grade])
    else:
        value = float(grade) if grade > 0 else 0.0
    return 2.0**value - 1.0 if dcg == "exp-log2" else value


def dcg_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> float:
    """Discounted cumulative gain of ``ranked`` at cutoff ``k``.

    ``sum(grade_i / log2(i + 2))`` over the top ``k`` results (``i`` 0-indexed), with
    ``grade_i`` the relevance of the i-th doc (0 if unjudged or not positive): the linear-gain
    DCG of Järvelin and Kekäläinen (2002) that BEIR, pytrec_eval and trec_eval use.
    ``gains`` maps grades to other gains (trec_eval's ``ndcg.1=3,2=9``; unlisted grades keep
    their own); ``dcg="exp-log2"`` takes ``2 ** gain - 1`` (Burges et al., 2005). With
    ``rel``, a grade below it gains nothing (ranx's ``-l``; trec_eval's ``-l`` leaves nDCG
    alone, so it is unset by default).

    >>> round(dcg_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 3), 4)
    1.5
    """
    return sum(
        _gain(relevant.get(doc), gains, dcg, rel) / math.log2(rank + 1)
        for rank, doc in enumerate(top_docs(ranked, relevant, k, judged_only), start=1)
    )


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
    found = dcg_at_k(ranked, relevant, k, gains=gains, dcg=dcg, judged_only=judged_only, rel=rel)
    return found / ideal


def _grade_gains(
    grade: Floats, gains: Mapping[float, float] | None, dcg: str, rel: float | None = None
) -> Floats:
    """Each grade's gain, as :func:`_gain` gives it."""
    import numpy as np

    value = np.where(grade > 0, grade, 0.0)
    if gains:
        keys = np.fromiter(gains.keys(), dtype=np.float64)
        values = np.fromiter(gains.values(), dtype=np.float64)
        order = np.argsort(keys)
        keys, values = keys[order], values[order]
        at = np.clip(np.searchsorted(keys, grade), 0, keys.size - 1)
        listed = keys[at] == grade
        value = np.where(listed, values[at], value)
    if dcg == "exp-log2":
        value = np.power(2.0, value) - 1.0
    if rel is not None:
        value = np.where(grade >= rel, value, 0.0)
    return value


def _ideal_dcgs(
    hits: JudgedHits,
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None = None,
) -> Floats:
    import numpy as np

    from ...hits import position_in_query

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
    within = position < k if k is not None else np.ones(position.size, dtype=bool)
    discounted = gain[within] / np.log2(position[within] + 2.0)
    return np.bincount(owner[within], weights=discounted, minlength=hits.n_queries).astype(
        np.float64
    )


def _found_dcgs(
    hits: JudgedHits,
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None = None,
) -> Floats:
    """Each query's DCG@k (:func:`dcg_at_k`) over ``hits`` already prepared for
    ``judged_only``: the numerator of :func:`ndcg_batch`, and the dcg metric."""
    import numpy as np

    from .kernels import in_top

    gain = _grade_gains(hits.grade, gains, dcg, rel)
    mask = (gain != 0) & in_top(hits, k)
    discounted = gain[mask] / np.log2(hits.rank[mask] + 1.0)
    return np.bincount(hits.query[mask], weights=discounted, minlength=hits.n_queries).astype(
        np.float64
    )


def ndcg_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """nDCG@k of every query, over the ideal DCG of all judged grades (linear gain unless
    ``gains`` or ``dcg="exp-log2"`` say otherwise; grades below ``rel`` gain nothing)."""
    from .kernels import prepared, safe_divide

    hits = prepared(hits, judged_only)
    return safe_divide(_found_dcgs(hits, k, gains, dcg, rel), _ideal_dcgs(hits, k, gains, dcg, rel))


def _span_sums(start: Ints, count: Ints, f: Callable[[Floats], Floats]) -> Floats:
    """``f(start + 1) + ... + f(start + count)`` for every pair, summed rank by rank."""
    import numpy as np

    from .kernels import expand

    owner, position = expand(count)
    ranks = (start[owner] + position).astype(np.float64)
    return np.bincount(owner, weights=f(ranks), minlength=count.size).astype(np.float64)


def _log_discount(rank: Floats) -> Floats:
    import numpy as np

    discount: Floats = 1.0 / np.log2(rank + 1.0)
    return discount


def _expected_found_dcgs(
    hits: JudgedHits,
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None = None,
) -> Floats:
    """Each query's expected DCG@k over every order of its tie groups, ``hits`` prepared for
    ``judged_only`` and tied: each group's gains times the mean discount of its ranks in the
    top ``k``. The numerator of :func:`ndcg_expected`, and the dcg metric."""
    import numpy as np

    from .kernels import TieGroups

    groups = TieGroups(hits)
    gain = _grade_gains(hits.grade, gains, dcg, rel)
    has_gain = gain != 0
    group_gain = np.bincount(groups.entry[has_gain], weights=gain[has_gain], minlength=groups.n)
    span = groups.span(k)
    keep = (groups.count(has_gain) > 0) & (span > 0)
    discount = _span_sums(groups.above[keep], span[keep], _log_discount)
    return np.bincount(
        groups.query[keep],
        weights=group_gain[keep] * discount / groups.size[keep],
        minlength=hits.n_queries,
    ).astype(np.float64)


def ndcg_expected(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """Expected nDCG@k: each group's gains times the mean discount of its ranks in the top
    ``k``, ``sum(1 / log2(r + 1), r = above + 1 .. min(above + tied, k)) / tied``, over the
    ideal DCG (which no order changes). O(hits + the ranks of the groups holding a gain).

    >>> import attrs
    >>> from ef.evaluation.hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 1}])
    >>> ndcg_expected(attrs.evolve(hits, above=[0], tied=[2]), 2).tolist()  # (1 + 1/log2 3) / 2
    [0.8154648767857288]
    """
    from .kernels import prepared, safe_divide, untied

    hits = prepared(hits, judged_only)
    if untied(hits):
        return ndcg_batch(hits, k, gains=gains, dcg=dcg, rel=rel)
    found = _expected_found_dcgs(hits, k, gains, dcg, rel)
    return safe_divide(found, _ideal_dcgs(hits, k, gains, dcg, rel))


GAINS = MetricParam(
    "gains",
    dict,
    None,
    "grade -> gain, e.g. {1:1,2:3} (trec_eval's ndcg.1=1,2=3); unlisted grades keep their own",
)


DCG_FORM = MetricParam(
    "dcg",
    str,
    "log2",
    "'log2': gain / log2(rank + 1); 'exp-log2': (2 ** gain - 1) / log2(rank + 1) (Burges)",
    choices=("log2", "exp-log2"),
)


NDCG_REL = MetricParam(
    "rel",
    float,
    None,
    "grades below it gain nothing, in the ranking and the ideal (ranx's -l); unset: every "
    "grade > 0 gains, as trec_eval's -l leaves nDCG alone",
    check=positive("rel"),
)


NDCG = RetrievalMetric(
    name="ndcg",
    func=ndcg_at_k,
    batch=ndcg_batch,
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
