"""BM25Retriever against bm25s and the BM25 formula: corpus shapes, ties, pickling, SciFact."""

from __future__ import annotations

import math
import multiprocessing
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from ef.evaluation import (
    BM25Retriever,
    Document,
    MissingDependencyError,
    demo_path,
    evaluate_retrieval,
    evaluate_run,
    read_dataset,
)

from ..conftest import shared_path

pytestmark = pytest.mark.retrievers

pytest.importorskip("bm25s", reason="the bm25 extra is not installed")

CORPUS = {
    "d1": {"title": "Tides", "text": "The Moon's gravity raises the ocean tides."},
    "d2": {"title": "Volcanoes", "text": "Magma erupts from volcanoes."},
    "d3": {"title": "The Moon", "text": "The Moon orbits the Earth."},
}


def ids(hits: list[tuple[str, float]]) -> list[str]:
    return [doc_id for doc_id, _ in hits]


def test_every_corpus_shape_indexes_the_same_texts() -> None:
    documents = [Document(i, r["title"], r["text"]) for i, r in CORPUS.items()]
    plain = {i: f"{r['title']} {r['text']}" for i, r in CORPUS.items()}
    corpus, _, _ = read_dataset(demo_path())
    expected = BM25Retriever(CORPUS).search_batch(["moon tides", "magma"], 10)
    for shape in (documents, plain, iter(documents)):
        assert (
            BM25Retriever.from_corpus(shape).search_batch(["moon tides", "magma"], 10) == expected
        )
    streamed = BM25Retriever(corpus)  # a StreamingCorpus: its documents keep title and text
    assert len(streamed) == 36
    assert ids(streamed.search("Apollo 11", 3))[0] == "moon-2"


def test_titles_are_indexed_and_words_are_stemmed() -> None:
    bm25 = BM25Retriever(CORPUS)
    assert ids(bm25.search("volcano", 10)) == ["d2"]  # "volcanoes" in the title and text, stemmed
    assert ids(bm25.search("tide", 10)) == ["d1"]
    assert ids(bm25.search("orbiting", 10)) == ["d3"]


def test_documents_without_a_query_term_and_stopword_queries_are_left_out() -> None:
    bm25 = BM25Retriever(CORPUS)
    assert ids(bm25.search("moon", 10)) == ["d3", "d1"]  # d2 does not mention the Moon
    assert bm25.search("the of and", 10) == []
    assert bm25.search("", 10) == []
    assert bm25.search("zebra", 10) == []
    assert bm25.search_batch([], 10) == []


def test_scores_are_lucene_bm25_by_hand() -> None:
    corpus = {"a": "fox fox dog", "b": "fox cat", "c": "bird"}
    bm25 = BM25Retriever(corpus, k1=1.2, b=0.75, stopwords=None, stemmer=None)
    lengths = {"a": 3, "b": 2, "c": 1}
    average = sum(lengths.values()) / 3

    def score(tf: int, doc: str, df: int) -> float:
        idf = math.log(1 + (3 - df + 0.5) / (df + 0.5))
        return idf * tf / (tf + 1.2 * (1 - 0.75 + 0.75 * lengths[doc] / average))

    hits = dict(bm25.search("fox dog", 10))
    assert hits["a"] == pytest.approx(score(2, "a", 2) + score(1, "a", 1), rel=1e-6)
    assert hits["b"] == pytest.approx(score(1, "b", 2), rel=1e-6)
    assert set(hits) == {"a", "b"}


def test_equal_scores_rank_by_doc_id_descending_as_trec_eval() -> None:
    corpus = dict.fromkeys(("d10", "d2", "d1", "d3"), "the same red fox")
    bm25 = BM25Retriever(corpus)
    assert ids(bm25.search("fox", 10)) == ["d3", "d2", "d10", "d1"]
    assert ids(bm25.search("fox", 2)) == ["d3", "d2"]  # the cut keeps the same order
    assert len({score for _, score in bm25.search("fox", 10)}) == 1


def test_limit_order_and_search_agree_with_search_batch() -> None:
    corpus, queries, _ = read_dataset(demo_path())
    bm25 = BM25Retriever(corpus)
    texts = list(queries.values())
    batch = bm25.search_batch(texts, 5)
    assert [bm25.search(text, 5) for text in texts] == batch
    for hits in batch:
        assert len(hits) <= 5
        scores = [score for _, score in hits]
        assert scores == sorted(scores, reverse=True)
    assert bm25.search_batch(texts, 5) == batch  # deterministic


