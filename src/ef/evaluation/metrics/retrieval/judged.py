"""judged@k: the share of the top ``k`` that has a judgement.

    judged@k = |judged docs in top k| / |top k| (any grade, negative included)

ir_measures' ``Judged`` (MacAvaney et al., "Streamlining Evaluation with ir-measures", ECIR
2022).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import IRM
from .reference import top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "JUDGED",
    "judged_at_k",
    "judged_batch",
    "judged_expected",
]


def judged_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int | None) -> float:
    """Share of the top ``k`` results that have a judgement, of any grade.

    ir_measures' ``Judged``. Divided by the number of docs in the top ``k``, which is fewer
    than ``k`` for a short ranking; 0.0 for an empty one.

    >>> judged_at_k(['d1', 'x', 'd2'], {'d1': 1, 'd2': 0}, 2), judged_at_k(['d1'], {'d1': 0}, 10)
    (0.5, 1.0)
    """
    top = top_docs(ranked, relevant, k)
    return sum(1 for doc in top if doc in relevant) / len(top) if top else 0.0


def judged_batch(hits: JudgedHits, k: int | None) -> Floats:
    """Share of each query's top ``k`` that is judged, over the docs in its top ``k``."""
    import numpy as np

    from .kernels import depths, in_top, per_query, safe_divide

    shown = depths(hits, k)
    if k is not None:
        shown = np.minimum(shown, hits.n_retrieved)
    return safe_divide(per_query(hits, in_top(hits, k), None), shown)


def _judged_tied(hits: JudgedHits, k: int | None) -> Floats:
    import numpy as np

    from .kernels import depths, per_query, reach, safe_divide

    shown = depths(hits, k)
    if k is not None:
        shown = np.minimum(shown, hits.n_retrieved)
    return safe_divide(per_query(hits, np.ones(hits.query.size, bool), reach(hits, k)), shown)


judged_expected = tie_averaged(
    judged_batch,
    _judged_tied,
    """Expected share of the top ``k`` that is judged (any grade). O(hits).""",
)


JUDGED = RetrievalMetric(
    name="judged",
    func=judged_at_k,
    batch=judged_batch,
    expected=judged_expected,
    synonyms=(Synonym(IRM, "Judged"),),
    formula="|judged docs in top k| / |top k| (any grade, negative included)",
    citation="ir_measures' Judged (MacAvaney et al., ECIR 2022)",
)
