"""What the overlap metrics share: a sample's gold answers, and their libraries on demand."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ...errors import InvalidSampleError, MissingDependencyError

__all__ = ["gold_answers", "library"]


def gold_answers(sample: Mapping[str, Any]) -> list[str] | None:
    """``reference`` then the extra key ``references``, or None when there is neither.

    >>> gold_answers({"reference": "Paris", "references": ["the city of Paris"]})
    ['Paris', 'the city of Paris']
    >>> gold_answers({"response": "Paris"}) is None
    True
    """
    gold = [] if sample.get("reference") is None else [sample["reference"]]
    more = sample.get("references")
    if more is not None:
        if isinstance(more, str) or not all(isinstance(text, str) for text in more):
            raise InvalidSampleError(
                f"sample {sample.get('id', '')!r}: 'references' must be a list of strings "
                f"(the gold answers beside 'reference'), got {more!r:.80}"
            )
        gold += more
    return gold or None


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
