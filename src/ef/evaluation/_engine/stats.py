"""The statistics behind :func:`~ef.evaluation.compare`: paired tests, intervals, corrections.

Every paired test takes the per-query differences ``d = b - a`` of two systems (or the two
columns) and calls scipy.stats where scipy has the test; Tukey's HSD takes every system's
values at once (:func:`tukey_test`). The multiple-comparison corrections are a
few lines of numpy, checked against statsmodels' ``multipletests`` in the tests. numpy and
scipy are imported inside the functions: importing this module loads neither.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import MissingDependencyError
from .significance import CORRECTIONS, PAIRED_TESTS, TESTS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CORRECTIONS",
    "PAIRED_TESTS",
    "TESTS",
    "WILCOXON_ZERO_METHOD",
    "PairedResult",
    "TukeyResult",
    "adjust",
    "min_attainable_p",
    "paired_test",
    "planned_resamples",
    "scipy_stats",
    "tukey_test",
]

#: scipy.stats.wilcoxon's ``zero_method``: zero differences are dropped before ranking, as
#: R's ``wilcox.test``, PyTerrier and scipy's own default do.
WILCOXON_ZERO_METHOD = "wilcox"


def scipy_stats() -> Any:
    """``scipy.stats``, or an ImportError naming the extra that installs it."""
    try:
        import scipy.stats
    except ImportError as exc:
        raise MissingDependencyError(
            'comparing systems needs scipy: pip install "ef-evaluation[stats]" '
            f"(or pip install 'scipy>=1.11'); importing it failed: {exc}"
        ) from exc
    return scipy.stats


@attrs.frozen
class PairedResult:
    """A test's outcome on one pair of systems and one metric."""

    p_value: float
    ci_low: float
    ci_high: float


def _rng_keyword(function: Callable[..., Any]) -> str:
    # scipy 1.15 renamed random_state to rng (and will warn on the old name); 1.11 has only it.
    return "rng" if "rng" in inspect.signature(function).parameters else "random_state"


