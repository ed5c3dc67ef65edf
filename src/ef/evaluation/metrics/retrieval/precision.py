"""P@k: the share of the top ``k`` that is relevant.

    P@k = |relevant in top k| / k (@all: / retrieved)

trec_eval (NIST), usnistgov/trec_eval: ``P.k``, ``set_P``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .params import BINARY, CITE_TREC, IRM, REL, TREC, check_arguments
from .reference import check_query, first_docs, refuse_bad_grades, relevant_hits

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "PRECISION",
    "precision_at_k",
    "precision_batch",
    "precision_expected",
]


def precision_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Fraction of the top ``k`` results that are relevant.

    The denominator is always ``k``, even when fewer than ``k`` docs were retrieved: trec_eval
    pads short rankings with non-relevant docs (``P.k``). For ``k=None`` it is the number of
    docs retrieved (trec_eval's ``set_P``).

    >>> precision_at_k(['d1', 'x', 'd2'], {'d1': 1.0, 'd2': 1.0}, 2)
    0.5
    """
    if rel is not None:
        check_arguments(_CALL, (REL, rel))
    check_query(ranked, relevant, _CALL)
    try:
        top = first_docs(ranked, relevant, k, judged_only)
        depth = k if k is not None else len(top)
        return relevant_hits(top, relevant, rel) / depth if depth else 0.0
    except TypeError:
        refuse_bad_grades(relevant, _CALL)  # a grade that is no number: name it
        raise


_CALL = "precision_at_k(ranked, relevant, k)"


def precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """P@k of every query: relevant docs in the top ``k``, over ``k`` (over the docs
    retrieved for ``k=None``)."""
    return _precision(hits, k, rel, judged_only, expected=False)


def precision_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected P@k over the orders of tied docs: each relevant doc counts with the share of
    its group's ranks within the top ``k``, ``clip((k - above) / tied, 0, 1)``. O(hits).

    >>> import attrs
    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "y"]], [{"d1": 1}])
    >>> precision_expected(attrs.evolve(hits, above=[0], tied=[3]), 1).tolist()
    [0.3333333333333333]
    """
    return _precision(hits, k, rel, judged_only, expected=True)


def _precision(
    hits: JudgedHits, k: int | None, rel: float | None, judged_only: bool, *, expected: bool
) -> Floats:
    from .kernels import depths, found, prepared, safe_divide

    hits = prepared(hits, judged_only)
    return safe_divide(found(hits, k, rel, expected=expected), depths(hits, k))


PRECISION = RetrievalMetric(
    name="precision",
    func=precision_at_k,
    batch=precision_batch,
    expected=precision_expected,
    params=BINARY,
    synonyms=(
        Synonym(IRM, "P"),
        Synonym(IRM, "Precision"),
        Synonym(IRM, "SetP", cutoff=False),
        Synonym(TREC, "P"),
        Synonym(TREC, "set_P", cutoff=False),
    ),
    formula="|relevant in top k| / k (@all: / retrieved)",
    citation=CITE_TREC,
)
