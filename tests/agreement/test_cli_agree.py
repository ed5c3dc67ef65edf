"""ef-eval agree: the orderings' tau and tau_ap, the runs' RBO, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import demo_path, evaluate_run, rank_correlation, rbo, read_run, write_run
from ef.evaluation.cli import cli

DEMO = demo_path()
EXAMPLES = Path(__file__).parents[2] / "examples"
RUNS = [EXAMPLES / "run.overlap.trec", EXAMPLES / "run.bm25.trec"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def three(tmp_path: Path) -> list[Path]:
    """The two example runs and the first one reversed."""
    reversed_run = {q: {d: -s for d, s in docs.items()} for q, docs in read_run(RUNS[0]).items()}
    path = tmp_path / "reversed.trec"
    write_run(path, reversed_run)
    return [*RUNS, path]


def test_json_holds_what_the_api_gives(three: list[Path]) -> None:
    code, out, err = run("agree", str(DEMO), *map(str, three), "-m", "ndcg@10,mrr@10", "-o", "json")
    assert code == 0, err
    data = json.loads(out)
    means = {
        m: {
            p.name.removesuffix(".trec"): evaluate_run(p, DEMO, metrics=[m]).metrics[m]
            for p in three
        }
        for m in ("ndcg@10", "mrr@10")
    }
    expected = rank_correlation(means["ndcg@10"], means["mrr@10"])
    [found] = data["rank_correlation"]
    assert (found["a"], found["b"]) == ("ndcg@10", "mrr@10")
    assert (found["tau"], found["tau_ap"]) == (expected.tau, expected.tau_ap)
    assert [(r["a"], r["b"]) for r in data["rbo"]] == [
        ("run.overlap", "run.bm25"),
        ("run.overlap", "reversed"),
        ("run.bm25", "reversed"),
    ]
    assert data["rbo"][0]["mean"] == rbo(three[0], three[1]).mean
    assert data["rbo"][0]["p"] == 0.9


def test_the_table_and_versus_other_judgements(tmp_path: Path) -> None:
    code, out, err = run("agree", str(DEMO), *map(str, RUNS), "-p", "0.5", "--depth", "5")
    assert code == 0, err
    assert "ndcg@10" in out
    assert "map@100" in out
    assert "RBO_ext (p = 0.5)" in out
    code, out, err = run(
        "agree", "demo", *map(str, RUNS), "-m", "ndcg@10", "--versus", "demo", "-o", "csv"
    )
    assert code == 0, err
    assert "ndcg@10 (demo),ndcg@10 (demo),1.0000,1.0000" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["agree", str(DEMO), str(RUNS[0])], "give QRELS and at least two runs"),
        (["agree", str(DEMO), *map(str, RUNS), "-m", "ndcg@10"], "give two metrics (-m)"),
        (["agree", str(DEMO), str(RUNS[0]), str(RUNS[0])], "two runs are called 'run.overlap'"),
    ],
)
def test_errors_are_one_line_with_exit_2(args: list[str], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
