"""_finite: the one check of numbers every input takes, against its plain definition."""

from __future__ import annotations

import math

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ef.evaluation._finite import is_finite, plain_finite

from .profiles_hypothesis import examples

_NUMBERS = st.lists(
    st.one_of(
        st.integers(min_value=-(2**1100), max_value=2**1100),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([1e308, -1e308, 10**400, -(10**400)]),
    ),
    max_size=8,
)


def _finite(number: int | float) -> bool:
    try:
        return math.isfinite(float(number))
    except OverflowError:
        return False


@given(_NUMBERS)
@settings(max_examples=examples(500))
@example([10**400, -(10**400)])  # the sum of the ints is 0
@example([math.inf, -math.inf])  # the sum is NaN
@example([1e308, 1e308])  # finite numbers whose sum is not
def test_plain_finite_never_passes_a_number_that_is_not(values: list[int | float]) -> None:
    every = all(_finite(v) for v in values)
    assert all(is_finite(v) == _finite(v) for v in values)
    if plain_finite(values):
        assert every
    elif every:  # only when the sum leaves a float's range
        assert not math.isfinite(sum(map(float, values)))


def test_other_types_are_looked_at_one_by_one() -> None:
    import numpy as np

    assert not plain_finite([np.float64(1.0)])  # a subclass of float
    assert not plain_finite([True])
    assert not plain_finite(["1"])
    assert plain_finite([])
    assert plain_finite([0, 0.5])
    assert not is_finite("1")
    assert not is_finite(None)
    assert is_finite(np.float64(2))
