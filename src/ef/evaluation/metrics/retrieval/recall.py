"""recall@k: the share of the query's relevant docs in the top ``k``.

    recall@k = |relevant in top k| / R

trec_eval (NIST), usnistgov/trec_eval: ``recall.k``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import one_cutoff, tie_averaged
from .params import BINARY, CITE_TREC, IRM, REL, TREC
from .reference import first_docs, guarded, relevant_hits, relevant_total

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "RECALL",
    "recall_at_k",
    "recall_batch",
    "recall_cutoffs",
    "recall_expected",
]


@guarded(REL)
def recall_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Fraction of the relevant docs that appear in the top ``k`` results.

    The denominator is every relevant doc of the query (trec_eval's ``recall.k``), not
    ``min(R, k)`` (BEIR's ``R_cap``,
    ``capped_recall_at_k()``).

    >>> recall_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)
    0.5
    >>> recall_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 3)
    1.0
    """
    top = first_docs(ranked, relevant, k, judged_only)
    n_relevant = relevant_total(relevant, rel)
    return relevant_hits(top, relevant, rel) / n_relevant if n_relevant else 0.0


def recall_cutoffs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """recall@k of every query at every cutoff of ``ks``, a row each.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"]], [{"d1": 1, "d2": 1}])
    >>> recall_cutoffs(hits, (1, 2, None)).tolist()
    [[0.5], [0.5], [1.0]]
    """
    from .kernels import cutoff_column, found_at, prepared, relevant_counts, safe_divide

    hits = prepared(hits, judged_only)
    return safe_divide(found_at(hits, cutoff_column(ks), rel), relevant_counts(hits, rel))


recall_batch = one_cutoff(
    recall_cutoffs,
    """recall@k of every query: relevant docs in the top ``k``, over all relevant docs.""",
)


def _recall_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    from .kernels import found, relevant_counts, safe_divide

    return safe_divide(found(hits, k, rel, expected=True), relevant_counts(hits, rel))


recall_expected = tie_averaged(
    recall_batch,
    _recall_tied,
    """Expected recall@k: the expected relevant docs in the top ``k`` over R. O(hits).""",
)


RECALL = RetrievalMetric(
    name="recall",
    func=recall_at_k,
    batch=recall_batch,
    batch_cutoffs=recall_cutoffs,
    expected=recall_expected,
    params=BINARY,
    synonyms=(
        Synonym(IRM, "R"),
        Synonym(IRM, "Recall"),
        Synonym(IRM, "SetR", cutoff=False),
        Synonym(TREC, "recall"),
        Synonym(TREC, "set_recall", cutoff=False),
    ),
    formula="|relevant in top k| / R",
    citation=CITE_TREC,
)
