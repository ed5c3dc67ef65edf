"""The LangChain adapter against langchain-core: a retriever subclass and a vector store."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import pickle

import pytest

from ef.evaluation import RetrieverError, evaluate_retrieval, retrieve
from ef.evaluation import adapters as ef_adapters
from ef.evaluation._engine.retrieve import searcher_for

from .corpus import EXPECTED, QRELS, QUERIES, ROOT, TEXTS, keyword_ranking

pytestmark = pytest.mark.retrievers

langchain_core = pytest.importorskip("langchain_core", reason="the langchain extra")
from langchain_core.callbacks import CallbackManagerForRetrieverRun  # noqa: E402
from langchain_core.documents import Document as LCDocument  # noqa: E402
from langchain_core.retrievers import BaseRetriever as LCBaseRetriever  # noqa: E402


class KeywordRetriever(LCBaseRetriever):  # type: ignore[misc]  # LangChain is Any to mypy here
    """A LangChain retriever over TEXTS; ``with_ids=False`` leaves Document.id unset."""

    with_ids: bool = True
    k: int = 10

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[LCDocument]:
        if query == "explode":
            raise ConnectionError("vector store offline")
        return [
            LCDocument(
                id=doc if self.with_ids else None,
                page_content=TEXTS[doc],
                metadata={"doc_id": doc.upper(), "source": "toy"},
            )
            for doc in keyword_ranking(query, self.k)
        ]


def test_langchain_retriever_is_batched_with_document_ids(builtin_registry) -> None:
    retriever = KeywordRetriever()
    assert searcher_for(retriever, builtin_registry).adapter == "langchain"
    result = retrieve(retriever, QUERIES, batch_size=3, registry=builtin_registry)
    assert dict(result.rankings) == EXPECTED
    report = evaluate_retrieval(retriever, QRELS, QUERIES, k_values=(2,), executor=2)
    assert report.per_query["q1"]["recall@2"] == 1.0


def test_langchain_id_field_reads_metadata(builtin_registry) -> None:
    wrapped = ef_adapters.langchain(KeywordRetriever(with_ids=False), id_field="doc_id")
    result = retrieve(wrapped, QUERIES, registry=builtin_registry)
    assert dict(result.rankings) == {
        q: tuple(d.upper() for d in docs) for q, docs in EXPECTED.items()
    }


def test_langchain_missing_ids_name_the_query_and_the_field(builtin_registry) -> None:
    with pytest.raises(
        TypeError,
        match=r"query 'q1': a LangChain Document has no id \(Document.id is None\).*"
        r"id_field='doc_id'",
    ):
        retrieve(KeywordRetriever(with_ids=False), QUERIES, registry=builtin_registry)
    with pytest.raises(
        TypeError,
        match=r"query 'q1': a LangChain Document's metadata has no 'page' \(its keys: "
        r"'doc_id', 'source'\); pass id_field=",
    ):
        retrieve(
            ef_adapters.langchain(KeywordRetriever(), id_field="page"),
            QUERIES,
            on_error="skip",  # a missing id is never skipped
            registry=builtin_registry,
        )


def test_langchain_failure_names_the_query(builtin_registry) -> None:
    queries = {**QUERIES, "q9": "explode"}
    with pytest.raises(RetrieverError, match=r"query 'q9': ConnectionError: vector store offline"):
        retrieve(KeywordRetriever(), queries, batch_size=5, registry=builtin_registry)
    skipped = retrieve(
        KeywordRetriever(), queries, batch_size=5, on_error="skip", registry=builtin_registry
    )
    assert dict(skipped.failures) == {"q9": "ConnectionError: vector store offline"}
    assert dict(skipped.rankings) == EXPECTED


def test_langchain_vector_store_retriever_takes_the_limit(builtin_registry) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    store.add_documents(
        [LCDocument(id=d, page_content=t, metadata={"doc_id": d}) for d, t in TEXTS.items()]
    )
    retriever = store.as_retriever(search_kwargs={"k": 2})
    by_default = retrieve(retriever, QUERIES, limit=4, registry=builtin_registry)
    assert {len(docs) for docs in by_default.rankings.values()} == {2}  # the retriever's k
    wrapped = ef_adapters.langchain(retriever, limit_kwarg="k")
    with_limit = retrieve(wrapped, QUERIES, limit=4, registry=builtin_registry)
    assert {len(docs) for docs in with_limit.rankings.values()} == {4}
    for qid, docs in by_default.rankings.items():
        assert with_limit.rankings[qid][:2] == docs  # the same order, further down
    assert searcher_for(wrapped, builtin_registry).adapter == "search_batch_method"


def test_langchain_retriever_runs_in_worker_processes(monkeypatch, builtin_registry) -> None:
    monkeypatch.syspath_prepend(str(ROOT))  # the workers import this module for the class
    search = pickle.loads(pickle.dumps(ef_adapters.langchain(KeywordRetriever())))
    assert search.search("cats", 10) == ["d1", "d3"]
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(2, mp_context=context) as pool:
        result = retrieve(
            KeywordRetriever(), QUERIES, executor=pool, batch_size=2, registry=builtin_registry
        )
    assert dict(result.rankings) == EXPECTED
