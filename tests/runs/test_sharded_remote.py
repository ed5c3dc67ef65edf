"""A sharded run at fsspec URLs (memory://, file://, and globs of them) gives the report of
the shards concatenated into one local file: each shard copied where it is scored, hashed on
the way, its temporary copy deleted whether or not it could be scored."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gzip
import hashlib
import json
import re
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fsspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import DatasetFormatError, MissingDependencyError, evaluate_run, evaluate_shards
from ef.evaluation._formats import digests
from ef.evaluation._formats.remote import expand_url_glob, local_copy
from ef.evaluation._formats.sources import is_url, url_glob
from ef.evaluation._formats.trec.fast import read_trec_columns
from ef.evaluation._formats.trec.stream import iter_trec_batches
from ef.evaluation.errors import FormatNotDetectedError

from ..profiles_hypothesis import examples
from .shards import (
    METRICS,
    QRELS,
    SHARDED,
    outcome,
    same,
    sharded_files,
    split,
    write_parquet,
    write_shards,
)

MEMORY = fsspec.filesystem("memory")


@contextlib.contextmanager
def memory_folder() -> Iterator[str]:
    """A fresh memory:// folder (the memory file system is one per process), removed after."""
    root = f"/ef-tests-{uuid.uuid4().hex}"
    try:
        yield f"memory://{root}"
    finally:
        if MEMORY.exists(root):
            MEMORY.rm(root, recursive=True)


@pytest.fixture
def memory_root() -> Iterator[str]:
    with memory_folder() as root:
        yield root


def to_memory(root: str, paths: list[Path], *, under: Path | None = None) -> list[str]:
    """The files ``paths`` copied to ``root``, by name (by their path in ``under``, if given):
    their URLs."""
    urls = []
    for path in paths:
        url = f"{root}/{path.name if under is None else path.relative_to(under).as_posix()}"
        with fsspec.open(url, "wb") as out:
            out.write(path.read_bytes())
        urls.append(url)
    return urls


def url_entry(url: str, data: bytes) -> dict[str, Any]:
    return {"path": url, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def url_entries(urls: list[str], paths: list[Path]) -> list[dict[str, Any]]:
    """The manifest's entries of shards at ``urls``, copies of the files ``paths``."""
    return [url_entry(u, p.read_bytes()) for u, p in zip(urls, paths, strict=True)]


@pytest.fixture
def temp_folder(tmp_path, monkeypatch) -> Path:
    """The temporary folder of every copy made in this process, to see it left empty."""
    folder: Path = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


# -- telling URLs from paths ----------------------------------------------------------------


def test_a_url_has_a_protocol_and_names_no_local_file(tmp_path, monkeypatch) -> None:
    assert is_url("s3://bucket/run.trec")
    assert is_url("simplecache::s3://bucket/run.trec")
    assert is_url("file:///tmp/run.trec")
    assert not is_url("runs/run.trec")
    assert not is_url("C:\\runs\\run.trec")  # a drive letter is no protocol
    assert not is_url("C://runs/run.trec")
    assert not is_url(Path("s3://bucket/run.trec"))  # a Path is a local path
    monkeypatch.chdir(tmp_path)
    Path("s3:/bucket").mkdir(parents=True)
    Path("s3:/bucket/run.trec").write_text("q1 Q0 d1 1 1.0 r\n")
    assert not is_url("s3://bucket/run.trec")  # a local file of that name is read as one
    assert url_glob("s3://bucket/runs/*.trec")
    assert not url_glob("s3://bucket/runs/a.trec")
    assert not url_glob("https://host/run.trec?version=2")  # a query string, not a glob


def test_a_local_path_never_goes_through_fsspec(tmp_path, monkeypatch) -> None:
    whole, paths = sharded_files(tmp_path)
    expected = evaluate_run(whole, QRELS, metrics=METRICS)
    monkeypatch.setitem(sys.modules, "fsspec", None)  # import fsspec now fails
    same(evaluate_shards(paths, QRELS, metrics=METRICS), expected)
    same(evaluate_shards(str(tmp_path / "part-*.trec"), QRELS, metrics=METRICS), expected)


# -- the numbers ----------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(**SHARDED, identical=st.booleans())
def test_shards_at_urls_give_the_whole_local_files_report(  # noqa: PLR0917 - hypothesis' arguments
    tmp_path_factory, run, qrels, k, owners, averaging, tie_policy, identical
) -> None:
    whole, paths = write_shards(tmp_path_factory.mktemp("shards"), split(run, owners, k))
    options = {"averaging": averaging, "tie_policy": tie_policy, "ignore_identical_ids": identical}
    with memory_folder() as root:
        urls = to_memory(root, paths)
        expected, expected_warnings = outcome(whole, qrels, **options)
        for given_as in (urls, f"{root}/part-*.trec"):
            got, got_warnings = outcome(given_as, qrels, **options)
            same(got, expected)
            assert got_warnings == expected_warnings
            if not isinstance(got, ValueError):
                assert list(got.manifest["inputs"]["run"]) == url_entries(urls, paths)


@pytest.mark.parametrize("threads", [0, 2])
def test_memory_urls_inline_and_on_threads(tmp_path, memory_root, temp_folder, threads) -> None:
    whole, paths = sharded_files(tmp_path)
    urls = to_memory(memory_root, paths)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, tie_policy="expected")
    with cf.ThreadPoolExecutor(threads) if threads else contextlib.nullcontext() as pool:
        got = evaluate_shards(urls, QRELS, metrics=METRICS, tie_policy="expected", executor=pool)
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == url_entries(urls, paths)
    assert list(temp_folder.iterdir()) == []  # every copy deleted


