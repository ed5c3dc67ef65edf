"""iprec_at_recall: interpolated precision at a recall level.

    iprec_at_recall(x) = max(P@r for every rank r at which the c-th relevant doc or a later
                         one is found),  c = the rank of recall x in relevant docs

``c`` is ``(long)(x * R + 0.9)`` (trec_eval 9, ``rounding="plus0.9"``) or ``lround(x * R)``
(trec_eval 10, ``rounding="lround"``); 0 when fewer than ``c`` relevant docs are retrieved.
For ``c = 0`` it is the highest precision anywhere (the precision of the whole ranking when
no relevant doc is found).

Manning, Raghavan and Schütze, Introduction to Information Retrieval, 2008, section 8.4;
trec_eval (NIST), usnistgov/trec_eval: ``iprec_at_recall``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .params import BINARY, REL, TREC, check_arguments
from .reference import C_NAN, is_relevant_grade, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "IPREC_AT_RECALL",
    "NAN_IF_EMPTY",
    "ROUNDING",
    "iprec_at_recall",
    "iprec_at_recall_batch",
    "recall_rank",
]

ROUNDING = MetricParam(
    "rounding",
    str,
    "plus0.9",
    "how a recall level becomes a number of relevant docs: trec_eval 9's (long)(x * R + 0.9) "
    "or trec_eval 10's lround(x * R)",
    choices=("plus0.9", "lround"),
)

NAN_IF_EMPTY = MetricParam(
    "nan_if_empty",
    bool,
    False,
    "NaN, as trec_eval gives (0 / 0), where a query retrieved nothing and the value would "
    "be the precision of its empty ranking; 0 otherwise",
)


def _recall_level(value: float) -> None:
    # Beyond 1 no ranking reaches the level (0 always); below 0, the highest precision.
    if not 0 <= value <= 1:
        raise ValueError(
            f"parameter 'recall' must lie between 0 and 1 (a share of the relevant docs), "
            f"got {value!r}"
        )


RECALL = MetricParam("recall", float, 0.0, "the recall level, 0 to 1", check=_recall_level)


def recall_rank(x: float, n_relevant: int, rounding: str = "plus0.9") -> int:
    """The number of relevant docs that recall ``x`` stands for, rounded as trec_eval 9
    (``plus0.9``) or 10 (``lround``: half away from zero) rounds it.

    >>> recall_rank(0.6, 7), recall_rank(0.6, 7, "lround"), recall_rank(0.5, 3, "lround")
    (5, 4, 2)
    """
    value = x * n_relevant
    if rounding == "lround":
        whole = math.floor(abs(value))
        rounded = whole + 1 if abs(value) - whole >= 0.5 else whole
        return int(math.copysign(rounded, value))
    return int(value + 0.9)  # C's (long) truncates toward zero


def iprec_at_recall(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    recall: float = 0.0,
    rounding: str = "plus0.9",
    nan_if_empty: bool = False,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Interpolated precision at recall level ``recall``, as trec_eval computes it.

    The ranking is read from the bottom, keeping the highest precision seen, and the value is
    taken when as many relevant docs remain as the recall level stands for.

    >>> iprec_at_recall(['x', 'd1', 'd2', 'y'], {'d1': 1, 'd2': 1}, recall=0.5)  # max(1/2, 2/3)
    0.6666666666666666
    """
    check_arguments(
        "iprec_at_recall(ranked, relevant, k)", (RECALL, recall), (ROUNDING, rounding), (REL, rel)
    )
    top = top_docs(ranked, relevant, k, judged_only)
    n_relevant = relevant_total(relevant, rel)
    found = [is_relevant_grade(relevant.get(doc), rel) for doc in top]
    n_found = sum(found)
    cut = recall_rank(recall, n_relevant, rounding)
    if cut > n_found:
        return 0.0
    if not top:
        return C_NAN if nan_if_empty else 0.0
    best = n_found / len(top)
    so_far = n_found
    i = len(top)
    while i > 0 and so_far > 0:
        best = max(best, so_far / i)
        if found[i - 1]:
            if so_far == cut:
                return best
            so_far -= 1
        i -= 1
    return best


def _suffix_max(query: Ints, values: Floats) -> Floats:
    """Per entry, the largest value of its query's entries from it on (doubling steps)."""
    import numpy as np

    out: Floats = values.copy()
    step = 1
    while step < out.size:
        same = np.flatnonzero(query[step:] == query[:-step])
        if same.size == 0:
            break
        out[same] = np.maximum(out[same], out[same + step])
        step *= 2
    return out


def iprec_at_recall_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    recall: float = 0.0,
    rounding: str = "plus0.9",
    nan_if_empty: bool = False,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """iprec_at_recall of every query: the largest precision at the relevant docs from the
    ``c``-th one down, a suffix maximum per query."""
    import numpy as np

    from ..._hits import position_in_query
    from .kernels import cut, per_query, prepared, relevant_counts, relevant_in_top

    hits = cut(prepared(hits, judged_only), k)
    mask = relevant_in_top(hits, None, rel)
    query, rank = hits.query[mask], hits.rank[mask]
    position = position_in_query(query)
    best = _suffix_max(query, (position + 1) / rank)
    n_found = per_query(hits, mask, None).astype(np.int64)
    starts = np.zeros(hits.n_queries, dtype=np.int64)
    np.cumsum(n_found[:-1], out=starts[1:])
    n_relevant = relevant_counts(hits, rel).tolist()
    cuts = np.asarray([recall_rank(recall, r, rounding) for r in n_relevant], dtype=np.int64)
    out = np.zeros(hits.n_queries, dtype=np.float64)
    some = (n_found > 0) & (cuts <= n_found)
    at = starts[some] + np.maximum(cuts[some], 1) - 1
    out[some] = best[at]
    none = (n_found == 0) & (cuts <= 0)
    if nan_if_empty:
        out[none & (hits.n_retrieved == 0)] = C_NAN
    return out


IPREC_AT_RECALL = RetrievalMetric(
    name="iprec_at_recall",
    func=iprec_at_recall,
    batch=iprec_at_recall_batch,
    params=(RECALL, ROUNDING, NAN_IF_EMPTY, *BINARY),
    cutoff=False,
    synonyms=(Synonym(TREC, "iprec_at_recall", cutoff=False),),
    formula="max(P@r at every relevant doc from the c-th on), c = (long)(recall * R + 0.9)",
    citation="Manning et al., Introduction to IR, 2008, 8.4; trec_eval's iprec_at_recall",
)
