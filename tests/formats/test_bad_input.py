"""Malformed line files: every error names the file and the line (DESIGN §6).

Covers TREC qrels and runs, MS MARCO runs, qrels, queries and collections, TREC TSV topics and
BEIR qrels TSV. Each bad case is its own test, and each checks ``<path>:<line>:`` in the message.
"""

from __future__ import annotations

import gzip
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from ef.evaluation import (
    DatasetFormatError,
    InputWarning,
    read_answers,
    read_qrels,
    read_queries,
    read_references,
    read_run,
)

from .helpers import error_at, format_error_at, read_corpus, write_gzip

Reader = Callable[[Path], object]

READERS: dict[str, Reader] = {
    "trec-qrels": lambda p: read_qrels(p, format="trec"),
    "msmarco-qrels": lambda p: read_qrels(p, format="msmarco"),
    "beir-qrels": lambda p: read_qrels(p, format="beir"),
    "trec-run": lambda p: read_run(p, format="trec"),
    "msmarco-run": lambda p: read_run(p, format="msmarco"),
    "msmarco-queries": lambda p: read_queries(p, format="msmarco"),
    "trec-topics-tsv": lambda p: read_queries(p, format="trec"),
    "msmarco-collection": lambda p: read_corpus("msmarco", p),
    "beir-queries": lambda p: read_queries(p, format="beir"),
    "answers": read_answers,
    "references": read_references,
}