def test_one_url_is_a_run_of_one_shard(tmp_path, memory_root) -> None:
    whole, _ = sharded_files(tmp_path)
    (url,) = to_memory(memory_root, [whole])
    got = evaluate_run(url, QRELS, metrics=METRICS)
    same(got, evaluate_run(whole, QRELS, metrics=METRICS))
    assert list(got.manifest["inputs"]["run"]) == [url_entry(url, whole.read_bytes())]


def test_a_glob_of_urls_is_sorted_recursive_and_keeps_the_protocol(tmp_path, memory_root) -> None:
    whole, paths = sharded_files(tmp_path)
    urls = to_memory(memory_root, paths[::-1])  # written in another order
    with fsspec.open(f"{memory_root}/deeper/part-99.trec", "wb") as out:
        out.write(b"q99 Q0 d1 1 1.0 r\n")
    MEMORY.mkdir(f"{memory_root.removeprefix('memory://')}/part-dir.trec")  # a folder, left out
    assert expand_url_glob(f"{memory_root}/part-*.trec") == sorted(urls)
    assert expand_url_glob(f"{memory_root}/**/part-99.trec") == [
        f"{memory_root}/deeper/part-99.trec"
    ]
    got = evaluate_shards(f"{memory_root}/part-*.trec", QRELS, metrics=METRICS)
    same(got, evaluate_run(whole, QRELS, metrics=METRICS))


def test_a_gzip_shard_is_told_by_its_suffix_and_hashed_as_stored(tmp_path, memory_root) -> None:
    whole, _ = sharded_files(tmp_path)
    packed = gzip.compress(whole.read_bytes())
    url = f"{memory_root}/whole.trec.gz"
    with fsspec.open(url, "wb") as out:
        out.write(packed)
    got = evaluate_shards([url], QRELS, metrics=METRICS)
    same(got, evaluate_run(whole, QRELS, metrics=METRICS))
    assert list(got.manifest["inputs"]["run"]) == [url_entry(url, packed)]


def test_file_urls_on_a_process_pool(tmp_path, process_pool) -> None:
    whole, paths = sharded_files(tmp_path)
    urls = [f"file://{p}" for p in paths]
    expected = evaluate_run(whole, QRELS, metrics=METRICS, averaging="run")
    got = evaluate_shards(urls, QRELS, metrics=METRICS, averaging="run", executor=process_pool)
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == url_entries(urls, paths)
    globbed = evaluate_shards(
        f"file://{tmp_path}/part-*.trec", QRELS, metrics=METRICS, executor=process_pool
    )
    assert [e["path"] for e in globbed.manifest["inputs"]["run"]] == urls


