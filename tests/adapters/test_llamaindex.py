"""The LlamaIndex adapter against llama-index-core: a custom retriever and a SummaryIndex."""

from __future__ import annotations

from typing import Any

import pytest

from ef.evaluation import adapters as ef_adapters
from ef.evaluation import retrieve
from ef.evaluation._engine.retrieve import searcher_for

from .corpus import EXPECTED, QUERIES, TEXTS

pytestmark = pytest.mark.retrievers


@pytest.fixture
def llama() -> Any:
    return pytest.importorskip("llama_index.core", reason="the llamaindex extra")


def llama_nodes(*, chunks: bool = True) -> list[Any]:
    from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

    nodes = []
    for doc, text in TEXTS.items():
        halves = [text] if not chunks else [" ".join(text.split()[:3]), " ".join(text.split()[3:])]
        for i, half in enumerate(halves):
            relationships = (
                {NodeRelationship.SOURCE: RelatedNodeInfo(node_id=doc)} if chunks else {}
            )
            nodes.append(
                TextNode(
                    text=half,
                    id_=f"{doc}#{i}",
                    relationships=relationships,
                    metadata={"doc_id": doc.upper()},
                )
            )
    return nodes


def llama_keyword_retriever(nodes: list[Any]) -> Any:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.schema import NodeWithScore

    class KeywordNodes(BaseRetriever):  # type: ignore[misc]  # LlamaIndex is Any to mypy here
        def _retrieve(self, query_bundle: Any) -> list[NodeWithScore]:
            words = set(query_bundle.query_str.split())
            scored = [(len(words & set(n.text.split())), n) for n in nodes]
            hits = sorted((s for s in scored if s[0]), key=lambda s: (-s[0], s[1].node_id))
            return [NodeWithScore(node=n, score=float(s)) for s, n in hits]

    return KeywordNodes()


def test_llamaindex_nodes_map_to_their_source_document(llama, builtin_registry) -> None:
    retriever = llama_keyword_retriever(llama_nodes())
    assert searcher_for(retriever, builtin_registry).adapter == "llamaindex"
    result = retrieve(retriever, QUERIES, executor=2, registry=builtin_registry)
    # Chunks of one document count once, at the best rank of any of them.
    assert dict(result.rankings) == EXPECTED


def test_llamaindex_nodes_without_a_source_give_their_own_id(llama, builtin_registry) -> None:
    result = retrieve(
        llama_keyword_retriever(llama_nodes(chunks=False)), QUERIES, registry=builtin_registry
    )
    assert dict(result.rankings) == {
        q: tuple(f"{d}#0" for d in docs) for q, docs in EXPECTED.items()
    }


def test_llamaindex_id_field_and_a_missing_field(llama, builtin_registry) -> None:
    retriever = llama_keyword_retriever(llama_nodes())
    wrapped = ef_adapters.llamaindex(retriever, id_field="doc_id")
    result = retrieve(wrapped, QUERIES, registry=builtin_registry)
    assert dict(result.rankings) == {
        q: tuple(d.upper() for d in docs) for q, docs in EXPECTED.items()
    }
    with pytest.raises(
        TypeError,
        match=r"query 'q1': a LlamaIndex node's metadata has no 'file_name' \(its keys: "
        r"'doc_id'\).*llamaindex\(retriever, id_field=",
    ):
        retrieve(
            ef_adapters.llamaindex(retriever, id_field="file_name"),
            QUERIES,
            registry=builtin_registry,
        )


def test_llamaindex_summary_index_retriever(llama, builtin_registry) -> None:
    from llama_index.core import SummaryIndex

    retriever = SummaryIndex(llama_nodes()).as_retriever()  # every node, in order
    result = retrieve(retriever, {"q1": "anything"}, registry=builtin_registry)
    assert result.rankings["q1"] == tuple(TEXTS)
