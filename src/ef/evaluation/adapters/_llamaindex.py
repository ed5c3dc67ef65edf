"""LlamaIndex retrievers (``llama_index.core.base.base_retriever.BaseRetriever``). Extra
``llamaindex``; nothing here imports LlamaIndex."""

from __future__ import annotations

from typing import Any

import attrs

from ._ids import DocIdError, as_doc_id, field_id, instance_of

__all__ = ["LlamaIndexSearch", "is_llamaindex_retriever", "llamaindex"]


def is_llamaindex_retriever(obj: object) -> bool:
    """True for an instance of LlamaIndex's ``BaseRetriever`` (LlamaIndex is never imported to
    find out)."""
    return instance_of(obj, "llama_index.core.base.base_retriever", "BaseRetriever")


@attrs.frozen
class LlamaIndexSearch:
    """A LlamaIndex retriever as ``search(query, limit)``; build it with :func:`llamaindex`."""

    retriever: Any
    #: None reads the source document's id (``ref_doc_id``), else the node's own id;
    #: a name reads ``node.metadata[id_field]``.
    id_field: str | None = None

    def _doc_id(self, result: Any) -> str:
        node = getattr(result, "node", result)  # a NodeWithScore, or a bare node
        if self.id_field is not None:
            metadata = getattr(node, "metadata", None)
            return field_id(metadata, self.id_field, "a LlamaIndex node's metadata", "llamaindex")
        source = getattr(node, "source_node", None)  # what ref_doc_id reads
        found = as_doc_id(getattr(source, "node_id", None)) or as_doc_id(
            getattr(node, "node_id", None)
        )
        if found is None:
            raise DocIdError(
                f"a LlamaIndex result {type(node).__name__} has neither a source document "
                "(ref_doc_id) nor a node_id; read the doc id from its metadata: "
                "ef.evaluation.adapters.llamaindex(retriever, id_field='doc_id')"
            )
        return found

    def search(self, query: str, limit: int = 10) -> list[str]:
        """Doc ids for one query, from ``retriever.retrieve(query)``."""
        return [self._doc_id(result) for result in list(self.retriever.retrieve(query))[:limit]]


def llamaindex(retriever: Any, *, id_field: str | None = None) -> LlamaIndexSearch:
    """Evaluate a LlamaIndex retriever, reading doc ids from ``id_field``.

    Each query goes to ``retriever.retrieve(text)``. By default a node's doc id is the id of
    the document it was cut from (``node.ref_doc_id``), so that the chunks of one document
    count as that document; a node with no source document gives its own ``node_id``.
    ``id_field`` reads ``node.metadata[id_field]`` instead. LlamaIndex retrievers fix their
    own number of results (``similarity_top_k``): set it to at least ``limit``.

    Passing a ``BaseRetriever`` itself is the same as ``llamaindex(retriever)``.

    >>> llamaindex(object(), id_field="doc_id").id_field
    'doc_id'
    """
    return LlamaIndexSearch(retriever, id_field=id_field)
