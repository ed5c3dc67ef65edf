"""A sharded run (a list or glob of run files, each holding whole queries) gives the report
of the shards concatenated into one file, inline or on a process pool."""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import multiprocessing
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning, RunTable, evaluate_run
from ef.evaluation.evaluate import streamed
from ef.evaluation.evaluate.sharded import score_shard
from ef.evaluation.formats.trec_stream import iter_trec_batches

from ..profiles_hypothesis import examples
from .test_streamed import METRICS, qrels_maps, runs, write_run


def split(run: dict[str, dict[str, float]], owners: list[int], k: int) -> list[dict[str, Any]]:
    shards: list[dict[str, Any]] = [{} for _ in range(k)]
    for (query_id, docs), owner in zip(run.items(), owners, strict=False):
        shards[owner % k][query_id] = docs
    return shards


def write_shards(folder: Path, shards: list[dict[str, Any]]) -> list[Path]:
    return [write_run(folder / f"part-{i:02d}.trec", s) for i, s in enumerate(shards) if s]


def entry(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    return {"path": str(path), "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def outcome(run: Any, qrels: Any, **options: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got: Any = evaluate_run(run, qrels, metrics=METRICS, **options)
        except ValueError as exc:
            got = exc
    return got, [str(w.message) for w in caught]


def same(got: Any, expected: Any) -> None:
    if isinstance(expected, ValueError):
        assert isinstance(got, ValueError)
        assert str(got) == str(expected)
        return
    assert got == expected  # metrics, per-query values, skipped, missing, extra
    assert list(got.per_query) == list(expected.per_query)
    assert list(got.skipped) == list(expected.skipped)
    assert got.ties == expected.ties
    assert got.manifest["tie_policy"] == expected.manifest["tie_policy"]
    assert got.manifest["averaging"] == expected.manifest["averaging"]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    run=runs,
    qrels=qrels_maps,
    k=st.integers(1, 4),
    owners=st.lists(st.integers(0, 3), min_size=6, max_size=6),
    averaging=st.sampled_from(["qrels", "intersection", "run"]),
    tie_policy=st.sampled_from(["trec_eval", "docno_asc", "input_order", "expected"]),
    identical=st.booleans(),
)
def test_shards_give_the_whole_runs_report(  # noqa: PLR0917 - hypothesis' arguments
    tmp_path_factory, run, qrels, k, owners, averaging, tie_policy, identical
) -> None:
    folder = tmp_path_factory.mktemp("shards")
    shards = split(run, owners, k)
    paths = write_shards(folder, shards)
    # The whole: the shards concatenated, in order.
    whole = folder / "whole.trec"
    whole.write_bytes(b"".join(p.read_bytes() for p in paths))
    options = {"averaging": averaging, "tie_policy": tie_policy, "ignore_identical_ids": identical}
    expected, expected_warnings = outcome(whole, qrels, **options)
    for given_as in (paths, str(folder / "part-*.trec")):
        got, got_warnings = outcome(given_as, qrels, **options)
        same(got, expected)
        assert got_warnings == expected_warnings
        if not isinstance(got, ValueError):
            assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]
            assert got.manifest["inputs"].get("qrels") == expected.manifest["inputs"].get("qrels")


def test_a_query_in_two_shards_names_both(tmp_path) -> None:
    a = write_run(tmp_path / "a.trec", {"q1": {"d1": 1.0}, "q2": {"d2": 1.0}})
    b = write_run(tmp_path / "b.trec", {"q3": {"d1": 1.0}, "q2": {"d3": 0.5}})
    with pytest.raises(ValueError, match=re.escape(f"query 'q2' is in two shards, {a} and {b}")):
        evaluate_run([a, b], {"q1": {"d1": 1}})


def test_a_glob_that_matches_nothing_says_so(tmp_path) -> None:
    with pytest.raises(ValueError, match="matches no file"):
        evaluate_run(str(tmp_path / "*.trec"), {"q1": {"d1": 1}})
    with pytest.raises(ValueError, match="empty list"):
        evaluate_run([], {"q1": {"d1": 1}})


