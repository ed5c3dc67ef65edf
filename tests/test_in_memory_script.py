"""benchmarks/in_memory.py runs and reports what it says it does: each peer's call beside
ef's on the same dicts, and whether they agree.

How fast anything runs is for the script to show; nothing here looks at a time.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import load_script

pytestmark = pytest.mark.peers

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"

pytest.importorskip("pytrec_eval", reason="the benchmark's peer (a test dependency of peers)")


def load() -> ModuleType:
    return load_script(BENCHMARKS / "in_memory.py", "in_memory")


def _files(tmp_path: Path) -> list[str]:
    run, qrels = tmp_path / "run.trec", tmp_path / "qrels.txt"
    run.write_text(
        "q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\nq1 Q0 d3 3 1.5 bm25\n"
        "q2 Q0 d4 1 3.0 bm25\nq2 Q0 d1 2 0.5 bm25\n"
    )
    qrels.write_text("q1 0 d2 1\nq1 0 d3 2\nq2 0 d4 1\nq2 0 d9 1\n")
    return [str(run), str(qrels)]


def test_it_times_each_peer_beside_ef_on_the_same_dicts(tmp_path, capsys) -> None:
    assert load().main([*_files(tmp_path), "--repeat", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["queries"], result["lines"], result["repeat"]) == (2, 5, 2)
    rows = result["rows"]
    assert list(rows) == ["pytrec_eval shim", "evaluate_run", "BEIR shim", "ranx shim"]
    for name in ("pytrec_eval shim", "evaluate_run", "BEIR shim"):
        row = rows[name]
        assert row["ratio"] == pytest.approx(row["ef"] / row["peer"])
        assert 0 < row["best_ef"] <= row["ef"]
    # The shim and evaluate_run give each query's values, so their numbers are compared
    # with pytrec_eval's, and agree.
    assert rows["pytrec_eval shim"]["same"] == "yes"
    assert rows["evaluate_run"]["same"] == "yes"


def test_the_table_names_each_pair(tmp_path, capsys) -> None:
    assert load().main([*_files(tmp_path), "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 queries, 5 lines" in out
    assert "| pytrec_eval shim |" in out
    assert "| pytrec_eval as BEIR calls it |" in out


def test_a_missing_file_is_exit_2(tmp_path, capsys) -> None:
    assert load().main([str(tmp_path / "run"), str(tmp_path / "qrels")]) == 2
    assert "is absent: give RUN and QRELS" in capsys.readouterr().err
