"""RunTable: the fast paths (polars, numpy) read and score exactly as the reference reader does.

Every file either takes the fast path and gives the reference's numbers, or falls back to
the reference reader and gives its numbers or its error (file and line) word for word.
"""

from __future__ import annotations

import gzip
import math
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormat,
    DatasetFormatError,
    Registry,
    evaluate_run,
    hookimpl,
    read_run,
)
from ef.evaluation._formats.trec.bytes_reader import read_trec_bytes
from ef.evaluation._formats.trec.fast import read_trec_columns
from ef.evaluation._runs.table import RunTable
from ef.evaluation.testing import registry_with


def _read_trec_with_polars(path: Path) -> RunTable | None:
    """The fast reader's table, or None where it leaves the file to the reference reader."""
    columns = read_trec_columns(path)
    return None if columns is None else RunTable.from_columns(columns)


def _read_trec_with_numpy(path: Path) -> RunTable | None:
    """The numpy reader's table (small and mid-size files), or None where it declines."""
    columns = read_trec_bytes(path)
    return None if columns is None else RunTable.from_columns(columns)


FAST_READERS = pytest.mark.parametrize(
    "read_fast", [_read_trec_with_polars, _read_trec_with_numpy], ids=["polars", "numpy"]
)


METRICS = ("ndcg@3", "ndcg@10", "recall@5", "precision@2", "mrr@10", "map@1000")

docs = st.sampled_from([f"d{i}" for i in range(9)] + ["D1", "d10", "é1"])
# Few distinct scores, including two that are equal only in float32: ties everywhere.
scores = st.sampled_from([1.0, 1.0 + 1e-9, 0.5, 2.0, -3.25, 1e39])
queries = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "301"]),
    st.dictionaries(docs, scores, min_size=1, max_size=8),
    min_size=1,
    max_size=4,
)
qrels_strategy = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q9"]),
    st.dictionaries(docs, st.integers(-1, 3), min_size=1, max_size=5),
    min_size=1,
    max_size=4,
)


def write_lines(path: Path, run: dict[str, dict[str, float]], shuffle: int) -> None:
    lines = []
    for query_id, ranked in run.items():
        rows = list(ranked.items())
        rows = rows[shuffle % len(rows) :] + rows[: shuffle % len(rows)]  # any order in a query
        lines += [f"{query_id} Q0 {doc} {i} {score!r} tag" for i, (doc, score) in enumerate(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def assert_same_report(a, b) -> None:
    assert a.per_query.keys() == b.per_query.keys()
    for query_id, values in a.per_query.items():
        for key, value in values.items():
            assert math.isclose(value, b.per_query[query_id][key], abs_tol=1e-12), (query_id, key)
    assert (a.missing, a.extra, a.skipped) == (b.missing, b.extra, b.skipped)


@pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")  # random partial runs
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=queries, qrels=qrels_strategy, shuffle=st.integers(0, 7))
@FAST_READERS
def test_the_fast_path_scores_as_the_reference(tmp_path, run, qrels, shuffle, read_fast) -> None:
    path = tmp_path / "run.trec"
    write_lines(path, run, shuffle)
    table = read_fast(path)
    assert table is not None, "a clean file takes the fast path"
    assert table.to_dict() == read_run(path)
    scorable = {q: j for q, j in qrels.items() if any(g > 0 for g in j.values())}
    if not set(scorable) & set(run):
        return  # no judged query in the run: refused, not scored
    # Random runs often retrieve no judged doc: the doc-id check would refuse them alike.
    fast = evaluate_run(table, qrels, metrics=METRICS, check_doc_ids=False)
    reference = evaluate_run(read_run(path), qrels, metrics=METRICS, check_doc_ids=False)
    assert_same_report(fast, reference)
    for query_id in table.query_ids:
        assert table.ranking(query_id) == RunTable.from_dict(read_run(path)).ranking(query_id)


GOOD = "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 0.5 t\n"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("tabs", GOOD.replace(" ", "\t", 1)),
        ("crlf", GOOD.replace("\n", "\r\n")),
        ("bom", "\ufeff" + GOOD),
        ("double space", GOOD.replace("Q0 d2", "Q0  d2")),
        ("leading space", " " + GOOD),
        ("extra columns", GOOD.replace("2.0 t", "2.0 t extra")),
        ("interleaved queries", GOOD + "q1 Q0 d9 3 0.1 t\n"),
        ("comment after spaces", "  # note\n" + GOOD),
    ],
)
@FAST_READERS
def test_files_polars_might_misread_take_the_reference_path(
    tmp_path, name, content, read_fast
) -> None:
    path = tmp_path / "run.trec"
    path.write_bytes(content.encode("utf-8"))
    assert read_fast(path) is None
    assert RunTable.read(path).to_dict() == read_run(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("q1 Q0 d1 1 nan t\n", r"run.trec:1: score 'nan' is not a finite number"),
        ("q1 Q0 d1 1 abc t\n", r"run.trec:1: score 'abc' is not a number"),
        ("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0\n", r"run.trec:2: expected 6 columns"),
        ("q1 Q0 d1 1 2.0 t\nq1 Q0 d1 2 1.0 t\n", r"run.trec:2: doc 'd1' is listed twice"),
        ("", r"the file is empty"),
    ],
)
def test_bad_files_give_the_reference_error(tmp_path, content, message) -> None:
    path = tmp_path / "run.trec"
    path.write_text(content, encoding="utf-8")
    assert _read_trec_with_polars(path) is None
    with pytest.raises(DatasetFormatError, match=message):
        RunTable.read(path, format="trec")