#: (reader, file text or bytes, line of the error, a fragment of the message)
BAD_LINES: dict[str, tuple[str, str | bytes, int, str]] = {
    # TREC qrels: qid iter docno rel
    "trec-qrels-3-columns": ("trec-qrels", "q1 0 d1 1\nq1 0 d2\n", 2, "expected 4 columns"),
    "trec-qrels-5-columns": ("trec-qrels", "q1 0 d1 1 extra\n", 1, "expected 4 columns"),
    "trec-qrels-1-column": ("trec-qrels", "\n\nq1\n", 3, "got 1"),
    "trec-qrels-a-run-line": (
        "trec-qrels",
        "q1 0 d1 1\nq1 Q0 d2 1 2.5 bm25\n",
        2,
        "got 6: a TREC run line (query-id Q0 doc-id rank score run-tag), not a judgement",
    ),
    "trec-qrels-grade-1.5": (
        "trec-qrels",
        "q1 0 d1 1\n\nq1 0 d2 1.5\n",
        3,
        "relevance '1.5' is not an integer",
    ),
    "trec-qrels-grade-x": ("trec-qrels", "q1 0 d1 x\n", 1, "relevance 'x' is not an integer"),
    "trec-qrels-grade-1.0": ("trec-qrels", "q1 0 d1 1.0\n", 1, "relevance '1.0' is not an integer"),
    "trec-qrels-grade-nan": ("trec-qrels", "q1 0 d1 nan\n", 1, "relevance 'nan' is not an integer"),
    "trec-qrels-duplicate-same-grade": (
        "trec-qrels",
        "q1 0 d1 1\n# a comment\nq1 0 d1 1\n",
        3,
        "doc 'd1' is judged twice for query 'q1'",
    ),
    "trec-qrels-duplicate-other-grade": (
        "trec-qrels",
        "q1 0 d1 1\nq2 0 d1 1\nq1 Q0 d1 0\n",
        3,
        "doc 'd1' is judged twice for query 'q1'",
    ),
    "trec-qrels-non-utf8": ("trec-qrels", b"q1 0 d1 1\nq1 0 caf\xe9 1\n", 2, "not valid UTF-8"),
    # MS MARCO qrels: the TREC columns, tab-separated
    "msmarco-qrels-3-columns": ("msmarco-qrels", "q1\t0\td1\t1\nq1\td2\t1\n", 2, "expected 4"),
    "msmarco-qrels-grade-x": ("msmarco-qrels", "q1\t0\td1\tx\n", 1, "relevance 'x'"),
    "msmarco-qrels-duplicate": (
        "msmarco-qrels",
        "q1\t0\td1\t1\nq1\t0\td1\t1\n",
        2,
        "doc 'd1' is judged twice",
    ),
    # TREC runs: qid Q0 docno rank score tag
    "trec-run-5-columns": ("trec-run", "q1 Q0 d1 1 2.5\n", 1, "expected 6 columns"),
    "trec-run-3-columns": ("trec-run", "q1 Q0 d1 1 2.5 t\nq1 d2 1\n", 2, "expected 6 columns"),
    "trec-run-a-qrels-line": (
        "trec-run",
        "q1 0 d1 1\n",
        1,
        "got 4: a qrels line (query-id iteration doc-id relevance), not a ranked doc",
    ),
    "trec-run-score-word": ("trec-run", "q1 Q0 d1 1 high t\n", 1, "score 'high' is not a number"),
    "trec-run-score-underscore": ("trec-run", "q1 Q0 d1 1 1_0 t\n", 1, "'1_0' is not a number"),
    "trec-run-score-hex": ("trec-run", "q1 Q0 d1 1 0x10 t\n", 1, "'0x10' is not a number"),
    "trec-run-score-empty-exponent": ("trec-run", "q1 Q0 d1 1 1e t\n", 1, "'1e' is not a number"),
    "trec-run-duplicate-doc": (
        "trec-run",
        "q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\n\nq1 Q0 d1 3 0.5 t\n",
        4,
        "doc 'd1' is listed twice for query 'q1'",
    ),
    "trec-run-duplicate-doc-same-score": (
        "trec-run",
        "q1 Q0 d1 1 2 t\nq1 Q0 d1 1 2 t\n",
        2,
        "doc 'd1' is listed twice for query 'q1'",
    ),
    "trec-run-non-utf8": (
        "trec-run",
        b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\nq1 Q0 \xff\xfe 3 0 t\n",
        3,
        "not valid UTF-8",
    ),
    # MS MARCO runs: qid<TAB>pid<TAB>rank
    "msmarco-run-2-columns": ("msmarco-run", "q1\td1\t1\nq1\td2\n", 2, "expected 3 columns"),
    "msmarco-run-4-columns": ("msmarco-run", "q1\td1\t1\t0.5\n", 1, "expected 3 columns"),
    "msmarco-run-rank-word": (
        "msmarco-run",
        "q1\td1\tfirst\n",
        1,
        "rank 'first' is not a positive",
    ),
    "msmarco-run-rank-0": (
        "msmarco-run",
        "q1\td1\t1\nq1\td2\t0\n",
        2,
        "rank '0' is not a positive",
    ),
    "msmarco-run-rank-negative": ("msmarco-run", "q1\td1\t-1\n", 1, "rank '-1' is not a positive"),
    "msmarco-run-rank-fraction": (
        "msmarco-run",
        "q1\td1\t1.5\n",
        1,
        "rank '1.5' is not a positive",
    ),
    "msmarco-run-duplicate-doc": (
        "msmarco-run",
        "q1\td1\t1\nq1\td2\t2\nq1\td1\t3\n",
        3,
        "doc 'd1' is listed twice for query 'q1'",
    ),
    "msmarco-run-non-utf8": ("msmarco-run", b"q1\td1\t1\nq1\t\xc3(\t2\n", 2, "not valid UTF-8"),
    # id<TAB>text files
    "msmarco-queries-no-tab": (
        "msmarco-queries",
        "q1\tfirst query\nq2 second query\n",
        2,
        "expected query-id<TAB>text; no tab",
    ),
    "msmarco-queries-empty-id": ("msmarco-queries", "\tno id\n", 1, "empty or padded query id"),
    "msmarco-queries-padded-id": ("msmarco-queries", "q1 \ttext\n", 1, "empty or padded query id"),
    "msmarco-queries-duplicate": (
        "msmarco-queries",
        "q1\ta\nq2\tb\nq1\tc\n",
        3,
        "duplicate query id 'q1'",
    ),
    "msmarco-queries-non-utf8": ("msmarco-queries", b"q1\ta\n\nq2\t\x80\n", 3, "not valid UTF-8"),
    "trec-topics-tsv-no-tab": ("trec-topics-tsv", "301\tcrime\n302 polio\n", 2, "no tab"),
    "trec-topics-tsv-duplicate": ("trec-topics-tsv", "301\ta\n301\tb\n", 2, "duplicate query id"),
    "trec-topics-tsv-non-utf8": ("trec-topics-tsv", b"301\ta\n302\t\xe9t\xe9\n", 2, "UTF-8"),
    "msmarco-collection-no-tab": (
        "msmarco-collection",
        "0\tThe presence of communication\n1 no tab\n",
        2,
        "expected passage-id<TAB>text; no tab",
    ),
    "msmarco-collection-duplicate": (
        "msmarco-collection",
        "0\ta\n1\tb\n\n0\tc\n",
        4,
        "duplicate passage id '0'",
    ),
    "msmarco-collection-non-utf8": ("msmarco-collection", b"0\t\xffa\n", 1, "not valid UTF-8"),
    # BEIR qrels TSV: query-id corpus-id score, header optional
    "beir-qrels-2-columns": (
        "beir-qrels",
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\n",
        3,
        "expected 3 columns",
    ),
    "beir-qrels-4-columns": ("beir-qrels", "q1\td1\t1\t0\n", 1, "expected 3 columns"),
    "beir-qrels-score-word": (
        "beir-qrels",
        "q1\td1\t1\nq1\td2\thigh\n",
        2,
        "'high' is not a number",
    ),
    "beir-qrels-nan": ("beir-qrels", "q1\td1\t1\nq1\td2\tnan\n", 2, "'nan' is not a finite number"),
    "beir-qrels-inf": ("beir-qrels", "q1\td1\tinf\n", 1, "'inf' is not a finite number"),
    "beir-qrels-minus-inf": (
        "beir-qrels",
        "q1\td1\t1\nq1\td2\t-inf\n",
        2,
        "'-inf' is not a finite number",
    ),
    "beir-qrels-1e999": ("beir-qrels", "q1\td1\t1e999\n", 1, "'1e999' is not a finite number"),
    "beir-qrels-conflicting-duplicate": (
        "beir-qrels",
        "q1\td1\t1\nq1\td1\t2\n",
        2,
        "('q1', 'd1') is judged twice",
    ),
    "beir-qrels-non-utf8": (
        "beir-qrels",
        b"query-id\tcorpus-id\tscore\nq\xff\td1\t1\n",
        2,
        "UTF-8",
    ),
    # One number grammar: what trec_eval's atof would not read is not a number anywhere.
    "beir-qrels-score-underscore": ("beir-qrels", "q1\td1\t1_0\n", 1, "'1_0' is not a number"),
    "beir-qrels-score-hex": ("beir-qrels", "q1\td1\t1\nq1\td2\t0x1\n", 2, "'0x1' is not a number"),
    "beir-qrels-score-infinity-word": (
        "beir-qrels",
        "q1\td1\tinfinity\n",
        1,
        "'infinity' is not a finite number",
    ),
    "trec-qrels-grade-underscore": ("trec-qrels", "q1 0 d1 1_0\n", 1, "'1_0' is not an integer"),
    "msmarco-qrels-grade-underscore": ("msmarco-qrels", "q1\t0\td1\t1_0\n", 1, "'1_0' is not"),
    "msmarco-run-rank-underscore": ("msmarco-run", "q1\td1\t1_0\n", 1, "rank '1_0' is not"),
    # docs/formats.md: a pair judged twice is an error, whatever the grades.
    "beir-qrels-same-grade-duplicate": (
        "beir-qrels",
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\nq1\td1\t1\n",
        4,
        "('q1', 'd1') is judged twice, with 1 and 1 (first on line 2)",
    ),
    # CR-only (old Mac) line ends: refused, not read as one line with extra columns.
    "trec-run-cr-only": (
        "trec-run",
        "q1 Q0 d1 1 2.5 t\rq1 Q0 d2 2 1.5 t\r",
        1,
        "a carriage return (CR) not followed by a line feed",
    ),
    "trec-run-cr-amid-crlf": (
        "trec-run",
        "q1 Q0 d1 1 2 t\r\nq1 Q0 d2 2 1 t\rq1 Q0 d3 3 0 t\r\n",
        2,
        "carriage return (CR) not followed by a line feed",
    ),
    "trec-qrels-cr-only-after-a-comment": (
        "trec-qrels",
        "# qid iter docno rel\rq1 0 d1 1\rq1 0 d2 0\r",
        1,
        "carriage return (CR)",
    ),
    "msmarco-queries-cr-only": ("msmarco-queries", "q1\ta\rq2\tb\r", 1, "carriage return"),
    "beir-qrels-cr-only": ("beir-qrels", "q1\td1\t1\rq1\td2\t0\r", 1, "carriage return"),
    # Control characters, Unicode spaces and a mid-file byte-order mark are never in an id.
    "trec-run-nul-in-docno": ("trec-run", "q1 Q0 d1 1 2 t\nq1 Q0 d\x002 2 1 t\n", 2, "U+0000"),
    "trec-run-bom-mid-file": (
        "trec-run",
        "q1 Q0 d1 1 2 t\n\ufeffq1 Q0 d2 2 1 t\n",
        2,
        "query id '\\ufeffq1' holds U+FEFF (a byte-order mark)",
    ),
    "trec-run-del-in-query-id": ("trec-run", "q\x7f1 Q0 d1 1 2 t\n", 1, "holds U+007F"),
    "trec-qrels-nbsp-in-docno": (
        "trec-qrels",
        "q1 0 d1 1\nq1 0 doc\u00a0x 1\n",
        2,
        "doc id 'doc\\xa0x' holds U+00A0 (a space)",
    ),
    "trec-qrels-unit-separator": ("trec-qrels", "q1 0 d\x1f1 1\n", 1, "holds U+001F"),
    "msmarco-qrels-nul": ("msmarco-qrels", "q1\t0\td\x001\t1\n", 1, "holds U+0000"),
    "msmarco-run-nul": ("msmarco-run", "q1\td1\t1\nq\x002\td1\t1\n", 2, "holds U+0000"),
    "msmarco-queries-nul-id": ("msmarco-queries", "q1\ta\nq\x002\tb\n", 2, "holds U+0000"),
    "msmarco-collection-bom-mid-file": (
        "msmarco-collection",
        "0\ta\n\ufeff1\tb\n",
        2,
        "holds U+FEFF",
    ),
    "beir-qrels-nul-id": ("beir-qrels", "q1\td\x001\t1\n", 1, "doc id 'd\\x001' holds U+0000"),
}

