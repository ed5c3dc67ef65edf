"""Registers the built-in retriever adapters, after every plugin's (``trylast``)."""

from __future__ import annotations

from ..adapters import basic, precomputed
from ..hookspecs import hookimpl
from ..interfaces import RetrieverAdapter


@hookimpl(trylast=True)
def ef_evaluation_retriever_adapters() -> list[RetrieverAdapter]:
    # Batch methods before per-query ones, methods before plain callables: an object may be
    # callable *and* have .search; a run mapping is neither.
    return [
        RetrieverAdapter(
            name="search_batch_method",
            accepts=basic.has_search_batch,
            adapt_batch=basic.adapt_search_batch,
            description="Objects with .search_batch(texts, limit=...), one result list per text.",
        ),
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
            name="precomputed_run",
            accepts=precomputed.is_precomputed_run,
            adapt_batch=precomputed.adapt_precomputed_run,
            description=(
                "A run answering by query id: {qid: {doc: score}}, {qid: [docs]}, or a run file."
            ),
        ),
        RetrieverAdapter(
            name="callable",
            accepts=callable,
            adapt=basic.adapt_callable,
            description="Callables query -> results, with an optional limit= keyword.",
        ),
    ]
