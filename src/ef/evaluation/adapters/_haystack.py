"""Haystack retriever components: ``run(query=..., top_k=...) -> {"documents": [...]}``.
Extra ``haystack``; nothing here imports Haystack."""

from __future__ import annotations

from typing import Any

import attrs

from ._ids import document_id

__all__ = ["HaystackSearch", "haystack", "is_haystack_retriever"]


def is_haystack_retriever(obj: object) -> bool:
    """True for a Haystack component with ``query`` and ``top_k`` inputs and a ``documents``
    output, as its text retrievers have (``InMemoryBM25Retriever``, Elasticsearch's, ...).

    The sockets are attributes that Haystack's ``@component`` gives each instance, so
    Haystack is never imported to find out.
    """
    inputs = getattr(obj, "__haystack_input__", None)
    outputs = getattr(obj, "__haystack_output__", None)
    try:
        return (
            inputs is not None
            and outputs is not None
            and "query" in inputs
            and "top_k" in inputs
            and "documents" in outputs
        )
    except TypeError:  # an unrelated object with such attributes
        return False


@attrs.frozen
class HaystackSearch:
    """A Haystack retriever component as ``search(query, limit)``; build it with
    :func:`haystack`."""

    retriever: Any
    #: None reads ``Document.id``; a name reads ``Document.meta[id_field]``.
    id_field: str | None = None

    def _doc_id(self, document: Any) -> str:
        return document_id(
            document,
            self.id_field,
            fields="meta",
            what="a Haystack Document's meta",
            wrapper="haystack",
            no_id="a Haystack Document has no id; read the doc id from its meta: "
            "ef.evaluation.adapters.haystack(retriever, id_field='doc_id')",
        )

    def search(self, query: str, limit: int = 10) -> list[str]:
        """Doc ids for one query, from ``retriever.run(query=query, top_k=limit)``."""
        output = self.retriever.run(query=query, top_k=limit)
        return [self._doc_id(doc) for doc in list(output["documents"])[:limit]]


def haystack(retriever: Any, *, id_field: str | None = None) -> HaystackSearch:
    """Evaluate a Haystack retriever component, reading doc ids from ``id_field``.

    Each query goes to ``retriever.run(query=text, top_k=limit)``. A document's doc id is its
    ``id`` by default (Haystack makes one from the content when none is given: give your
    documents the ids of the qrels), or ``meta[id_field]``.

    Passing such a component itself is the same as ``haystack(retriever)``.

    >>> haystack(object(), id_field="doc_id").id_field
    'doc_id'
    """
    return HaystackSearch(retriever, id_field=id_field)
