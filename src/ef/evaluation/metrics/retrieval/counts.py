"""The counts: docs retrieved, relevant docs, relevant docs retrieved, judged non-relevant
docs retrieved; summed over queries.

    num_ret = |top k|
    num_rel = R, the query's relevant docs
    num_rel_ret = |relevant in top k|
    num_nonrel_judged_ret = |docs of the top k judged 0 or more, and not relevant|

trec_eval (NIST), usnistgov/trec_eval: ``num_ret``, ``num_rel``, ``num_rel_ret``,
``num_nonrel_judged_ret``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, CITE_TREC, IRM, JUDGED_ONLY, REL, TREC, check_arguments
from .reference import check_cutoff, check_query, relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "NUM_NONREL_JUDGED_RET",
    "NUM_REL",
    "NUM_REL_RET",
    "NUM_RET",
    "num_nonrel_judged_ret",
    "num_nonrel_judged_ret_batch",
    "num_nonrel_judged_ret_expected",
    "num_rel",
    "num_rel_batch",
    "num_rel_expected",
    "num_rel_ret",
    "num_rel_ret_batch",
    "num_rel_ret_expected",
    "num_ret",
    "num_ret_batch",
    "num_ret_expected",
]


def num_ret(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    judged_only: bool = False,
) -> float:
    """Number of docs retrieved (in the top ``k``).

    >>> num_ret(['d1', 'x', 'd2'], {'d1': 2, 'd2': 1}), num_ret(['d1', 'x'], {}, judged_only=True)
    (3.0, 0.0)
    """
    return float(len(top_docs(ranked, relevant, k, judged_only)))


def num_rel(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
) -> float:
    """Number of relevant docs of the query, retrieved or not.

    ``ranked`` and ``k`` are ignored.

    >>> num_rel([], {'d1': 2, 'd2': 1, 'd3': 0}), num_rel([], {'d1': 2, 'd2': 1}, rel=2)
    (2.0, 1.0)
    """
    check_arguments("num_rel(ranked, relevant, k)", (REL, rel))
    check_query(ranked, relevant, "num_rel(ranked, relevant, k)")  # before relevant is read
    check_cutoff(k)
    return float(relevant_total(relevant, rel))


def num_rel_ret(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Number of relevant docs retrieved (in the top ``k``).

    >>> num_rel_ret(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1, 'd3': 1})
    2.0
    """
    check_arguments("num_rel_ret(ranked, relevant, k)", (REL, rel))
    return float(relevant_hits(top_docs(ranked, relevant, k, judged_only), relevant, rel))


def num_nonrel_judged_ret(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Number of docs retrieved (in the top ``k``) judged 0 or more but not relevant.

    >>> num_nonrel_judged_ret(['d1', 'x', 'n', 'u'], {'d1': 1, 'n': 0, 'u': -1})
    1.0
    """
    check_arguments("num_nonrel_judged_ret(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    judged = sum(1 for doc in top if relevant.get(doc, -1) >= 0)
    return float(judged - relevant_hits(top, relevant, rel))


def num_ret_batch(hits: JudgedHits, k: int | None, *, judged_only: bool = False) -> Floats:
    """Docs retrieved in each query's top ``k``."""
    import numpy as np

    from .kernels import depths, prepared

    hits = prepared(hits, judged_only)
    return np.minimum(depths(hits, k), hits.n_retrieved).astype(np.float64)


def num_rel_batch(hits: JudgedHits, k: int | None, *, rel: float | None = None) -> Floats:
    """Relevant docs of each query, retrieved or not."""
    import numpy as np

    from .kernels import relevant_counts

    return relevant_counts(hits, rel).astype(np.float64)


def num_rel_ret_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Relevant docs in each query's top ``k``."""
    from .kernels import found, prepared

    return found(prepared(hits, judged_only), k, rel)


def num_nonrel_judged_ret_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Judged, non-relevant docs in each query's top ``k``."""
    from .kernels import in_top, is_relevant, per_query, prepared

    hits = prepared(hits, judged_only)
    judged = in_top(hits, k) & (hits.grade >= 0)
    return per_query(hits, judged & ~is_relevant(hits.grade, rel), None)


def _num_nonrel_judged_ret_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    from .kernels import is_relevant, per_query, reach

    judged = (hits.grade >= 0) & ~is_relevant(hits.grade, rel)
    return per_query(hits, judged, reach(hits, k))


num_nonrel_judged_ret_expected = tie_averaged(
    num_nonrel_judged_ret_batch,
    _num_nonrel_judged_ret_tied,
    """Expected judged, non-relevant docs in the top ``k``: each counts with the share of its
    group's ranks within it. O(hits).""",
)


def num_ret_expected(hits: JudgedHits, k: int | None, *, judged_only: bool = False) -> Floats:
    """Docs in each query's top ``k``: the same in every order, so :func:`num_ret_batch`."""
    return num_ret_batch(hits, k, judged_only=judged_only)


def num_rel_expected(hits: JudgedHits, k: int | None, *, rel: float | None = None) -> Floats:
    """Relevant docs of each query: independent of the ranking, so :func:`num_rel_batch`."""
    return num_rel_batch(hits, k, rel=rel)


def num_rel_ret_expected(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """Expected relevant docs in the top ``k``. O(hits)."""
    from .kernels import found, prepared

    return found(prepared(hits, judged_only), k, rel, expected=True)


NUM_RET = RetrievalMetric(
    name="num_ret",
    func=num_ret,
    batch=num_ret_batch,
    expected=num_ret_expected,
    params=(JUDGED_ONLY,),
    cutoff=False,
    aggregate="sum",
    synonyms=(Synonym(IRM, "NumRet", cutoff=False), Synonym(TREC, "num_ret", cutoff=False)),
    formula="|top k|; summed over queries",
    citation=CITE_TREC,
)


NUM_REL = RetrievalMetric(
    name="num_rel",
    func=num_rel,
    batch=num_rel_batch,
    expected=num_rel_expected,
    params=(REL,),
    cutoff=False,
    aggregate="sum",
    synonyms=(Synonym(IRM, "NumRel", cutoff=False), Synonym(TREC, "num_rel", cutoff=False)),
    formula="R, the query's relevant docs; summed over queries",
    citation=CITE_TREC,
)


NUM_REL_RET = RetrievalMetric(
    name="num_rel_ret",
    func=num_rel_ret,
    batch=num_rel_ret_batch,
    expected=num_rel_ret_expected,
    params=BINARY,
    cutoff=False,
    aggregate="sum",
    synonyms=(
        Synonym(IRM, "NumRelRet", cutoff=False),
        # ir_measures spells NumRelRet as NumRet(rel=1).
        Synonym(IRM, "NumRet", cutoff=False, requires=("rel",)),
        Synonym(TREC, "num_rel_ret", cutoff=False),
    ),
    formula="|relevant in top k|; summed over queries",
    citation=CITE_TREC,
)


NUM_NONREL_JUDGED_RET = RetrievalMetric(
    name="num_nonrel_judged_ret",
    func=num_nonrel_judged_ret,
    batch=num_nonrel_judged_ret_batch,
    expected=num_nonrel_judged_ret_expected,
    params=BINARY,
    cutoff=False,
    aggregate="sum",
    synonyms=(Synonym(TREC, "num_nonrel_judged_ret", cutoff=False),),
    formula="|docs of the top k judged 0 or more, not relevant|; summed over queries",
    citation=CITE_TREC,
)