def test_gzip_and_blank_lines_and_comments_take_the_fast_path(tmp_path) -> None:
    path = tmp_path / "run.trec.gz"
    path.write_bytes(gzip.compress(("# run\n\n" + GOOD + "\n").encode()))
    table = _read_trec_with_polars(path)
    assert table is not None
    assert table.to_dict() == read_run(path)


def test_without_polars_every_file_takes_the_reference_path(tmp_path, monkeypatch) -> None:
    path = tmp_path / "run.trec"
    path.write_text(GOOD, encoding="utf-8")
    monkeypatch.setitem(sys.modules, "polars", None)  # import polars now raises ImportError
    assert _read_trec_with_polars(path) is None
    report = evaluate_run(path, {"q1": {"d2": 1}}, metrics=("mrr@10",))
    assert report.metrics == {"mrr@10": 0.5}


def test_ties_rank_by_docno_descending_without_sorting(tmp_path) -> None:
    path = tmp_path / "run.trec"
    # Written in ascending docno order: the table is not in trec_eval's order.
    path.write_text("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 c 3 1.0 t\n", encoding="utf-8")
    table = RunTable.read(path)
    assert table.ranking("q1") == ["c", "b", "a"]
    report = evaluate_run(table, {"q1": {"a": 1}}, metrics=("mrr@10",))
    assert report.metrics == {"mrr@10": 1 / 3}


@pytest.mark.parametrize(
    ("doc", "code"), [("d\u00a0one", "U+00A0"), ("d\x1ctwo", "U+001C"), ("d\u3000x", "U+3000")]
)
def test_unicode_spaces_and_controls_in_ids_are_refused_on_both_paths(
    tmp_path, doc: str, code: str
) -> None:
    # trec_eval would keep a no-break space or U+001C inside the doc id (it splits on C's
    # isspace()), where it silently matches nothing: both paths refuse it, naming the line.
    path = tmp_path / "run.trec"
    path.write_text(f"q1 Q0 d0 1 3.0 t\nq1 Q0 {doc} 2 2.0 t\n", encoding="utf-8")
    assert _read_trec_with_polars(path) is None
    with pytest.raises(DatasetFormatError, match=rf"run.trec:2: doc id .* holds {re.escape(code)}"):
        RunTable.read(path)
    with pytest.raises(DatasetFormatError, match=rf"run.trec:2: doc id .* holds {re.escape(code)}"):
        read_run(path)


def test_a_long_line_and_a_short_one_do_not_balance_out(tmp_path) -> None:
    # 7 + 5 fields hold as many spaces as 6 + 6: the short line must still be found.
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t x\nq1 Q0 d3 3 0.5\n", encoding="utf-8")
    assert _read_trec_with_polars(path) is None
    with pytest.raises(DatasetFormatError, match=r"run.trec:3: expected 6 columns"):
        RunTable.read(path)


