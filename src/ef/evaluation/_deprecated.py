"""The old module paths the docs once taught, kept for one release as warning aliases.

Each alias module names its new home; reading a name from it warns with a
``DeprecationWarning`` and returns the name from the internal module it moved to.

>>> import sys, warnings
>>> _ = sys.modules.pop("ef.evaluation.engine.ties", None)  # imported afresh, as a user's first
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from ef.evaluation.engine.ties import MAX_ORDERS
>>> MAX_ORDERS > 0, caught[0].category.__name__
(True, 'DeprecationWarning')
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable
from typing import Any


def _caller_level() -> int:
    # Point the warning at the user's import line, past the import system's frames and
    # ours, so that Python's default filter shows it when the import sits in __main__.
    # warnings.warn skips the import system's frames itself; count only ours.
    depth, frame = 2, sys._getframe(2)  # 2: the alias module's body
    while frame.f_back is not None:
        if frame.f_globals.get("__name__", "").startswith("ef.evaluation."):
            depth += 1
        elif not frame.f_code.co_filename.startswith("<frozen importlib"):
            break
        frame = frame.f_back
    return depth + 1  # the first frame past ours: the importing line


def _warn(old: str, new: str, level: int) -> None:
    warnings.warn(
        f"{old} is an internal module now ({new}) and the old path goes in the next "
        "release: import its public names from ef.evaluation",
        DeprecationWarning,
        stacklevel=level,
    )


def moved(old: str, new: str, *, warn_now: bool = True) -> Callable[[str], Any]:
    """Warn that ``old`` moved to ``new`` (now, or when a name is read) and forward names."""
    if warn_now:
        _warn(old, new, _caller_level())

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # the import system's own probes
            raise AttributeError(name)
        if not warn_now:
            _warn(old, new, 3)
        module = importlib.import_module(new)
        if hasattr(module, name) or not hasattr(module, "__path__"):
            return getattr(module, name)
        return importlib.import_module(f"{new}.{name}")  # a package's submodule

    return __getattr__
