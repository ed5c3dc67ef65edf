"""hole@k: the share of the top ``k`` without a judgement (or with a negative one).

    hole@k = |unjudged (or negative) docs in top k| / k

trec_eval 10's ``unj``; BEIR's Hole@k (Thakur et al., 2021).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import TREC
from .reference import top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "HOLE",
    "hole_at_k",
    "hole_batch",
    "hole_expected",
]


def hole_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int | None) -> float:
    """Share of the top ``k`` results with no judgement, or a negative one.

    trec_eval's ``unj.k``. Divided by ``k``, as a short ranking is padded with judged docs;
    for ``k=None`` by the number of docs retrieved.

    >>> hole_at_k(['d1', 'x', 'd2'], {'d1': 1, 'd2': 0}, 2), hole_at_k(['x'], {}, 10)
    (0.5, 0.1)
    """
    top = top_docs(ranked, relevant, k)
    depth = k if k is not None else len(top)
    unjudged = sum(1 for doc in top if relevant.get(doc, -1) < 0)
    return unjudged / depth if depth else 0.0


def hole_batch(hits: JudgedHits, k: int | None) -> Floats:
    """Share of each query's top ``k`` that is unjudged (or negative), over ``k``."""
    import numpy as np

    from .kernels import depths, in_top, per_query, safe_divide

    depth = depths(hits, k)
    shown = np.minimum(depth, hits.n_retrieved)
    judged = per_query(hits, in_top(hits, k) & (hits.grade >= 0), None)
    return safe_divide(shown - judged, depth)


def _hole_tied(hits: JudgedHits, k: int | None) -> Floats:
    import numpy as np

    from .kernels import depths, per_query, reach, safe_divide

    depth = depths(hits, k)
    shown = np.minimum(depth, hits.n_retrieved)
    judged = per_query(hits, hits.grade >= 0, reach(hits, k))
    return safe_divide(shown - judged, depth)


hole_expected = tie_averaged(
    hole_batch,
    _hole_tied,
    """Expected share of the top ``k`` that is unjudged (or negative), over ``k``. O(hits).""",
)


HOLE = RetrievalMetric(
    name="hole",
    func=hole_at_k,
    batch=hole_batch,
    expected=hole_expected,
    synonyms=(Synonym(TREC, "unj"),),
    formula="|unjudged (or negative) docs in top k| / k",
    citation="trec_eval 10's unj; BEIR's Hole@k (Thakur et al., 2021)",
)
