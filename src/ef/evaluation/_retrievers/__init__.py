"""Baseline retrievers: BM25 (bm25s) and dense (sentence-transformers), and load_retriever().

Importing this package imports neither bm25s nor torch: each class loads its library when it
is first used, and the names are resolved lazily (PEP 562).

>>> from ef.evaluation._retrievers import BM25Retriever
>>> bm25 = BM25Retriever({"d1": "a red fox", "d2": "a blue whale"})
>>> [(doc_id, round(score, 3)) for doc_id, score in bm25.search("fox", limit=5)]
[('d1', 0.365)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._load import load_retriever
    from .bm25 import BM25Retriever
    from .dense import DenseRetriever

__all__ = ["BM25Retriever", "DenseRetriever", "load_retriever"]


def __getattr__(name: str) -> object:
    if name == "BM25Retriever":
        from .bm25 import BM25Retriever

        return BM25Retriever
    if name == "DenseRetriever":
        from .dense import DenseRetriever

        return DenseRetriever
    if name == "load_retriever":
        from ._load import load_retriever

        return load_retriever
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
