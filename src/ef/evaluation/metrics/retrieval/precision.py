"""P@k: the share of the top ``k`` that is relevant.

    P@k = |relevant in top k| / k (@all: / retrieved)

trec_eval (NIST), usnistgov/trec_eval: ``P.k``, ``set_P``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, CITE_TREC, IRM, REL, TREC
from .reference import first_docs, guarded, relevant_hits

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "PRECISION",
    "precision_at_k",
    "precision_batch",
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


def precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """P@k of every query: relevant docs in the top ``k``, over ``k`` (over the docs
    retrieved for ``k=None``)."""
    from .kernels import prepared

    return _precision(prepared(hits, judged_only), k, rel)


def _precision(
    hits: JudgedHits, k: int | None, rel: float | None, expected: bool = False
) -> Floats:
    from .kernels import depths, found, safe_divide

    return safe_divide(found(hits, k, rel, expected=expected), depths(hits, k))


precision_expected = tie_averaged(
    precision_batch,
    functools.partial(_precision, expected=True),
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
