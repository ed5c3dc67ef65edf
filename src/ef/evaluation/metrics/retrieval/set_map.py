"""set_map: precision times recall of the retrieved set.

    set_map@k = |relevant in top k| ** 2 / (|top k| * R)

trec_eval (NIST), usnistgov/trec_eval: ``set_map`` ("set map": the AP of a set whose
relevant docs are spread evenly through it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .params import BINARY, CITE_TREC, REL, TREC, check_arguments
from .reference import relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["SET_MAP", "set_map", "set_map_batch"]


def set_map(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Relevant docs found, squared, over docs retrieved times relevant docs (top ``k``).

    0 when nothing was retrieved or nothing is relevant, as trec_eval's ``set_map``.

    >>> set_map(['d1', 'x', 'd2', 'y'], {'d1': 1, 'd2': 1, 'd3': 1})  # 2 * 2 / (4 * 3)
    0.3333333333333333
    """
    check_arguments("set_map(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    found, n_relevant = relevant_hits(top, relevant, rel), relevant_total(relevant, rel)
    if not top or not n_relevant:
        return 0.0
    return (float(found) * float(found)) / (float(len(top)) * float(n_relevant))


def set_map_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """set_map of every query's top ``k``."""
    from .counts import num_ret_batch
    from .kernels import found, prepared, relevant_counts, safe_divide

    hits = prepared(hits, judged_only)
    n_found = found(hits, k, rel)
    return safe_divide(n_found * n_found, num_ret_batch(hits, k) * relevant_counts(hits, rel))


SET_MAP = RetrievalMetric(
    name="set_map",
    func=set_map,
    batch=set_map_batch,
    params=BINARY,
    cutoff=False,
    synonyms=(Synonym(TREC, "set_map", cutoff=False),),
    formula="|relevant in top k| ** 2 / (|top k| * R)",
    citation=CITE_TREC,
)
