"""A large run file read in batches of whole queries gives the report of the whole file.

The batches are made tiny here (a few lines each, a query often longer than a block), so
that every boundary case is met: a query cut by a block, a block of one query, the last
line without a newline. The whole-file path is the oracle.
"""

from __future__ import annotations

import mmap
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import DatasetFormatError, InputWarning, RunTable, evaluate_run
from ef.evaluation._formats.trec import fast as trec_fast
from ef.evaluation._formats.trec import stream as trec_stream
from ef.evaluation._formats.trec.stream import NotStreamable, iter_trec_batches

from ..profiles_hypothesis import examples
from .shards import METRICS, averagings, entry, qrels_maps, runs, same, tie_policies, write_run


def whole(run_path: Path, qrels: Any, **options: Any) -> Any:
    return evaluate_run(RunTable.read(run_path), qrels, metrics=METRICS, **options)


def same_report(got: Any, expected: Any, path: Path) -> None:
    same(got, expected)
    assert got.manifest["inputs"]["run"] == entry(path)  # hashed while the batches were read


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    run=runs,
    qrels=qrels_maps,
    block=st.integers(1, 120),
    averaging=averagings,
    tie_policy=tie_policies,
    identical=st.booleans(),
    newline=st.booleans(),
)
def test_batches_give_the_whole_files_report(  # noqa: PLR0917 - hypothesis' arguments
    tmp_path_factory, small_blocks, run, qrels, block, averaging, tie_policy, identical, newline
) -> None:
    path = write_run(tmp_path_factory.mktemp("run") / "run.trec", run, newline=newline)
    options = {"averaging": averaging, "tie_policy": tie_policy, "ignore_identical_ids": identical}
    with warnings.catch_warnings(record=True) as whole_warnings:
        warnings.simplefilter("always")
        try:
            expected = whole(path, qrels, **options)
        except ValueError as exc:
            expected = exc
    small_blocks(block, stream_from=0)
    with warnings.catch_warnings(record=True) as batch_warnings:
        warnings.simplefilter("always")
        if isinstance(expected, ValueError):
            with pytest.raises(ValueError, match=re.escape(str(expected))):
                evaluate_run(path, qrels, metrics=METRICS, **options)
            return
        got = evaluate_run(path, qrels, metrics=METRICS, **options)
    same_report(got, expected, path)
    assert [str(w.message) for w in batch_warnings] == [str(w.message) for w in whole_warnings]


def test_a_large_run_is_scored_without_reading_it_whole(tmp_path, small_blocks) -> None:
    run = {f"q{i}": {f"d{j}": float(j % 3) for j in range(40)} for i in range(30)}
    path = write_run(tmp_path / "run.trec", run)
    qrels = {f"q{i}": {f"d{i}": 1, "d7": 2} for i in range(0, 40, 2)}
    expected = whole(path, qrels)
    small_blocks(300, stream_from=0, whole=False)
    assert len(list(iter_trec_batches(path, 300))) > 10
    same_report(evaluate_run(path, qrels, metrics=METRICS), expected, path)


def test_a_run_not_grouped_by_query_is_read_whole_with_a_warning(tmp_path, small_blocks) -> None:
    path = tmp_path / "run.trec"
    lines = [f"q{i % 3} Q0 d{i} 1 {30 - i}.5 t" for i in range(30)]  # q0, q1, q2, q0, ...
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    qrels = {"q0": {"d3": 1}, "q1": {"d4": 1}, "q2": {"d2": 2}}
    expected = whole(path, qrels)
    small_blocks(64, stream_from=0)
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
def test_a_bad_line_late_in_the_file_gives_the_whole_files_error(
    tmp_path, small_blocks, bad
) -> None:
    run = {f"q{i}": {f"d{j}": float(j) for j in range(10)} for i in range(8)}
    path = write_run(tmp_path / "run.trec", run)
    path.write_bytes(path.read_bytes() + bad + b"q10 Q0 d1 1 1.0 t\n")
    with pytest.raises(DatasetFormatError) as expected:
        RunTable.read(path)
    small_blocks(100, stream_from=0)
    with pytest.raises(DatasetFormatError) as got:
        evaluate_run(path, {"q1": {"d1": 1}}, metrics=METRICS)
    assert str(got.value) == str(expected.value)


