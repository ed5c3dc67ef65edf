"""evaluate_shards(): the sharded journey as its own function, with evaluate_run's numbers;
evaluate_run's old sharded shape (a list or glob of files, executor=) still gives them, with
a DeprecationWarning pointing at evaluate_shards."""

from __future__ import annotations

import concurrent.futures as cf
import json
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import evaluate_run, evaluate_shards
from ef.evaluation.cli import cli

from .shards import METRICS, QRELS, RUN, same, split, write_shards

SPLITS = {  # the shard of each query of RUN, for a few ways to cut it
    "one shard": [0] * len(RUN),
    "two halves": [0 if i < len(RUN) // 2 else 1 for i in range(len(RUN))],
    "four round robin": [i % 4 for i in range(len(RUN))],
    "one query each": list(range(len(RUN))),
}


@pytest.mark.parametrize("owners", SPLITS.values(), ids=SPLITS.keys())
@pytest.mark.parametrize("tie_policy", ["trec_eval", "expected"])
def test_evaluate_shards_gives_the_whole_files_report(tmp_path, owners, tie_policy) -> None:
    whole, paths = write_shards(tmp_path, split(RUN, owners, len(RUN)))
    expected = evaluate_run(whole, QRELS, metrics=METRICS, tie_policy=tie_policy)
    for given in (paths, tuple(paths), [str(p) for p in paths], str(tmp_path / "part-*.trec")):
        same(evaluate_shards(given, QRELS, metrics=METRICS, tie_policy=tie_policy), expected)


def test_evaluate_shards_on_threads_gives_the_same_report(tmp_path) -> None:
    whole, paths = write_shards(tmp_path, split(RUN, SPLITS["four round robin"], 4))
    expected = evaluate_run(whole, QRELS, metrics=METRICS, averaging="run")
    with cf.ThreadPoolExecutor(2) as pool:
        got = evaluate_shards(paths, QRELS, metrics=METRICS, averaging="run", executor=pool)
    same(got, expected)


def test_one_path_is_a_run_of_one_shard(tmp_path) -> None:
    whole, _ = write_shards(tmp_path, split(RUN, SPLITS["two halves"], 2))
    got = evaluate_shards(whole, QRELS, metrics=METRICS)
    same(got, evaluate_run(whole, QRELS, metrics=METRICS))
    assert [Path(e["path"]) for e in got.manifest["inputs"]["run"]] == [whole]


def test_a_run_in_memory_is_evaluate_runs() -> None:
    with pytest.raises(
        TypeError, match=r"not a dict; score a run held in memory with evaluate_run"
    ):
        evaluate_shards({"q1": {"d1": 1.0}}, QRELS)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"concurrent\.futures\.Executor"):
        evaluate_shards(["a.trec"], QRELS, executor=2)  # type: ignore[arg-type]


def test_the_old_sharded_shape_warns_and_gives_the_same_numbers(tmp_path) -> None:
    whole, paths = write_shards(tmp_path, split(RUN, SPLITS["four round robin"], 4))
    expected = evaluate_shards(paths, QRELS, metrics=METRICS)
    for given in (paths, str(tmp_path / "part-*.trec")):
        with pytest.warns(DeprecationWarning, match=r"call evaluate_shards\(") as caught:
            got = evaluate_run(given, QRELS, metrics=METRICS)
        same(got, expected)
        assert [Path(w.filename).name for w in caught] == [Path(__file__).name]  # this line
    with (
        cf.ThreadPoolExecutor(2) as pool,
        pytest.warns(DeprecationWarning, match=r"evaluate_run\(\) with executor= is deprecated"),
    ):
        got = evaluate_run(paths, QRELS, metrics=METRICS, executor=pool)
    same(got, expected)
    same(got, evaluate_run(whole, QRELS, metrics=METRICS))


def test_the_command_line_calls_evaluate_shards_with_no_warning(tmp_path, monkeypatch) -> None:
    _, paths = write_shards(tmp_path, split(RUN, SPLITS["two halves"], 2))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items())
    )
    monkeypatch.chdir(tmp_path)
    args = ["evaluate", "qrels.txt", *(p.name for p in paths), "-o", "json", "-q"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = CliRunner().invoke(cli, args, prog_name="ef-eval")
    assert result.exit_code == 0, result.output
    assert [w for w in caught if issubclass(w.category, DeprecationWarning)] == []
    expected = evaluate_shards(paths, QRELS, metrics=("ndcg@10",), k_values=(10,))
    assert json.loads(result.stdout)["metrics"]["ndcg@10"] == expected.metrics["ndcg@10"]
