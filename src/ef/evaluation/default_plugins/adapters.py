"""Registers the built-in retriever adapters, after every plugin's (``trylast``)."""

from __future__ import annotations

from ..adapters import basic
from ..hookspecs import hookimpl
from ..interfaces import RetrieverAdapter


@hookimpl(trylast=True)
def ef_evaluation_retriever_adapters() -> list[RetrieverAdapter]:
    # Methods before plain callables: an object may be callable *and* have .search.
    return [
        RetrieverAdapter(
            name="search_method",
            accepts=basic.has_search,
            adapt=basic.adapt_search,
            description="Objects with .search(query, limit=...).",
        ),
        RetrieverAdapter(
            name="retrieve_method",
            accepts=basic.has_retrieve,
            adapt=basic.adapt_retrieve,
            description="Objects with .retrieve(query, ...).",
        ),
        RetrieverAdapter(
            name="callable",
            accepts=callable,
            adapt=basic.adapt_callable,
            description="Callables query -> results, with an optional limit= keyword.",
        ),
    ]
