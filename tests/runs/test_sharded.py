"""A sharded run (a list or glob of run files, each holding whole queries) gives the report
of the shards concatenated into one file, inline or on a process pool."""

from __future__ import annotations

import concurrent.futures as cf
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning, evaluate_run, evaluate_shards
from ef.evaluation._evaluate.sharded import score_shard
from ef.evaluation._formats.trec.stream import iter_trec_batches

from ..profiles_hypothesis import examples
from .shards import (
    METRICS,
    QRELS,
    SHARDED,
    entry,
    outcome,
    same,
    sharded_files,
    split,
    write_parquet,
    write_run,
    write_shards,
)


@settings(max_examples=examples(60))
@given(**SHARDED, identical=st.booleans())
def test_shards_give_the_whole_runs_report(  # noqa: PLR0917 - hypothesis' arguments
    tmp_path_factory, run, qrels, k, owners, averaging, tie_policy, identical
) -> None:
    folder = tmp_path_factory.mktemp("shards")
    whole, paths = write_shards(folder, split(run, owners, k))
    options = {"averaging": averaging, "tie_policy": tie_policy, "ignore_identical_ids": identical}
    expected, expected_warnings = outcome(whole, qrels, **options)
    # The same warnings, but one file's name: a run read whole names it, a sharded one cannot.
    expected_warnings = [w.replace(f"the run {whole} ", "the run ") for w in expected_warnings]
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
        evaluate_shards([a, b], {"q1": {"d1": 1}})


def test_a_shard_listed_twice_says_so_before_any_is_read(tmp_path) -> None:
    a = write_run(tmp_path / "a.trec", {"q1": {"d1": 1.0}})
    b = write_run(tmp_path / "b.trec", {"q2": {"d1": 1.0}})
    missing = tmp_path / "gone.trec"  # never read: the refusal comes first
    other_name = f"{tmp_path}/./b.trec"  # one file by two names
    expected = (
        f"the shard {a} is listed twice (shards 1 and 3); the shard {b} is listed 3 times "
        f"(shards 2, 5 and 6: {b}, {other_name}, {b}): list each shard once (a query must be "
        "in one shard only)"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        evaluate_shards([a, b, a, missing, other_name, b], {"q1": {"d1": 1}})


def test_queries_in_two_shards_name_every_pair_and_a_copy(tmp_path) -> None:
    a = write_run(tmp_path / "a.trec", {"q1": {"d1": 1.0}, "q2": {"d2": 1.0}})
    b = write_run(tmp_path / "b.trec", {"q3": {"d1": 1.0}, "q4": {"d1": 1.0}})
    copy = tmp_path / "copy.trec"
    copy.write_bytes(a.read_bytes())
    c = write_run(tmp_path / "c.trec", {"q4": {"d5": 1.0}})
    expected = (
        f"query 'q1' is in two shards, {a} and {copy}, as is 1 more of their queries (the "
        f"two files hold the same bytes: is one a copy of the other?); query 'q4' is in two "
        f"shards, {b} and {c}: each shard must hold whole queries (split the run by query, "
        "not by line count)"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        evaluate_shards([a, b, copy, c], {"q1": {"d1": 1}})


def test_a_glob_that_matches_nothing_says_so(tmp_path) -> None:
    with pytest.raises(ValueError, match="matches no file"):
        evaluate_shards(str(tmp_path / "*.trec"), {"q1": {"d1": 1}})
    with pytest.raises(ValueError, match="empty list"):
        evaluate_shards([], {"q1": {"d1": 1}})


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


@pytest.mark.parametrize("tie_policy", ["trec_eval", "expected"])
def test_a_process_pool_gives_the_same_numbers(tmp_path, process_pool, tie_policy) -> None:
    whole, paths = sharded_files(tmp_path)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, tie_policy=tie_policy)
    got = evaluate_shards(
        paths, QRELS, metrics=METRICS, tie_policy=tie_policy, executor=process_pool
    )
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]
    assert got.manifest["metrics"] == expected.manifest["metrics"]


# -- Parquet partitions as shards -----------------------------------------------------------


@settings(max_examples=examples(40))
@given(**SHARDED)
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


@pytest.mark.parametrize("tie_policy", ["trec_eval", "input_order", "expected"])
@pytest.mark.parametrize("averaging", ["qrels", "intersection", "run"])
def test_a_large_shard_is_scored_in_batches_with_the_whole_files_scores(
    tmp_path, small_blocks, tie_policy, averaging
) -> None:
    whole, paths = sharded_files(tmp_path)
    options = {"averaging": averaging, "tie_policy": tie_policy}
    shard = str(paths[0])
    expected_shard = score_shard(shard, QRELS, METRICS, (10,), **options)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, **options)
    small_blocks(64, whole=False)
    assert len(list(iter_trec_batches(paths[0], 64))) > 3
    assert score_shard(shard, QRELS, METRICS, (10,), **options) == expected_shard
    same(evaluate_shards(paths, QRELS, metrics=METRICS, **options), expected)
    got = evaluate_shards([whole], QRELS, metrics=METRICS, **options)  # one shard: --workers N RUN
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == [entry(whole)]


def test_a_large_shard_not_grouped_by_query_is_read_whole_with_a_warning(
    tmp_path, small_blocks
) -> None:
    path = tmp_path / "run.trec"
    path.write_text("".join(f"q{i % 3} Q0 d{i} 1 {30 - i}.5 t\n" for i in range(30)))
    qrels = {"q0": {"d3": 1}, "q1": {"d4": 1}, "q2": {"d2": 2}}
    expected = evaluate_run(path, qrels, metrics=METRICS)
    small_blocks(64)
    with pytest.warns(InputWarning, match=r"the lines of query 'q0' are not together") as caught:
        got = evaluate_shards([path], qrels, metrics=METRICS)
    same(got, expected)
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]  # from this line
    with pytest.warns(InputWarning, match=r"the lines of query 'q0' are not together") as caught:
        score_shard(str(path), qrels, METRICS, (10,), averaging="qrels", tie_policy="trec_eval")
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]


@pytest.mark.parametrize("sharded", [True, False], ids=["sharded", "streamed"])
def test_the_few_queries_warning_points_at_the_caller(tmp_path, small_blocks, sharded) -> None:
    """A run scored shard by shard or batch by batch warns from the line that called
    evaluate_shards or evaluate_run, as a run read whole does (the check is shared, a frame deeper)."""
    small_blocks(1 << 20, stream_from=0)  # the one file is read in batches
    (tmp_path / "a.trec").write_text("q1 Q0 d1 1 2.0 r\n")
    (tmp_path / "b.trec").write_text("q2 Q0 d1 1 1.0 r\n")
    qrels = {f"q{i}": {"d1": 1} for i in range(1, 6)}
    run = f"{tmp_path}/*.trec" if sharded else tmp_path / "a.trec"
    with pytest.warns(InputWarning, match=r"the run answers only \d of the 5") as caught:
        (evaluate_shards if sharded else evaluate_run)(run, qrels, metrics=("mrr@10",))
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]
