"""The path arguments of the public readers and writers, checked before any is used.

``write_run(run, path)``, with its arguments swapped, would end in Python's own "expected
str, bytes or os.PathLike object, not dict", which names neither the function nor the
argument. These checks name both, and say when the arguments look swapped.

>>> path_argument({"q1": {"d1": 1.0}}, "write_run(path, run)", other="run.trec")
Traceback (most recent call last):
    ...
TypeError: write_run(path, run): path is a dict; expected a file path (a str or a Path); \
are the arguments swapped?
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["a_type", "is_path", "path_argument"]


def a_type(value: object) -> str:
    """``value``'s type with its article: ``"a dict"``, ``"an int"``."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def is_path(value: object) -> bool:
    """True for what names a file: a ``str`` or an ``os.PathLike``."""
    return isinstance(value, (str, os.PathLike))


def path_argument(
    value: object,
    call: str,
    name: str = "path",
    *,
    expected: str = "a file path",
    other: object = None,
    hint: str = "",
) -> Path:
    """``value`` as a Path, or a ``TypeError`` naming ``call`` (the function with its
    arguments, ``"write_run(path, run)"``) and the argument ``name``. When ``other``, the
    argument the user gave in its place, is a path, the two look swapped, and it says so;
    ``hint`` says what else to do (``"to score a run in memory, pass it to evaluate_run"``).
    """
    if is_path(value):
        return Path(value)  # type: ignore[arg-type]  # is_path checked it
    message = f"{call}: {name} is {a_type(value)}; expected {expected} (a str or a Path)"
    if is_path(other):
        message += "; are the arguments swapped?"
    elif hint:
        message += f"; {hint}"
    raise TypeError(message)
