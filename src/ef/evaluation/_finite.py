"""Whether numbers are finite: one home for the check that every input of numbers takes
(run scores, qrels grades, a DataFrame's column, a reference metric's judgements).

The usual input, plain ints and floats, passes in C-level passes (:func:`plain_finite`);
anything else is looked at number by number (:func:`is_finite`), so that the error names
the one at fault.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import cast

__all__ = ["is_finite", "plain_finite"]


def is_finite(number: object) -> bool:
    """Whether one number is finite: NaN, an infinity, an int too large for a float and a
    value ``math.isfinite`` cannot take are not.

    >>> is_finite(2), is_finite(float("inf")), is_finite(10**400), is_finite("1")
    (True, False, False, False)
    """
    try:
        return math.isfinite(number)  # type: ignore[arg-type]  # refused below if not a number
    except (TypeError, ValueError, OverflowError):
        return False


def plain_finite(values: Collection[object]) -> bool:
    """True if every value is a plain ``int`` or ``float`` and finite (an int within a
    float's range), found in C-level passes: numpy converts such values as ``float()`` does.
    False says only to look at each value (:func:`is_finite`): one may be a subclass (numpy's
    float64), or finite floats may add up past a float's range.

    >>> plain_finite([1, 2.5]), plain_finite([1.0, float("nan")])
    (True, False)
    >>> plain_finite([10**400, -(10**400)]), plain_finite([1e308, 1e308])
    (False, False)
    """
    kinds = set(map(type, values))
    if not kinds <= {float, int}:
        return False
    # A NaN or an infinity makes a sum of floats non-finite (inf - inf is NaN). Ints are
    # summed as floats: float() refuses one too large for a float, which a sum of ints hides.
    numbers = cast("Collection[float]", values)  # plain ints and floats, checked above
    try:
        return math.isfinite(sum(map(float, numbers) if int in kinds else numbers))
    except OverflowError:
        return False
