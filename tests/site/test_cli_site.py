"""ef-eval site: the store's records built into a site, its options passed on, one-line
errors. The store is read through ``_load_records``, replaced here by the records."""

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


def test_the_store_is_opened_by_its_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seam: ``open_store(url).records()``, the store's interface."""
    import ef.evaluation._store as stores
    from ef.evaluation.cli._site import _load_records

    class Store:
        def __init__(self, url: str | None) -> None:
            self.url = url

        def records(self) -> list[Record]:
            return scenario()[:1] if self.url == "a.db" else []

    monkeypatch.setattr(stores, "open_store", Store, raising=False)
    assert _load_records("a.db") == scenario()[:1]