def test_local_copy_hashes_the_bytes_and_deletes_the_copy(memory_root, temp_folder) -> None:
    data = bytes(range(256)) * 5000  # more than one block of the copy
    with fsspec.open(f"{memory_root}/blob.bin", "wb") as out:
        out.write(data)
    with local_copy(f"{memory_root}/blob.bin") as copy:
        assert copy.path.name == "blob.bin"
        assert copy.path.parent.parent == temp_folder
        assert copy.path.read_bytes() == data
    assert (copy.sha256, copy.bytes) == (hashlib.sha256(data).hexdigest(), len(data))
    assert list(temp_folder.iterdir()) == []
    with pytest.raises(RuntimeError), local_copy(f"{memory_root}/blob.bin"):
        raise RuntimeError("scoring failed")
    assert list(temp_folder.iterdir()) == []


def test_a_copy_is_hashed_once_the_readers_take_its_digest(memory_root, monkeypatch) -> None:
    run = b"".join(b"q%d Q0 d%d %d 1.5 t\n" % (q, d, d) for q in range(40) for d in range(5))
    with fsspec.open(f"{memory_root}/run.trec", "wb") as out:
        out.write(run)
    with local_copy(f"{memory_root}/run.trec") as copy:
        assert digests.recorded(copy.path) == (hashlib.sha256(run).hexdigest(), len(run))

        def no_second_hash(*args: object) -> object:
            raise AssertionError("the copy was hashed again")

        monkeypatch.setattr(hashlib, "sha256", no_second_hash)
        whole = read_trec_columns(copy.path)
        assert whole is not None
        assert whole.query_ids == [f"q{q}" for q in range(40)]
        batches = list(iter_trec_batches(copy.path, 300))
        assert len(batches) > 1
        assert [q for batch in batches for q in batch.query_ids] == whole.query_ids
        assert digests.recorded(copy.path) == (copy.sha256, copy.bytes)


# -- errors ---------------------------------------------------------------------------------


def test_a_missing_url_is_named(memory_root, temp_folder) -> None:
    with pytest.raises(
        FileNotFoundError, match=re.escape(f"{memory_root}/nope.trec: no such file")
    ):
        evaluate_run(f"{memory_root}/nope.trec", QRELS, metrics=METRICS)
    assert list(temp_folder.iterdir()) == []


def test_a_url_glob_that_matches_nothing_says_so(memory_root) -> None:
    with pytest.raises(
        ValueError, match=re.escape(f"the run pattern '{memory_root}/*.trec' matches no file")
    ):
        evaluate_shards(f"{memory_root}/*.trec", QRELS, metrics=METRICS)


def test_a_query_in_two_url_shards_names_both(tmp_path, memory_root) -> None:
    a, b = tmp_path / "a.trec", tmp_path / "b.trec"
    a.write_text("q1 Q0 d1 1 1.0 r\nq2 Q0 d2 1 1.0 r\n")
    b.write_text("q3 Q0 d1 1 1.0 r\nq2 Q0 d3 1 0.5 r\n")
    urls = to_memory(memory_root, [a, b])
    with pytest.raises(
        ValueError, match=re.escape(f"query 'q2' is in two shards, {urls[0]} and {urls[1]}")
    ):
        evaluate_shards(urls, {"q1": {"d1": 1}}, metrics=METRICS)


def test_a_bad_line_names_the_url_not_the_copy(tmp_path, memory_root, temp_folder) -> None:
    bad = tmp_path / "bad.trec"
    bad.write_text("q1 Q0 d1 1 1.0 r\nq2 Q0 d2 1 abc r\n")
    (url,) = to_memory(memory_root, [bad])
    with pytest.raises(DatasetFormatError) as caught:
        evaluate_shards([url], QRELS, metrics=METRICS)
    assert str(caught.value).startswith(f"{url}:2:")
    assert str(temp_folder) not in str(caught.value)
    assert list(temp_folder.iterdir()) == []  # deleted though scoring failed


def test_without_fsspec_a_url_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "fsspec", None)  # import fsspec now fails
    install = re.escape('pip install "ef-evaluation[remote]"')
    for run in ("s3://bucket/run.trec", "s3://bucket/runs/*.trec", ["memory:///a.trec"]):
        with pytest.raises(MissingDependencyError, match=install):
            evaluate_run(run, QRELS, metrics=METRICS)


