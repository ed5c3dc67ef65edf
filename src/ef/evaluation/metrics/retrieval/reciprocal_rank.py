"""Reciprocal rank (MRR, averaged over queries).

    RR@k = 1 / rank of the first relevant doc in the top k (0 if none)

Voorhees, "The TREC-8 Question Answering Track Report", TREC-8, 1999.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import one_cutoff, tie_averaged
from .params import BINARY, IRM, REL, TREC
from .reference import first_docs, guarded, is_relevant_grade

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "MRR",
    "reciprocal_rank",
    "reciprocal_rank_batch",
    "reciprocal_rank_cutoffs",
    "reciprocal_rank_expected",
]


@guarded(REL)
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
    for rank, doc in enumerate(first_docs(ranked, relevant, k, judged_only), start=1):
        if is_relevant_grade(relevant.get(doc), rel):
            return 1.0 / rank
    return 0.0


def reciprocal_rank_cutoffs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """RR@k of every query at every cutoff of ``ks``, a row each: each query's first relevant
    doc counts at the cutoffs it lies within.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["x", "d1", "d2"]], [{"d1": 1, "d2": 1}])
    >>> reciprocal_rank_cutoffs(hits, (1, 2, None)).tolist()
    [[0.0], [0.5], [0.5]]
    """
    from ..._hits import position_in_query
    from .kernels import cutoff_column, is_relevant, per_query_at, prepared

    hits = prepared(hits, judged_only)
    relevant = is_relevant(hits.grade, rel)
    query, rank = hits.query[relevant], hits.rank[relevant]
    first = position_in_query(query) == 0
    query, rank = query[first], rank[first]
    return per_query_at(hits.n_queries, query, rank, cutoff_column(ks), 1.0 / rank)


reciprocal_rank_batch = one_cutoff(
    reciprocal_rank_cutoffs,
    """1 / rank of each query's first relevant doc within the top ``k`` (0 if none).""",
)


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


def _reciprocal_rank_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import TieGroups, at_queries, first_groups, is_relevant

    groups = TieGroups(hits)
    relevant = groups.count(is_relevant(hits.grade, rel))
    queries, first = first_groups(groups, relevant)
    above, tied, n_rel = groups.above[first], groups.size[first], relevant[first]
    span = groups.span(k)[first]
    value = np.where((span > 0) & (n_rel == tied), 1.0 / (above + 1), 0.0)
    mixed = (span > 0) & (n_rel < tied)
    value[mixed] = _first_reciprocals(above[mixed], tied[mixed], n_rel[mixed], span[mixed])
    return at_queries(hits.n_queries, queries, value)


reciprocal_rank_expected = tie_averaged(
    reciprocal_rank_batch,
    _reciprocal_rank_tied,
    """Expected reciprocal rank: only the first group holding a relevant doc matters; with
    ``r`` relevant of its ``tied`` docs, its first relevant doc is at its ``j``-th rank with
    chance ``C(tied - j, r - 1) / C(tied, r)``. O(hits + the ranks of each query's first
    such group, when it mixes relevant and other docs).""",
)


MRR = RetrievalMetric(
    name="mrr",
    func=reciprocal_rank,
    batch=reciprocal_rank_batch,
    batch_cutoffs=reciprocal_rank_cutoffs,
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
