"""DCG@k: discounted cumulative gain, not normalised (nDCG's numerator).

    DCG@k = sum(gain_i / log2(i + 1), i <= k)

``gain_i`` is the grade of the doc at rank ``i`` (0 if unjudged or not positive), or
``gains[grade]``; with ``dcg="exp-log2"``, ``2 ** gain - 1``; with ``rel``, a grade below it
gains 0. These are nDCG's gain rules (:mod:`.ndcg`, whose helpers this module uses): nDCG@k is
DCG@k over the DCG@k of the ideal ranking.

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
truncates 1.5 to 1), here a grade is used as given.

>>> from ef.evaluation import evaluate_run
>>> run = {"q1": {"d1": 3.0, "x": 2.0, "d2": 1.0}}
>>> qrels = {"q1": {"d1": 2, "d2": 1}}
>>> evaluate_run(run, qrels, metrics=("dcg@3", "dcg(dcg='exp-log2')@3")).metrics
{'dcg@3': 2.5, "dcg(dcg='exp-log2')@3": 3.5}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric
from .ndcg import DCG_FORM, GAINS, _expected_found_dcgs, _found_dcgs, dcg_at_k
from .params import JUDGED_ONLY, positive

if TYPE_CHECKING:
    from ...hits import Floats, JudgedHits

__all__ = [
    "DCG",
    "dcg_at_k",
    "dcg_batch",
    "dcg_expected",
]


def dcg_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """DCG@k of every query: each gain in the top ``k`` over ``log2(rank + 1)``, summed
    (:func:`dcg_at_k`'s gains), with no ideal to divide by.

    >>> from ef.evaluation.hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"], ["x"]], [{"d1": 2, "d2": 1}, {}])
    >>> dcg_batch(hits, 3).tolist(), dcg_batch(hits, 3, dcg="exp-log2").tolist()
    ([2.5, 0.0], [3.5, 0.0])
    """
    from .kernels import prepared

    return _found_dcgs(prepared(hits, judged_only), k, gains, dcg, rel)


def dcg_expected(
    hits: JudgedHits,
    k: int | None,
    *,
    gains: Mapping[float, float] | None = None,
    dcg: str = "log2",
    judged_only: bool = False,
    rel: float | None = None,
) -> Floats:
    """Expected DCG@k over every order of each group of tied docs: each group's gains times
    the mean discount of its ranks in the top ``k``,
    ``sum(1 / log2(r + 1), r = above + 1 .. min(above + tied, k)) / tied``.

    >>> import attrs
    >>> from ef.evaluation.hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["x", "d1"]], [{"d1": 2}])
    >>> dcg_expected(attrs.evolve(hits, above=[0], tied=[2]), 2).tolist()  # 2 (1 + 1/log2 3) / 2
    [1.6309297535714575]
    """
    from .kernels import prepared, untied

    hits = prepared(hits, judged_only)
    if untied(hits):
        return _found_dcgs(hits, k, gains, dcg, rel)
    return _expected_found_dcgs(hits, k, gains, dcg, rel)


DCG_REL = MetricParam(
    "rel",
    float,
    None,
    "grades below it gain nothing (ranx's -l); unset: every grade > 0 gains",
    check=positive("rel"),
)


DCG = RetrievalMetric(
    name="dcg",
    func=dcg_at_k,
    batch=dcg_batch,
    expected=dcg_expected,
    params=(GAINS, DCG_FORM, JUDGED_ONLY, DCG_REL),
    formula="sum(gain_i / log2(i + 1), i <= k), not normalised",
    citation="Järvelin and Kekäläinen, ACM TOIS 20(4), 2002; exp-log2: Burges et al., ICML 2005",
)
