"""Import an optional dependency, or say which extra installs it."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import MissingDependencyError

__all__ = ["require"]


def require(module: str, distribution: str, extra: str) -> ModuleType:
    """Import ``module``, or raise :class:`~ef.evaluation.MissingDependencyError` naming the
    extra that installs ``distribution``.

    >>> require("json", "json", "none").__name__
    'json'
    >>> require("no_such_module_here", "no-such-dist", "bm25")
    Traceback (most recent call last):
        ...
    ef.evaluation.MissingDependencyError: this needs no-such-dist, which is not installed: \
pip install "ef-evaluation[bm25]"
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.partition(".")[0] != exc.name.partition(".")[0]:
            raise  # the package is there but one of its own imports is missing
        command = f'pip install "ef-evaluation[{extra}]"'
        raise MissingDependencyError(
            f"this needs {distribution}, which is not installed: {command}"
        ) from exc