def test_a_line_only_the_reference_reader_reads_gives_the_whole_files_report(
    tmp_path, small_blocks
) -> None:
    run = {f"q{i}": {f"d{j}": float(10 - j) for j in range(10)} for i in range(8)}
    path = write_run(tmp_path / "run.trec", run)
    path.write_bytes(path.read_bytes() + b"q9 Q0 d1\t1 2.5 t\n")  # a tab: a field apart
    qrels = {"q1": {"d1": 1}, "q9": {"d1": 2}}
    expected = whole(path, qrels)
    small_blocks(100, stream_from=0)
    same_report(evaluate_run(path, qrels, metrics=METRICS), expected, path)


def test_a_doc_listed_twice_in_a_query_cut_by_blocks_is_the_whole_files_error(
    tmp_path, small_blocks
) -> None:
    lines = [f"q1 Q0 d{j} 1 {j}.0 t" for j in range(20)] + ["q1 Q0 d3 1 0.5 t"]
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DatasetFormatError, match="listed twice") as expected:
        RunTable.read(path)
    small_blocks(50, stream_from=0)
    with pytest.raises(DatasetFormatError) as got:
        evaluate_run(path, {"q1": {"d1": 1}}, metrics=METRICS)
    assert str(got.value) == str(expected.value)


def test_comments_and_blank_lines_at_block_edges(tmp_path, small_blocks) -> None:
    lines = ["# a run"]
    for i in range(12):
        lines += [f"q{i} Q0 d{j} {j} {10 - j % 4}.0 tag" for j in range(6)]
        lines += ["", "  # between queries"] if i % 3 == 0 else []
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    qrels = {f"q{i}": {"d2": 1, "d5": 2} for i in range(0, 14, 2)}
    expected = whole(path, qrels)
    for block in (7, 40, 90, 400):
        small_blocks(block, stream_from=0)
        same_report(evaluate_run(path, qrels, metrics=METRICS), expected, path)


@pytest.mark.parametrize("fast", [True, False], ids=["fast-reader", "reference-reader"])
def test_a_hash_line_with_a_run_line_s_shape_warns_in_batches_as_whole(
    tmp_path, small_blocks, monkeypatch, fast
) -> None:
    # polars drops a comment line unsaid: a file with such a line is the reference reader's.
    lines = ["# a run"] + [f"q{i} Q0 d{j} {j} {10 - j}.0 t" for i in range(6) for j in range(5)]
    lines.insert(14, "#5 Q0 d1 1 9.0 t")
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(trec_fast, "SMALL_RUN_BYTES", 0 if fast else 1 << 30)
    qrels = {f"q{i}": {"d2": 1} for i in range(6)}
    message = f"{path}:15: starts with '#' but has the shape of a run line"
    with pytest.warns(InputWarning, match=re.escape(message)) as once:
        expected = whole(path, qrels)
    assert "q5" in expected.per_query
    assert "#5" not in expected.per_query
    for block in (40, 400):
        small_blocks(block, stream_from=0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = evaluate_run(path, qrels, metrics=METRICS)
        same_report(got, expected, path)
        assert [str(w.message) for w in caught] == [str(w.message) for w in once]


def test_the_queries_seen_are_found_by_hash() -> None:
    seen = trec_stream._Seen()
    assert not seen.any_of(["q1"])  # nothing seen yet
    seen.add(["q3", "q1"])
    seen.add(["q2"])
    assert seen.any_of(["q9", "q2"])
    assert seen.any_of(["q1"])
    assert not seen.any_of(["q4", "q9"])
    assert not seen.any_of([])


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="needs Linux's /proc/self/smaps")
def test_a_mapped_runs_pages_are_let_go_block_after_block(tmp_path) -> None:
    # Each page fault maps the cached pages around it too (fault-around): those outside the
    # block just read stayed mapped, a few pages a block, and added up over a large file.
    path = tmp_path / "run.trec"
    lines = (f"q{i // 100} Q0 d{i} {i % 100 + 1} {1000 - i % 100} tag\n" for i in range(150_000))
    path.write_text("".join(lines))  # about 4 MB, in the page cache now
    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as m:
        blocks = sum(1 for _ in trec_stream._mapped_bodies(m, 64 << 10))
        resident = _resident_kib(path)
    assert blocks > 50
    assert resident <= 64, f"{resident} KiB of the file stay mapped after {blocks} blocks"


def _resident_kib(path: Path) -> int:
    """The KiB of ``path``'s mappings resident in this process."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            inside = line.endswith(str(path))
        elif inside and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total
