"""F1@k: the harmonic mean of precision@k and recall@k (F-beta with ``beta2``).

    F1@k = 2 * P * R / (P + R) with P = precision@k, R = recall@k
    F@k = (beta2 + 1) * P * R / (beta2 * P + R)

van Rijsbergen, Information Retrieval, 2nd ed., 1979; trec_eval's ``set_F`` (``set_F.x``
is ``beta2=x``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, IRM, REL, TREC, check_arguments
from .reference import relevant_hits, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "F1",
    "f1_at_k",
    "f1_batch",
    "f1_expected",
]


def _not_negative(value: float) -> None:
    if value < 0:
        raise ValueError(f"parameter 'beta2' must be 0 or more, got {value!r}")


BETA2 = MetricParam(
    "beta2",
    float,
    1.0,
    "beta squared, the weight of recall against precision (trec_eval's set_F.x); 1 is F1",
    check=_not_negative,
)


def _f1(hits: int, depth: int, n_relevant: int, beta2: float = 1.0) -> float:
    precision = hits / depth if depth else 0.0
    recall = hits / n_relevant if n_relevant else 0.0
    if beta2 == 1.0:
        total = precision + recall
        return 2.0 * precision * recall / total if total > 0 else 0.0
    total = beta2 * precision + recall
    return (beta2 + 1.0) * precision * recall / total if hits and total > 0 else 0.0


def f1_at_k(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    *,
    beta2: float = 1.0,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Harmonic mean of precision@k and recall@k (0 when both are 0); with ``beta2``, the
    weighted one, ``(beta2 + 1) P R / (beta2 P + R)``.

    Precision divides by ``k`` as :func:`~ef.evaluation.metrics.retrieval.precision_at_k`
    does; for ``k=None`` by the number of docs retrieved, which is trec_eval's ``set_F``.

    >>> f1_at_k(['d1', 'x'], {'d1': 1, 'd2': 1}, 2)  # P = 1/2, R = 1/2
    0.5
    """
    check_arguments("f1_at_k(ranked, relevant, k)", (BETA2, beta2), (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    depth = k if k is not None else len(top)
    return _f1(relevant_hits(top, relevant, rel), depth, relevant_total(relevant, rel), beta2)


def f1_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    beta2: float = 1.0,
    rel: float | None = None,
    judged_only: bool = False,
) -> Floats:
    """F1@k of every query: the harmonic mean of precision@k and recall@k (weighted by
    ``beta2``)."""
    from .kernels import depths, found, prepared, relevant_counts, safe_divide

    hits = prepared(hits, judged_only)
    n_found = found(hits, k, rel)
    precision = safe_divide(n_found, depths(hits, k))
    recall = safe_divide(n_found, relevant_counts(hits, rel))
    if beta2 == 1.0:
        return safe_divide(2.0 * precision * recall, precision + recall)
    total = beta2 * precision + recall
    total[n_found == 0] = 0.0  # trec_eval's set_F is 0 with nothing found
    return safe_divide((beta2 + 1.0) * precision * recall, total)


def _f1_tied(hits: JudgedHits, k: int | None, beta2: float, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import depths, found, relevant_counts, safe_divide

    depth, n_relevant = depths(hits, k), relevant_counts(hits, rel)
    total = np.where((depth > 0) & (n_relevant > 0), depth + beta2 * n_relevant, 0)
    return safe_divide((beta2 + 1.0) * found(hits, k, rel, expected=True), total)


f1_expected = tie_averaged(
    f1_batch,
    _f1_tied,
    """Expected F1@k. With ``f`` relevant docs in the top ``k``, F is ``(beta2 + 1) f /
    (k + beta2 R)`` whatever ``f`` (0 included), so its mean is ``(beta2 + 1) E[f] /
    (k + beta2 R)``. O(hits).""",
)


F1 = RetrievalMetric(
    name="f1",
    func=f1_at_k,
    batch=f1_batch,
    expected=f1_expected,
    params=(BETA2, *BINARY),
    synonyms=(Synonym(IRM, "SetF", cutoff=False), Synonym(TREC, "set_F", cutoff=False)),
    formula="2 * P * R / (P + R) with P = precision@k, R = recall@k; (beta2 + 1) * P * R / "
    "(beta2 * P + R) with beta2",
    citation="van Rijsbergen, Information Retrieval, 1979",
)
