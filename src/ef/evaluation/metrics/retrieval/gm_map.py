"""GM_MAP: average precision, summarised over queries by its geometric mean.

    GM_MAP = exp(mean(log(max(AP_q, 0.00001)) over queries q))

Per query the value is AP (:mod:`~ef.evaluation.metrics.retrieval.average_precision`); the
geometric mean rewards runs that do not fail on any query. trec_eval prints it in the
summary only.

Robertson, "On GMAP: and other transformations", CIKM 2006; trec_eval (NIST),
usnistgov/trec_eval: ``gm_map``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .average_precision import (
    average_precision,
    average_precision_batch,
    average_precision_expected,
)
from .params import BINARY, REL, TREC, check_arguments

if TYPE_CHECKING:
    from ...hits import Floats, JudgedHits

__all__ = ["GM_MAP", "gm_average_precision", "gm_map_batch", "gm_map_expected"]


def gm_average_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Average precision of one query, whose geometric mean over queries is GM_MAP.

    The summary is the geometric mean (``aggregate="geometric"``).

    >>> gm_average_precision(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}, None)  # (1 + 2/3) / 2
    0.8333333333333333
    """
    check_arguments("gm_average_precision(ranked, relevant, k)", (REL, rel))  # named as itself
    return average_precision(ranked, relevant, k, rel=rel, judged_only=judged_only)


def gm_map_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """AP@k of every query (their geometric mean is GM_MAP)."""
    return average_precision_batch(hits, k, rel=rel, judged_only=judged_only)


def gm_map_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected AP@k of every query over the orders of its ties (the summary's geometric mean
    is then of these expectations)."""
    return average_precision_expected(hits, k, rel=rel, judged_only=judged_only)


GM_MAP = RetrievalMetric(
    name="gm_map",
    func=gm_average_precision,
    batch=gm_map_batch,
    expected=gm_map_expected,
    params=BINARY,
    cutoff=False,
    aggregate="geometric",
    synonyms=(Synonym(TREC, "gm_map", cutoff=False),),
    formula="exp(mean(log(max(AP, 0.00001)))) over queries; per query, AP",
    citation="Robertson, CIKM 2006; trec_eval's gm_map",
)
