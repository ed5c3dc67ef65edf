"""The spec's retrievers: callables ``(query, *, limit)`` and ``.search`` / ``.retrieve`` objects.

A retriever that takes no ``limit`` keyword is called with the query alone; the engine then
keeps the first ``limit`` results.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from ..interfaces import SearchFunction

__all__ = [
    "adapt_callable",
    "adapt_retrieve",
    "adapt_search",
    "has_retrieve",
    "has_search",
]


def _accepts_limit(func: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):  # some builtins have no signature; assume the spec's shape
        return True
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == "limit" and p.kind is not inspect.Parameter.POSITIONAL_ONLY)
        for p in parameters
    )


def _with_limit(func: Callable[..., Sequence[Any]]) -> SearchFunction:
    if _accepts_limit(func):
        return lambda query, limit: func(query, limit=limit)
    return lambda query, limit: func(query)


def has_search(obj: object) -> bool:
    """True for objects with a callable ``.search`` attribute."""
    return callable(getattr(obj, "search", None))


def has_retrieve(obj: object) -> bool:
    """True for objects with a callable ``.retrieve`` attribute."""
    return callable(getattr(obj, "retrieve", None))


def adapt_search(obj: Any) -> SearchFunction:
    """``obj.search(query, limit=limit)``.

    >>> class Index:
    ...     def search(self, query, limit=10):
    ...         return ["d1", "d2", "d3"][:limit]
    >>> adapt_search(Index())("q", 2)
    ['d1', 'd2']
    """
    return _with_limit(obj.search)


def adapt_retrieve(obj: Any) -> SearchFunction:
    """``obj.retrieve(query, limit=limit)``, or ``obj.retrieve(query)`` if it takes no limit."""
    return _with_limit(obj.retrieve)


def adapt_callable(obj: Any) -> SearchFunction:
    """``obj(query, limit=limit)``, or ``obj(query)`` if it takes no limit.

    >>> adapt_callable(lambda query: [query.upper()])("d1", 5)
    ['D1']
    """
    return _with_limit(obj)
