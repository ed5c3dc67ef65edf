"""Retriever adapters: what turns a retriever object into a search function.

The generic built-ins (``basic``, ``precomputed``) and the adapters for LangChain, LlamaIndex,
Haystack and bm25s. Each library adapter recognises its objects without importing the
library, and these wrappers let you choose where the doc id is read from:

* :func:`langchain` (``Document.id``, or ``metadata[id_field]``),
* :func:`llamaindex` (the node's source document, or ``metadata[id_field]``),
* :func:`haystack` (``Document.id``, or ``meta[id_field]``),
* :func:`bm25s` (``corpus_ids``, or each corpus entry's ``id_field``).

Each returns a picklable object with ``search`` and, where the library batches,
``search_batch``, which :func:`~ef.evaluation.retrieve` and
:func:`~ef.evaluation.evaluate_retrieval` accept as it is.
"""

from __future__ import annotations

from ._bm25s import BM25sSearch, bm25s
from ._haystack import HaystackSearch, haystack
from ._langchain import LangChainSearch, langchain
from ._llamaindex import LlamaIndexSearch, llamaindex

__all__ = [
    "BM25sSearch",
    "HaystackSearch",
    "LangChainSearch",
    "LlamaIndexSearch",
    "bm25s",
    "haystack",
    "langchain",
    "llamaindex",
]
