"""load_retriever(): built-in names, module:object imports, and the errors for bad names."""

from __future__ import annotations

import textwrap

import pytest

from ef.evaluation import BM25Retriever, load_retriever

pytestmark = pytest.mark.retrievers

pytest.importorskip("bm25s", reason="the bm25 extra is not installed")

CORPUS = {"d1": "a red fox", "d2": "a blue whale"}

MODULE = """
from ef.evaluation import BM25Retriever

class Plain:
    def __init__(self, corpus, *, boost=1.0):
        self.corpus, self.boost = dict(corpus), boost

    def search(self, query, limit=10):
        return [d for d, text in self.corpus.items() if query in text][:limit]

class Built:
    def __init__(self, how):
        self.how = how

    @classmethod
    def from_corpus(cls, corpus, **options):
        return cls(("from_corpus", sorted(corpus), options))

READY = Plain({"x": "ready"})

def search(query, *, limit=10):
    return ["x"][:limit]

class Outer:
    Inner = Plain
"""


@pytest.fixture
def user_module(tmp_path, monkeypatch) -> str:
    (tmp_path / "my_retrievers.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "my_retrievers", raising=False)
    return "my_retrievers"


def test_bm25_is_built_over_the_corpus_with_the_options() -> None:
    retriever = load_retriever("bm25", CORPUS, k1=1.2, b=0.75)
    assert isinstance(retriever, BM25Retriever)
    assert (retriever.k1, retriever.b) == (1.2, 0.75)
    assert retriever.search("whale", 5)[0][0] == "d2"


def test_a_class_is_called_with_the_corpus(user_module) -> None:
    plain = load_retriever(f"{user_module}:Plain", CORPUS, boost=2.0)
    assert (plain.corpus, plain.boost) == (CORPUS, 2.0)
    assert type(load_retriever(f"{user_module}:Outer.Inner", CORPUS)).__name__ == "Plain"


def test_a_class_with_from_corpus_is_built_through_it(user_module) -> None:
    built = load_retriever(f"{user_module}:Built", CORPUS, k=3)
    assert built.how == ("from_corpus", ["d1", "d2"], {"k": 3})


def test_anything_else_is_the_retriever_itself(user_module) -> None:
    import my_retrievers  # type: ignore[import-not-found]

    assert load_retriever(f"{user_module}:READY", CORPUS) is my_retrievers.READY
    assert load_retriever(f"{user_module}:search", CORPUS) is my_retrievers.search
    with pytest.raises(
        ValueError, match=r"is a ready Plain, not a class: it takes no options \(got k1\)"
    ):
        load_retriever(f"{user_module}:READY", CORPUS, k1=1.0)


def test_unknown_names_and_bad_imports_are_clear_errors(user_module) -> None:
    with pytest.raises(
        ValueError,
        match=r"unknown retriever 'bm52' \(did you mean 'bm25'\?\); expected bm25, dense, or module:object",
    ):
        load_retriever("bm52", CORPUS)
    with pytest.raises(ValueError, match=r"unknown retriever 'splade'; expected bm25, dense"):
        load_retriever("splade", CORPUS)
    with pytest.raises(
        ValueError,
        match=r"retriever 'no_such_module_x:R': cannot import 'no_such_module_x': ModuleNotFoundError",
    ):
        load_retriever("no_such_module_x:R", CORPUS)
    with pytest.raises(ValueError, match=r"module 'my_retrievers' has no attribute 'Missing'"):
        load_retriever(f"{user_module}:Missing", CORPUS)
    with pytest.raises(ValueError, match=r"retriever ':R': expected module:object"):
        load_retriever(":R", CORPUS)
    with pytest.raises(ValueError, match=r"retriever 'my_retrievers:': expected module:object"):
        load_retriever(f"{user_module}:", CORPUS)


def test_a_module_that_fails_on_import_names_its_error(tmp_path, monkeypatch) -> None:
    (tmp_path / "broken_retriever.py").write_text("raise RuntimeError('no index here')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(
        ValueError, match=r"cannot import 'broken_retriever': RuntimeError: no index here"
    ):
        load_retriever("broken_retriever:R", CORPUS)
