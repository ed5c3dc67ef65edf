"""Score normalisations: one run's scores for one query, before they are fused.

Each takes the scores in rank order (rank 1 first) and returns them normalised, in the same
order. The names, formulas and the guard against a zero denominator are ranx's
(``ranx.normalization``): a denominator below ``EPSILON`` is ``EPSILON``.

* ``min-max``: (s - min) / max(max - min, ε)
* ``zmuv`` (z-score: zero mean, unit variance): (s - mean) / max(std, ε), the population std
* ``sum``: (s - min) / max(sum - n * min, ε)
* ``max``: s / max(max, ε); scores must be 0 or more
* ``rank``: 1 - (rank - 1) / n, so rank 1 gets 1 and the last rank 1 / n

Two choices differ from ranx, where its number means nothing: scores that are all equal
normalise to 0 under ``zmuv`` (ranx divides the rounding residue of the mean by ε, up to
~1e-4 for scores near 1000), and ``max`` refuses a negative score (ranx divides it by ε when
the top score is 0 or less, which puts that run's docs a billion below every other run's).
Montague and Aslam, "Relevance Score Normalization for Metasearch", CIKM 2001, compare the
score normalisations; the rank one is Borda's count scaled to [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..errors import ArgumentError, Keyword

__all__ = [
    "EPSILON",
    "NORMALIZATIONS",
    "check_norm",
    "max_norm",
    "min_max_norm",
    "normalize",
    "rank_norm",
    "sum_norm",
    "zmuv_norm",
]

#: The smallest denominator, as ranx's.
EPSILON = 1e-9


def min_max_norm(scores: Sequence[float]) -> list[float]:
    """``(s - min) / (max - min)``: the top score becomes 1, the lowest 0.

    >>> min_max_norm([4.0, 3.0, 2.0])
    [1.0, 0.5, 0.0]
    >>> min_max_norm([2.0, 2.0])  # no spread: every score is the lowest
    [0.0, 0.0]
    >>> min_max_norm([1e308, 0.0, -1e308])  # max - min overflows: computed scaled down
    [1.0, 0.5, 0.0]
    """
    return _in_range(_min_max, scores)


def _min_max(scores: Sequence[float], epsilon: float) -> list[float]:
    low, high = min(scores), max(scores)
    denominator = _finite(max(high - low, epsilon))
    return [(s - low) / denominator for s in scores]


def zmuv_norm(scores: Sequence[float]) -> list[float]:
    """``(s - mean) / std`` (zero mean, unit variance; the population std).

    >>> zmuv_norm([3.0, 2.0, 1.0])
    [1.224744871391589, 0.0, -1.224744871391589]
    >>> zmuv_norm([0.1, 0.1, 0.1])  # all equal: 0, not a rounding residue divided by 1e-9
    [0.0, 0.0, 0.0]
    >>> zmuv_norm([3e300, 2e300, 1e300])  # the squares overflow: computed scaled down
    [1.224744871391589, 0.0, -1.224744871391589]
    """
    if scores and min(scores) == max(scores):
        return [0.0] * len(scores)
    return _in_range(_zmuv, scores)


def _zmuv(scores: Sequence[float], epsilon: float) -> list[float]:
    mean = _finite(_sum(scores) / len(scores))
    std = _finite(math.sqrt(_finite(_sum([(s - mean) ** 2 for s in scores]) / len(scores))))
    denominator = max(std, epsilon)
    return [_finite((s - mean) / denominator) for s in scores]


def sum_norm(scores: Sequence[float]) -> list[float]:
    """``(s - min) / sum(s - min)``: shifted to start at 0, then scaled to sum to 1.

    >>> sum_norm([3.0, 2.0, 1.0])
    [0.6666666666666666, 0.3333333333333333, 0.0]
    >>> sum_norm([1e308, 1e308, 0.0])  # the sum overflows: computed scaled down
    [0.5, 0.5, 0.0]
    """
    return _in_range(_sum_norm, scores)


def _sum_norm(scores: Sequence[float], epsilon: float) -> list[float]:
    low = min(scores)
    denominator = _finite(max(_finite(_sum(scores)) - low * len(scores), epsilon))
    return [(s - low) / denominator for s in scores]


def max_norm(scores: Sequence[float]) -> list[float]:
    """``s / max``: the top score becomes 1. Scores must be 0 or more.

    >>> max_norm([4.0, 2.0, 0.0])
    [1.0, 0.5, 0.0]
    >>> max_norm([1.0, -0.5])
    Traceback (most recent call last):
        ...
    ef.evaluation.errors.ArgumentError: norm='max' divides by the top score and needs scores of \
