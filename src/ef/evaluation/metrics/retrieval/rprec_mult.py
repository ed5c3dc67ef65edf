"""Rprec_mult: precision at a multiple of R.

    Rprec_mult(mult) = |relevant in top c| / c,  c = (long)(mult * R + 0.9)

A short ranking counts as padded with non-relevant docs, as ``P.k`` does. ``mult=1`` is
R-precision (up to the rounding of ``c``).

trec_eval (NIST), usnistgov/trec_eval: ``Rprec_mult``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, CITE_TREC, REL, TREC, check_arguments
from .reference import relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = ["RPREC_MULT", "rprec_mult", "rprec_mult_batch", "rprec_mult_expected"]

#: The multiples past which ``mult * R`` could overflow the int64 depth (trec_eval's C long).
MULT_LIMIT = 2**31


def _multiple(value: float) -> None:
    # At 0 or below the depth is 0 docs: a precision of nothing, 0 whatever the ranking.
    if not 0 < value < MULT_LIMIT:
        raise ValueError(
            f"parameter 'mult' must be > 0 (the depth is mult * R docs) and below {MULT_LIMIT}, "
            f"got {value!r}"
        )


MULT = MetricParam(
    "mult", float, 1.0, "the multiple of R to cut the ranking at, > 0", check=_multiple
)


def _depth(mult: float, n_relevant: int) -> int:
    return int(mult * n_relevant + 0.9)  # C's (long) truncation, as trec_eval rounds


def rprec_mult(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    mult: float = 1.0,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Precision at ``mult`` times R docs, R rounded as trec_eval rounds it.

    The depth is ``(long)(mult * R + 0.9)`` docs of the top ``k`` (trec_eval's
    ``Rprec_mult``); 0 when that depth is 0.

    >>> rprec_mult(['d1', 'x', 'd2', 'y'], {'d1': 1, 'd2': 1}, mult=2.0)  # 2 of the top 4
    0.5
    """
    check_arguments("rprec_mult(ranked, relevant, k)", (MULT, mult), (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    depth = _depth(mult, relevant_total(relevant, rel))
    if depth <= 0:
        return 0.0
    return relevant_hits(top[:depth], relevant, rel) / depth


def _depths(hits: JudgedHits, mult: float, rel: float | None) -> Ints:
    """:func:`_depth` of every query."""
    import numpy as np

    from .kernels import relevant_counts

    depth: Ints = (mult * relevant_counts(hits, rel) + 0.9).astype(np.int64)
    return depth


def rprec_mult_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    mult: float = 1.0,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """Rprec_mult of every query."""
    from .kernels import cut, per_query, prepared, relevant_in_top, safe_divide

    hits = cut(prepared(hits, judged_only), k)
    depth = _depths(hits, mult, rel)
    within = relevant_in_top(hits, None, rel) & (hits.rank <= depth[hits.query])
    return safe_divide(per_query(hits, within, None), depth)


def _rprec_mult_tied(hits: JudgedHits, k: int | None, mult: float, rel: float | None) -> Floats:
    from .kernels import is_relevant, per_query, reach, safe_divide
    from .orders import averaged_over_orders

    if k is not None:  # a cut and a depth: exact over the orders
        return averaged_over_orders(
            hits, lambda h: rprec_mult_batch(h, k, mult=mult, rel=rel), "rprec_mult"
        )
    depth = _depths(hits, mult, rel)
    found = per_query(hits, is_relevant(hits.grade, rel), reach(hits, depth[hits.query]))
    return safe_divide(found, depth)


rprec_mult_expected = tie_averaged(
    rprec_mult_batch,
    _rprec_mult_tied,
    """Expected Rprec_mult: each relevant doc counts with the share of its group's ranks
    within the depth. O(hits).""",
)


RPREC_MULT = RetrievalMetric(
    name="rprec_mult",
    func=rprec_mult,
    batch=rprec_mult_batch,
    expected=rprec_mult_expected,
    params=(MULT, *BINARY),
    cutoff=False,
    synonyms=(Synonym(TREC, "Rprec_mult", cutoff=False),),
    formula="|relevant in top c| / c with c = (long)(mult * R + 0.9)",
    citation=CITE_TREC,
)
