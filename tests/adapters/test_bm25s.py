"""The bm25s adapter against bm25s and PyStemmer: a BM25 index of five docs."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from ef.evaluation import adapters as ef_adapters
from ef.evaluation import retrieve
from ef.evaluation._engine.retrieve import searcher_for

from .corpus import QUERIES, TEXTS

pytestmark = pytest.mark.retrievers


@pytest.fixture
def bm25s_lib() -> Any:
    pytest.importorskip("Stemmer", reason="the bm25 extra")
    return pytest.importorskip("bm25s", reason="the bm25 extra")


def bm25_index(bm25s_lib: Any, corpus: Any, *, stemmer: Any = None) -> Any:
    index = bm25s_lib.BM25(corpus=corpus)
    tokens = bm25s_lib.tokenize(list(TEXTS.values()), stemmer=stemmer, show_progress=False)
    index.index(tokens, show_progress=False)
    return index


def test_bm25s_index_with_ids_in_its_corpus(bm25s_lib, builtin_registry) -> None:
    index = bm25_index(bm25s_lib, [{"id": d, "text": t} for d, t in TEXTS.items()])
    assert searcher_for(index, builtin_registry).adapter == "bm25s"
    result = retrieve(index, QUERIES, limit=3, batch_size=2, registry=builtin_registry)
    # The best doc first; docs without a query term (score 0) are left out, so "zebra" finds
    # nothing and "cats" finds only the two docs that hold it.
    assert result.rankings["q1"] in {("d1", "d3"), ("d3", "d1")}
    assert result.rankings["q2"][0] == "d2"
    assert result.rankings["q3"] == ("d4",)
    assert result.rankings["q4"] == ()
    assert retrieve(index, QUERIES, limit=3, executor=2, batch_size=1) == result


def test_bm25s_limit_above_the_corpus_size(bm25s_lib, builtin_registry) -> None:
    index = bm25_index(bm25s_lib, [{"id": d} for d in TEXTS])
    result = retrieve(index, {"q": "cats dogs"}, limit=100, registry=builtin_registry)
    assert sorted(result.rankings["q"]) == ["d1", "d2", "d3"]


def test_bm25s_wrapper_with_corpus_ids_and_a_stemmer(bm25s_lib, builtin_registry) -> None:
    import Stemmer

    index = bm25_index(bm25s_lib, None, stemmer=Stemmer.Stemmer("english"))
    wrapped = ef_adapters.bm25s(index, corpus_ids=list(TEXTS), stemmer="english")
    # "barking" and "dog" only match once stemmed as the corpus was.
    assert wrapped.search("barking dog", 1) == ["d2"]
    unstemmed = ef_adapters.bm25s(index, corpus_ids=list(TEXTS))
    assert unstemmed.search("barking", 5) == []
    again = pickle.loads(pickle.dumps(wrapped))  # a stemmer named by language pickles
    assert again.search_batch(["barking dog", "swimming"], 1) == [["d2"], ["d4"]]
    assert searcher_for(wrapped, builtin_registry).adapter == "search_batch_method"


def test_bm25s_id_field(bm25s_lib, builtin_registry) -> None:
    index = bm25_index(bm25s_lib, [{"_id": d.upper()} for d in TEXTS])
    wrapped = ef_adapters.bm25s(index, id_field="_id")
    assert wrapped.search("fish", 3) == ["D4"]


@pytest.mark.parametrize(
    ("corpus", "message"),
    [
        (None, r"this bm25s.BM25 has no corpus to read doc ids from; pass .*corpus_ids="),
        (
            list(TEXTS.values()),
            r"bm25s.BM25 corpus\[0\] is a str, not a dict with a str or int 'id' field",
        ),
        (
            [{"id": "d1"}, {"doc": "d2"}, {"id": "d3"}, {"id": "d4"}, {"id": "d5"}],
            r"bm25s.BM25 corpus\[1\] is \{'doc': 'd2'\}, not a dict with a str or int 'id' field",
        ),
    ],
)
def test_bm25s_without_ids_is_a_type_error(corpus, message, bm25s_lib, builtin_registry) -> None:
    with pytest.raises(TypeError, match=message):
        retrieve(bm25_index(bm25s_lib, corpus), QUERIES, registry=builtin_registry)


def test_bm25s_bad_corpus_ids(bm25s_lib) -> None:
    index = bm25_index(bm25s_lib, None)
    with pytest.raises(ValueError, match=r"corpus_ids holds 2 ids for an index of 5 docs"):
        ef_adapters.bm25s(index, corpus_ids=["d1", "d2"])
    with pytest.raises(TypeError, match=r"corpus_ids\[1\] is None, not a str or int doc id"):
        ef_adapters.bm25s(index, corpus_ids=["d1", None, "d3", "d4", "d5"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"the bm25s.BM25 index is empty: call .*index"):
        ef_adapters.bm25s(bm25s_lib.BM25(), corpus_ids=[])