0 or more, got -0.5 (use norm='min-max' for scores that can be negative)
    """
    if not scores:
        return []
    low = min(scores)
    if low < 0:
        raise ArgumentError(
            Keyword("norm", "max"),
            f" divides by the top score and needs scores of 0 or more, got {low!r} (use ",
            Keyword("norm", "min-max"),
            " for scores that can be negative)",
        )
    top = max(scores)
    denominator = max(top, EPSILON)
    return [s / denominator for s in scores]


def rank_norm(scores: Sequence[float]) -> list[float]:
    """``1 - (rank - 1) / n``: only the order counts; rank 1 gets 1, the last ``1 / n``.

    >>> rank_norm([9.0, 7.5, 0.1, -3.0])
    [1.0, 0.75, 0.5, 0.25]
    """
    n = len(scores)
    return [1 - i / n for i in range(n)]


def _sum(values: Sequence[float]) -> float:
    # Left to right from 0, as ranx's numba loops add (math.fsum would round otherwise).
    total = 0.0
    for value in values:
        total += value
    return total


def _finite(value: float) -> float:
    """``value``, or an OverflowError if an intermediate overflowed (to inf, or NaN from it)."""
    if not math.isfinite(value):
        raise OverflowError(value)
    return value


def _in_range(
    formula: Callable[[Sequence[float], float], list[float]], scores: Sequence[float]
) -> list[float]:
    """``formula(scores, EPSILON)``; if a step of it overflows (finite scores near the float
    limit: ``max - min`` of ``±1e308``, a sum, a square), the same formula on the scores
    scaled by a power of two, the largest becoming about 1, with ``EPSILON`` scaled alike.

    Scaling by a power of two is exact and commutes with rounding, and every formula here
    is a ratio, so the result is the one the formula would give with no float limit. On
    scores that do not overflow, the formula runs as it is: the numbers stay ranx's.
    """
    if not scores:
        return []
    try:
        return formula(scores, EPSILON)
    except OverflowError:
        pass
    _, exponent = math.frexp(max(abs(s) for s in scores))
    return formula([math.ldexp(s, -exponent) for s in scores], math.ldexp(EPSILON, -exponent))


#: Each normalisation by its name (ranx's names).
NORMALIZATIONS: dict[str, Callable[[Sequence[float]], list[float]]] = {
    "min-max": min_max_norm,
    "zmuv": zmuv_norm,
    "sum": sum_norm,
    "max": max_norm,
    "rank": rank_norm,
}


def check_norm(norm: str | None) -> str | None:
    """``norm`` if it names a normalisation (or is ``None``: the scores as they are);
    ValueError listing them otherwise.

    >>> check_norm("min_max")
    Traceback (most recent call last):
        ...
    ValueError: norm must be None or one of 'min-max', 'zmuv', 'sum', 'max', 'rank'; got \
'min_max' (did you mean 'min-max'?)
    """
    if norm is None or norm in NORMALIZATIONS:
        return norm
    message = f"norm must be None or one of {', '.join(map(repr, NORMALIZATIONS))}; got {norm!r}"
    alias = str(norm).replace("_", "-").lower()
    if alias in NORMALIZATIONS:
        message += f" (did you mean {alias!r}?)"
    raise ValueError(message)


def normalize(scores: Sequence[float], norm: str | None) -> list[float]:
    """``scores`` (one run, one query, in rank order) normalised by ``norm``; ``None`` keeps
    them.

    >>> normalize([4.0, 3.0, 2.0], "min-max"), normalize([4.0, 3.0], None)
    ([1.0, 0.5, 0.0], [4.0, 3.0])
    """
    if norm is None:
        return list(scores)
    return NORMALIZATIONS[check_norm(norm) or ""](scores)
