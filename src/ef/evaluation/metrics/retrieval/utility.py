"""Utility: a linear gain for each kind of doc, retrieved or not.

    utility = a * |relevant retrieved| + b * |non-relevant retrieved|
              + c * |relevant not retrieved| + d * |non-relevant not retrieved|

The non-relevant docs not retrieved are counted from the collection's size (``collection``,
trec_eval's ``-N``), which is 0 unless given. The defaults, 1, -1, 0, 0, reward each
relevant doc retrieved and charge each other doc retrieved, as TREC's filtering track did.

Hull and Robertson, "The TREC-8 Filtering Track Final Report", TREC 1999; trec_eval (NIST),
usnistgov/trec_eval: ``utility``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, REL, TREC, check_arguments
from .reference import relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["UTILITY", "utility", "utility_batch", "utility_expected"]


def _not_negative(value: int) -> None:
    if value < 0:
        raise ValueError(f"parameter 'collection' must be 0 or more, got {value!r}")


_COEFFICIENTS = (
    MetricParam("rel_ret", float, 1.0, "the gain of each relevant doc retrieved"),
    MetricParam("nonrel_ret", float, -1.0, "the gain of each non-relevant doc retrieved"),
    MetricParam("rel_unret", float, 0.0, "the gain of each relevant doc not retrieved"),
    MetricParam("nonrel_unret", float, 0.0, "the gain of each other doc not retrieved"),
    MetricParam(
        "collection",
        int,
        0,
        "the number of docs in the collection, for the non-relevant ones not retrieved "
        "(trec_eval's -N)",
        check=_not_negative,
    ),
)


def _utility(
    found: Any,
    retrieved: Any,
    n_relevant: Any,
    coefficients: tuple[float, float, float, float],
    collection: int,
) -> Any:
    """The utility of these counts (floats, or arrays of them), summed in trec_eval's order."""
    a, b, c, d = coefficients
    return (
        a * found
        + b * (retrieved - found)
        + c * (n_relevant - found)
        + d * (collection + found - retrieved - n_relevant)
    )


def utility(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel_ret: float = 1.0,
    nonrel_ret: float = -1.0,
    rel_unret: float = 0.0,
    nonrel_unret: float = 0.0,
    collection: int = 0,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """A linear gain for each doc, by whether it is relevant and retrieved (top ``k``).

    Each relevant doc retrieved gains ``rel_ret``, each other doc retrieved ``nonrel_ret``,
    and so on (trec_eval's ``utility.a,b,c,d``).

    >>> utility(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1, 'd3': 1})  # 2 relevant - 1 other
    1.0
    """
    given = (rel_ret, nonrel_ret, rel_unret, nonrel_unret, collection)
    check_arguments("utility(ranked, relevant, k)", *zip(_COEFFICIENTS, given, strict=True))
    check_arguments("utility(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    return float(
        _utility(
            float(relevant_hits(top, relevant, rel)),
            float(len(top)),
            float(relevant_total(relevant, rel)),
            (rel_ret, nonrel_ret, rel_unret, nonrel_unret),
            collection,
        )
    )


def _of_found(
    hits: JudgedHits,
    k: int | None,
    rel: float | None,
    *,
    expected: bool,
    coefficients: tuple[float, float, float, float],
    collection: int,
) -> Floats:
    """The utility of each query's top ``k``, from the relevant docs found in it (their
    expected number with ``expected``): it is linear in them."""
    import numpy as np

    from .counts import num_ret_batch
    from .kernels import found, relevant_counts

    n_relevant = relevant_counts(hits, rel).astype(np.float64)
    retrieved = num_ret_batch(hits, k)
    value: Floats = _utility(
        found(hits, k, rel, expected=expected), retrieved, n_relevant, coefficients, collection
    )
    return value


def utility_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    rel_ret: float = 1.0,
    nonrel_ret: float = -1.0,
    rel_unret: float = 0.0,
    nonrel_unret: float = 0.0,
    collection: int = 0,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """The utility of every query's top ``k``."""
    from .kernels import prepared

    coefficients = (rel_ret, nonrel_ret, rel_unret, nonrel_unret)
    return _of_found(
        prepared(hits, judged_only),
        k,
        rel,
        expected=False,
        coefficients=coefficients,
        collection=collection,
    )


def _utility_tied(
    hits: JudgedHits,
    k: int | None,
    *,
    rel_ret: float,
    nonrel_ret: float,
    rel_unret: float,
    nonrel_unret: float,
    collection: int,
    rel: float | None,
) -> Floats:
    coefficients = (rel_ret, nonrel_ret, rel_unret, nonrel_unret)
    return _of_found(hits, k, rel, expected=True, coefficients=coefficients, collection=collection)


utility_expected = tie_averaged(
    utility_batch,
    _utility_tied,
    """Expected utility of the top ``k``: linear in the relevant docs found, so the utility of
    their expected number. O(hits).""",
)


UTILITY = RetrievalMetric(
    name="utility",
    func=utility,
    batch=utility_batch,
    expected=utility_expected,
    params=(*_COEFFICIENTS, *BINARY),
    cutoff=False,
    synonyms=(Synonym(TREC, "utility", cutoff=False),),
    formula="a * relevant retrieved + b * non-relevant retrieved + c * relevant not "
    "retrieved + d * non-relevant not retrieved (defaults 1, -1, 0, 0)",
    citation="Hull and Robertson, TREC-8 Filtering Track, 1999; trec_eval's utility",
)
