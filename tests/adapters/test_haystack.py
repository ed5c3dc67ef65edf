"""The Haystack adapter against haystack-ai: InMemoryDocumentStore + InMemoryBM25Retriever."""

from __future__ import annotations

from typing import Any

import pytest

from ef.evaluation import adapters as ef_adapters
from ef.evaluation import evaluate_retrieval, retrieve
from ef.evaluation._engine.retrieve import searcher_for

from .corpus import QRELS, QUERIES, TEXTS

pytestmark = pytest.mark.retrievers


@pytest.fixture
def haystack_retriever() -> Any:
    pytest.importorskip("haystack", reason="the haystack extra")
    from haystack import Document
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    store = InMemoryDocumentStore()
    store.write_documents(
        [Document(id=d, content=t, meta={"doc_id": d.upper()}) for d, t in TEXTS.items()]
    )
    return InMemoryBM25Retriever(document_store=store)


def test_haystack_bm25_retriever(haystack_retriever, builtin_registry) -> None:
    assert searcher_for(haystack_retriever, builtin_registry).adapter == "haystack"
    result = retrieve(haystack_retriever, QUERIES, limit=1, executor=2, registry=builtin_registry)
    assert dict(result.rankings) == {"q1": ("d1",), "q2": ("d2",), "q3": ("d4",), "q4": ()}
    wide = retrieve(haystack_retriever, {"q1": "cats"}, limit=5, registry=builtin_registry)
    assert wide.rankings["q1"][:2] in {("d1", "d3"), ("d3", "d1")}
    report = evaluate_retrieval(haystack_retriever, QRELS, QUERIES, k_values=(1, 5))
    assert report.per_query["q3"]["ndcg@1"] == 1.0


def test_haystack_id_field_and_a_missing_field(haystack_retriever, builtin_registry) -> None:
    wrapped = ef_adapters.haystack(haystack_retriever, id_field="doc_id")
    result = retrieve(wrapped, {"q2": "dogs bark"}, limit=1, registry=builtin_registry)
    assert dict(result.rankings) == {"q2": ("D2",)}
    with pytest.raises(
        TypeError,
        match=r"query 'q2': a Haystack Document's meta has no 'url' \(its keys: 'doc_id'\)",
    ):
        retrieve(
            ef_adapters.haystack(haystack_retriever, id_field="url"),
            {"q2": "dogs bark"},
            registry=builtin_registry,
        )


def test_an_embedding_retriever_is_not_taken_for_a_text_one(builtin_registry) -> None:
    pytest.importorskip("haystack", reason="the haystack extra")
    from haystack.components.retrievers.in_memory import InMemoryEmbeddingRetriever
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    retriever = InMemoryEmbeddingRetriever(document_store=InMemoryDocumentStore())
    with pytest.raises(TypeError, match=r"no retriever adapter accepts InMemoryEmbeddingRetriever"):
        retrieve(retriever, QUERIES, registry=builtin_registry)
