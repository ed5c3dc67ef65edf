"""Reciprocal rank (MRR, averaged over queries).

    RR@k = 1 / rank of the first relevant doc in the top k (0 if none)

Voorhees, "The TREC-8 Question Answering Track Report", TREC-8, 1999.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .params import BINARY, IRM, REL, TREC, check_arguments
from .reference import check_query, first_docs, is_relevant_grade, refuse_bad_grades

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "MRR",
    "reciprocal_rank",
    "reciprocal_rank_batch",
    "reciprocal_rank_expected",
]


def reciprocal_rank(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Reciprocal of the rank of the first relevant result (0 if none).

    Averaged over queries this is MRR. ``k`` optionally caps how far down the ranking to look;
    with ``k=None`` it equals trec_eval's ``recip_rank``.

    >>> reciprocal_rank(['x', 'd1', 'd2'], {'d1': 1.0})
    0.5
    >>> reciprocal_rank(['x', 'd1'], {'d1': 1.0}, k=1)       # relevant doc past the cutoff
    0.0
    """
    if rel is not None:
        check_arguments(_CALL, (REL, rel))
    check_query(ranked, relevant, _CALL)
    try:
        for rank, doc in enumerate(first_docs(ranked, relevant, k, judged_only), start=1):
            if is_relevant_grade(relevant.get(doc), rel):
                return 1.0 / rank
    except TypeError:
        refuse_bad_grades(relevant, _CALL)  # a grade that is no number: name it
        raise
    return 0.0


_CALL = "reciprocal_rank(ranked, relevant, k)"


def reciprocal_rank_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """1 / rank of each query's first relevant doc within the top ``k`` (0 if none)."""
    import numpy as np

    from .kernels import prepared, relevant_in_top

    hits = prepared(hits, judged_only)
    mask = relevant_in_top(hits, k, rel)
    queries, first = np.unique(hits.query[mask], return_index=True)
    out = np.zeros(hits.n_queries, dtype=np.float64)
    out[queries] = 1.0 / hits.rank[mask][first]
    return out


def _first_reciprocals(above: Ints, tied: Ints, relevant: Ints, span: Ints) -> Floats:
    """``E[1 / rank of the first relevant doc; within the top k]`` for groups of ``tied``
    docs at ranks ``above + 1 ..`` holding ``relevant`` relevant ones, ``span`` of their ranks
    in the top ``k``: the first is at the group's ``j``-th rank with chance
    ``C(tied - j, relevant - 1) / C(tied, relevant)``, walked down ``j`` for all at once."""
    import numpy as np

    from .kernels import walking

    length = np.minimum(span, tied - relevant + 1)
    order = np.argsort(-length, kind="stable")
    length = length[order]
    a, t, r = above[order], tied[order].astype(np.float64), relevant[order]
    chance = r / t
    total = chance / (a + 1)
    for j in range(2, int(length.max(initial=0)) + 1):
        n = walking(length, j - 1)
        # The chance at rank j over the chance at rank j - 1.
        chance[:n] *= (t[:n] - j - r[:n] + 2) / (t[:n] - j + 1)
        total[:n] += chance[:n] / (a[:n] + j)
    out = np.zeros(length.size, dtype=np.float64)
    out[order] = np.where(length > 0, total, 0.0)
    return out


def reciprocal_rank_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected reciprocal rank: only the first group holding a relevant doc matters; with
    ``r`` relevant of its ``tied`` docs, its first relevant doc is at its ``j``-th rank with
    chance ``C(tied - j, r - 1) / C(tied, r)``. O(hits + the ranks of each query's first
    such group, when it mixes relevant and other docs)."""
    import numpy as np

    from .kernels import TieGroups, first_groups, is_relevant, prepared, untied

    hits = prepared(hits, judged_only)
    if untied(hits):
        return reciprocal_rank_batch(hits, k, rel=rel)
    groups = TieGroups(hits)
    relevant = groups.count(is_relevant(hits.grade, rel))
    queries, first = first_groups(groups, relevant)
    above, tied, n_rel = groups.above[first], groups.size[first], relevant[first]
    span = groups.span(k)[first]
    value = np.where((span > 0) & (n_rel == tied), 1.0 / (above + 1), 0.0)
    mixed = (span > 0) & (n_rel < tied)
    value[mixed] = _first_reciprocals(above[mixed], tied[mixed], n_rel[mixed], span[mixed])
    out = np.zeros(hits.n_queries, dtype=np.float64)
    out[queries] = value
    return out


MRR = RetrievalMetric(
    name="mrr",
    func=reciprocal_rank,
    batch=reciprocal_rank_batch,
    expected=reciprocal_rank_expected,
    params=BINARY,
    synonyms=(
        Synonym(IRM, "RR"),
        Synonym(IRM, "MRR"),
        Synonym(TREC, "recip_rank", cutoff=False),
    ),
    formula="1 / rank of the first relevant doc in the top k (0 if none)",
    citation="Voorhees, TREC-8 Question Answering Track Report, 1999",
)
