"""LangChain retrievers (``langchain_core.retrievers.BaseRetriever``), batched through
``Runnable.batch``. Extra ``langchain``; nothing here imports LangChain."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from ._ids import document_id, instance_of

__all__ = ["LangChainSearch", "is_langchain_retriever", "langchain"]


def is_langchain_retriever(obj: object) -> bool:
    """True for an instance of ``langchain_core.retrievers.BaseRetriever`` (LangChain is never
    imported to find out)."""
    return instance_of(obj, "langchain_core.retrievers", "BaseRetriever")


@attrs.frozen
class LangChainSearch:
    """A LangChain retriever as ``search_batch(texts, limit)`` and ``search(query, limit)``.

    Build it with :func:`langchain`. It pickles when the retriever does.
    """

    retriever: Any
    #: None reads ``Document.id``; a name reads ``Document.metadata[id_field]``.
    id_field: str | None = None
    #: The keyword that carries ``limit`` to the retriever (``"k"`` for a vector store's
    #: retriever), or None to leave the retriever's own number of results.
    limit_kwarg: str | None = None

    def _doc_id(self, document: Any) -> str:
        return document_id(
            document,
            self.id_field,
            fields="metadata",
            what="a LangChain Document's metadata",
            wrapper="langchain",
            no_id="a LangChain Document has no id (Document.id is None); give the documents "
            "ids, or read them from their metadata: "
            "ef.evaluation.adapters.langchain(retriever, id_field='doc_id')",
        )

    def search_batch(self, texts: Sequence[str], limit: int = 10) -> list[list[str]]:
        """Doc ids for each text, from one ``retriever.batch(texts)`` call."""
        kwargs = {self.limit_kwarg: limit} if self.limit_kwarg else {}
        answers = self.retriever.batch(list(texts), **kwargs)
        return [[self._doc_id(doc) for doc in list(docs)[:limit]] for docs in answers]

    def search(self, query: str, limit: int = 10) -> list[str]:
        """Doc ids for one query, from ``retriever.invoke(query)``."""
        kwargs = {self.limit_kwarg: limit} if self.limit_kwarg else {}
        return [self._doc_id(doc) for doc in list(self.retriever.invoke(query, **kwargs))[:limit]]


def langchain(
    retriever: Any, *, id_field: str | None = None, limit_kwarg: str | None = None
) -> LangChainSearch:
    """Evaluate a LangChain retriever, reading doc ids from ``id_field``.

    Queries go to ``retriever.batch(texts)`` (LangChain's Runnable batching), one call per
    batch of :func:`~ef.evaluation.retrieve`. The doc id of each ``Document`` is its ``id`` by
    default, or ``metadata[id_field]``. LangChain retrievers fix their own number of results
    (``search_kwargs={"k": ...}``); ``limit_kwarg="k"`` passes the evaluation's ``limit`` to
    retrievers that take it at call time, as a vector store's retriever does.

    Passing a ``BaseRetriever`` itself is the same as ``langchain(retriever)``.

    >>> search = langchain(object(), id_field="doc_id")
    >>> search.id_field
    'doc_id'
    """
    return LangChainSearch(retriever, id_field=id_field, limit_kwarg=limit_kwarg)