def test_a_short_line_after_the_first_is_found_by_the_space_count(tmp_path) -> None:
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 d1 1 2.0 t\nq2 Q0 d2 1 1.0\nq3 Q0 d3 1 0.5 t\n", encoding="utf-8")
    assert _read_trec_with_polars(path) is None
    with pytest.raises(DatasetFormatError, match=r"run.trec:2: expected 6 columns"):
        RunTable.read(path)


@pytest.mark.parametrize(
    ("lengths", "docs", "repeated"),
    [
        ((3, 3), ["a", "b", "c", "a", "b", "c"], False),  # the same docs in two queries
        ((3, 3), ["a", "b", "c", "a", "b", "a"], True),
        ((2, 4, 1), ["a", "b", "c", "d", "e", "f", "g"], False),
        ((2, 4, 1), ["a", "b", "c", "d", "c", "f", "g"], True),
        ((1, 1), ["a", "a"], False),
    ],
)
def test_repeated_docs_are_found_per_query(lengths, docs, repeated) -> None:
    import numpy as np
    import polars as pl

    from ef.evaluation._formats.trec.fast import _repeats_a_doc

    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    series = pl.Series(docs)
    hashes = series.hash(seed=0).to_numpy()
    assert _repeats_a_doc(offsets, hashes, series) is repeated
    # Equal hashes alone never make a repeat: the doc ids are compared.
    clashing = np.full(len(docs), 7 << 32, dtype=np.uint64)
    assert _repeats_a_doc(offsets, clashing, series) is repeated


def test_judged_docs_are_found_even_when_every_hash_clashes(monkeypatch) -> None:
    import numpy as np

    run = {"q1": {"a": 3.0, "b": 2.0, "c": 2.0}, "q2": {"a": 1.0, "d": 0.5}}
    qrels = {"q1": {"c": 1, "a": 0, "z": 2}, "q2": {"d": 2, "b": 1}}
    expected = evaluate_run(RunTable.from_dict(run), qrels, metrics=METRICS)
    table = RunTable.from_dict(run)
    docs = table._docs
    # Every doc hashes alike: the (query, doc) keys clash and doc ids decide alone.
    monkeypatch.setattr(docs, "hash_docs", lambda ids: np.zeros(len(ids), dtype=np.uint64))
    monkeypatch.setattr(
        docs,
        "rows_with_hashes",
        lambda wanted: (np.arange(len(table), dtype=np.int64), np.zeros(len(table), np.uint64)),
    )
    assert_same_report(evaluate_run(table, qrels, metrics=METRICS), expected)
    assert expected.per_query["q1"]["mrr@10"] == 0.5  # c ties b and ranks above it


class _SixColumns:
    """A plugin format that claims every 6-column file before the built-in TREC format."""

    @hookimpl
    def ef_evaluation_formats(self) -> list[DatasetFormat]:
        return [
            DatasetFormat(
                name="six",
                detect=lambda path: True,
                read_run=lambda path: {"mine": {"d": 1.0}},
            )
        ]


def test_a_plugin_format_that_claims_a_trec_file_reads_it_not_the_fast_reader(
    tmp_path: Path,
) -> None:
    # The fast reader is the TREC format's own capability: detection asks the plugin first.
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 2.5 bm25\n")
    assert RunTable.read(path).query_ids == ("q1",)
    registry = registry_with(_SixColumns())
    assert RunTable.read(path, registry=registry).query_ids == ("mine",)
    assert RunTable.read(path, "trec", registry=registry).query_ids == ("q1",)


def test_the_trec_format_declares_its_fast_reader() -> None:
    fmt = Registry.load(autoload=False).format("trec")
    assert fmt.read_run_columns is not None
    assert Registry.load(autoload=False).format("msmarco").read_run_columns is None


