"""Corpora stream: reading or converting one never holds all its texts in memory.

Measured with tracemalloc (allocations, not time): the peak while streaming a corpus of
5,000 passages of 4,000 characters (20 MB of text) stays below a quarter of the text.
Only the ids are kept (to refuse duplicates), about a hundred bytes each.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ef.evaluation import convert, read_dataset, write_dataset
from ef.evaluation._dataset import Document, DocumentStream

N_DOCS = 5_000
TEXT_CHARS = 4_000
TOTAL_TEXT = N_DOCS * TEXT_CHARS


def documents() -> Iterator[Document]:
    words = ["tide", "moon", "orbit", "gravity", "ocean", "coast", "water", "pull"]
    base = " ".join(random.Random(7).choice(words) for _ in range(TEXT_CHARS))
    for i in range(N_DOCS):
        # A distinct text per passage (a new str object each), TEXT_CHARS long.
        yield Document(f"p{i}", "", f"{i} {base}"[:TEXT_CHARS])


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("big")
    paths = {}
    for fmt in ("beir", "msmarco", "trec"):
        paths[fmt] = root / fmt
        write_dataset(paths[fmt], DocumentStream(documents), {"q1": "moon"}, {"q1": {"p1": 1}}, fmt)
    return paths


def peak_while(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", ["beir", "msmarco", "trec"])
def test_iterating_a_read_corpus_holds_one_document_at_a_time(big, fmt) -> None:
    corpus, _, _ = read_dataset(big[fmt])
    seen = {"docs": 0, "chars": 0}

    def stream() -> None:
        for _, text in corpus.items():
            seen["docs"] += 1
            seen["chars"] += len(text)

    peak = peak_while(stream)
    assert seen == {"docs": N_DOCS, "chars": TOTAL_TEXT}
    assert peak < TOTAL_TEXT / 4, f"peak {peak:,} bytes for {TOTAL_TEXT:,} bytes of text"


@pytest.mark.parametrize(("source", "target"), [("beir", "msmarco"), ("msmarco", "trec")])
def test_converting_a_corpus_streams_it(big, tmp_path, source, target) -> None:
    peak = peak_while(lambda: convert(big[source], tmp_path / "out", to_format=target))
    corpus, _, _ = read_dataset(tmp_path / "out")
    assert len(corpus) == N_DOCS
    assert peak < TOTAL_TEXT / 4, f"peak {peak:,} bytes for {TOTAL_TEXT:,} bytes of text"


def test_looking_a_document_up_loads_the_texts(big) -> None:
    # The contrast that shows the measurement can fail: random access needs every text.
    corpus, _, _ = read_dataset(big["msmarco"])
    peak = peak_while(lambda: corpus["p1"])
    assert peak > TOTAL_TEXT