def test_an_executor_is_only_for_a_sharded_run(tmp_path) -> None:
    path = write_run(tmp_path / "a.trec", {"q1": {"d1": 1.0}})
    with cf.ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="sharded run"):
        evaluate_run(path, {"q1": {"d1": 1}}, executor=pool)
    with pytest.raises(ValueError, match=r"concurrent\.futures\.Executor"):
        evaluate_run([path], {"q1": {"d1": 1}}, executor=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not score a sharded run"):
        evaluate_run([path], {"q1": {"d1": 1}}, profile="beir")


@pytest.mark.parametrize("profile", ["trec_eval", "beir"])
def test_a_profile_refuses_a_run_it_cannot_score_saying_what_to_do(tmp_path, profile) -> None:
    a = str(write_run(tmp_path / "a.trec", {"q1": {"d1": 1.0}}))
    b = str(write_run(tmp_path / "b.trec", {"q2": {"d1": 1.0}}))
    start = f"profile={profile!r} "
    instead = ", or give tie_policy and averaging instead"
    refused: dict[str | tuple[str, ...], str] = {  # the run as given: what the message says
        "memory://x/run.trec": "needs a local run file, not the URL 'memory://x/run.trec': "
        "copy it locally first and give its path",
        f"file://{a}": f"needs a local run file, not the URL 'file://{a}': copy it locally "
        "first and give its path",
        str(tmp_path / "*.trec"): "does not score a sharded run; concatenate the shards",
        (a, b): "does not score a sharded run; concatenate the shards",
        (f"file://{a}", f"file://{b}"): "does not score a sharded run; concatenate the shards",
        (a,): f"does not score a sharded run, here of one shard: give its path '{a}' itself "
        "(not in a list, not a pattern)",
    }
    for shape, message in refused.items():
        run = list(shape) if isinstance(shape, tuple) else shape
        with pytest.raises(ValueError, match=f"^{re.escape(start + message + instead)}$"):
            evaluate_run(run, {"q1": {"d1": 1}}, profile=profile)
    assert evaluate_run(a, {"q1": {"d1": 1}}, profile=profile).n_queries == 1  # one local file


RUN = {f"q{i}": {f"d{j}": float((i * 7 + j * 3) % 5) for j in range(12)} for i in range(30)}
QRELS = {f"q{i}": {f"d{(i + j) % 12}": j % 3 for j in range(4)} for i in range(32)}


def sharded_files(folder: Path) -> tuple[Path, list[Path]]:
    owners = [i % 4 for i in range(len(RUN))]
    shards: list[dict[str, Any]] = [{} for _ in range(4)]
    for (query_id, docs), owner in zip(RUN.items(), owners, strict=True):
        shards[owner][query_id] = docs
    paths = write_shards(folder, shards)
    whole = folder / "whole.trec"
    whole.write_bytes(b"".join(p.read_bytes() for p in paths))
    return whole, paths


@pytest.fixture(scope="module")
def process_pool() -> Iterator[cf.ProcessPoolExecutor]:
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@pytest.mark.parametrize("tie_policy", ["trec_eval", "expected"])
def test_a_process_pool_gives_the_same_numbers(tmp_path, process_pool, tie_policy) -> None:
    whole, paths = sharded_files(tmp_path)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, tie_policy=tie_policy)
    got = evaluate_run(paths, QRELS, metrics=METRICS, tie_policy=tie_policy, executor=process_pool)
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]
    assert got.manifest["metrics"] == expected.manifest["metrics"]


# -- Parquet partitions as shards -----------------------------------------------------------


