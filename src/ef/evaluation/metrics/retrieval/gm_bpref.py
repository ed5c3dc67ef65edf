"""GM_BPREF: bpref, summarised over queries by its geometric mean.

    GM_BPREF = exp(mean(log(max(bpref_q, 0.00001)) over queries q))

Per query the value is bpref (:mod:`~ef.evaluation.metrics.retrieval.bpref`). trec_eval
prints it in the summary only.

Buckley and Voorhees, "Retrieval evaluation with incomplete information", SIGIR 2004;
trec_eval (NIST), usnistgov/trec_eval: ``gm_bpref``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .bpref import bpref, bpref_batch, bpref_expected
from .params import BINARY, REL, TREC, check_arguments

if TYPE_CHECKING:
    from ...hits import Floats, JudgedHits

__all__ = ["GM_BPREF", "gm_bpref", "gm_bpref_batch", "gm_bpref_expected"]


def gm_bpref(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """bpref of one query, whose geometric mean over queries is GM_BPREF.

    The summary is the geometric mean (``aggregate="geometric"``).

    >>> gm_bpref(['d1', 'n', 'd2'], {'d1': 1, 'd2': 1, 'n': 0})  # (1 + (1 - 1/1)) / 2
    0.5
    """
    check_arguments("gm_bpref(ranked, relevant, k)", (REL, rel))  # named as itself
    return bpref(ranked, relevant, k, rel=rel, judged_only=judged_only)


def gm_bpref_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """bpref of every query (their geometric mean is GM_BPREF)."""
    return bpref_batch(hits, k, rel=rel, judged_only=judged_only)


def gm_bpref_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected bpref of every query over the orders of its ties."""
    return bpref_expected(hits, k, rel=rel, judged_only=judged_only)


GM_BPREF = RetrievalMetric(
    name="gm_bpref",
    func=gm_bpref,
    batch=gm_bpref_batch,
    expected=gm_bpref_expected,
    params=BINARY,
    cutoff=False,
    aggregate="geometric",
    synonyms=(Synonym(TREC, "gm_bpref", cutoff=False),),
    formula="exp(mean(log(max(bpref, 0.00001)))) over queries; per query, bpref",
    citation="Buckley and Voorhees, SIGIR 2004; trec_eval's gm_bpref",
)
