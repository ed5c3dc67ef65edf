"""ef-eval site: the store's records built into a site, its options passed on, one-line
errors. The store is read through ``_load_records``, replaced here by the records, except
in the last test, which records into a real store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import Record, build_site, write_queries
from ef.evaluation.cli import cli

from .records import QUERIES, scenario

pytestmark = pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def stored(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The stores the command opened; every one holds the scenario's records."""
    opened: list[str | None] = []
    records = scenario()  # made here: their InputWarnings are not the command's

    def load(store: str | None) -> list[Record]:
        opened.append(store)
        return records

    monkeypatch.setattr("ef.evaluation.cli._site._load_records", load)
    return opened


def test_the_command_builds_the_site_build_site_builds(
    tmp_path: Path, stored: list[str | None]
) -> None:
    queries = tmp_path / "queries.jsonl"
    write_queries(queries, QUERIES)
    out = tmp_path / "site"
    code, stdout, stderr = run(
        "site", "evals.db", "-o", str(out), "-b", "weak", "-m", "mrr@10",
        "--queries", f"scifact={queries}", "-c", "holm",
    )  # fmt: skip
    assert (code, stderr) == (0, "")
    assert stored == ["evals.db"]
    assert stdout == f"wrote {len(scenario())} records into {out / 'index.html'}\n"
    same = tmp_path / "same"
    build_site(
        scenario(),
        same,
        baseline="weak",
        metric="mrr@10",
        queries={"scifact": QUERIES},
        correction="holm",
    )
    for page in same.iterdir():
        assert (out / page.name).read_bytes() == page.read_bytes(), page.name


def test_without_a_store_argument_the_default_store_is_read(
    tmp_path: Path, stored: list[str | None]
) -> None:
    code, _, stderr = run("site", "-o", str(tmp_path / "site"))
    assert (code, stderr) == (0, "")
    assert stored == [None]


def test_a_queries_argument_without_a_dataset_is_a_usage_error(
    tmp_path: Path, stored: list[str | None]
) -> None:
    code, _, stderr = run("site", "-o", str(tmp_path / "site"), "--queries", "queries.jsonl")
    assert code == 2
    assert "expected DATASET=FILE" in stderr
    assert stored == []


def test_a_directory_that_is_not_a_site_is_refused_in_one_line(
    tmp_path: Path, stored: list[str | None]
) -> None:
    (tmp_path / "mine.json").write_text(json.dumps({}), encoding="utf-8")
    code, _, stderr = run("site", "-o", str(tmp_path))
    assert code == 2
    assert stderr.count("\n") == 1
    assert "is not a site built by ef-eval site" in stderr


def test_the_site_of_a_real_store_holds_what_was_recorded(tmp_path: Path) -> None:
    """No seam: records written to a SQLite store by evaluate_run, read back by the command."""
    from ef.evaluation import demo_path, evaluate_run, open_store

    store = str(tmp_path / "store.sqlite")
    examples = Path(__file__).parents[2] / "examples"
    for system in ("bm25", "overlap"):
        evaluate_run(
            examples / f"run.{system}.trec",
            demo_path(),
            metrics=("ndcg@10",),
            record=True,
            system=system,
            dataset="demo",
            store=store,
        )
    with open_store(store) as opened:
        assert [r.system for r in opened.records()] == ["bm25", "overlap"]
    code, stdout, stderr = run("site", store, "-o", str(tmp_path / "site"))
    assert code == 0, stderr
    assert "wrote 2 records" in stdout
    board = next((tmp_path / "site").glob("dataset-demo-*.html")).read_text(encoding="utf-8")
    assert ">bm25<" in board
    assert ">overlap<" in board
