"""What the overlap metrics share: their libraries, imported on demand."""

from __future__ import annotations

import importlib
from types import ModuleType

from ...errors import MissingDependencyError

__all__ = ["library"]


def library(module: str, distribution: str) -> ModuleType:
    """Import ``module``, or say that the ``text`` extra installs ``distribution``.

    >>> library("no_such_module_here", "no-such-dist")
    Traceback (most recent call last):
        ...
    ef.evaluation.MissingDependencyError: this metric needs no-such-dist, which is not \
installed: pip install "ef-evaluation[text]"
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.partition(".")[0] != exc.name.partition(".")[0]:
            raise  # the library is there but one of its own imports is missing
        raise MissingDependencyError(
            f"this metric needs {distribution}, which is not installed: "
            'pip install "ef-evaluation[text]"'
        ) from exc
