"""R-precision: precision at rank R, R the query's relevant docs.

    Rprec = |relevant in top R| / R

Buckley and Voorhees, "Retrieval System Evaluation", in TREC: Experiment and Evaluation in
Information Retrieval, 2005.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, IRM, REL, TREC, check_arguments
from .reference import check_query, relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "RPREC",
    "r_precision",
    "r_precision_batch",
    "r_precision_expected",
]


def r_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Precision at rank R, R being the number of relevant docs of the query (``Rprec``).

    Equal to recall at R. With a cutoff ``k``, the ranking is cut at ``k`` first, as
    trec_eval's ``-M k`` does.

    >>> r_precision(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1, 'd3': 1})  # 2 of the top 3
    0.6666666666666666
    """
    check_arguments("r_precision(ranked, relevant, k)", (REL, rel))
    check_query(ranked, relevant, "r_precision(ranked, relevant, k)")  # before relevant is read
    n_relevant = relevant_total(relevant, rel)
    top = top_docs(ranked, relevant, k, judged_only)
    return relevant_hits(top[:n_relevant], relevant, rel) / n_relevant if n_relevant else 0.0


def r_precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """R-precision of every query: relevant docs in the top R (and top ``k``), over R."""
    from .kernels import per_query, prepared, relevant_counts, relevant_in_top, safe_divide

    hits = prepared(hits, judged_only)
    n_relevant = relevant_counts(hits, rel)
    mask = relevant_in_top(hits, k, rel) & (hits.rank <= n_relevant[hits.query])
    return safe_divide(per_query(hits, mask, None), n_relevant)


def _r_precision_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import (
        is_relevant,
        per_query,
        reach,
        relevant_counts,
        safe_divide,
    )

    n_relevant = relevant_counts(hits, rel)
    cutoff = n_relevant if k is None else np.minimum(n_relevant, k)
    found = per_query(hits, is_relevant(hits.grade, rel), reach(hits, cutoff[hits.query]))
    return safe_divide(found, n_relevant)


r_precision_expected = tie_averaged(
    r_precision_batch,
    _r_precision_tied,
    """Expected R-precision: precision at the cutoff ``min(k, R)``, each relevant doc
    counted with the share of its group's ranks above that cutoff. O(hits).""",
)


RPREC = RetrievalMetric(
    name="rprec",
    func=r_precision,
    batch=r_precision_batch,
    expected=r_precision_expected,
    params=BINARY,
    cutoff=False,
    aliases=("r_precision",),
    synonyms=(
        Synonym(IRM, "Rprec", cutoff=False),
        Synonym(IRM, "RPrec", cutoff=False),
        Synonym(TREC, "Rprec", cutoff=False),
    ),
    formula="|relevant in top R| / R",
    citation="Buckley and Voorhees, in TREC: Experiment and Evaluation in IR, 2005",
)