def _batch(n: int) -> int:
    """Resamples per vectorised call: about 4 million values (32 MB) at a time, whatever ``n``.

    scipy draws the same random numbers in batches as all at once, so results do not change.
    """
    return max(1, 4_000_000 // max(n, 1))


def _mean_difference(x: Any, y: Any, axis: int) -> Any:
    import numpy as np

    return np.mean(x - y, axis=axis)


def _mean(x: Any, axis: int) -> Any:
    import numpy as np

    return np.mean(x, axis=axis)


def _counting(
    statistic: Callable[..., Any], n: int, on_resamples: Callable[[int], object] | None
) -> Callable[..., Any]:
    """``statistic``, telling ``on_resamples`` how many resamples each call of scipy's
    computes: a batch of resamples is an ``(k, n)`` array. The observed data (``(n,)``) and
    the BCa interval's jackknife (``n - 1`` columns) are not resamples."""
    if on_resamples is None:
        return statistic

    def counted(*samples: Any, axis: int = -1) -> Any:
        first = samples[0]
        if first.ndim == 2 and first.shape[-1] == n:
            on_resamples(int(first.shape[0]))
        return statistic(*samples, axis=axis)

    return counted


def planned_resamples(differences: npt.NDArray[np.float64], test: str, n_resamples: int) -> int:
    """How many resamples :func:`paired_test` draws for ``test`` on these differences: the
    bootstrap interval's ``n_resamples`` (every test but paired-t), and for randomization
    the permutations too (all ``2**n`` of them when that is no more than ``n_resamples``).
    Nothing is drawn when every difference is 0, and no interval when they are all equal.

    >>> import numpy as np
    >>> planned_resamples(np.array([0.1, -0.2, 0.3]), "randomization", 100)
    108
    >>> planned_resamples(np.array([0.1, -0.2, 0.3]), "paired-t", 100)
    0
    """
    import numpy as np

    constant = bool(np.all(differences == differences[0]))
    if test == "paired-t" or (constant and float(np.mean(differences)) == 0):
        return 0
    interval = 0 if constant else n_resamples
    if test != "randomization":
        return interval
    return interval + min(n_resamples, 1 << len(differences))


def paired_test(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    test: str,
    *,
    confidence: float,
    n_resamples: int,
    seed: int,
    on_resamples: Callable[[int], object] | None = None,
) -> PairedResult:
    """Test whether the per-query values ``b`` differ from ``a`` (two-sided), with a CI of
    the mean difference ``b - a``; ``on_resamples(k)`` is told of each batch of ``k``
    resamples drawn (:func:`planned_resamples` says how many there will be).

    * ``paired-t``: ``scipy.stats.ttest_rel(b, a)``; its t-based confidence interval.
    * ``wilcoxon``: ``scipy.stats.wilcoxon(b - a, zero_method="wilcox")``.
    * ``randomization``: ``scipy.stats.permutation_test`` with ``permutation_type="samples"``
      on ``(b, a)`` and the mean difference: each query's pair is swapped at random, which
      flips the sign of its difference (exact when ``2**n <= n_resamples``).
    * ``bootstrap``: ``scipy.stats.bootstrap`` of the mean difference (BCa). Its p-value is
      the shift method: the share of bootstrap means, moved to be centred on 0, at least as
      far from 0 as the observed mean, ``(1 + count) / (1 + n_resamples)``.

    Every test but paired-t takes its interval from ``scipy.stats.bootstrap`` (BCa). Each
    call draws from ``numpy.random.default_rng(seed)``. If every difference is the same
    value ``c``, the interval is ``[c, c]``; if ``c == 0`` too, p is 1 and no test is run.
    Otherwise paired-t's p is its limit 0 (no spread), the bootstrap's is
    ``1 / (1 + n_resamples)``, and the other tests run as usual.

    >>> import numpy as np
    >>> a, b = np.array([0.2, 0.4, 0.5, 0.1]), np.array([0.3, 0.6, 0.5, 0.4])
    >>> result = paired_test(a, b, "paired-t", confidence=0.95, n_resamples=100, seed=1)
    >>> round(result.p_value, 4), round(result.ci_low, 4), round(result.ci_high, 4)
    (0.1027, -0.0554, 0.3554)
    """
    import numpy as np

    stats = scipy_stats()
    differences = b - a
    mean = float(np.mean(differences))
    constant = bool(np.all(differences == differences[0]))
    if constant and mean == 0:
        return PairedResult(1.0, 0.0, 0.0)
    if test == "paired-t":
        if constant:  # no spread: t grows without bound
            return PairedResult(0.0, mean, mean)
        result = stats.ttest_rel(b, a)
        interval = result.confidence_interval(confidence)
        return PairedResult(float(result.pvalue), float(interval.low), float(interval.high))
    if constant:  # scipy's bootstrap cannot make an interval of a single value
        low = high = mean
        resampled = np.full(n_resamples, mean)
    else:
        bootstrap = stats.bootstrap(
            (differences,),
            _counting(_mean, len(differences), on_resamples),
            n_resamples=n_resamples,
            confidence_level=confidence,
            method="BCa",
            vectorized=True,
            batch=_batch(len(differences)),
            **{_rng_keyword(stats.bootstrap): np.random.default_rng(seed)},
        )
        low = float(bootstrap.confidence_interval.low)
        high = float(bootstrap.confidence_interval.high)
        resampled = bootstrap.bootstrap_distribution
    if test == "bootstrap":
        extreme = int(np.count_nonzero(np.abs(resampled - mean) >= abs(mean)))
        return PairedResult((1 + extreme) / (1 + n_resamples), low, high)
    if test == "wilcoxon":
        p = stats.wilcoxon(differences, zero_method=WILCOXON_ZERO_METHOD).pvalue
    else:
        p = stats.permutation_test(
            (b, a),
            _counting(_mean_difference, len(differences), on_resamples),
            permutation_type="samples",
            vectorized=True,
            n_resamples=n_resamples,
            batch=_batch(len(differences)),
            **{_rng_keyword(stats.permutation_test): np.random.default_rng(seed)},
        ).pvalue
    return PairedResult(float(p), low, high)


def min_attainable_p(test: str, n: int, *, n_resamples: int) -> float:
    """The smallest two-sided p ``test`` can give on ``n`` nonzero paired differences: if it
    exceeds alpha, no difference can be significant, however large.

    * ``wilcoxon`` (exact): every difference of one sign, ``2 / 2**n``.
    * ``randomization``: ``2 / 2**n`` when exact (``2**n <= n_resamples``), else
      scipy's ``2 / (1 + n_resamples)`` (the observed statistic counts among the resamples).
    * ``bootstrap``: ``1 / (1 + n_resamples)``.
    * ``paired-t`` and ``tukey``: 0 (their statistics grow without bound).

    >>> min_attainable_p("wilcoxon", 3, n_resamples=10_000)
    0.25
    """
    if test in ("paired-t", "tukey"):
        return 0.0
    if test == "bootstrap":
        return 1 / (1 + n_resamples)
    exact = 2 / 2**n if n < 1024 else 0.0  # 2**n overflows a float beyond; p is ~0 anyway
    if test == "randomization" and 2**n > n_resamples:
        return max(exact, 2 / (1 + n_resamples))
    return min(exact, 1.0)


@attrs.frozen
class TukeyResult:
    """Tukey's HSD over ``k`` systems: ``k x k`` lists, entry ``[i][j]`` for ``i - j``.

    ``p_values[i][j]`` is the family-wise adjusted p of systems ``i`` and ``j`` (1 on the
    diagonal), ``ci_low[i][j]`` to ``ci_high[i][j]`` the simultaneous interval of
    ``mean_i - mean_j``.
    """

    p_values: list[list[float]]
    ci_low: list[list[float]]
    ci_high: list[list[float]]


def tukey_test(groups: Sequence[npt.NDArray[np.float64]], *, confidence: float) -> TukeyResult:
    """Tukey's honestly significant difference test of every pair of ``groups`` (each
    system's per-query values): ``scipy.stats.tukey_hsd(*groups)``, as ranx's
    ``compare(..., stat_test="tukey")`` calls it, and its intervals at ``confidence``.

    The test pools the variance within the groups, as a one-way ANOVA does: it does not pair
    the values by query. Its p-values are adjusted for the ``k (k - 1) / 2`` pairs already.
    If the groups have no spread at all (every value of each group the same), scipy would
    divide by 0: pairs of equal means get p 1, others p 0 (the statistic's limit), and the
    intervals are the differences of the means.

    >>> import numpy as np
    >>> result = tukey_test(
    ...     [np.array([0.1, 0.2, 0.3]), np.array([0.2, 0.4, 0.3]), np.array([0.5, 0.6, 0.9])],
    ...     confidence=0.95,
    ... )
    >>> round(result.p_values[0][2], 4), round(result.ci_low[2][0], 4)
    (0.018, 0.1027)
    """
    import numpy as np

    stats = scipy_stats()
    if all(float(np.ptp(group)) == 0 for group in groups):  # no spread: 0 / 0 in scipy
        means = np.array([float(np.mean(group)) for group in groups])
        differences = means[:, None] - means[None, :]
        p = np.where(differences == 0, 1.0, 0.0)
        return TukeyResult(p.tolist(), differences.tolist(), differences.tolist())
    result = stats.tukey_hsd(*groups)
    interval = result.confidence_interval(confidence_level=confidence)
    return TukeyResult(
        np.asarray(result.pvalue, dtype=float).tolist(),
        np.asarray(interval.low, dtype=float).tolist(),
        np.asarray(interval.high, dtype=float).tolist(),
    )


def adjust(p_values: Sequence[float], correction: str | None) -> list[float]:
    """The p-values adjusted for multiple comparisons, in the order given.

    ``bonferroni`` multiplies by the number of tests ``m``; ``holm`` is Holm's step-down
    (the i-th smallest times ``m - i + 1``, made non-decreasing); ``bh`` is Benjamini and
    Hochberg's step-up for the false discovery rate (the i-th smallest times ``m / i``, made
    non-increasing from the largest). Each is capped at 1; ``None`` returns them unchanged.
    They equal statsmodels' ``multipletests(..., method="bonferroni" | "holm" | "fdr_bh")``.

    >>> adjust([0.01, 0.04, 0.03], "holm")
    [0.03, 0.06, 0.06]
    >>> [round(p, 4) for p in adjust([0.01, 0.04, 0.03], "bh")]
    [0.03, 0.04, 0.04]
    """
    import numpy as np

    p = np.asarray(p_values, dtype=float)
    m = len(p)
    if correction is None or m == 0:
        return p.tolist()  # type: ignore[no-any-return]
    if correction == "bonferroni":
        return np.minimum(p * m, 1.0).tolist()  # type: ignore[no-any-return]
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    if correction == "holm":
        scaled = np.maximum.accumulate(ranked * (m - np.arange(m)))
    elif correction == "bh":
        scaled = np.minimum.accumulate((ranked / (np.arange(1, m + 1) / m))[::-1])[::-1]
    else:
        raise ValueError(f"correction must be None or one of {CORRECTIONS}, got {correction!r}")
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(scaled, 1.0)
    return adjusted.tolist()  # type: ignore[no-any-return]


def cohens_d(differences: npt.NDArray[np.float64]) -> float:
    """The paired effect size ``mean(d) / sd(d)`` (Cohen's d_z, ``sd`` with ``n - 1``).

    0.0 when every difference is 0; NaN when they are all one nonzero value (no spread).

    >>> import numpy as np
    >>> cohens_d(np.array([0.1, 0.3]))
    1.4142135623730951
    """
    import numpy as np

    mean = float(np.mean(differences))
    spread = float(np.std(differences, ddof=1)) if len(differences) > 1 else 0.0
    if spread == 0:
        return 0.0 if mean == 0 else math.nan
    return mean / spread
