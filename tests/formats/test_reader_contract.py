"""The readers are one contract (DESIGN §6): the fast and the reference TREC run readers give the
same table or the same error, and the JSON readers refuse what ``json.loads`` would silently
resolve (a key given twice) or crash on (deep nesting), naming the file and the line."""

from __future__ import annotations

import functools
import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from ef.evaluation import DatasetFormatError, RunTable, read_beir, read_qrels, read_samples
from ef.evaluation._formats.trec.fast import read_trec_columns

from .helpers import format_error_at

#: A run the fast reader must decline, the line the reference reader names, and what it says.
BAD_RUNS: dict[str, tuple[bytes, int, str]] = {
    "5-columns-with-a-trailing-space": (b"q1 Q0 d1 1 2.5 \n", 1, "expected 6 columns"),
    # 5 + 4 + 1 spaces are the 10 spaces of two 6-column lines.
    "5-columns-balanced-by-a-whitespace-line": (
        b"q1 Q0 d1 1 2.5\n \nq1 Q0 d2 1 2.5 t\n",
        1,
        "expected 6 columns",
    ),
    "5-columns-balanced-at-the-end": (
        b"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 1 2.5\n \n",
        2,
        "expected 6 columns",
    ),
    "cr-only-line-ends": (b"q1 Q0 d1 1 2.5 t\rq1 Q0 d2 2 1 t\r", 1, "carriage return (CR)"),
    "nul-in-a-docno": (b"q1 Q0 d1 1 2 t\nq1 Q0 d\x002 2 1 t\n", 2, "holds U+0000"),
    "bom-mid-file": (b"q1 Q0 d1 1 2 t\n\xef\xbb\xbfq1 Q0 d2 2 1 t\n", 2, "holds U+FEFF"),
    "no-break-space-in-a-docno": (
        "q1 Q0 d1 1 2 t\nq1 Q0 d\u00a02 2 1 t\n".encode(),
        2,
        "holds U+00A0",
    ),
    "ideographic-space-in-a-query-id": ("q\u30001 Q0 d1 1 2 t\n".encode(), 1, "holds U+3000"),
}


@pytest.mark.parametrize("case", BAD_RUNS)
@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_the_fast_reader_declines_and_the_reference_reader_names_the_line(
    tmp_path: Path, case: str, gzipped: bool
) -> None:
    content, line_no, fragment = BAD_RUNS[case]
    path = tmp_path / "run.trec"
    path.write_bytes(gzip.compress(content) if gzipped else content)
    assert read_trec_columns(path) is None
    message = format_error_at(path, line_no, lambda: RunTable.read(path, format="trec"))
    assert fragment in message


LINES = b"".join(b"q1 Q0 d%d 1 2 t\n" % i for i in range(2000))


def _corrupt_gzip(path: Path) -> Path:
    data = bytearray(gzip.compress(LINES))
    data[len(data) // 2 : len(data) // 2 + 16] = b"\xff" * 16  # damage the deflate stream
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    "damage",
    [
        _corrupt_gzip,
        lambda p: p.write_bytes(gzip.compress(LINES)[:-20]) and p,
        lambda p: p.write_bytes(b"\x1f\x8bnot gzip at all") and p,
    ],
    ids=["corrupt", "truncated", "not-gzip"],
)
def test_a_damaged_gzip_run_is_an_error_naming_the_file_on_the_fast_path(
    tmp_path: Path, damage: object
) -> None:
    path = tmp_path / "run.trec.gz"
    damage(path)  # type: ignore[operator]
    assert read_trec_columns(path) is None  # never zlib.error
    message = format_error_at(path, None, lambda: RunTable.read(path, format="trec"))
    assert "damaged gzip data" in message


def test_crlf_line_ends_still_read_the_same_on_both_paths(tmp_path: Path) -> None:
    path = tmp_path / "run.trec"
    path.write_bytes(b"\xef\xbb\xbfq1 Q0 d1 1 2.5 t\r\nq1 Q0 d2 2 1.5 t\r\n")
    assert RunTable.read(path).to_dict() == {"q1": {"d1": 2.5, "d2": 1.5}}


def test_a_no_break_space_in_a_qrels_docno_is_detected_as_trec_and_named(tmp_path: Path) -> None:
    # Detection splits as the reader splits: not "cannot tell the format".
    path = tmp_path / "qrels.txt"
    path.write_text("q1 0 doc\u00a0x 1\nq1 0 d2 0\n", encoding="utf-8")
    message = format_error_at(path, 1, lambda: read_qrels(path))
    assert "U+00A0" in message


def _beir(root: Path, corpus: str, queries: str = '{"_id": "q1", "text": "q"}\n') -> Path:
    root.mkdir(exist_ok=True)
    (root / "corpus.jsonl").write_text(corpus, encoding="utf-8")
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    (root / "qrels.tsv").write_text("q1\td1\t1\n", encoding="utf-8")
    return root


DEEP = "[" * 100_000 + "]" * 100_000
CELL_DEEP = "[" * 5_000 + "]" * 5_000  # deeper than the parser goes, within csv's field limit


