"""Average precision (MAP, averaged over queries), and GM_MAP (its geometric mean).

    AP@k = sum(precision@i for each relevant doc at rank i <= k) / R
    GM_MAP = exp(mean(log(max(AP_q, 0.00001)) over queries q))

GM_MAP is AP per query, summarised by the geometric mean, which rewards runs that do not
fail on any query; trec_eval prints it in the summary only.

trec_eval (NIST), usnistgov/trec_eval: ``map``, ``map_cut.k``, ``gm_map``; GM_MAP: Robertson,
"On GMAP: and other transformations", CIKM 2006.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import geometric, one_cutoff, tie_averaged
from .params import BINARY, CITE_TREC, IRM, REL, TREC
from .reference import first_docs, guarded, is_relevant_grade, relevant_total

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "GM_MAP",
    "MAP",
    "average_precision",
    "average_precision_batch",
    "average_precision_cutoffs",
    "average_precision_expected",
    "gm_average_precision",
]


@guarded(REL)
def average_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Average precision of ``ranked``: the per-query term of MAP.

    The sum of the precision measured at each relevant result's rank, divided by the number of
    relevant docs of the query, so relevant docs that were never retrieved count as 0. ``k``
    optionally caps the ranking (trec_eval's ``map_cut.k``; ``k=None`` is its ``map``).

    >>> average_precision(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0})
    0.8333333333333333
    """
    top = first_docs(ranked, relevant, k, judged_only)
    n_relevant = relevant_total(relevant, rel)
    if n_relevant == 0:
        return 0.0
    hits = 0
    total = 0.0
    for rank, doc in enumerate(top, start=1):
        if is_relevant_grade(relevant.get(doc), rel):
            hits += 1
            total += hits / rank
    return total / n_relevant


def average_precision_cutoffs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """AP@k of every query at every cutoff of ``ks``, a row each: the precision at a
    relevant doc does not depend on the cutoff, only which docs count.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"]], [{"d1": 1, "d2": 1}])
    >>> average_precision_cutoffs(hits, (1, None)).tolist()
    [[0.5], [0.8333333333333333]]
    """
    from .kernels import (
        cutoff_column,
        per_query_at,
        prepared,
        relevant_counts,
        relevant_ranks,
        safe_divide,
    )

    hits = prepared(hits, judged_only)
    query, rank, relevant_above = relevant_ranks(hits, None, rel)
    total = per_query_at(
        hits.n_queries, query, rank, cutoff_column(ks), (relevant_above + 1) / rank
    )
    return safe_divide(total, relevant_counts(hits, rel))


average_precision_batch = one_cutoff(
    average_precision_cutoffs,
    """AP@k of every query: precision at each relevant hit in the top ``k``, over all relevant.""",
)


def _average_precision_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import (
        TieGroups,
        expand,
        is_relevant,
        relevant_counts,
        safe_divide,
    )

    groups = TieGroups(hits)
    relevant = groups.count(is_relevant(hits.grade, rel))
    span = groups.span(k)
    keep = np.flatnonzero((relevant > 0) & (span > 0))
    relevant_above = groups.before(relevant)[keep]
    above, tied, n_rel = groups.above[keep], groups.size[keep], relevant[keep]
    others = safe_divide((n_rel - 1).astype(np.float64), tied - 1)
    owner, position = expand(span[keep])
    precision = (relevant_above[owner] + 1 + (position - 1) * others[owner]) / (
        above[owner] + position
    )
    total = np.bincount(
        groups.query[keep][owner],
        weights=(n_rel / tied)[owner] * precision,
        minlength=hits.n_queries,
    ).astype(np.float64)
    return safe_divide(total, relevant_counts(hits, rel))


average_precision_expected = tie_averaged(
    average_precision_batch,
    _average_precision_tied,
    """Expected AP@k. A relevant doc of a group (``r`` relevant among ``tied``, ``A`` more
    above) is at each of its group's ranks ``above + j`` with chance ``1 / tied``; there
    ``(j - 1) (r - 1) / (tied - 1)`` of the others are expected above it, and its precision
    is linear in that count: ``sum(r / tied * (A + 1 + (j - 1) (r - 1) / (tied - 1)) /
    (above + j))`` over the group's ranks in the top ``k``, over R. O(hits + the ranks of
    the groups holding a relevant doc).

    >>> import attrs
    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "d2", "x"]], [{"d1": 1, "d2": 1}])
    >>> hits = attrs.evolve(hits, above=[0, 0], tied=[3, 3])
    >>> # d1 and d2 take ranks {1, 2}, {1, 3} or {2, 3}: AP 1, 5/6 or 7/12, so 29/36 on average
    >>> round(float(average_precision_expected(hits, None)[0]), 12)
    0.805555555556
    """,
)


MAP = RetrievalMetric(
    name="map",
    func=average_precision,
    batch=average_precision_batch,
    batch_cutoffs=average_precision_cutoffs,
    expected=average_precision_expected,
    params=BINARY,
    synonyms=(
        Synonym(IRM, "AP"),
        Synonym(IRM, "MAP"),
        Synonym(TREC, "map_cut"),
        Synonym(TREC, "map", cutoff=False),
    ),
    formula="sum(precision@i for each relevant doc at rank i <= k) / R",
    citation=CITE_TREC,
)

# AP per query, summarised by its geometric mean: AP's batch and tie-averaged forms.
GM_MAP = geometric(
    MAP,
    of="AP",
    doc="""Average precision of one query, whose geometric mean over queries is GM_MAP.

    The summary is the geometric mean (``aggregate="geometric"``).

    >>> gm_average_precision(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}, None)  # (1 + 2/3) / 2
    0.8333333333333333
    """,
    citation="Robertson, CIKM 2006; trec_eval's gm_map",
)
gm_average_precision = GM_MAP.func
