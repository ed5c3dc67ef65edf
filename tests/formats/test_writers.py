"""Writers: exact output, trec_eval's ranking order, gzip targets, and atomic failure."""

from __future__ import annotations

import gzip
import os
import re
import stat
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ef.evaluation import (
    DatasetFormatError,
    Document,
    read_qrels,
    read_queries,
    read_run,
    write_dataset,
    write_qrels,
    write_queries,
    write_run,
)

from .helpers import listing, read_corpus, write_corpus

# Exact output


def test_trec_qrels_text(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    write_qrels(path, {"q1": {"d1": 2, "d2": 0.0}, "q2": {"d#3": -1}})
    assert path.read_text() == "q1 0 d1 2\nq1 0 d2 0\nq2 0 d#3 -1\n"


def test_msmarco_qrels_text(tmp_path: Path) -> None:
    path = tmp_path / "qrels.tsv"
    write_qrels(path, {"q1": {"d1": 1}}, format="msmarco")
    assert path.read_text() == "q1\t0\td1\t1\n"


def test_beir_qrels_text_keeps_fractional_grades(tmp_path: Path) -> None:
    path = tmp_path / "qrels.tsv"
    write_qrels(path, {"q1": {"d1": 1, "d2": 0.25}}, format="beir")
    assert path.read_text() == "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0.25\n"
    assert read_qrels(path) == {"q1": {"d1": 1.0, "d2": 0.25}}


def test_queries_text_in_each_format(tmp_path: Path) -> None:
    queries = {"q1": " leading space", "q2": "<b>"}
    write_queries(tmp_path / "topics.tsv", queries)
    assert (tmp_path / "topics.tsv").read_text() == "q1\t leading space\nq2\t<b>\n"
    write_queries(tmp_path / "queries.tsv", queries, format="msmarco")
    assert (tmp_path / "queries.tsv").read_text() == "q1\t leading space\nq2\t<b>\n"
    write_queries(tmp_path / "queries.jsonl", {"q1": "a\tb\nc"}, format="beir")
    assert (tmp_path / "queries.jsonl").read_text() == '{"_id": "q1", "text": "a\\tb\\nc"}\n'


def test_write_run_orders_by_score_then_docno_descending(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    run = {"q1": {"d1": 1.0, "d10": 2.0, "d2": 2.0, "d3": 2.0, "a": -0.5, "z": 0.1}}
    write_run(path, run)
    assert path.read_text() == (
        "q1 Q0 d3 1 2.0 ef\n"
        "q1 Q0 d2 2 2.0 ef\n"
        "q1 Q0 d10 3 2.0 ef\n"  # "d10" < "d2": docnos compare as strings (strcmp)
        "q1 Q0 d1 4 1.0 ef\n"
        "q1 Q0 z 5 0.1 ef\n"
        "q1 Q0 a 6 -0.5 ef\n"
    )
    assert read_run(path) == run


def test_write_run_ties_scores_equal_as_float32_like_trec_eval(tmp_path: Path) -> None:
    # trec_eval keeps scores as C float: these two tie, so the larger docno ranks first,
    # while the file keeps each score exactly.
    path = tmp_path / "run.txt"
    write_run(path, {"q1": {"a": 1.0000000001, "b": 1.0}})
    assert path.read_text() == "q1 Q0 b 1 1.0 ef\nq1 Q0 a 2 1.0000000001 ef\n"
    assert read_run(path) == {"q1": {"a": 1.0000000001, "b": 1.0}}


def test_write_run_keeps_the_order_of_a_ranked_list(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    write_run(path, {"q1": ["d3", "d1", "d2"], "q2": ("x",)})
    assert path.read_text() == (
        "q1 Q0 d3 1 3 ef\nq1 Q0 d1 2 2 ef\nq1 Q0 d2 3 1 ef\nq2 Q0 x 1 1 ef\n"
    )
    assert read_run(path) == {"q1": {"d3": 3.0, "d1": 2.0, "d2": 1.0}, "q2": {"x": 1.0}}


def test_write_run_msmarco_writes_qid_pid_rank(tmp_path: Path) -> None:
    path = tmp_path / "run.tsv"
    write_run(path, {"q1": {"d1": 0.5, "d2": 0.9, "d0": 0.5}, "q2": ["b", "a"]}, format="msmarco")
    assert path.read_text() == "q1\td2\t1\nq1\td1\t2\nq1\td0\t3\nq2\tb\t1\nq2\ta\t2\n"
    assert read_run(path) == {"q1": {"d2": 1.0, "d1": 0.5, "d0": 1 / 3}, "q2": {"b": 1.0, "a": 0.5}}


def test_write_run_writes_integer_scores_as_floats(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    write_run(path, {"q1": {"d1": 3, "d2": -1}})
    assert path.read_text() == "q1 Q0 d1 1 3.0 ef\nq1 Q0 d2 2 -1.0 ef\n"


# gzip targets


@pytest.mark.parametrize(
    ("name", "write", "read", "data"),
    [
        ("qrels.txt.gz", write_qrels, read_qrels, {"q1": {"d1": 1, "d2": 0}}),
        ("run.txt.gz", write_run, read_run, {"q1": {"d1": 2.5, "d2": 1.25}}),
        ("topics.tsv.gz", write_queries, read_queries, {"q1": "what is bm25", "q2": " x "}),
    ],
    ids=["qrels", "run", "queries"],
)
def test_a_gz_target_is_gzip_compressed_and_reads_back(
    tmp_path: Path,
    name: str,
    write: Callable[[Path, object], None],
    read: Callable[[Path], object],
    data: object,
) -> None:
    target = tmp_path / name
    write(target, data)
    plain = tmp_path / name.removesuffix(".gz")
    write(plain, data)
    compressed = target.read_bytes()
    assert compressed[:2] == b"\x1f\x8b"
    assert gzip.decompress(compressed) == plain.read_bytes()
    assert read(target) == data


def test_a_gz_target_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    target = tmp_path / "run.txt.gz"
    write_run(target, {"q1": {"d1": 2.5}})
    first = target.read_bytes()
    write_run(target, {"q1": {"d1": 2.5}})
    assert target.read_bytes() == first
    assert b".run.txt" not in first


@pytest.mark.parametrize("fmt", ["beir", "trec", "msmarco"])
def test_a_gz_corpus_target_is_compressed_and_reads_back(tmp_path: Path, fmt: str) -> None:
    docs = [Document("d1", "", "one"), Document("d2", "", "two words")]
    target = tmp_path / "corpus.gz"
    write_corpus(fmt, target, docs)
    assert target.read_bytes()[:2] == b"\x1f\x8b"
    assert read_corpus(fmt, target) == docs


# Refusals and atomicity

REFUSED: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "run-nan-score": (
        lambda p: write_run(p, {"q1": {"d1": 1.0, "d2": float("nan")}}),
        "run.txt",
        "run['q1']['d2'] = nan: a score must be a finite number",
    ),
    "run-inf-score": (
        lambda p: write_run(p, {"q1": {"d1": float("-inf")}}, format="msmarco"),
        "run.tsv",
        "a score must be a finite number",
    ),
    "run-str-score": (
        lambda p: write_run(p, {"q1": {"d1": "1.0"}}),  # type: ignore[dict-item]
        "run.txt",
        "a score must be a finite number",
    ),
    "run-bool-score": (
        lambda p: write_run(p, {"q1": {"d1": True}}),
        "run.txt",
        "a score must be a finite number",
    ),
    "run-str-ranking": (
        lambda p: write_run(p, {"q1": "d1"}),
        "run.txt",
        "run['q1'] is a str",
    ),
    "run-docno-with-space": (
        lambda p: write_run(p, {"q1": {"d 1": 1.0}}),
        "run.txt",
        "doc id 'd 1' cannot be written",
    ),
    "run-empty-query-id": (
        lambda p: write_run(p, {"": ["d1"]}, format="msmarco"),
        "run.tsv",
        "query id '' cannot be written",
    ),
    "trec-qrels-fractional-grade": (
        lambda p: write_qrels(p, {"q1": {"d1": 1, "d2": 0.5}}),
        "qrels.txt",
        "qrels['q1']['d2'] = 0.5: TREC qrels hold integer relevance only",
    ),
    "msmarco-qrels-fractional-grade": (
        lambda p: write_qrels(p, {"q1": {"d1": 1.5}}, format="msmarco"),
        "qrels.tsv",
        "integer relevance only",
    ),
    "trec-qrels-nan-grade": (
        lambda p: write_qrels(p, {"q1": {"d1": float("nan")}}),
        "qrels.txt",
        "relevance must be a finite number",
    ),
    "beir-qrels-inf-grade": (
        lambda p: write_qrels(p, {"q1": {"d1": float("inf")}}, format="beir"),
        "qrels.tsv",
        "relevance must be a finite number",
    ),
    "trec-qrels-tab-in-query-id": (
        lambda p: write_qrels(p, {"q\t1": {"d1": 1}}),
        "qrels.txt",
        "query id 'q\\t1' cannot be written",
    ),
    "msmarco-queries-tab-in-text": (
        lambda p: write_queries(p, {"q1": "ok", "q2": "a\tb"}, format="msmarco"),
        "queries.tsv",
        "query 'q2': the text holds a tab or line break",
    ),
    "msmarco-queries-newline-in-text": (
        lambda p: write_queries(p, {"q1": "a\nb"}, format="msmarco"),
        "queries.tsv",
        "the text holds a tab or line break",
    ),
    "trec-topics-carriage-return-in-text": (
        lambda p: write_queries(p, {"q1": "a\rb"}),
        "topics.tsv",
        "the text holds a tab or line break",
    ),
    "trec-topics-space-in-id": (
        lambda p: write_queries(p, {"q 1": "a"}),
        "topics.tsv",
        "query id 'q 1' cannot be written",
    ),
    "msmarco-corpus-tab-in-text": (
        lambda p: write_corpus(
            "msmarco", p, [Document("d1", "t", "x"), Document("d2", "", "a\tb")]
        ),
        "collection.tsv",
        "document 'd2': the text holds a tab or line break",
    ),
    "msmarco-corpus-newline-in-title": (
        lambda p: write_corpus("msmarco", p, [Document("d1", "two\nlines", "x")]),
        "collection.tsv",
        "the text holds a tab or line break",
    ),
    "trec-corpus-doc-tag-in-text": (
        lambda p: write_corpus("trec", p, [Document("d1", "", "a\n</DOC>\nb")]),
        "corpus.trec",
        "its text holds a TREC tag",
    ),
    "trec-corpus-text-tag-in-title": (
        lambda p: write_corpus("trec", p, [Document("d1", "<text>", "b")]),
        "corpus.trec",
        "its title holds a TREC tag",
    ),
    "trec-corpus-title-tag-in-text": (
        lambda p: write_corpus("trec", p, [Document("d1", "", "x </Title> y")]),
        "corpus.trec",
        "its text holds a TREC tag",
    ),
    "beir-corpus-text-not-str": (
        lambda p: write_corpus("beir", p, [Document("d1", "", 5)]),  # type: ignore[arg-type]
        "corpus.jsonl",
        "text must be a string",
    ),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_write_leaves_no_file_and_no_temporary_file(tmp_path: Path, case: str) -> None:
    write, name, fragment = REFUSED[case]
    with pytest.raises(DatasetFormatError) as info:
        write(tmp_path / name)
    assert fragment in str(info.value)
    assert listing(tmp_path) == {}


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_write_leaves_an_existing_target_unchanged(tmp_path: Path, case: str) -> None:
    write, name, _ = REFUSED[case]
    target = tmp_path / name
    target.write_bytes(b"previous contents\n")
    with pytest.raises(DatasetFormatError):
        write(target)
    assert listing(tmp_path) == {name: b"previous contents\n"}


def test_a_refused_gz_write_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(DatasetFormatError):
        write_run(tmp_path / "run.txt.gz", {"q1": {"d1": 1.0}, "q2": {"d1": float("nan")}})
    assert listing(tmp_path) == {}


def test_a_writer_failing_midway_removes_its_temporary_file(tmp_path: Path) -> None:
    def documents() -> object:
        yield Document("d1", "", "first")
        raise OSError("disk full")

    target = tmp_path / "corpus.trec"
    target.write_text("old\n")
    with pytest.raises(OSError, match="disk full"):
        write_corpus("trec", target, documents())  # type: ignore[arg-type]
    assert listing(tmp_path) == {"corpus.trec": b"old\n"}


def _failing_corpus() -> Iterator[Document]:
    yield Document("d1", "", "new")
    raise OSError("disk full")


@pytest.mark.parametrize("fmt", ["beir", "trec", "msmarco"])
def test_a_refused_dataset_write_leaves_the_previous_dataset_intact(
    tmp_path: Path, fmt: str
) -> None:
    root = tmp_path / "ds"
    write_dataset(root, {"d1": "old"}, {"q1": "old"}, {"q1": {"d1": 1}}, format=fmt)
    before = listing(root)
    corpus = [Document("d1", "", "new"), Document("d2", "", "new")]
    with pytest.raises(DatasetFormatError, match="relevance must be a finite number"):
        write_dataset(root, corpus, {"q1": "new"}, {"q1": {"d1": float("nan")}}, format=fmt)
    assert listing(root) == before
    with pytest.raises(OSError, match="disk full"):
        write_dataset(root, _failing_corpus(), {"q1": "new"}, {"q1": {"d1": 2}}, format=fmt)
    assert listing(root) == before


@pytest.mark.parametrize("fmt", ["beir", "trec", "msmarco"])
def test_a_refused_dataset_write_leaves_no_file(tmp_path: Path, fmt: str) -> None:
    root = tmp_path / "ds"
    with pytest.raises(DatasetFormatError):
        write_dataset(root, {"d1": "x"}, {"q1": "q"}, {"q1": {"d1": float("nan")}}, format=fmt)
    assert listing(tmp_path) == {}


def test_an_unknown_writer_format_is_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="nope"):
        write_run(tmp_path / "run.txt", {"q1": ["d1"]}, format="nope")
    with pytest.raises(ValueError, match="cannot write run"):
        write_run(tmp_path / "run.txt", {"q1": ["d1"]}, format="beir")
    assert listing(tmp_path) == {}


# Known bugs


@pytest.mark.parametrize("fmt", ["trec", "msmarco"])
def test_write_run_refuses_a_doc_listed_twice_in_a_ranked_list(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(DatasetFormatError, match="d1"):
        write_run(tmp_path / "run.txt", {"q1": ["d1", "d2", "d1"]}, format=fmt)
    assert listing(tmp_path) == {}


@pytest.mark.parametrize("fmt", ["beir", "trec", "msmarco"])
def test_a_corpus_writer_refuses_a_duplicate_document_id(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(DatasetFormatError, match="d1"):
        write_corpus(fmt, tmp_path / "corpus", [Document("d1", "", "a"), Document("d1", "", "b")])
    assert listing(tmp_path) == {}


EMPTY: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "trec-run-no-query": (lambda p: write_run(p, {}), "run.trec", "the run holds no query"),
    "trec-run-no-doc": (
        lambda p: write_run(p, {"q1": {}, "q2": []}),
        "run.trec",
        "the run holds no doc (its 2 queries, 'q1' and 'q2', hold none)",
    ),
    "gz-run": (lambda p: write_run(p, {"q1": {}}), "run.trec.gz", "its query 'q1' holds none"),
    "msmarco-run": (
        lambda p: write_run(p, {"q1": []}, format="msmarco"),
        "run.tsv",
        "its query 'q1' holds none",
    ),
    "parquet-run": (lambda p: write_run(p, {}), "run.parquet", "the run holds no query"),
    "trec-qrels": (lambda p: write_qrels(p, {}), "qrels.txt", "the qrels hold no query"),
    "msmarco-qrels": (
        lambda p: write_qrels(p, {"q1": {}}, format="msmarco"),
        "qrels.tsv",
        "the qrels hold no doc (its query 'q1' holds none)",
    ),
    "beir-qrels": (lambda p: write_qrels(p, {}, format="beir"), "test.tsv", "hold no query"),
    "queries": (lambda p: write_queries(p, {}), "queries.tsv", "the queries hold no query"),
}


@pytest.mark.parametrize("case", EMPTY)
def test_nothing_to_write_is_refused_and_leaves_the_target(tmp_path: Path, case: str) -> None:
    # Each would be a file its reader refuses ("the file is empty"), replacing the old one.
    write, name, fragment = EMPTY[case]
    with pytest.raises(ValueError, match=re.escape(fragment)) as info:
        write(tmp_path / name)
    assert re.match(r"write_(run|qrels|queries): the ", str(info.value))
    assert f"so nothing was written ({tmp_path / name} was not made)" in str(info.value)
    assert listing(tmp_path) == {}
    (tmp_path / name).write_bytes(b"previous contents\n")
    with pytest.raises(ValueError, match=r"is left as it was\): its file would be empty"):
        write(tmp_path / name)
    assert listing(tmp_path) == {name: b"previous contents\n"}


HASH_IDS: dict[str, tuple[Callable[[Path], None], Callable[[Path], object], object]] = {
    "trec-qrels-query": (
        lambda p: write_qrels(p, {"#1": {"d1": 1}, "q2": {"d2": 1}}),
        read_qrels,
        {"#1": {"d1": 1}, "q2": {"d2": 1}},
    ),
    "msmarco-qrels-query": (
        lambda p: write_qrels(p, {"#1": {"d1": 1}, "q2": {"d2": 1}}, format="msmarco"),
        lambda p: read_qrels(p, format="msmarco"),
        {"#1": {"d1": 1}, "q2": {"d2": 1}},
    ),
    "trec-run-query": (
        lambda p: write_run(p, {"#q": {"d1": 1.0}, "q2": {"d1": 1.0}}),
        read_run,
        {"#q": {"d1": 1.0}, "q2": {"d1": 1.0}},
    ),
    "msmarco-run-query": (
        lambda p: write_run(p, {"#q": ["d1"], "q2": ["d1"]}, format="msmarco"),
        lambda p: read_run(p, format="msmarco"),
        {"#q": {"d1": 1.0}, "q2": {"d1": 1.0}},
    ),
}


@pytest.mark.parametrize("case", HASH_IDS)
def test_a_query_id_starting_with_hash_is_refused_or_survives(tmp_path: Path, case: str) -> None:
    write, read, data = HASH_IDS[case]
    path = tmp_path / "file.txt"
    refusal = None
    try:
        write(path)
    except DatasetFormatError as exc:  # refusing the id is a fix too
        refusal = str(exc)
    if refusal is not None:
        assert "#" in refusal
        assert listing(tmp_path) == {}
        return
    assert read(path) == data


def test_written_files_have_the_usual_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        fresh = tmp_path / "qrels.txt"
        write_qrels(fresh, {"q1": {"d1": 1}})
        existing = tmp_path / "run.txt"
        existing.write_text("old\n")
        existing.chmod(0o644)
        write_run(existing, {"q1": ["d1"]})
    finally:
        os.umask(old)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
    assert stat.S_IMODE(existing.stat().st_mode) == 0o644


def test_write_run_takes_a_score_beyond_float32_range_silently(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_run(path, {"q1": {"a": 1e39, "b": 2e39, "c": 1.0}})
    # As C floats both overflow to inf and tie: trec_eval ranks "b", "a" by docno.
    assert [line.split()[2] for line in path.read_text().splitlines()] == ["b", "a", "c"]


@pytest.mark.parametrize("bad", ["d\x001", "d\u00a01", "d\ufeff1", "d\x7f"])
@pytest.mark.parametrize("fmt", ["trec", "msmarco", "beir"])
def test_writers_refuse_the_ids_the_readers_refuse(tmp_path, bad: str, fmt: str) -> None:
    # A file the readers would refuse is never written, and nothing is left behind.
    target = tmp_path / "qrels.txt"
    with pytest.raises(ValueError, match=r"U\+00(00|A0|7F)|U\+FEFF"):
        write_qrels(target, {"q1": {bad: 1}}, format=fmt)
    assert list(tmp_path.iterdir()) == []