def write_parquet(path: Path, run: dict[str, dict[str, float]]) -> Path:
    import polars as pl

    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = pl.DataFrame(rows, schema=["q_id", "doc_id", "score"], orient="row")
    frame.write_parquet(path)
    return path


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    run=runs,
    qrels=qrels_maps,
    k=st.integers(1, 4),
    owners=st.lists(st.integers(0, 3), min_size=6, max_size=6),
    averaging=st.sampled_from(["qrels", "intersection", "run"]),
    tie_policy=st.sampled_from(["trec_eval", "docno_asc", "input_order", "expected"]),
)
def test_parquet_partitions_give_the_whole_files_report(  # noqa: PLR0917 - hypothesis' arguments
    tmp_path_factory, run, qrels, k, owners, averaging, tie_policy
) -> None:
    folder = tmp_path_factory.mktemp("parquet")
    shards = [s for s in split(run, owners, k) if s]
    # Hive-style partitions, as a Spark or polars job writes them.
    paths = [
        write_parquet(folder / "runs" / f"part={i}" / "0.parquet", s) for i, s in enumerate(shards)
    ]
    whole = write_parquet(folder / "whole.parquet", {q: d for s in shards for q, d in s.items()})
    options = {"averaging": averaging, "tie_policy": tie_policy}
    expected, expected_warnings = outcome(whole, qrels, **options)
    for given_as in (paths, str(folder / "runs" / "**" / "*.parquet")):
        got, got_warnings = outcome(given_as, qrels, **options)
        same(got, expected)
        assert got_warnings == expected_warnings
        if not isinstance(got, ValueError):
            assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]


# -- a large shard: read in batches, with the scores of the whole file ----------------------


@pytest.fixture
def small_batches(monkeypatch) -> Any:
    """Batches for any shard of ``block`` bytes or more; the whole file is never read."""

    def tiny(block: int) -> None:
        monkeypatch.setattr(streamed, "STREAM_FROM", block)
        monkeypatch.setattr(streamed, "BLOCK_BYTES", block)
        monkeypatch.setattr(RunTable, "read", no_whole_read)

    return tiny


def no_whole_read(*args: object, **kwargs: object) -> None:
    raise AssertionError("the whole shard was read, not batches")


@pytest.mark.parametrize("tie_policy", ["trec_eval", "input_order", "expected"])
@pytest.mark.parametrize("averaging", ["qrels", "intersection", "run"])
def test_a_large_shard_is_scored_in_batches_with_the_whole_files_scores(
    tmp_path, small_batches, tie_policy, averaging
) -> None:
    whole, paths = sharded_files(tmp_path)
    options = {"averaging": averaging, "tie_policy": tie_policy}
    shard = str(paths[0])
    expected_shard = score_shard(shard, QRELS, METRICS, (10,), **options)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, **options)
    small_batches(64)
    assert len(list(iter_trec_batches(paths[0], 64))) > 3
    assert score_shard(shard, QRELS, METRICS, (10,), **options) == expected_shard
    same(evaluate_run(paths, QRELS, metrics=METRICS, **options), expected)
    got = evaluate_run([whole], QRELS, metrics=METRICS, **options)  # one shard: --workers N RUN
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == [entry(whole)]


def test_a_large_shard_not_grouped_by_query_is_read_whole_with_a_warning(
    tmp_path, monkeypatch
) -> None:
    path = tmp_path / "run.trec"
    path.write_text("".join(f"q{i % 3} Q0 d{i} 1 {i}.5 t\n" for i in range(30)))
    qrels = {"q0": {"d3": 1}, "q1": {"d4": 1}, "q2": {"d2": 2}}
    expected = evaluate_run(path, qrels, metrics=METRICS)
    monkeypatch.setattr(streamed, "STREAM_FROM", 64)
    monkeypatch.setattr(streamed, "BLOCK_BYTES", 64)
    with pytest.warns(InputWarning, match=r"the lines of query 'q0' are not together"):
        got = evaluate_run([path], qrels, metrics=METRICS)
    same(got, expected)


@pytest.mark.parametrize("sharded", [True, False], ids=["sharded", "streamed"])
def test_the_few_queries_warning_points_at_the_caller(tmp_path, monkeypatch, sharded) -> None:
    """A run scored shard by shard or batch by batch warns from the line that called
    evaluate_run, as a run read whole does (the check is shared, a frame deeper)."""
    monkeypatch.setattr(streamed, "STREAM_FROM", 0)  # the one file is read in batches
    (tmp_path / "a.trec").write_text("q1 Q0 d1 1 2.0 r\n")
    (tmp_path / "b.trec").write_text("q2 Q0 d1 1 1.0 r\n")
    qrels = {f"q{i}": {"d1": 1} for i in range(1, 6)}
    run = f"{tmp_path}/*.trec" if sharded else tmp_path / "a.trec"
    with pytest.warns(InputWarning, match=r"the run answers only \d of the 5") as caught:
        evaluate_run(run, qrels, metrics=("mrr@10",))
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]
