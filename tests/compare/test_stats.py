"""The paired tests equal scipy.stats called directly; the corrections equal statsmodels'."""

from __future__ import annotations

import sys
from unittest import mock

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from ef.evaluation import MissingDependencyError
from ef.evaluation._engine.stats import adjust, cohens_d, paired_test

RNG = np.random.default_rng(20261130)
# Per-query values like a metric's: many zeros and ones, ties between the systems.
A = np.round(RNG.random(60), 2) * (RNG.random(60) > 0.2)
B = np.clip(A + np.round(RNG.normal(0.05, 0.15, 60), 2) * (RNG.random(60) > 0.3), 0, 1)


def mean_difference(x, y, axis):
    return np.mean(x - y, axis=axis)


def test_paired_t_is_ttest_rel_and_its_interval() -> None:
    result = paired_test(A, B, "paired-t", confidence=0.9, n_resamples=10, seed=0)
    expected = scipy.stats.ttest_rel(B, A)
    interval = expected.confidence_interval(0.9)
    assert result.p_value == expected.pvalue
    assert (result.ci_low, result.ci_high) == (interval.low, interval.high)


def test_wilcoxon_is_scipys_dropping_zero_differences() -> None:
    assert np.count_nonzero(B - A == 0) > 5  # zeros to drop
    result = paired_test(A, B, "wilcoxon", confidence=0.95, n_resamples=200, seed=3)
    assert result.p_value == scipy.stats.wilcoxon(B - A, zero_method="wilcox").pvalue
    assert result.p_value != scipy.stats.wilcoxon(B - A, zero_method="pratt").pvalue


@pytest.mark.parametrize("n", [8, 60])  # 2**8 <= n_resamples: exact; 2**60: random
def test_randomization_is_permutation_test_over_samples(n: int) -> None:
    a, b = A[:n], B[:n]
    result = paired_test(a, b, "randomization", confidence=0.95, n_resamples=999, seed=11)
    expected = scipy.stats.permutation_test(
        (b, a),
        mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=999,
        rng=np.random.default_rng(11),
    )
    assert result.p_value == expected.pvalue


def test_bootstrap_interval_and_shift_p_value_come_from_scipys_bootstrap() -> None:
    result = paired_test(A, B, "bootstrap", confidence=0.95, n_resamples=2000, seed=5)
    expected = scipy.stats.bootstrap(
        (B - A,), np.mean, n_resamples=2000, method="BCa", rng=np.random.default_rng(5)
    )
    assert result.ci_low == pytest.approx(expected.confidence_interval.low, abs=1e-15)
    assert result.ci_high == pytest.approx(expected.confidence_interval.high, abs=1e-15)
    mean = np.mean(B - A)
    extreme = np.count_nonzero(np.abs(expected.bootstrap_distribution - mean) >= abs(mean))
    assert result.p_value == (1 + extreme) / 2001


@pytest.mark.parametrize("test", ["wilcoxon", "randomization", "bootstrap"])
def test_resampled_intervals_are_bootstrap_bca_and_reproducible(test: str) -> None:
    first = paired_test(A, B, test, confidence=0.95, n_resamples=500, seed=9)
    assert first == paired_test(A, B, test, confidence=0.95, n_resamples=500, seed=9)
    expected = scipy.stats.bootstrap(
        (B - A,), np.mean, n_resamples=500, method="BCa", rng=np.random.default_rng(9)
    )
    assert first.ci_low == pytest.approx(expected.confidence_interval.low, abs=1e-15)
    assert first.ci_low < np.mean(B - A) < first.ci_high


@pytest.mark.parametrize("test", ["paired-t", "wilcoxon", "randomization", "bootstrap"])
def test_identical_values_give_p_1_and_a_zero_interval(test: str) -> None:
    result = paired_test(A, A.copy(), test, confidence=0.95, n_resamples=100, seed=0)
    assert (result.p_value, result.ci_low, result.ci_high) == (1.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("test", "p"),
    [
        ("paired-t", 0.0),
        ("bootstrap", 1 / 101),
        ("randomization", 2 / 2**6),  # exact: only all-up and all-down are as extreme
        ("wilcoxon", scipy.stats.wilcoxon([0.25] * 6).pvalue),
    ],
)
def test_a_constant_difference_has_a_point_interval(test: str, p: float) -> None:
    a = np.array([0.0, 0.25, 0.5, 0.25, 0.5, 0.75])
    result = paired_test(a, a + 0.25, test, confidence=0.95, n_resamples=100, seed=0)
    assert result.p_value == pytest.approx(p)
    assert (result.ci_low, result.ci_high) == (0.25, 0.25)


p_values = st.lists(
    st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.05, 1.0])), min_size=1, max_size=30
)


@given(p_values)
@pytest.mark.parametrize(
    ("ours", "theirs"), [("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh")]
)
def test_corrections_equal_statsmodels_multipletests(
    ours: str, theirs: str, p: list[float]
) -> None:
    with mock.patch("gc.collect"):  # multipletests collects garbage on every call: slow here
        expected = multipletests(p, alpha=0.05, method=theirs)
    adjusted = adjust(p, ours)
    assert adjusted == pytest.approx(expected[1].tolist(), abs=1e-12)
    # reject is p_corrected <= alpha; statsmodels compares p with alpha scaled instead, which
    # rounds differently only when p_corrected is alpha itself, to the last bit.
    for q, reject in zip(adjusted, expected[0].tolist(), strict=True):
        if abs(q - 0.05) > 1e-12:
            assert (q <= 0.05) == reject


def test_no_correction_and_an_unknown_one() -> None:
    assert adjust([0.2, 0.01], None) == [0.2, 0.01]
    assert adjust([], "holm") == []
    with pytest.raises(ValueError, match=r"correction must be None or one of .*, got 'sidak'"):
        adjust([0.1], "sidak")


def test_cohens_d_is_the_mean_over_the_standard_deviation() -> None:
    d = B - A
    assert cohens_d(d) == pytest.approx(d.mean() / d.std(ddof=1))
    assert cohens_d(np.zeros(4)) == 0.0
    assert np.isnan(cohens_d(np.full(4, 0.5)))


def test_without_scipy_the_error_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(MissingDependencyError, match=r'pip install "ef-evaluation\[stats\]"'):
        paired_test(A, B, "paired-t", confidence=0.95, n_resamples=10, seed=0)
