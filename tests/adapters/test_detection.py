"""Choosing an adapter: library objects are recognised without importing the library."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ef.evaluation import Registry, retrieve

from .corpus import QUERIES


def test_detection_imports_no_library() -> None:
    code = (
        "import sys; from ef.evaluation import Registry, retrieve;"
        "r = retrieve(lambda q: [q], {'q': 'x'}, registry=Registry.load(autoload=False));"
        "print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in {'langchain_core', 'llama_index', 'haystack', 'bm25s', 'Stemmer'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "[]"


def test_library_adapters_come_before_the_generic_ones(builtin_registry) -> None:
    names = [a.name for a in builtin_registry.adapters]
    assert names == [
        "langchain",
        "llamaindex",
        "haystack",
        "bm25s",
        "search_batch_method",
        "search_method",
        "retrieve_method",
        "precomputed_run",
        "callable",
    ]


def test_nothing_fits_lists_every_adapter_tried(builtin_registry) -> None:
    with pytest.raises(
        TypeError,
        match=r"no retriever adapter accepts object objects; tried: langchain \(LangChain .*\), "
        r"llamaindex .*haystack .*bm25s .*search_batch_method .*callable",
    ):
        retrieve(object(), QUERIES, registry=builtin_registry)


def test_registries_see_the_library_adapters_of_the_default_registry() -> None:
    assert [a.name for a in Registry.load(autoload=False).adapters][:4] == [
        "langchain",
        "llamaindex",
        "haystack",
        "bm25s",
    ]
