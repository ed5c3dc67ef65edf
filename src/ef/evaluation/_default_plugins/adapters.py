"""Registers the built-in retriever adapters, after every plugin's (``trylast``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..interfaces import BatchSearchFunction, RetrieverAdapter, SearchFunction


# The libraries' adapters with their documented defaults; the wrappers in
# ef.evaluation.adapters take other id fields.
def _adapt_langchain(obj: Any) -> BatchSearchFunction:
    from ..adapters import _langchain, basic

    return basic.adapt_search_batch(_langchain.langchain(obj))


def _adapt_llamaindex(obj: Any) -> SearchFunction:
    from ..adapters import _llamaindex, basic

    return basic.adapt_search(_llamaindex.llamaindex(obj))


def _adapt_haystack(obj: Any) -> SearchFunction:
    from ..adapters import _haystack, basic

    return basic.adapt_search(_haystack.haystack(obj))


def _adapt_bm25s(obj: Any) -> BatchSearchFunction:
    from ..adapters import _bm25s, basic

    return basic.adapt_search_batch(_bm25s.bm25s(obj))


@hookimpl(trylast=True)
def ef_evaluation_retriever_adapters() -> list[RetrieverAdapter]:
    # The libraries' adapters first: a LlamaIndex retriever and a bm25s.BM25 have a .retrieve
    # that the generic adapter would call wrongly. Then batch methods before per-query ones,
    # methods before plain callables: an object may be callable *and* have .search; a run
    # mapping is neither.
    from ..adapters import _bm25s, _haystack, _langchain, _llamaindex, basic, precomputed
    from ..interfaces import RetrieverAdapter

    return [
        RetrieverAdapter(
            name="langchain",
            accepts=_langchain.is_langchain_retriever,
            adapt_batch=_adapt_langchain,
            description="LangChain BaseRetriever: .batch(texts); doc id = Document.id.",
        ),
        RetrieverAdapter(
            name="llamaindex",
            accepts=_llamaindex.is_llamaindex_retriever,
            adapt=_adapt_llamaindex,
            description="LlamaIndex BaseRetriever: .retrieve(text); doc id = node.ref_doc_id.",
        ),
        RetrieverAdapter(
            name="haystack",
            accepts=_haystack.is_haystack_retriever,
            adapt=_adapt_haystack,
            description="Haystack retrievers: .run(query=, top_k=); doc id = Document.id.",
        ),
        RetrieverAdapter(
            name="bm25s",
            accepts=_bm25s.is_bm25s_retriever,
            adapt_batch=_adapt_bm25s,
            description="bm25s.BM25 whose corpus holds {'id': ...} dicts.",
        ),
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
