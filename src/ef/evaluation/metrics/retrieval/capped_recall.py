"""R_cap@k: capped recall, the relevant docs in the top ``k`` over as many as fit.

    R_cap@k = |relevant in top k| / min(k, R) (@all: min(retrieved, R))

Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of Information
Retrieval Models", NeurIPS Datasets and Benchmarks 2021; trec_eval's ``relative_P``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, IRM, REL, TREC, check_arguments
from .reference import relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "R_CAP",
    "capped_recall_at_k",
    "capped_recall_batch",
    "capped_recall_expected",
]


def capped_recall_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Relevant docs in the top ``k`` over ``min(k, R)``: BEIR's capped recall ``R_cap@k``.

    trec_eval's ``relative_P.k``. 1.0 when the top ``k`` holds as many relevant docs as it
    can. For ``k=None``, over ``min(retrieved, R)`` (trec_eval's ``set_relative_P``); 0.0
    when that is 0.

    >>> capped_recall_at_k(['d1', 'x'], {'d1': 1, 'd2': 1, 'd3': 1}, 1)
    1.0
    """
    check_arguments("capped_recall_at_k(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    depth = min(k if k is not None else len(top), relevant_total(relevant, rel))
    return relevant_hits(top, relevant, rel) / depth if depth else 0.0


def capped_recall_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Relevant docs in the top ``k`` over ``min(k, R)`` (BEIR's R_cap)."""
    from .kernels import prepared

    return _capped_recall(prepared(hits, judged_only), k, rel)


def _capped_recall(
    hits: JudgedHits, k: int | None, rel: float | None, expected: bool = False
) -> Floats:
    import numpy as np

    from .kernels import depths, found, relevant_counts, safe_divide

    depth = np.minimum(depths(hits, k), relevant_counts(hits, rel))
    return safe_divide(found(hits, k, rel, expected=expected), depth)


capped_recall_expected = tie_averaged(
    capped_recall_batch,
    functools.partial(_capped_recall, expected=True),
    """Expected R_cap@k: the expected relevant docs in the top ``k`` over ``min(k, R)``
    (the denominator does not depend on the order). O(hits).""",
)


R_CAP = RetrievalMetric(
    name="r_cap",
    func=capped_recall_at_k,
    batch=capped_recall_batch,
    expected=capped_recall_expected,
    params=BINARY,
    synonyms=(
        Synonym(IRM, "SetRelP", cutoff=False),
        Synonym(IRM, "SetP", cutoff=False, selects={"relative": True}),
        Synonym(TREC, "relative_P"),
        Synonym(TREC, "set_relative_P", cutoff=False),
    ),
    formula="|relevant in top k| / min(k, R) (@all: min(retrieved, R))",
    citation="Thakur et al., BEIR, NeurIPS Datasets and Benchmarks 2021",
)