def test_it_pickles_with_its_stemmer_and_runs_in_a_process_pool() -> None:
    corpus, queries, _ = read_dataset(demo_path())
    bm25 = BM25Retriever(corpus)
    clone = pickle.loads(pickle.dumps(bm25))
    texts = list(queries.values())
    assert clone.search_batch(texts, 5) == bm25.search_batch(texts, 5)
    assert ids(clone.search("tides", 2)) == ["tide-1", "moon-1"]  # "tides" is still stemmed
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        # BM25Retriever.search pickles by name; the worker imports only ef.evaluation.
        remote = list(pool.map(BM25Retriever.search, [bm25] * 2, texts[:2]))
    assert remote == bm25.search_batch(texts[:2], 10)


def test_repr_names_the_parameters() -> None:
    assert repr(BM25Retriever(CORPUS, k1=1.5, b=0.75)) == (
        "<BM25Retriever 3 documents, k1=1.5, b=0.75, method='lucene'>"
    )


def test_bad_corpora_are_errors() -> None:
    with pytest.raises(ValueError, match="the corpus is empty: there is nothing to index"):
        BM25Retriever({})
    with pytest.raises(ValueError, match="the corpus has the doc id 'd1' twice"):
        BM25Retriever([Document("d1", text="a"), Document("d1", text="b")])
    with pytest.raises(TypeError, match=r"corpus document 'd1': expected a text or a .* got int"):
        BM25Retriever({"d1": 3})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"must yield ef\.evaluation\.Document values, got str"):
        BM25Retriever(["a text"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"k1": math.nan}, r"k1 must be a finite number >= 0 \(Lucene's 0\.9 to 1\.2\), got nan$"),
        ({"k1": math.inf}, r"k1 must be a finite number >= 0 .*got inf$"),
        ({"k1": -1.0}, r"k1 must be a finite number >= 0 .*got -1\.0$"),
        ({"k1": "1.2"}, r"k1 must be a finite number >= 0 .*got '1\.2'$"),
        (
            {"b": 2.0},
            r"b must lie between 0 and 1 \(0: no length normalisation, 1: full\), got 2\.0$",
        ),
        ({"b": -1}, r"b must lie between 0 and 1 .*got -1$"),
        ({"k1": -1, "b": math.nan}, r"k1 must be .* got -1; b must lie between 0 and 1 .*got nan$"),
    ],
)
def test_parameters_outside_their_range_are_refused(
    options: dict[str, object], message: str
) -> None:
    # Were scored: k1=nan retrieved nothing, k1=-1 dropped documents, b=-1 reversed the order.
    with pytest.raises(ValueError, match=f"^BM25Retriever: {message}"):
        BM25Retriever(CORPUS, **options)  # type: ignore[arg-type]


def test_the_ends_of_the_ranges_are_taken() -> None:
    for options in ({"k1": 0.0, "b": 0.0}, {"k1": 3, "b": 1}):
        assert BM25Retriever(CORPUS, **options).search("fox") is not None


def test_without_bm25s_the_error_gives_the_install_command(monkeypatch) -> None:
    bm25s = sys.modules["bm25s"]
    monkeypatch.setitem(sys.modules, "bm25s", None)
    with pytest.raises(MissingDependencyError, match=r'bm25s.*pip install "ef-evaluation\[bm25\]"'):
        BM25Retriever(CORPUS)
    monkeypatch.setitem(sys.modules, "bm25s", bm25s)
    monkeypatch.setitem(sys.modules, "Stemmer", None)
    with pytest.raises(MissingDependencyError, match=r"needs PyStemmer, which is not installed"):
        BM25Retriever(CORPUS)


def test_scifact_ndcg10_is_the_published_bm25s_figure() -> None:
    """BM25 (k1=0.9, b=0.4) lands in the issue's band, and ranks as the reference bm25s run."""
    scifact = shared_path("datasets", "scifact")
    reference = shared_path(
        "datasets", "scifact-runs", "run.scifact.test.bm25s-lucene-k1_0.9-b_0.4.txt.gz"
    )
    corpus, queries, qrels = read_dataset(scifact)
    metrics = ("ndcg@10", "recall@100", "map@100")
    report = evaluate_retrieval(BM25Retriever(corpus), qrels, queries, metrics=metrics)
    assert 0.665 <= report.metrics["ndcg@10"] <= 0.695
    expected = evaluate_run(reference, scifact, metrics=metrics)
    for key, value in expected.metrics.items():
        assert report.metrics[key] == pytest.approx(value, abs=1e-12), key