@pytest.mark.parametrize(
    ("corpus", "queries", "file", "fragment"),
    [
        (
            '{"_id": "d1", "text": "a"}\n{"_id": "d2", "_id": "d3", "text": "b"}\n',
            None,
            "corpus.jsonl:2:",
            "gives the key '_id' twice",
        ),
        (
            '{"_id": "d1", "text": "a", "text": "b"}\n',
            None,
            "corpus.jsonl:1:",
            "gives the key 'text' twice",
        ),
        (None, '{"_id": "q1", "_id": "q2", "text": "q"}\n', "queries.jsonl:1:", "'_id' twice"),
        (
            '{"_id": "d1", "text": "a"}\n{"_id": "d2", "x": ' + DEEP + "}\n",
            None,
            "corpus.jsonl:2:",
            "nested too deeply",
        ),
        (
            None,
            '{"_id": "q1", "text": "q", "x": ' + DEEP + "}\n",
            "queries.jsonl:1:",
            "nested too deeply",
        ),
        ('{"_id": "d\\u0000", "text": "a"}\n', None, "corpus.jsonl:1:", "holds U+0000"),
    ],
    ids=[
        "corpus-duplicate-id",
        "corpus-duplicate-text",
        "queries-duplicate-id",
        "corpus-deep",
        "queries-deep",
        "corpus-nul-id",
    ],
)
def test_beir_json_that_json_loads_would_misread_names_file_and_line(
    tmp_path: Path, corpus: str | None, queries: str | None, file: str, fragment: str
) -> None:
    root = _beir(
        tmp_path / "beir",
        corpus or '{"_id": "d1", "text": "a"}\n',
        queries or '{"_id": "q1", "text": "q"}\n',
    )
    with pytest.raises(DatasetFormatError) as info:
        read_beir(root)
    assert f"{root / file}" in str(info.value)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("name", "content", "line_no", "fragment"),
    [
        ("s.jsonl", '{"response": "a"}\n{"response": ' + DEEP + "}\n", 2, "nested too deeply"),
        ("s.jsonl", '{"response": "a", "response": "b"}\n', 1, "key 'response' twice"),
        ("s.csv", 'response,retrieved_contexts\na,"' + CELL_DEEP + '"\n', 2, "nested too deeply"),
        (
            "s.csv",
            # Not JSON at its first character, so Python's literal parser sees the nesting.
            "response,retrieved_contexts\na,\"['a', " + "[" * 5_000 + '"\n',
            2,
            "'retrieved_contexts' must be a JSON array or object",
        ),
        ("s.csv", 'response,rubrics\na,"{""x"": 1, ""x"": 2}"\n', 2, "key 'x' twice"),
    ],
    ids=[
        "jsonl-deep",
        "jsonl-duplicate-key",
        "csv-deep-json",
        "csv-deep-literal",
        "csv-duplicate-key",
    ],
)
def test_rag_json_that_json_loads_would_misread_names_file_and_line(
    tmp_path: Path, name: str, content: str, line_no: int, fragment: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    message = format_error_at(path, line_no, lambda: read_samples(path))
    assert re.search(re.escape(fragment), message)


LONG = "7" * 5_001  # one digit more than Python's int() reads (sys.get_int_max_str_digits)


@pytest.mark.parametrize(
    ("name", "content", "line_no"),
    [
        ("s.jsonl", '{"response": "a"}\n{"response": "b", "x": ' + LONG + "}\n", 2),
        ("s.csv", 'response,retrieved_contexts\na,"[""c""]"\nb,"[' + LONG + ']"\n', 3),
        ("answers.jsonl", '{"query_id": "q1", "answer": ' + LONG + "}\n", 1),
    ],
    ids=["rag-jsonl", "rag-csv-cell", "answers-jsonl"],
)
def test_an_integer_longer_than_python_reads_names_file_and_line(
    tmp_path: Path, name: str, content: str, line_no: int
) -> None:
    from ef.evaluation._formats.answers import read_answers

    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    read = read_answers if name.startswith("answers") else read_samples
    message = format_error_at(path, line_no, lambda: read(path))
    assert "an integer of 5001 digits, more than Python reads (4300" in message


def test_beir_integer_longer_than_python_reads_names_file_and_line(tmp_path: Path) -> None:
    root = _beir(
        tmp_path / "beir", '{"_id": "d1", "text": "a"}\n{"_id": "d2", "n": ' + LONG + "}\n"
    )
    message = format_error_at(root / "corpus.jsonl", 2, lambda: read_beir(root))
    assert "5001 digits" in message


@pytest.mark.parametrize(
    ("body", "line_no", "fragment"),
    [
        ('{"kind": "retrieval",\n"report": {"x": ' + LONG + "}}\n", 2, "5001 digits"),
        ('{"kind": "retrieval",\n\n"report": ' + DEEP + "}\n", 3, "nested too deeply"),
        # A long run of digits inside a string is no number: the one after it is named.
        ('{"a": "' + LONG + '",\n"b": ' + LONG + "}", 2, "5001 digits"),
        # json reads it as inf, silently: a metric, a score or a grade that is no number.
        ('{"kind": "retrieval",\n"report": {"x": "1e999", "y": 1e999}}', 2, "1e999 is beyond"),
    ],
    ids=["long-integer", "deep", "digits-in-a-string-first", "float-overflow"],
)
def test_whole_file_json_readers_name_the_parser_s_limits_by_file_and_line(
    tmp_path: Path, body: str, line_no: int, fragment: str
) -> None:
    # Every JSON document reader goes through one helper: a saved report, ranx's JSON runs
    # and qrels (the compat shim).
    from ef.evaluation import load_report
    from ef.evaluation.compat import ranx

    path = tmp_path / "saved.json"
    path.write_text(body, encoding="utf-8")
    readers: list[Callable[[Path], object]] = [
        load_report,
        ranx.Run.from_file,
        ranx.Qrels.from_file,
    ]
    for read in readers:
        message = format_error_at(path, line_no, functools.partial(read, path))
        assert fragment in message, read
