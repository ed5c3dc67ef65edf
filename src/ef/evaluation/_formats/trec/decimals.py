"""Scores parsed from a fixed-width byte column, as ``float()`` parses them, a byte position
at a time across all scores.

numpy parses a byte column (``astype(float64)``) one Python ``float()`` a score: most of
the numpy reader's time on a run of plain decimal scores. Those need no general parser: a
score ``[+-]digits[.digits]`` of at most 15 significant digits is a whole number below
2**53, exact as a double, over a power of ten up to 10**22, exact too, and dividing one
exact double by another rounds once, correctly: the double ``float()`` returns (Clinger's
fast path). Any other score (an exponent, more digits) is left to numpy's parse.

>>> import numpy as np
>>> parse_scores(np.array([b"12.5", b"-0.25", b"3", b"1e2"])).tolist()
[12.5, -0.25, 3.0, 100.0]
>>> parse_scores(np.array([b"1.2.3"])) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["parse_scores"]

_NUL, _PLUS, _MINUS, _DOT, _ZERO, _UPPER_E, _LOWER_E = b"\0+-.0Ee"
_EXACT = 2.0**53  # every whole number below is a double
_EXACT_POWERS = 22  # 10**22 is the last power of ten that is a double
_MAX_WIDTH = 64  # wider columns (few) go to numpy's parse


def parse_scores(texts: npt.NDArray[np.bytes_]) -> npt.NDArray[np.float64] | None:
    """The scores of a NUL-padded byte column, equal to ``float()``'s, or None for one of
    another byte than ``0-9 . e E + -`` (``"nan"``, ``"1_0"``, ``" 1"``: the reference reader
    says what it is) or that ``float()`` refuses (``"1.2.3"``, ``"-"``, ``"1e"``).
    """
    import numpy as np

    width = texts.dtype.itemsize
    # A row per byte position: each step is one operation across all scores.
    by_position = np.ascontiguousarray(texts.view(np.uint8).reshape(texts.size, width).T)
    plain = _any_of(by_position, _NUL, _PLUS, _MINUS, _DOT, _LOWER_E, _UPPER_E)
    plain |= by_position - np.uint8(_ZERO) < 10  # the bytes below "0" wrap past 9
    if not plain.all():
        return None  # a byte float() would refuse, or would take as more than a number
    del plain  # as large as the scores' text, as is each array of this function's
    if width > _MAX_WIDTH or _any_of(by_position, _LOWER_E, _UPPER_E).any():
        return _numpy_parse(texts)
    whole, decimals, digits, dots = _digits(by_position)
    # float()'s grammar without an exponent: a sign first only, one dot at most, a digit.
    if (
        _any_of(by_position[1:], _PLUS, _MINUS).any()
        or dots.max(initial=0) > 1
        or digits.min(initial=1) == 0
    ):
        return None
    if whole.max(initial=0) >= _EXACT or decimals.max(initial=0) > _EXACT_POWERS:
        return _numpy_parse(texts)  # 16 digits or 23 decimals: rounded twice here
    values: npt.NDArray[np.float64] = whole / _powers_of_ten()[decimals]
    np.negative(values, out=values, where=by_position[0] == _MINUS)
    return values


def _any_of(by_position: npt.NDArray[np.uint8], *bytes_: int) -> npt.NDArray[np.bool_]:
    """Where ``by_position`` holds one of ``bytes_``."""
    first, *rest = bytes_
    found: npt.NDArray[np.bool_] = by_position == first
    for byte in rest:
        found |= by_position == byte
    return found


def _digits(
    by_position: npt.NDArray[np.uint8],
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]
]:
    """Each score's digits as one whole number (exact below 2**53), how many of them follow
    its dot, how many it has, and its dots: a byte position at a time, across all scores."""
    import numpy as np

    n = by_position.shape[1]
    whole = np.zeros(n)
    decimals, digits, dots = (np.zeros(n, dtype=np.uint8) for _ in range(3))
    past_dot = np.zeros(n, dtype=bool)
    for column in by_position:
        value = column - np.uint8(_ZERO)
        digit = value < 10
        np.multiply(whole, 10.0, out=whole, where=digit)  # a digit shifts the number
        np.add(whole, value, out=whole, where=digit)
        digits += digit
        dot = column == _DOT
        dots += dot
        past_dot |= dot
        decimals += digit & past_dot
    return whole, decimals, digits, dots


def _powers_of_ten() -> npt.NDArray[np.float64]:
    """10**0 to 10**22, each exactly."""
    import numpy as np

    return np.power(10.0, np.arange(_EXACT_POWERS + 1))


def _numpy_parse(texts: npt.NDArray[np.bytes_]) -> npt.NDArray[np.float64] | None:
    import numpy as np

    try:
        return texts.astype(np.float64)
    except ValueError:  # "1e", "+-1": the reference reader names the line
        return None
