"""DCG@k: discounted cumulative gain, not normalised (nDCG's numerator).

    DCG@k = sum(gain_i / log2(i + 1), i <= k)

``gain_i`` is the grade of the doc at rank ``i`` (0 if unjudged or not positive), or
``gains[grade]``; with ``dcg="exp-log2"``, ``2 ** gain - 1``; with ``rel``, a grade below it
gains 0. These gain rules are nDCG's too: :mod:`.ndcg` divides DCG@k by the DCG@k of the
ideal ranking.

Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4),
2002; exp-log2: Burges et al., "Learning to rank using gradient descent", ICML 2005.

ranx's ``dcg`` and ``dcg_burges`` are ``dcg`` and ``dcg(dcg='exp-log2')``
(:func:`ef.evaluation.compat.ranx.evaluate`): ranx gains a doc's grade if it is at least
ranx's level (``-l``, 1 by default) and nothing otherwise, which for whole grades is the rule
here (a grade <= 0 gains 0 in both; ``-l2`` is ``rel=2``), so ``profile="ranx"`` needs only
ranx's order of tied docs. Where the two part: ranx called at a level <= 0 in Python
(``ranx.metrics.dcg(..., rel_lvl=-1)``; its metric strings cannot say so) lets a negative
grade subtract (``-1 / log2(i + 1)``, Burges' ``-0.5 / log2(i + 1)``), where here a grade
<= 0 gains 0 unless ``gains`` says otherwise; and ranx's ``Qrels`` hold whole grades (it
truncates 1.5 to 1), as :mod:`ef.evaluation.compat.ranx`'s do (with an ``InputWarning``),
where ``evaluate_run`` uses a grade as given.

>>> from ef.evaluation import evaluate_run
>>> run = {"q1": {"d1": 3.0, "x": 2.0, "d2": 1.0}}
>>> qrels = {"q1": {"d1": 2, "d2": 1}}
>>> evaluate_run(run, qrels, metrics=("dcg@3", "dcg(dcg='exp-log2')@3")).metrics
{'dcg@3': 2.5, "dcg(dcg='exp-log2')@3": 3.5}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric
from .forms import one_cutoff, tie_averaged
from .params import JUDGED_ONLY, positive
from .reference import first_docs, guarded

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "DCG",
    "dcg_at_k",
    "dcg_batch",
    "dcg_cutoffs",
    "dcg_expected",
    "dcg_of",
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


DCG_REL = MetricParam(
    "rel",
    float,
    None,
    "grades below it gain nothing (ranx's -l); unset: every grade > 0 gains",
    check=positive("rel"),
)


@guarded(GAINS, DCG_FORM, DCG_REL)
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
    return dcg_of(ranked, relevant, k, gains, dcg, judged_only, rel)


def dcg_of(  # noqa: PLR0917 - dcg_at_k's arguments, passed on as they are
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    judged_only: bool,
    rel: float | None,
) -> float:
    """:func:`dcg_at_k` for a caller that checked its arguments (:func:`~.reference.guarded`)."""
    return sum(
        _gain(relevant.get(doc), gains, dcg, rel) / math.log2(rank + 1)
        for rank, doc in enumerate(first_docs(ranked, relevant, k, judged_only), start=1)
    )


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


def dcg_cutoffs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """DCG@k of every query at every cutoff of ``ks``, a row each: a gain's discount does
    not depend on the cutoff, only which gains count.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"]], [{"d1": 2, "d2": 1}])
    >>> dcg_cutoffs(hits, (1, None)).tolist()
    [[2.0], [2.5]]
    """
    import numpy as np

    from .kernels import cutoff_column, per_query_at, prepared

    hits = prepared(hits, judged_only)
    gain = _grade_gains(hits.grade, gains, dcg, rel)
    nonzero = gain != 0
    rank = hits.rank[nonzero]
    discounted = gain[nonzero] / np.log2(rank + 1.0)
    return per_query_at(hits.n_queries, hits.query[nonzero], rank, cutoff_column(ks), discounted)


dcg_batch = one_cutoff(
    dcg_cutoffs,
    """DCG@k of every query: each gain in the top ``k`` over ``log2(rank + 1)``, summed
    (:func:`dcg_at_k`'s gains), with no ideal to divide by.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"], ["x"]], [{"d1": 2, "d2": 1}, {}])
    >>> dcg_batch(hits, 3).tolist(), dcg_batch(hits, 3, dcg="exp-log2").tolist()
    ([2.5, 0.0], [3.5, 0.0])
    """,
)


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


def _dcg_tied(
    hits: JudgedHits,
    k: int | None,
    gains: Mapping[float, float] | None,
    dcg: str,
    rel: float | None,
) -> Floats:
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


dcg_expected = tie_averaged(
    dcg_batch,
    _dcg_tied,
    """Expected DCG@k over every order of each group of tied docs: each group's gains times
    the mean discount of its ranks in the top ``k``,
    ``sum(1 / log2(r + 1), r = above + 1 .. min(above + tied, k)) / tied``. O(hits + the
    ranks of the groups holding a gain).

    >>> import attrs
    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 2}])
    >>> dcg_expected(attrs.evolve(hits, above=[0], tied=[2]), 2).tolist()  # 2 (1 + 1/log2 3) / 2
    [1.6309297535714575]
    """,
)


DCG = RetrievalMetric(
    name="dcg",
    func=dcg_at_k,
    batch=dcg_batch,
    batch_cutoffs=dcg_cutoffs,
    expected=dcg_expected,
    params=(GAINS, DCG_FORM, JUDGED_ONLY, DCG_REL),
    formula="sum(gain_i / log2(i + 1), i <= k), not normalised",
    citation="Järvelin and Kekäläinen, ACM TOIS 20(4), 2002; exp-log2: Burges et al., ICML 2005",
)
