"""success@k (hit rate): whether the top ``k`` holds a relevant doc.

    success@k = 1 if a relevant doc is in the top k, else 0

trec_eval (NIST), usnistgov/trec_eval: ``success``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, CITE_TREC, IRM, REL, TREC, check_arguments
from .reference import relevant_hits, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "SUCCESS",
    "success_at_k",
    "success_batch",
    "success_expected",
]


def success_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """1.0 if any of the top ``k`` results is relevant, else 0.0 (success@k, hit_rate@k).

    >>> success_at_k(['x', 'd1'], {'d1': 1}, 1), success_at_k(['x', 'd1'], {'d1': 1}, 2)
    (0.0, 1.0)
    """
    check_arguments("success_at_k(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    return 1.0 if relevant_hits(top, relevant, rel) else 0.0


def success_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """1.0 for every query with a relevant doc in the top ``k``, else 0.0."""
    import numpy as np

    from .kernels import found, prepared

    return (found(prepared(hits, judged_only), k, rel) > 0).astype(np.float64)


def _success_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import TieGroups, at_queries, comb_ratio, first_groups, is_relevant

    groups = TieGroups(hits)
    relevant = groups.count(is_relevant(hits.grade, rel))
    queries, first = first_groups(groups, relevant)
    tied, n_rel, span = groups.size[first], relevant[first], groups.span(k)[first]
    value = (span == tied).astype(np.float64)
    for i in np.flatnonzero((span > 0) & (span < tied)).tolist():
        t, m = int(tied[i]), int(span[i])
        value[i] = 1.0 - comb_ratio(t - int(n_rel[i]), t, m)
    return at_queries(hits.n_queries, queries, value)


success_expected = tie_averaged(
    success_batch,
    _success_tied,
    """Expected success@k: 1 if the first group holding a relevant doc lies within the top
    ``k``; if ``k`` cuts it after ``m`` of its ``tied`` ranks, 1 less the chance that its
    ``r`` relevant docs all miss them, ``C(tied - r, m) / C(tied, m)``. O(hits).""",
)


SUCCESS = RetrievalMetric(
    name="success",
    func=success_at_k,
    batch=success_batch,
    expected=success_expected,
    params=BINARY,
    aliases=("hit_rate",),
    synonyms=(Synonym(IRM, "Success"), Synonym(TREC, "success")),
    formula="1 if a relevant doc is in the top k, else 0",
    citation=CITE_TREC,
)
