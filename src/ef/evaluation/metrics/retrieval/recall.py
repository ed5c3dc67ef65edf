"""recall@k: the share of the query's relevant docs in the top ``k``.

    recall@k = |relevant in top k| / R

trec_eval (NIST), usnistgov/trec_eval: ``recall.k``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .params import BINARY, CITE_TREC, IRM, REL, TREC, check_arguments
from .reference import (
    check_query,
    first_docs,
    refuse_bad_grades,
    relevant_hits,
    relevant_total,
)

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "RECALL",
    "recall_at_k",
    "recall_batch",
    "recall_expected",
]


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
    if rel is not None:
        check_arguments(_CALL, (REL, rel))
    check_query(ranked, relevant, _CALL)
    try:
        top = first_docs(ranked, relevant, k, judged_only)
        n_relevant = relevant_total(relevant, rel)
        return relevant_hits(top, relevant, rel) / n_relevant if n_relevant else 0.0
    except TypeError:
        refuse_bad_grades(relevant, _CALL)  # a grade that is no number: name it
        raise


_CALL = "recall_at_k(ranked, relevant, k)"


def recall_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """recall@k of every query: relevant docs in the top ``k``, over all relevant docs."""
    return _recall(hits, k, rel, judged_only, expected=False)


def recall_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected recall@k: the expected relevant docs in the top ``k`` over R. O(hits)."""
    return _recall(hits, k, rel, judged_only, expected=True)


def _recall(
    hits: JudgedHits, k: int | None, rel: float | None, judged_only: bool, *, expected: bool
) -> Floats:
    from .kernels import found, prepared, relevant_counts, safe_divide

    hits = prepared(hits, judged_only)
    return safe_divide(found(hits, k, rel, expected=expected), relevant_counts(hits, rel))


RECALL = RetrievalMetric(
    name="recall",
    func=recall_at_k,
    batch=recall_batch,
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