def test_a_small_run_file_is_read_without_starting_polars(tmp_path, monkeypatch) -> None:
    from ef.evaluation._formats.trec import fast as trec_fast

    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\nq2 Q0 d3 1 0.5 bm25\n")
    qrels = {"q1": {"d2": 1}, "q2": {"d3": 2}}
    calls: list[Path] = []

    def spy(path: Path) -> object:
        calls.append(path)
        return read_trec_columns(path)

    monkeypatch.setattr(trec_fast, "read_trec_columns", spy)
    small = evaluate_run(run, qrels, metrics=METRICS).metrics
    assert calls == []  # the numpy reader read it
    monkeypatch.setattr(trec_fast, "SMALL_RUN_BYTES", 0)
    assert evaluate_run(run, qrels, metrics=METRICS).metrics == small
    assert calls == [run]  # polars read it, with the same numbers


def test_the_size_that_starts_polars(tmp_path, monkeypatch) -> None:
    from ef.evaluation._formats.trec import fast as trec_fast

    monkeypatch.setattr(trec_fast, "SMALL_RUN_BYTES", 100)
    plain, packed = tmp_path / "run.txt", tmp_path / "run.txt.gz"
    plain.write_bytes(b"x" * 99)
    packed.write_bytes(b"x" * 25)  # about 100 bytes of text once gunzipped
    assert not trec_fast.worth_starting_polars(plain)
    assert trec_fast.worth_starting_polars(packed)
    plain.write_bytes(b"x" * 100)
    assert trec_fast.worth_starting_polars(plain)
    assert trec_fast.worth_starting_polars(tmp_path / "missing.txt")  # its reader says so


def test_a_byte_column_finds_judged_docs_even_when_every_hash_clashes(
    tmp_path, monkeypatch
) -> None:
    import numpy as np

    path = tmp_path / "run.trec"
    # Ties (b and c), ids of several widths, and a query whose id is one of its docs.
    path.write_text(
        "q1 Q0 a 1 3 t\nq1 Q0 c 2 2 t\nq1 Q0 bb 3 2 t\nq2 Q0 q2 1 1 t\nq2 Q0 d 2 0.5 t\n"
    )
    qrels = {"q1": {"c": 1, "a": 0, "z": 2}, "q2": {"d": 2, "bb": 1}}
    table = _read_trec_with_numpy(path)
    assert table is not None
    reference = RunTable.from_dict(read_run(path))
    expected = evaluate_run(reference, qrels, metrics=METRICS)
    assert_same_report(evaluate_run(table, qrels, metrics=METRICS), expected)
    assert table.ranking("q1") == reference.ranking("q1") == ["a", "c", "bb"]
    assert table.without_identical_ids().to_dict() == {
        "q1": {"a": 3.0, "c": 2.0, "bb": 2.0},
        "q2": {"d": 0.5},
    }
    docs = table._docs
    monkeypatch.setattr(docs, "hash_docs", lambda ids: np.zeros(len(ids), dtype=np.uint64))
    monkeypatch.setattr(
        docs,
        "rows_with_hashes",
        lambda wanted: (np.arange(len(table), dtype=np.int64), np.zeros(len(table), np.uint64)),
    )
    assert_same_report(evaluate_run(table, qrels, metrics=METRICS), expected)


def test_the_numpy_reader_declines_a_column_wider_than_the_file(tmp_path) -> None:
    # One very long doc id among short ones: its padded column would outgrow the file.
    path = tmp_path / "run.trec"
    lines = [f"q1 Q0 d{i} {i} 1 t" for i in range(50)] + [f"q2 Q0 {'x' * 5000} 1 1 t"]
    path.write_text("\n".join(lines) + "\n")
    assert _read_trec_with_numpy(path) is None
    assert RunTable.read(path).to_dict() == read_run(path)


def test_a_file_the_numpy_reader_declines_is_polars_from_2_mb(tmp_path, monkeypatch) -> None:
    from ef.evaluation._formats.trec import bytes_reader as trec_bytes

    path = tmp_path / "run.trec"
    path.write_text("# a header line\n" + GOOD)  # a comment: numpy's reader declines it
    assert trec_bytes.read_trec_bytes(path) is None
    assert trec_bytes.read_columns(path) is None  # small: the reference reader's
    monkeypatch.setattr(trec_bytes, "POLARS_AFTER_DECLINE_BYTES", 0)
    columns = trec_bytes.read_columns(path)
    assert columns is not None  # polars read it, as it read such files from 2 MB before
    assert RunTable.from_columns(columns).to_dict() == read_run(path)
