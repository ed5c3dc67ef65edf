"""Write then read gives back what was written, in every format that can hold it (hypothesis)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormatError,
    Document,
    read_qrels,
    read_queries,
    read_run,
    write_qrels,
    write_queries,
    write_run,
)
from ef.evaluation._runs.order import scored_order

from ..profiles_hypothesis import examples
from .helpers import read_corpus, write_corpus

# Ids are one whitespace-free column. Known bugs are tested apart, so ids here do not start
# with '#' (a comment to TREC readers, see test_writers.py), '<' or '{' (taken for SGML or JSON,
# see below) or U+FEFF (taken for a byte-order mark on the first line).
ids = st.text(
    st.characters(exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), exclude_characters="\ufeff"),
    min_size=1,
    max_size=8,
).filter(lambda s: s[0] not in "#<{" and not any(c.isspace() for c in s))
#: Ids as real collections have them, for tests that let the reader detect the format.
plain_ids = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,7}", fullmatch=True)
grades = st.integers(min_value=-3, max_value=5)
# Within float32 range: beyond it scored_order() warns (see test_writers.py).
scores = st.floats(min_value=-3.4e38, max_value=3.4e38, allow_nan=False)
qrels_st = st.dictionaries(
    ids, st.dictionaries(ids, grades, min_size=1, max_size=5), min_size=1, max_size=5
)
runs = st.dictionaries(
    ids, st.dictionaries(ids, scores, min_size=1, max_size=6), min_size=1, max_size=4
)
ranked_lists = st.dictionaries(
    ids, st.lists(ids, unique=True, min_size=1, max_size=6), min_size=1, max_size=4
)

#: Texts that fit on one line: no tab, no line feed, no carriage return.
line_texts = st.text(st.characters(codec="utf-8", exclude_characters="\t\n\r"), max_size=30)
any_texts = st.text(max_size=30)

_TREC_TAG = re.compile(r"</?(DOC|TEXT|TITLE|HEAD)>", re.IGNORECASE)
#: TREC-text titles and texts: line breaks, '<', markup-like fragments, outer whitespace. Not
#: the TREC tags or a carriage return (both refused, tested below).
trec_texts = (
    st.lists(
        st.one_of(
            st.text(st.characters(codec="utf-8", exclude_characters="\r"), max_size=10),
            st.sampled_from(
                [
                    "<",
                    ">",
                    "\n",
                    "\n\n",
                    " ",
                    "  ",
                    "\t",
                    "<p>",
                    "</p>",
                    "<DOCNO>x</DOCNO>",
                    "a<b",
                    "<DOC",
                    "DOC>",
                ]
            ),
        ),
        max_size=6,
    )
    .map("".join)
    .filter(lambda s: not _TREC_TAG.search(s))
)


def documents(texts: st.SearchStrategy[str]) -> st.SearchStrategy[list[Document]]:
    return st.lists(
        st.builds(Document, ids, texts, texts), min_size=1, max_size=5, unique_by=lambda d: d.id
    )


def _tmp(factory: pytest.TempPathFactory) -> Path:
    return factory.mktemp("rt")


EXAMPLES = settings(max_examples=examples(60))


@EXAMPLES
@pytest.mark.parametrize("fmt", ["trec", "msmarco", "beir"])
@given(qrels=qrels_st)
def test_integer_qrels_round_trip(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, qrels: dict[str, dict[str, int]]
) -> None:
    path = _tmp(tmp_path_factory) / "qrels.txt"
    write_qrels(path, qrels, format=fmt)
    assert read_qrels(path, format=fmt) == qrels


@EXAMPLES
@given(run=runs)
def test_a_trec_run_round_trips_its_scores_exactly(
    tmp_path_factory: pytest.TempPathFactory, run: dict[str, dict[str, float]]
) -> None:
    path = _tmp(tmp_path_factory) / "run.txt"
    write_run(path, run)
    assert read_run(path, format="trec") == run
    written: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, _, doc, rank, _, _ = line.split()
        written.setdefault(qid, []).append(doc)
        assert int(rank) == len(written[qid])
    assert written == {q: scored_order(ranked) for q, ranked in run.items()}


@EXAMPLES
@given(run=runs)
def test_an_msmarco_run_round_trips_the_ranking(
    tmp_path_factory: pytest.TempPathFactory, run: dict[str, dict[str, float]]
) -> None:
    path = _tmp(tmp_path_factory) / "run.tsv"
    write_run(path, run, format="msmarco")
    back = read_run(path, format="msmarco")
    assert {q: scored_order(r) for q, r in back.items()} == {
        q: scored_order(r) for q, r in run.items()
    }


@EXAMPLES
@pytest.mark.parametrize("fmt", ["trec", "msmarco"])
@given(run=ranked_lists)
def test_a_ranked_list_keeps_its_order(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, run: dict[str, list[str]]
) -> None:
    path = _tmp(tmp_path_factory) / "run.txt"
    write_run(path, run, format=fmt)
    back = read_run(path, format=fmt)
    assert {q: scored_order(r) for q, r in back.items()} == run


@EXAMPLES
@pytest.mark.parametrize("fmt", ["trec", "msmarco"])
@given(queries=st.dictionaries(ids, line_texts, min_size=1, max_size=6))
def test_one_line_queries_round_trip_verbatim(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, queries: dict[str, str]
) -> None:
    path = _tmp(tmp_path_factory) / "queries.tsv"
    write_queries(path, queries, format=fmt)
    assert read_queries(path, format=fmt) == queries


@EXAMPLES
@given(queries=st.dictionaries(ids, any_texts, min_size=1, max_size=6))
def test_beir_queries_round_trip_any_text(
    tmp_path_factory: pytest.TempPathFactory, queries: dict[str, str]
) -> None:
    path = _tmp(tmp_path_factory) / "queries.jsonl"
    write_queries(path, queries, format="beir")
    assert read_queries(path) == queries


@EXAMPLES
@pytest.mark.parametrize("fmt", ["trec", "msmarco"])
@given(queries=st.dictionaries(ids, any_texts, min_size=1, max_size=6))
def test_a_query_text_that_does_not_fit_a_line_is_refused(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, queries: dict[str, str]
) -> None:
    root = _tmp(tmp_path_factory)
    path = root / "queries.tsv"
    if any(c in text for text in queries.values() for c in "\t\n\r"):
        with pytest.raises(DatasetFormatError, match="tab or line break"):
            write_queries(path, queries, format=fmt)
        assert list(root.iterdir()) == []
    else:
        write_queries(path, queries, format=fmt)
        assert read_queries(path, format=fmt) == queries


@EXAMPLES
@given(docs=documents(any_texts))
def test_a_beir_corpus_keeps_titles_and_texts(
    tmp_path_factory: pytest.TempPathFactory, docs: list[Document]
) -> None:
    path = _tmp(tmp_path_factory) / "corpus.jsonl"
    write_corpus("beir", path, docs)
    assert read_corpus("beir", path) == docs


@EXAMPLES
@given(docs=documents(trec_texts))
def test_a_trec_corpus_keeps_titles_and_texts(
    tmp_path_factory: pytest.TempPathFactory, docs: list[Document]
) -> None:
    path = _tmp(tmp_path_factory) / "corpus.trec"
    write_corpus("trec", path, docs)
    assert read_corpus("trec", path) == docs


@EXAMPLES
@given(docs=documents(any_texts))
def test_a_trec_corpus_refuses_only_tags_it_cannot_store(
    tmp_path_factory: pytest.TempPathFactory, docs: list[Document]
) -> None:
    root = _tmp(tmp_path_factory)
    tagged = any(_TREC_TAG.search(f) or "\r" in f for d in docs for f in (d.title, d.text))
    if tagged:
        with pytest.raises(DatasetFormatError, match=r"TREC tag|carriage return"):
            write_corpus("trec", root / "corpus.trec", docs)
        assert list(root.iterdir()) == []
    else:
        write_corpus("trec", root / "corpus.trec", docs)
        assert [d.id for d in read_corpus("trec", root / "corpus.trec")] == [d.id for d in docs]


@EXAMPLES
@given(docs=documents(line_texts))
def test_an_msmarco_corpus_joins_title_to_text(
    tmp_path_factory: pytest.TempPathFactory, docs: list[Document]
) -> None:
    path = _tmp(tmp_path_factory) / "collection.tsv"
    write_corpus("msmarco", path, docs)
    assert read_corpus("msmarco", path) == [Document(d.id, "", d.joined) for d in docs]


@pytest.mark.parametrize(
    "doc",
    [
        Document("d1", "", "ends with CR\r"),
        Document("d1", "", "a\r\nb"),
        Document("d1", "T\r", "x"),
    ],
    ids=["trailing", "crlf-inside", "title"],
)
def test_a_trec_corpus_refuses_carriage_returns(tmp_path: Path, doc: Document) -> None:
    # Line ends are read as line breaks (CRLF files are common), so a CR could not come back.
    with pytest.raises(DatasetFormatError, match=r"document 'd1': .* carriage return"):
        write_corpus("trec", tmp_path / "corpus.trec", [doc])
    assert list(tmp_path.iterdir()) == []


def test_a_trec_corpus_refuses_a_head_tag_in_a_text(tmp_path: Path) -> None:
    # An untitled document's <HEAD> is read as its title, so the writer cannot store one.
    doc = Document("d1", "", "<HEAD>news</HEAD> and the story")
    with pytest.raises(DatasetFormatError, match="TREC tag"):
        write_corpus("trec", tmp_path / "corpus.trec", [doc])
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=examples(30))
@pytest.mark.parametrize("fmt", ["trec", "msmarco", "beir"])
@given(
    qrels=st.dictionaries(
        plain_ids,
        st.dictionaries(plain_ids, grades, min_size=1, max_size=4),
        min_size=1,
        max_size=4,
    ),
    # A first text that is empty is a known bug (see ODD_FIRST_LINES); these have a word.
    queries=st.dictionaries(
        plain_ids, line_texts.filter(lambda t: bool(t.strip())), min_size=1, max_size=4
    ),
)
def test_detection_reads_back_qrels_and_queries(
    tmp_path_factory: pytest.TempPathFactory,
    fmt: str,
    qrels: dict[str, dict[str, int]],
    queries: dict[str, str],
) -> None:
    root = _tmp(tmp_path_factory)
    write_qrels(root / "qrels.txt", qrels, format=fmt)
    assert read_qrels(root / "qrels.txt") == qrels
    write_queries(root / "queries.txt", queries, format=fmt)
    assert read_queries(root / "queries.txt") == queries


@settings(max_examples=examples(30))
@pytest.mark.parametrize("fmt", ["trec", "msmarco"])
@given(
    run=st.dictionaries(
        plain_ids, st.lists(plain_ids, unique=True, min_size=1, max_size=5), min_size=1, max_size=4
    )
)
def test_detection_reads_back_runs(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, run: dict[str, list[str]]
) -> None:
    path = _tmp(tmp_path_factory) / "run.txt"
    write_run(path, run, format=fmt)
    assert {q: scored_order(r) for q, r in read_run(path).items()} == run


ODD_FIRST_LINES: dict[str, tuple[Callable[[Path], None], Callable[[Path], object], object]] = {
    "trec-qrels-brace-detected": (
        lambda p: write_qrels(p, {"{a": {"d1": 1}}),
        read_qrels,
        {"{a": {"d1": 1}},
    ),
    "msmarco-run-angle-detected": (
        lambda p: write_run(p, {"<q": ["d1"]}, format="msmarco"),
        read_run,
        {"<q": {"d1": 1.0}},
    ),
    "trec-topics-angle-named": (
        lambda p: write_queries(p, {"<q": "text"}, format="trec"),
        lambda p: read_queries(p, format="trec"),
        {"<q": "text"},
    ),
    "msmarco-queries-brace-detected": (
        lambda p: write_queries(p, {"{q": "text"}, format="msmarco"),
        read_queries,
        {"{q": "text"},
    ),
    "msmarco-queries-empty-text-detected": (
        lambda p: write_queries(p, {"q1": "", "q2": "text"}, format="msmarco"),
        read_queries,
        {"q1": "", "q2": "text"},
    ),
}


@pytest.mark.parametrize("case", ODD_FIRST_LINES)
def test_an_odd_first_line_reads_back(tmp_path: Path, case: str) -> None:
    write, read, expected = ODD_FIRST_LINES[case]
    path = tmp_path / "file.txt"
    write(path)
    assert read(path) == expected
