"""benchmarks/retrieval_overhead.py runs (on the demo) and reports what it says it does.

How fast anything runs is for the script to show; nothing here looks at a time.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import load_script

pytestmark = pytest.mark.retrievers

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"

pytest.importorskip("bm25s", reason="the benchmark runs BM25 (the bm25 extra)")


def load() -> ModuleType:
    return load_script(BENCHMARKS / "retrieval_overhead.py", "overhead")


def test_it_times_the_three_paths_on_the_demo(capsys) -> None:
    assert load().main(["demo", "--repeat", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["documents"], result["queries"], result["repeat"]) == (36, 15, 1)
    assert list(result["seconds"]) == ["direct", "evaluate_retrieval", "ef-eval retrieve"]
    assert list(result["overhead"]) == ["evaluate_retrieval", "ef-eval retrieve"]
    assert all(share < 1 for share in result["overhead"].values())
    # ef's own work, timed alone on replayed answers, as a share of the retriever's time.
    assert 0 < result["best_own_seconds"] <= result["own_seconds"]
    assert result["own_share"] == pytest.approx(result["own_seconds"] / result["seconds"]["direct"])
    # ef's own work in the very call: the call less the time inside the retriever.
    assert 0 < result["best_call_own_seconds"] <= result["call_own_seconds"]
    assert result["call_own_share"] > 0


def test_the_clock_sums_only_the_time_inside_the_retriever() -> None:
    script = load()

    class Slow:
        def search_batch(self, texts, limit):
            return [[("d1", 1.0)] for _ in texts]

    clocked = script._Clocked(Slow())
    assert clocked.search_batch(["a", "b"], 5) == [[("d1", 1.0)], [("d1", 1.0)]]
    first = clocked.inside
    assert first > 0
    clocked.search_batch(["c"], 5)
    assert clocked.inside > first  # summed over the batches of one call
    # The answers are kept, to be freed untimed, as the direct path frees its own.
    assert clocked.answers == [[[("d1", 1.0)], [("d1", 1.0)]], [[("d1", 1.0)]]]


def test_the_report_names_the_target(capsys) -> None:
    assert load().main(["demo", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "15 judged queries, BM25, limit 100, batches of 32" in out
    assert "target: overhead <= 5% of wall time: " in out
    assert "ef alone (replayed)" in out
    assert "ef in the call" in out
    assert "target: ef's own work (in the call) <= 5% of the retriever's time: " in out


def test_a_missing_dataset_is_exit_2(tmp_path, capsys) -> None:
    assert load().main([str(tmp_path / "nowhere")]) == 2
    assert "is absent: give a BEIR dataset directory, or demo" in capsys.readouterr().err
