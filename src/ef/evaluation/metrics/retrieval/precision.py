"""P@k: the share of the top ``k`` that is relevant.

    P@k = |relevant in top k| / k (@all: / retrieved)

trec_eval (NIST), usnistgov/trec_eval: ``P.k``, ``set_P``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import one_cutoff, tie_averaged
from .params import BINARY, CITE_TREC, IRM, REL, TREC
from .reference import first_docs, guarded, relevant_hits

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "PRECISION",
    "precision_at_k",
    "precision_batch",
    "precision_cutoffs",
    "precision_expected",
]


@guarded(REL)
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
    top = first_docs(ranked, relevant, k, judged_only)
    depth = k if k is not None else len(top)
    return relevant_hits(top, relevant, rel) / depth if depth else 0.0


def precision_cutoffs(
    hits: JudgedHits,
    ks: Sequence[int | None],
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """P@k of every query at every cutoff of ``ks``, a row each.

    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "d2"]], [{"d1": 1, "d2": 1}])
    >>> precision_cutoffs(hits, (1, 2, None)).tolist()
    [[1.0], [0.5], [0.6666666666666666]]
    """
    from .kernels import cutoff_column, depths_at, found_at, prepared, safe_divide

    hits = prepared(hits, judged_only)
    return safe_divide(found_at(hits, cutoff_column(ks), rel), depths_at(hits, ks))


precision_batch = one_cutoff(
    precision_cutoffs,
    """P@k of every query: relevant docs in the top ``k``, over ``k`` (over the docs
    retrieved for ``k=None``).""",
)


def _precision_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    from .kernels import depths, found, safe_divide

    return safe_divide(found(hits, k, rel, expected=True), depths(hits, k))


precision_expected = tie_averaged(
    precision_batch,
    _precision_tied,
    """Expected P@k over the orders of tied docs: each relevant doc counts with the share of
    its group's ranks within the top ``k``, ``clip((k - above) / tied, 0, 1)``. O(hits).

    >>> import attrs
    >>> from ef.evaluation._hits import JudgedHits
    >>> hits = JudgedHits.from_rankings([["d1", "x", "y"]], [{"d1": 1}])
    >>> precision_expected(attrs.evolve(hits, above=[0], tied=[3]), 1).tolist()
    [0.3333333333333333]
    """,
)


PRECISION = RetrievalMetric(
    name="precision",
    func=precision_at_k,
    batch=precision_batch,
    batch_cutoffs=precision_cutoffs,
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