# Every way of writing a score that is not finite: trec_eval would rank these arbitrarily.
NOT_FINITE = ["nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "-INF", "1e999", "-1e999"]


def _write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("case", BAD_LINES)
def test_a_bad_line_is_named_by_file_and_line(tmp_path: Path, case: str) -> None:
    reader, content, line_no, fragment = BAD_LINES[case]
    path = _write(tmp_path / "input.txt", content)
    message = format_error_at(path, line_no, lambda: READERS[reader](path))
    assert fragment in message


@pytest.mark.parametrize(
    ("reader", "content"),
    [("trec-qrels", "q1 Q0 d1 1 2.5\n"), ("trec-run", "q1 Q0 d1 1\n"), ("trec-qrels", "q1\n")],
)
def test_a_line_of_neither_files_columns_is_not_named_the_other_kind(
    tmp_path: Path, reader: str, content: str
) -> None:
    """Only a line with the other file's columns (six with Q0, four without) is called one."""
    path = _write(tmp_path / "input.txt", content)
    message = format_error_at(path, 1, lambda: READERS[reader](path))
    assert "columns" in message
    assert "run line" not in message
    assert "qrels line" not in message


@pytest.mark.parametrize("score", NOT_FINITE)
def test_a_trec_run_score_that_is_not_finite_names_the_line(tmp_path: Path, score: str) -> None:
    path = _write(tmp_path / "run.txt", f"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 {score} t\n")
    message = format_error_at(path, 2, lambda: read_run(path, format="trec"))
    assert f"score {score!r} is not a finite number" in message


def test_a_bad_line_shows_the_offending_text(tmp_path: Path) -> None:
    path = _write(tmp_path / "qrels.txt", "q1 0 d1 1\nq1 0 d2 maybe\n")
    message = format_error_at(path, 2, lambda: read_qrels(path, format="trec"))
    assert "'q1 0 d2 maybe'" in message


def test_a_bad_line_inside_a_gzip_file_is_named_by_its_line(tmp_path: Path) -> None:
    path = write_gzip(tmp_path / "run.txt.gz", "q1 Q0 d1 1 2 t\n# c\nq1 Q0 d2 2 inf t\n")
    message = format_error_at(path, 3, lambda: read_run(path))
    assert "not a finite number" in message


def test_line_numbers_count_blank_comment_and_bom_lines(tmp_path: Path) -> None:
    content = "\ufeff# header\r\n\r\n   \r\nq1 0 d1 1\r\n  # indented comment\r\nq1 0 d2 two\r\n"
    path = _write(tmp_path / "qrels.txt", content)
    format_error_at(path, 6, lambda: read_qrels(path, format="trec"))


EMPTY_CONTENT = {"empty": "", "blank-lines": "\n   \n\t\n\r\n"}


@pytest.mark.parametrize("content", EMPTY_CONTENT)
@pytest.mark.parametrize("reader", READERS)
def test_an_empty_file_is_an_error_naming_it(tmp_path: Path, reader: str, content: str) -> None:
    path = _write(tmp_path / "input.txt", EMPTY_CONTENT[content])
    message = format_error_at(path, None, lambda: READERS[reader](path))
    assert "empty" in message


@pytest.mark.parametrize("reader", ["trec-qrels", "msmarco-qrels", "trec-run", "msmarco-run"])
def test_a_file_of_comments_only_is_an_empty_file(tmp_path: Path, reader: str) -> None:
    path = _write(tmp_path / "input.txt", "# one\n\n   # two\n#\n")
    message = format_error_at(path, None, lambda: READERS[reader](path))
    assert "the file is empty" in message


@pytest.mark.parametrize("reader", READERS)
def test_a_missing_file_is_file_not_found_naming_it(tmp_path: Path, reader: str) -> None:
    path = tmp_path / "nowhere" / "input.txt"
    error_at(path, None, lambda: READERS[reader](path), FileNotFoundError)


@pytest.mark.parametrize(
    "read", [read_qrels, read_run, read_queries], ids=["qrels", "run", "queries"]
)
def test_a_missing_file_is_file_not_found_when_the_format_is_detected(
    tmp_path: Path, read: Callable[[Path], object]
) -> None:
    path = tmp_path / "missing.txt"
    error_at(path, None, lambda: read(path), FileNotFoundError)


@pytest.mark.parametrize("reader", READERS)
def test_a_directory_given_for_a_file_is_an_os_error_naming_it(tmp_path: Path, reader: str) -> None:
    # A BEIR qrels reader or a collection reader looks inside a directory for its file and
    # reports that file missing; the others say that a directory is no file.
    directory = tmp_path / "data"
    directory.mkdir()
    message = error_at(
        directory, None, lambda: READERS[reader](directory), (FileNotFoundError, IsADirectoryError)
    )
    assert "directory" in message or "no such file" in message or "no qrels" in message


def test_a_directory_for_detected_qrels_cannot_be_told_apart(tmp_path: Path) -> None:
    # An empty directory is no dataset any format recognises: the error says so and names it.
    error_at(tmp_path, None, lambda: read_qrels(tmp_path), ValueError)


def test_a_truncated_gzip_file_is_an_error_naming_it(tmp_path: Path) -> None:
    lines = "".join(f"q{i} 0 d{i} 1\n" for i in range(3000))
    path = tmp_path / "qrels.txt.gz"
    path.write_bytes(gzip.compress(lines.encode())[:-40])
    error_at(path, None, lambda: read_qrels(path, format="trec"), ValueError)


@pytest.mark.parametrize(
    ("content", "read"),
    [
        ("q1 0 d1 \u0663\n", lambda p: read_qrels(p, format="trec")),  # ARABIC-INDIC DIGIT THREE
        ("q1 Q0 d1 1 \uff11.5 t\n", lambda p: read_run(p, format="trec")),  # FULLWIDTH ONE
    ],
    ids=["qrels-grade", "run-score"],
)
def test_non_ascii_digits_are_not_numbers(
    tmp_path: Path, content: str, read: Callable[[Path], object]
) -> None:
    path = _write(tmp_path / "input.txt", content)
    format_error_at(path, 1, lambda: read(path))


@pytest.mark.parametrize("reader", [read_run, read_qrels])
def test_a_damaged_gzip_file_is_named_as_such_when_no_format_can_read_it(tmp_path, reader) -> None:
    # Detection reads no line of it; "cannot tell the format" would hide why.
    path = tmp_path / "run.trec.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00" + b"\xff" * 64)
    with pytest.raises(DatasetFormatError, match=rf"^{re.escape(str(path))}: damaged gzip data"):
        reader(path)


