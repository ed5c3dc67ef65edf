"""How much two orderings agree: Kendall's τ-b, τ_AP, and rank-biased overlap (RBO_ext).

Pure Python over short sequences (the systems of a study, one query's ranking): no numpy, no
scipy. :func:`~ef.evaluation.rank_correlation` and :func:`~ef.evaluation.rbo` are the public
functions; these are their kernels.

* Kendall's τ-b: ``(C - D) / sqrt((n0 - n1) (n0 - n2))`` over the ``n0`` pairs, ``C``
  concordant, ``D`` discordant, ``n1`` and ``n2`` tied in the first and the second ordering;
  ``scipy.stats.kendalltau``'s default (Kendall 1945).
* τ_AP: Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for information
  retrieval", SIGIR 2008. An error near the top of the evaluated ordering costs more than
  one near the bottom.
* RBO_ext: Webber, Moffat and Zobel, "A similarity measure for indefinite rankings", ACM
  TOIS 28(4), 2010, equation 32 (equation 30 when the rankings are as long).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

__all__ = ["kendall_tau_b", "rbo_ext", "tau_ap"]


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b between two scorings of the same items (``x[i]`` and ``y[i]`` score
    item ``i``): 1 for the same order, -1 for the reverse; NaN when either scores every item
    alike (no pair to order), as scipy's ``kendalltau`` gives.

    >>> kendall_tau_b([0.4, 0.3, 0.2, 0.1], [0.3, 0.4, 0.2, 0.1])
    0.6666666666666666
    >>> round(kendall_tau_b([0.4, 0.3, 0.3], [0.3, 0.2, 0.1]), 6)  # 2 / sqrt(2 * 3)
    0.816497
    """
    n = len(x)
    if len(y) != n:
        raise ValueError(f"the two scorings have {n} and {len(y)} items")
    concordance = untied_x = untied_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            sx, sy = _sign(x[i] - x[j]), _sign(y[i] - y[j])
            concordance += sx * sy
            untied_x += sx != 0
            untied_y += sy != 0
    if not untied_x or not untied_y:
        return math.nan
    return concordance / math.sqrt(untied_x * untied_y)


def tau_ap(reference: Sequence[float], ordering: Sequence[float]) -> float:
    """τ_AP of ``ordering`` against ``reference`` (the "true" one), both scoring the same
    items, higher first: ``2 / (N - 1) * sum(C(i) / (i - 1) for i = 2..N) - 1``, where
    ``C(i)`` counts the items that ``ordering`` ranks above its i-th item and that
    ``reference`` ranks above it too. It is not symmetric: swap the arguments to take the
    other ordering as the truth.

    Ties, which the paper leaves out: a pair tied in either ordering is no evidence either
    way and is left out of ``C(i)`` and of its denominator (which counts the item's untied
    pairs above it, ``i - 1`` without ties), and an item with no such pair is left out of
    the mean. So the order of tied items never matters, identical orderings give 1 and
    reversed ones -1; with no ties this is the paper's formula. NaN when no pair is untied.

    >>> tau_ap([4, 3, 2, 1], [3, 4, 2, 1])  # the top two swapped
    0.33333333333333326
    >>> tau_ap([4, 3, 2, 1], [4, 3, 1, 2])  # the bottom two swapped
    0.7777777777777777
    """
    n = len(reference)
    if len(ordering) != n:
        raise ValueError(f"the two scorings have {n} and {len(ordering)} items")
    shares = []
    for i in range(n):
        above = [j for j in range(n) if ordering[j] > ordering[i]]
        untied = [j for j in above if reference[j] != reference[i]]
        if untied:
            correct = sum(reference[j] > reference[i] for j in untied)
            shares.append(correct / len(untied))
    if not shares:
        return math.nan
    return 2 * math.fsum(shares) / len(shares) - 1


def rbo_ext(a: Sequence[Hashable], b: Sequence[Hashable], p: float) -> float:
    """Rank-biased overlap of two rankings, extrapolated past their ends (RBO_ext,
    equation 32 of Webber et al. 2010): with ``s <= l`` the lengths of the shorter and the
    longer ranking, ``X_d`` the size of the overlap of their top ``d`` (the shorter one's
    all ``s`` past its end),

    ``(1 - p) / p * (sum(X_d / d * p**d, d = 1..l) + sum(X_s * (d - s) / (s * d) * p**d,
    d = s+1..l)) + ((X_l - X_s) / l + X_s / s) * p**l``.

    Each ranking lists distinct items. 1 for two equal rankings, 0 for disjoint ones; two
    empty rankings agree (1), an empty and a non-empty one do not (0), as the ``rbo``
    package has it.

    >>> rbo_ext(["a", "b", "c", "d"], ["b", "a", "d", "c"], 0.5)  # 11/24
    0.4583333333333333
    >>> rbo_ext(["a"], ["a", "b"], 0.5)  # b may follow a in the short ranking too
    1.0
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be between 0 and 1, got {p!r}")
    if not a or not b:
        return 1.0 if not a and not b else 0.0
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    s, l = len(short), len(long)  # noqa: E741  # the paper's names
    seen_short: set[Hashable] = set()
    seen_long: set[Hashable] = set()
    overlap = 0  # X_d
    overlap_s = 0  # X_s
    total = 0.0
    for d in range(1, l + 1):
        item = long[d - 1]
        if d <= s:
            other = short[d - 1]
            if other == item:
                overlap += 1
            else:
                overlap += (other in seen_long) + (item in seen_short)
            seen_short.add(other)
            seen_long.add(item)
            overlap_s = overlap
        else:
            overlap += item in seen_short
            total += overlap_s * (d - s) / (s * d) * p**d
        total += overlap / d * p**d
    return (1 - p) / p * total + ((overlap - overlap_s) / l + overlap_s / s) * p**l
