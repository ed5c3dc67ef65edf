"""ef-eval pool: the file written, the contributions shown, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import pool, write_qrels, write_run
from ef.evaluation.cli import cli

BM25 = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d5": 1.0}}
DENSE = {"q1": {"d3": 0.9, "d4": 0.8, "d1": 0.1}}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    bm25, dense = tmp_path / "bm25.trec", tmp_path / "dense.trec"
    write_run(bm25, BM25)
    write_run(dense, DENSE)
    return bm25, dense


def test_pool_writes_the_docs_to_judge_and_shows_each_runs_share(runs, tmp_path: Path) -> None:
    qrels, out = tmp_path / "qrels.txt", tmp_path / "pool.tsv"
    write_qrels(qrels, {"q1": {"d1": 1}})
    code, stdout, stderr = run(
        "pool", *map(str, runs), "--depth", "2", "--qrels", str(qrels), "-o", str(out)
    )
    assert code == 0, stderr
    assert out.read_text() == "q1\t0\td2\t\nq1\t0\td3\t\nq1\t0\td4\t\nq2\t0\td5\t\n"
    assert "Pool depth 2: 4 docs to judge for 2 queries (1 judged already)" in stdout
    assert stdout.endswith(f"pooled 2 runs at depth 2: 4 docs to judge for 2 queries -> {out}\n")
    assert pool(list(runs), depth=2, qrels=qrels).docs == {
        "q1": ("d2", "d3", "d4"),
        "q2": ("d5",),
    }


def test_pool_reports_for_machines_on_stdout_alone(runs, tmp_path: Path) -> None:
    out = tmp_path / "pool.csv"
    code, stdout, stderr = run(
        "pool", *map(str, runs), "-d", "1", "-o", str(out), "--report", "json"
    )
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["depth"] == 1
    assert {
        (r["run"], r["query"], r["contributed"], r["unique"]) for r in data["contributions"]
    } == {
        (str(runs[0]), "q1", 1, 1),
        (str(runs[0]), "q2", 1, 1),
        (str(runs[1]), "q1", 1, 1),
        (str(runs[1]), "q2", 0, 0),
    }
    assert "-> " in stderr
    assert out.read_text().startswith("query_id,doc_id,relevance\n")
    code, stdout, _ = run(
        "pool", *map(str, runs), "-d", "1", "-o", str(out), "--report", "csv", "-q"
    )
    assert code == 0
    assert stdout.splitlines()[0] == "run,query,contributed,unique"


def test_pool_errors_are_one_line_naming_the_file(runs, tmp_path: Path) -> None:
    bad = tmp_path / "bad.trec"
    bad.write_text("q1 Q0 d1 1 x tag\n")
    code, _, stderr = run("pool", str(bad), "-o", str(tmp_path / "pool.txt"))
    assert code == 2
    assert stderr.count("\n") == 1
    assert stderr.startswith(f"Error: {bad}:1: ")
    assert not (tmp_path / "pool.txt").exists()
    code, _, stderr = run("pool", str(runs[0]), "-o", str(tmp_path / "no" / "pool.txt"))
    assert code == 2
    assert stderr.count("\n") == 1
    assert "its directory does not exist" in stderr
    code, _, stderr = run("pool", str(runs[0]), "-d", "0", "-o", str(tmp_path / "p.txt"))
    assert code == 2
    assert "--depth" in stderr


def test_an_unfilled_pool_given_as_qrels_is_one_line_naming_file_and_line(runs, tmp_path) -> None:
    out = tmp_path / "pool.txt"
    assert run("pool", *map(str, runs), "-o", str(out))[0] == 0
    code, _, stderr = run("evaluate", str(out), str(runs[0]))
    assert code == 2
    assert stderr.startswith(f"Error: {out}:1: ")
    assert "has no relevance grade" in stderr