def test_an_unknown_protocol_or_a_missing_package_names_the_url(monkeypatch) -> None:
    with pytest.raises(ValueError, match=r"^nosuch://bucket/run\.trec: Protocol not known: nosuch"):
        evaluate_run("nosuch://bucket/run.trec", QRELS, metrics=METRICS)
    from fsspec.registry import known_implementations

    # A protocol fsspec knows whose package is absent (s3fs may be installed here).
    monkeypatch.setitem(
        known_implementations,
        "efmissing",
        {"class": "ef_no_such_module.FS", "err": "Install ef-no-such-package for efmissing://"},
    )
    with pytest.raises(
        MissingDependencyError,
        match=r"^efmissing://bucket/run\.trec: Install ef-no-such-package for efmissing://",
    ):
        evaluate_run("efmissing://bucket/run.trec", QRELS, metrics=METRICS)


def test_a_large_url_shard_is_read_in_batches_from_its_copy(
    tmp_path, memory_root, temp_folder, small_blocks
) -> None:
    whole, paths = sharded_files(tmp_path)
    urls = to_memory(memory_root, paths)
    expected = evaluate_run(whole, QRELS, metrics=METRICS)
    small_blocks(64, whole=False)
    got = evaluate_shards(urls, QRELS, metrics=METRICS)
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == url_entries(urls, paths)
    assert list(temp_folder.iterdir()) == []


def test_parquet_partitions_at_urls(tmp_path, memory_root) -> None:
    run = {f"q{i}": {f"d{j}": float((i + j) % 4) for j in range(6)} for i in range(9)}
    qrels = {f"q{i}": {f"d{i % 6}": 1, "d2": 2} for i in range(10)}
    parts = [{q: d for q, d in run.items() if int(q[1:]) % 3 == n} for n in range(3)]
    paths = [write_parquet(tmp_path / f"part={n}" / "0.parquet", p) for n, p in enumerate(parts)]
    whole = write_parquet(tmp_path / "whole.parquet", {q: d for p in parts for q, d in p.items()})
    urls = to_memory(f"{memory_root}/runs", paths, under=tmp_path)  # .../runs/part=N/0.parquet
    expected = evaluate_run(whole, qrels, metrics=METRICS, tie_policy="docno_asc")
    got = evaluate_shards(
        f"{memory_root}/runs/**/*.parquet", qrels, metrics=METRICS, tie_policy="docno_asc"
    )
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == url_entries(urls, paths)


def test_an_undetectable_shard_on_a_process_pool_names_the_url(tmp_path, process_pool) -> None:
    path = tmp_path / "a.xyz"
    path.write_text("hello world\n")
    url = f"file://{path}"
    for run, named in (([url], url), ([path], str(path))):
        with pytest.raises(FormatNotDetectedError, match=re.escape(f"format of {named} to")) as why:
            evaluate_shards(run, QRELS, metrics=METRICS, executor=process_pool)  # pickled back
        assert (str(why.value.path), why.value.capability) == (named, "read_run")


# -- qrels at a URL ------------------------------------------------------------------------


def write_qrels(path: Path) -> bytes:
    data = "".join(f"{q} 0 {d} {g}\n" for q, judged in QRELS.items() for d, g in judged.items())
    raw = gzip.compress(data.encode()) if path.suffix == ".gz" else data.encode()
    path.write_bytes(raw)
    return raw


@pytest.mark.parametrize("name", ["qrels.txt", "qrels.txt.gz"])
def test_qrels_at_a_url_give_the_local_files_report(
    tmp_path, memory_root, temp_folder, small_blocks, name
) -> None:
    whole, _ = sharded_files(tmp_path)
    local = tmp_path / name
    raw = write_qrels(local)
    (url,) = to_memory(memory_root, [local])
    expected = evaluate_run(whole, local, metrics=METRICS)
    got = evaluate_run(whole, url, metrics=METRICS)
    same(got, expected)
    assert got.manifest["inputs"]["qrels"] == url_entry(url, raw)  # the bytes as stored
    small_blocks(64, stream_from=0)  # the run read in batches: the qrels read the same way
    same(evaluate_run(whole, url, metrics=METRICS), expected)
    assert list(temp_folder.iterdir()) == []  # every copy deleted