# -- '#' lines with a data line's shape: a query '#5', or a line commented out -------------

HASH_LINES: dict[str, tuple[Reader, str, str, object]] = {
    "trec-qrels": (
        READERS["trec-qrels"],
        "q1 0 d1 1\n# judged by hand\n#5 0 d1 1\nq2 0 d3 1\n#5 0 d2 0\n",
        "a qrels line ('#5 0 d1 1')",
        {"q1": {"d1": 1}, "q2": {"d3": 1}},
    ),
    "msmarco-qrels": (
        READERS["msmarco-qrels"],
        "q1\t0\td1\t1\n# x\n#5\t0\td1\t1\n",
        "a qrels line ('#5\\t0\\td1\\t1')",
        {"q1": {"d1": 1}},
    ),
    "trec-run": (
        READERS["trec-run"],
        "q1 Q0 d1 1 2.5 t\n# bm25, k1=0.9\n#5 Q0 d2 1 0.9 t\nq2 Q0 d3 1 1 t\n#5 Q0 d4 2 0.5 t\n",
        "a run line ('#5 Q0 d2 1 0.9 t')",
        {"q1": {"d1": 2.5}, "q2": {"d3": 1.0}},
    ),
    "msmarco-run": (
        READERS["msmarco-run"],
        "q1\td1\t1\n# x\n#5\td2\t1\nq2\td3\t1\n#5\td4\t2\n",
        "a run line (query-id doc-id rank) ('#5\\td2\\t1')",
        {"q1": {"d1": 1.0}, "q2": {"d3": 1.0}},
    ),
}


