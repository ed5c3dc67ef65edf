"""Threshold strings: ``">= 0.65"``, ``"> 0.6"``, ``"<= 0.1"``, ``"< 0.2"``, ``"== 1.0"``."""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable

import attrs

__all__ = ["OPERATORS", "Threshold", "parse_threshold"]

OPERATORS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
}
# One operator, then one finite decimal number; nothing else (no "0.65", no "=> 0.6").
_THRESHOLD = re.compile(r"(>=|<=|==|>|<)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


@attrs.frozen
class Threshold:
    """A comparison a metric's value must pass: ``op`` (``>=``, ``>``, ``<=``, ``<``, ``==``)
    and ``bound``. NaN passes no threshold.

    >>> Threshold(">=", 0.65).holds(0.7), Threshold(">=", 0.65).holds(float("nan"))
    (True, False)
    >>> str(Threshold("<", 0.1))
    '< 0.1'
    """

    op: str = attrs.field(validator=attrs.validators.in_(OPERATORS))
    bound: float = attrs.field(validator=lambda _, __, value: _check_bound(value))

    def holds(self, value: float | None) -> bool:
        """Whether ``value`` passes; None (nothing scored) and NaN never do."""
        if value is None or math.isnan(value):
            return False
        return OPERATORS[self.op](value, self.bound)

    def __str__(self) -> str:
        return f"{self.op} {self.bound:g}"


def parse_threshold(text: str, *, metric: str | None = None) -> Threshold:
    """The :class:`Threshold` a string such as ``">= 0.65"`` names.

    Raises:
        ValueError: for anything else, naming the string (and ``metric``, when given).

    >>> parse_threshold(">= 0.65")
    Threshold(op='>=', bound=0.65)
    >>> parse_threshold("0.65", metric="ndcg@10")
    Traceback (most recent call last):
        ...
    ValueError: bad threshold '0.65' for ndcg@10: write an operator and a number, \
e.g. '>= 0.65' (operators: >=, >, <=, <, ==)
    """
    match = _THRESHOLD.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        where = f" for {metric}" if metric is not None else ""
        raise ValueError(
            f"bad threshold {text!r}{where}: write an operator and a number, e.g. '>= 0.65' "
            f"(operators: {', '.join(OPERATORS)})"
        )
    bound = float(match[2])
    if not math.isfinite(bound):  # "1e999" overflows: a gate that always (or never) passes
        where = f" for {metric}" if metric is not None else ""
        raise ValueError(
            f"bad threshold {text!r}{where}: {match[2]} is no finite number (it reads as "
            f"{bound}); write a bound such as '>= 0.65'"
        )
    return Threshold(match[1], bound)


def _check_bound(value: object) -> None:
    """Refuse a bound that is no finite number: ``<= inf`` always passes, ``>= nan`` never.

    >>> Threshold("<=", float("inf"))
    Traceback (most recent call last):
        ...
    ValueError: a threshold's bound is a finite number, e.g. Threshold('>=', 0.65); got inf
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(
            f"a threshold's bound is a finite number, e.g. Threshold('>=', 0.65); got {value!r}"
        )
