"""The spec's retrievers: callables ``(query, *, limit)``, ``.search`` / ``.retrieve`` objects,
and objects with ``.search_batch(texts, limit)``.

A retriever that takes no ``limit`` keyword is called with the query alone; the engine then
keeps the first ``limit`` results. Every function returned here is an instance of a small
module-level class, so it pickles whenever the retriever does (process pools and Dask ship
it to their workers).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..interfaces import BatchSearchFunction, SearchFunction

__all__ = [
    "CallSearch",
    "CallSearchBatch",
    "adapt_callable",
    "adapt_retrieve",
    "adapt_search",
    "adapt_search_batch",
    "has_retrieve",
    "has_search",
    "has_search_batch",
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


@attrs.frozen
class CallSearch:
    """``func(query, limit=limit)``, or ``func(query)`` when ``pass_limit`` is false.

    A picklable :data:`~ef.evaluation.interfaces.SearchFunction` around any callable.

    >>> CallSearch(str.split, pass_limit=False)("a b", 1)
    ['a', 'b']
    """

    func: Callable[..., Sequence[Any]]
    pass_limit: bool = True

    def __call__(self, query: str, limit: int) -> Sequence[Any]:
        if self.pass_limit:
            return self.func(query, limit=limit)
        return self.func(query)


@attrs.frozen
class CallSearchBatch:
    """``func(list(query_texts), limit=limit)``: a picklable
    :data:`~ef.evaluation.interfaces.BatchSearchFunction` around a batch method.

    >>> def search_batch(texts, limit):
    ...     return [[t.upper()] * limit for t in texts]
    >>> CallSearchBatch(search_batch)(["q1", "q2"], ["a", "b"], 2)
    [['A', 'A'], ['B', 'B']]
    """

    func: Callable[..., Sequence[Sequence[Any]]]

    def __call__(
        self, query_ids: Sequence[str], query_texts: Sequence[str], limit: int
    ) -> Sequence[Sequence[Any]]:
        return self.func(list(query_texts), limit=limit)


def _with_limit(func: Callable[..., Sequence[Any]]) -> SearchFunction:
    return CallSearch(func, pass_limit=_accepts_limit(func))


def has_search_batch(obj: object) -> bool:
    """True for objects with a callable ``.search_batch`` attribute."""
    return callable(getattr(obj, "search_batch", None))


def has_search(obj: object) -> bool:
    """True for objects with a callable ``.search`` attribute."""
    return callable(getattr(obj, "search", None))


def has_retrieve(obj: object) -> bool:
    """True for objects with a callable ``.retrieve`` attribute."""
    return callable(getattr(obj, "retrieve", None))


def adapt_search_batch(obj: Any) -> BatchSearchFunction:
    """``obj.search_batch(texts, limit=limit)``: one list of results per text, in order.

    >>> class Index:
    ...     def search_batch(self, texts, limit=10):
    ...         return [[f"{t}-1", f"{t}-2"][:limit] for t in texts]
    >>> adapt_search_batch(Index())(["q1", "q2"], ["a", "b"], 1)
    [['a-1'], ['b-1']]
    """
    return CallSearchBatch(obj.search_batch)


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
