"""binG: binary G, a gain that discounts a relevant doc by the non-relevant docs above it.

    binG@k = sum(1 / log2(2 + n_i) for each relevant doc i in the top k) / R

``n_i`` is the number of docs above relevant doc ``i`` that are not relevant (judged or not).
The relevant docs found are not discounted by each other, only by what sits between them.

Buckley, in trec_eval (NIST), usnistgov/trec_eval: ``binG``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .params import BINARY, CITE_TREC, REL, TREC, check_arguments
from .reference import is_relevant_grade, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["BINARY_GAIN", "binary_gain", "binary_gain_batch"]


def binary_gain(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """A gain per relevant doc, discounted by the non-relevant docs above it, over R.

    trec_eval's binG: each relevant doc of the top ``k`` gains ``1 / log2(2 + n)``, ``n`` the
    non-relevant docs above it; the sum over R (0 when none is found).

    >>> binary_gain(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1})  # (1/log2(2) + 1/log2(3)) / 2
    0.8154648767857288
    """
    check_arguments("binary_gain(ranked, relevant, k)", (REL, rel))
    total = 0.0
    found = 0
    for i, doc in enumerate(top_docs(ranked, relevant, k, judged_only)):
        if is_relevant_grade(relevant.get(doc), rel):
            found += 1
            total += 1.0 / math.log2(3 + i - found)
    return total / relevant_total(relevant, rel) if found else 0.0


def binary_gain_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """binG@k of every query."""
    import numpy as np

    from .kernels import log2_of, prepared, relevant_counts, relevant_ranks, safe_divide

    hits = prepared(hits, judged_only)
    query, rank, relevant_above = relevant_ranks(hits, k, rel)
    above = rank - 1 - relevant_above  # the non-relevant docs above each
    gained = np.bincount(query, weights=1.0 / log2_of(above + 2), minlength=hits.n_queries)
    return safe_divide(gained.astype(np.float64), relevant_counts(hits, rel))


BINARY_GAIN = RetrievalMetric(
    name="binary_gain",
    func=binary_gain,
    batch=binary_gain_batch,
    params=BINARY,
    cutoff=False,
    synonyms=(Synonym(TREC, "binG", cutoff=False),),
    formula="sum(1 / log2(2 + non-relevant docs above it) for each relevant doc in top k) / R",
    citation=CITE_TREC,
)