@pytest.mark.parametrize("case", HASH_LINES)
def test_a_hash_line_with_a_data_line_s_shape_is_a_comment_said_so(
    tmp_path: Path, case: str
) -> None:
    # trec_eval 9.0.8 scores such a line as query '#5'; dropped unsaid, it would be lost.
    reader, content, shape, expected = HASH_LINES[case]
    path = tmp_path / "file.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.warns(InputWarning) as caught:
        assert reader(path) == expected
    [message] = [str(w.message) for w in caught]
    assert message.startswith(f"{path}:3: starts with '#' but has the shape of {shape}: ")
    assert "query '#5' is not read from it" in message
    assert "trec_eval 9.0.8 reads such a line as data" in message
    if content.count("\n#5") == 2:  # a second such line: counted, and named
        assert "(2 such lines, also line 5)" in message
    else:
        assert "(1 such line)" in message


@pytest.mark.parametrize(
    ("reader", "content"),
    [
        ("trec-qrels", "# 5 0 d1 1\n#\n# qid iter docno rel\n#5 0 d1 high\nq1 0 d1 1\n"),
        (
            "trec-run",
            "# 5 Q0 d1 1 0.9 t\n# qid Q0 docno rank score tag\n#5 Q0 d1 1 0.9\nq1 Q0 d1 1 2 t\n",
        ),
        ("msmarco-run", "# 5\td1\t1\n#5\td1\tfirst\nq1\td1\t1\n"),
    ],
)
def test_comments_of_another_shape_say_nothing(tmp_path: Path, reader: str, content: str) -> None:
    path = tmp_path / "file.txt"
    path.write_text(content, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        READERS[reader](path)