def test_qrels_at_a_url_keep_their_digest_beside_many_url_shards(tmp_path, memory_root) -> None:
    """The digests of the last 16 URLs read are kept: 20 shards at URLs, each recorded as it
    is copied, must not push the qrels URL's out of the manifest."""
    lines = [f"q{i} Q0 d1 1 1.0 t\n" for i in range(20)]
    run_files = [tmp_path / f"part-{i:02d}.trec" for i in range(20)]
    for path, line in zip(run_files, lines, strict=True):
        path.write_text(line)
    qrels_file = tmp_path / "qrels.txt"
    raw = b"".join(b"q%d 0 d1 1\n" % i for i in range(20))
    qrels_file.write_bytes(raw)
    (qrels_url,) = to_memory(memory_root, [qrels_file])
    shards = to_memory(memory_root, run_files)
    got = evaluate_shards(shards, qrels_url, metrics=("P@1",))
    assert got.metrics == {"precision@1": 1.0}
    assert got.manifest["inputs"]["qrels"] == url_entry(qrels_url, raw)
    assert list(got.manifest["inputs"]["run"]) == url_entries(shards, run_files)


def test_a_bad_qrels_line_or_a_missing_qrels_file_names_the_url(
    tmp_path, memory_root, temp_folder
) -> None:
    whole, _ = sharded_files(tmp_path)
    bad = tmp_path / "qrels.txt"
    bad.write_text("q1 0 d1 1\nq2 0 d2 high\n")
    (url,) = to_memory(memory_root, [bad])
    with pytest.raises(DatasetFormatError) as caught:
        evaluate_run(whole, url, metrics=METRICS)
    assert str(caught.value).startswith(f"{url}:2:")
    assert str(temp_folder) not in str(caught.value)
    with pytest.raises(FileNotFoundError, match=re.escape(f"{memory_root}/none.txt: no such file")):
        evaluate_run(whole, f"{memory_root}/none.txt", metrics=METRICS)
    assert list(temp_folder.iterdir()) == []


def test_the_cli_reads_qrels_at_a_url(tmp_path, memory_root) -> None:
    from click.testing import CliRunner

    from ef.evaluation.cli import cli

    whole, _ = sharded_files(tmp_path)
    local = tmp_path / "qrels.txt"
    raw = write_qrels(local)
    (url,) = to_memory(memory_root, [local])
    result = CliRunner().invoke(cli, ["evaluate", url, str(whole), "-m", "ndcg@10", "-o", "json"])
    assert result.exit_code == 0, result.output
    expected = evaluate_run(whole, local, metrics=["ndcg@10"])
    assert json.loads(result.stdout)["metrics"] == expected.metrics
    assert json.loads(result.stdout)["manifest"]["inputs"]["qrels"] == url_entry(url, raw)
    missing = CliRunner().invoke(cli, ["evaluate", f"{memory_root}/none.txt", str(whole)])
    assert missing.exit_code == 2
    assert missing.stderr == f"Error: {memory_root}/none.txt: no such file\n"


def test_qrels_at_a_url_of_a_folder_or_without_fsspec_are_called_qrels(
    tmp_path, memory_root, monkeypatch
) -> None:
    whole, _ = sharded_files(tmp_path)
    with fsspec.open(f"{memory_root}/beir/qrels/test.tsv", "wb") as out:
        out.write(b"query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    folder = f"{memory_root}/beir"  # a BEIR directory is read from a local path only
    with pytest.raises(
        IsADirectoryError, match=f"^{re.escape(folder)}: is a directory, not a qrels"
    ):
        evaluate_run(whole, folder, metrics=METRICS)
    monkeypatch.setitem(sys.modules, "fsspec", None)  # import fsspec now fails
    url = f"{memory_root}/beir/qrels/test.tsv"
    with pytest.raises(MissingDependencyError, match=f"^{re.escape(url)}: reading a file at a URL"):
        evaluate_run(whole, url, metrics=METRICS)
