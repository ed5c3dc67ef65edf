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

_DOT, _MINUS, _PLUS = 46, 45, 43
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
    by_position = np.ascontiguousarray(texts.view(np.uint8).reshape(texts.size, width).T)
    kinds = _byte_kinds()[by_position]
    if not kinds.all():
        return None  # a byte float() would refuse, or would take as more than a number
    if width > _MAX_WIDTH or (kinds == _EXPONENT).any():
        return _numpy_parse(texts)
    whole, decimals, digits, dots, signs = _digits(by_position)
    # float()'s grammar without an exponent: a sign first only, one dot at most, a digit.
    if signs.any() or dots.max(initial=0) > 1 or digits.min(initial=1) == 0:
        return None
    if whole.max(initial=0) >= _EXACT or decimals.max(initial=0) > _EXACT_POWERS:
        return _numpy_parse(texts)  # 16 digits or 23 decimals: rounded twice here
    values: npt.NDArray[np.float64] = whole / _powers_of_ten()[decimals]
    np.negative(values, out=values, where=by_position[0] == _MINUS)
    return values


def _digits(
    by_position: npt.NDArray[np.uint8],
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.bool_],
]:
    """Each score's digits as one whole number (exact below 2**53), how many of them follow
    its dot, how many it has, its dots, and whether a sign stands past its first byte."""
    import numpy as np

    multiplier, digit_value, is_digit = _tables()
    n = by_position.shape[1]
    whole = np.zeros(n)
    decimals = np.zeros(n, dtype=np.uint8)
    digits = np.zeros(n, dtype=np.uint8)
    dots = np.zeros(n, dtype=np.uint8)
    signs = np.zeros(n, dtype=bool)
    for position, column in enumerate(by_position):
        whole *= multiplier[column]  # 10 for a digit, 1 for anything else
        whole += digit_value[column]
        digit = is_digit[column]
        digits += digit
        decimals += digit & (dots > 0)
        dots += column == _DOT
        if position:
            signs |= (column == _MINUS) | (column == _PLUS)
    return whole, decimals, digits, dots, signs


_EXPONENT = 2


def _byte_kinds() -> npt.NDArray[np.uint8]:
    """A byte's kind: 0 for a byte no score holds, ``_EXPONENT`` for ``e E``, 1 for the
    digits, ``.``, ``+``, ``-`` and NUL (the padding)."""
    import numpy as np

    kinds = np.zeros(256, dtype=np.uint8)
    kinds[list(b"0123456789.+-\0")] = 1
    kinds[list(b"eE")] = _EXPONENT
    return kinds


def _tables() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
    """A byte's multiplier (10 for a digit, else 1), digit value and digit flag, by byte."""
    import numpy as np

    multiplier, value, flag = np.ones(256), np.zeros(256), np.zeros(256, dtype=np.uint8)
    multiplier[48:58], value[48:58], flag[48:58] = 10.0, np.arange(10), 1
    return multiplier, value, flag


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
