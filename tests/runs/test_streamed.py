"""A large run file read in batches of whole queries gives the report of the whole file.

The batches are made tiny here (a few lines each, a query often longer than a block), so
that every boundary case is met: a query cut by a block, a block of one query, the last
line without a newline. The whole-file path is the oracle.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import DatasetFormatError, InputWarning, RunTable, evaluate_run
from ef.evaluation.evaluate import streamed
from ef.evaluation.formats.trec_stream import NotStreamable, iter_trec_batches

from ..profiles_hypothesis import examples

METRICS = ("ndcg@3", "recall@5", "precision@2", "mrr@10", "map@all", "num_ret", "P(rel=2)@3")
DOCS = [f"d{i}" for i in range(8)] + ["q1", "D1"]
SCORES = [1.0, 1.0 + 1e-9, 0.5, 2.0, -3.25]  # ties, and a pair equal only in float32

runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q4", "q5", "x9"]),
    st.dictionaries(st.sampled_from(DOCS), st.sampled_from(SCORES), min_size=1, max_size=7),
    min_size=1,
    max_size=5,
)
qrels_maps = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q4", "q6"]),
    st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 2), max_size=5),
    min_size=1,
    max_size=5,
)


def write_run(path: Path, run: dict[str, dict[str, float]], *, newline: bool = True) -> Path:
    lines = [
        f"{q} Q0 {d} {i} {s!r} tag"
        for q, docs in run.items()
        for i, (d, s) in enumerate(docs.items())
    ]
    path.write_text("\n".join(lines) + ("\n" if newline else ""), encoding="utf-8")
    return path


def whole(run_path: Path, qrels: Any, **options: Any) -> Any:
    return evaluate_run(RunTable.read(run_path), qrels, metrics=METRICS, **options)


@pytest.fixture
def batches(monkeypatch):
    """Batches for any file: ``batches(n)`` sets the block size in bytes."""

    def tiny(block_bytes: int) -> None:
        monkeypatch.setattr(streamed, "STREAM_FROM", 0)
        monkeypatch.setattr(streamed, "BLOCK_BYTES", block_bytes)

    def no_whole_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole file was read, not batches")

    tiny.no_whole_read = lambda: monkeypatch.setattr(RunTable, "read", no_whole_read)  # type: ignore[attr-defined]
    return tiny


def same_report(got, expected, path: Path) -> None:
    assert got == expected  # metrics, per-query values, skipped, missing, extra
    assert list(got.per_query) == list(expected.per_query)
    assert list(got.skipped) == list(expected.skipped)
    assert got.ties == expected.ties
    data = path.read_bytes()  # hashed while the batches were read
    entry = {"path": str(path), "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    assert got.manifest["inputs"]["run"] == entry


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    run=runs,
    qrels=qrels_maps,
    block=st.integers(1, 120),
    averaging=st.sampled_from(["qrels", "intersection", "run"]),
    tie_policy=st.sampled_from(["trec_eval", "docno_asc", "input_order", "expected"]),
    identical=st.booleans(),
    newline=st.booleans(),
)
def test_batches_give_the_whole_files_report(  # noqa: PLR0917 - hypothesis' arguments
    tmp_path_factory, batches, run, qrels, block, averaging, tie_policy, identical, newline
) -> None:
    path = write_run(tmp_path_factory.mktemp("run") / "run.trec", run, newline=newline)
    options = {"averaging": averaging, "tie_policy": tie_policy, "ignore_identical_ids": identical}
    with warnings.catch_warnings(record=True) as whole_warnings:
        warnings.simplefilter("always")
        try:
            expected = whole(path, qrels, **options)
        except ValueError as exc:
            expected = exc
    batches(block)
    with warnings.catch_warnings(record=True) as batch_warnings:
        warnings.simplefilter("always")
        if isinstance(expected, ValueError):
            with pytest.raises(ValueError, match=re.escape(str(expected))):
                evaluate_run(path, qrels, metrics=METRICS, **options)
            return
        got = evaluate_run(path, qrels, metrics=METRICS, **options)
    same_report(got, expected, path)
    assert [str(w.message) for w in batch_warnings] == [str(w.message) for w in whole_warnings]


def test_a_large_run_is_scored_without_reading_it_whole(tmp_path, batches) -> None:
    run = {f"q{i}": {f"d{j}": float(j % 3) for j in range(40)} for i in range(30)}
    path = write_run(tmp_path / "run.trec", run)
    qrels = {f"q{i}": {f"d{i}": 1, "d7": 2} for i in range(0, 40, 2)}
    expected = whole(path, qrels)
    batches(300)
    batches.no_whole_read()
    assert len(list(iter_trec_batches(path, 300))) > 10
    same_report(evaluate_run(path, qrels, metrics=METRICS), expected, path)


def test_a_run_not_grouped_by_query_is_read_whole_with_a_warning(tmp_path, batches) -> None:
    path = tmp_path / "run.trec"
    lines = [f"q{i % 3} Q0 d{i} 1 {i}.5 t" for i in range(30)]  # q0, q1, q2, q0, ...
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    qrels = {"q0": {"d3": 1}, "q1": {"d4": 1}, "q2": {"d2": 2}}
    expected = whole(path, qrels)
    batches(64)
    with pytest.warns(InputWarning, match=r"the lines of query 'q0' are not together in the file"):
        got = evaluate_run(path, qrels, metrics=METRICS)
    same_report(got, expected, path)
    with pytest.raises(NotStreamable) as why:
        list(iter_trec_batches(path, 64))
    assert not why.value.grouped


@pytest.mark.parametrize(
    "bad",
    [b"q9 Q0 d1 1 abc t\n", b"q9 Q0 d1 1 2.5\n", b"q9 Q0 d\x001 1 2.5 t\n", b"q9 Q0 d1 1 nan t\n"],
)
def test_a_bad_line_late_in_the_file_gives_the_whole_files_error(tmp_path, batches, bad) -> None:
    run = {f"q{i}": {f"d{j}": float(j) for j in range(10)} for i in range(8)}
    path = write_run(tmp_path / "run.trec", run)
    path.write_bytes(path.read_bytes() + bad + b"q10 Q0 d1 1 1.0 t\n")
    with pytest.raises(DatasetFormatError) as expected:
        RunTable.read(path)
    batches(100)
    with pytest.raises(DatasetFormatError) as got:
        evaluate_run(path, {"q1": {"d1": 1}}, metrics=METRICS)
    assert str(got.value) == str(expected.value)


def test_a_line_only_the_reference_reader_reads_gives_the_whole_files_report(
    tmp_path, batches
) -> None:
    run = {f"q{i}": {f"d{j}": float(j) for j in range(10)} for i in range(8)}
    path = write_run(tmp_path / "run.trec", run)
    path.write_bytes(path.read_bytes() + b"q9 Q0 d1\t1 2.5 t\n")  # a tab: a field apart
    qrels = {"q1": {"d1": 1}, "q9": {"d1": 2}}
    expected = whole(path, qrels)
    batches(100)
    same_report(evaluate_run(path, qrels, metrics=METRICS), expected, path)


def test_a_doc_listed_twice_in_a_query_cut_by_blocks_is_the_whole_files_error(
    tmp_path, batches
) -> None:
    lines = [f"q1 Q0 d{j} 1 {j}.0 t" for j in range(20)] + ["q1 Q0 d3 1 0.5 t"]
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DatasetFormatError, match="listed twice") as expected:
        RunTable.read(path)
    batches(50)
    with pytest.raises(DatasetFormatError) as got:
        evaluate_run(path, {"q1": {"d1": 1}}, metrics=METRICS)
    assert str(got.value) == str(expected.value)


def test_comments_and_blank_lines_at_block_edges(tmp_path, batches) -> None:
    lines = ["# a run"]
    for i in range(12):
        lines += [f"q{i} Q0 d{j} {j} {10 - j % 4}.0 tag" for j in range(6)]
        lines += ["", "  # between queries"] if i % 3 == 0 else []
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    qrels = {f"q{i}": {"d2": 1, "d5": 2} for i in range(0, 14, 2)}
    expected = whole(path, qrels)
    for block in (7, 40, 90, 400):
        batches(block)
        same_report(evaluate_run(path, qrels, metrics=METRICS), expected, path)
