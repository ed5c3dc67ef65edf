"""ef-eval experiment: systems from the command line, the report, the cache folder."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ef.evaluation import demo_path, evaluate_run
from ef.evaluation.cli import cli
from ef.evaluation.cli._experiment import parse_system

EXAMPLES = Path(__file__).parents[2] / "examples"

RETRIEVER = """
class Overlap:
    '''Ranks the corpus by the words a document shares with the query.'''

    version = "1"
    calls = 0

    def __init__(self, corpus, boost=0):
        self.docs = {d: set(text.lower().split()) for d, text in corpus.items()}
        self.boost = boost

    def search(self, query, limit=10):
        type(self).calls += 1
        words = set(query.lower().split())
        scored = sorted(self.docs, key=lambda d: (-len(words & self.docs[d]), d))
        return scored[self.boost:][:limit]


class Unversioned(Overlap):
    version = None
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def as_json(*args: str) -> dict[str, Any]:
    code, out, err = run(*args, "-o", "json", "--no-progress")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A retriever module in the current directory, imported afresh for each test."""
    name = f"overlap_{abs(hash(tmp_path)) % 10**8}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(RETRIEVER))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def test_three_systems_a_baseline_latency_and_the_cache(module: str, tmp_path: Path) -> None:
    run_file = str(EXAMPLES / "run.overlap.trec")
    systems = [f"{module}:Overlap", f"boosted={module}:Overlap(boost=1)", run_file]
    options = ["-b", "boosted", "-m", "ndcg@10,recall@10", "--cache", "cache", "--seed", "1"]
    first = as_json("experiment", "demo", *systems, *options)
    overlap = sys.modules[module].Overlap
    assert overlap.calls == 2 * 14  # the judged queries of the demo, for two systems
    assert first["systems"] == [f"{module}:Overlap", "boosted", "run.overlap"]
    assert first["baseline"] == "boosted"
    assert set(first["latency"]) == {f"{module}:Overlap", "boosted"}
    assert first["latency"]["boosted"]["queries"] == 14
    assert first["runs"]["boosted"] == "computed; cached"
    assert first["runs"]["run.overlap"].startswith("stored run (sha256 ")
    stored = evaluate_run(run_file, demo_path(), metrics=("ndcg@10",))
    assert first["means"]["run.overlap"]["ndcg@10"] == pytest.approx(stored.metrics["ndcg@10"])

    second = as_json("experiment", "demo", *systems, *options)
    assert overlap.calls == 2 * 14  # nothing ran again
    assert second["runs"]["boosted"].startswith("from the cache (computed ")
    assert second["means"] == first["means"]
    assert second["latency"] == first["latency"]

    code, out, err = run("experiment", "demo", *systems, *options, "--clear-cache")
    assert code == 0, err
    assert "cleared 2 cached runs from cache" in err
    assert overlap.calls == 4 * 14
    assert "Latency per query" in out
    assert "boosted (baseline)" in out


def test_a_system_without_a_version_is_run_each_time(module: str) -> None:
    systems = [f"{module}:Unversioned", f"{module}:Overlap(boost=2)"]
    for _ in range(2):
        data = as_json("experiment", "demo", *systems, "--cache", "cache")
    assert data["runs"][f"{module}:Unversioned"] == "computed; not cached: no version"
    assert data["runs"][f"{module}:Overlap(boost=2)"].startswith("from the cache")


def test_the_corpus_is_part_of_a_built_retrievers_version(module: str, tmp_path: Path) -> None:
    from ef.evaluation import read_dataset, write_dataset

    corpus, queries, qrels = read_dataset(demo_path())
    texts = dict(corpus.items())
    write_dataset(tmp_path / "data", texts, queries, qrels)
    systems = [f"{module}:Overlap", f"{module}:Overlap(boost=1)"]
    as_json("experiment", "data", *systems, "--cache", "cache")
    texts["moon-1"] = texts["moon-1"] + " edited"
    write_dataset(tmp_path / "data", texts, queries, qrels)
    data = as_json("experiment", "data", *systems, "--cache", "cache")
    assert data["runs"][f"{module}:Overlap"] == "computed; cached"


def test_batches_and_workers_are_said(module: str) -> None:
    systems = [f"{module}:Overlap", f"{module}:Overlap(boost=1)"]
    data = as_json("experiment", "demo", *systems, "--batch-size", "5", "--workers", "2")
    latency = data["latency"][f"{module}:Overlap"]
    assert latency["executor"] == "2 threads"
    assert latency["batch_size"] == 5
    code, out, err = run("experiment", "demo", *systems, "--workers", "2", "--no-progress")
    assert code == 0, err
    assert "each query alone, on 2 threads" in out


def test_stored_runs_alone_are_not_timed() -> None:
    run_file = str(EXAMPLES / "run.overlap.trec")
    data = as_json("experiment", "demo", run_file, f"again={run_file}")
    assert data["latency"] == {}
    assert data["runs"]["again"] == data["runs"]["run.overlap"]


def test_errors_are_one_line() -> None:
    code, _, err = run("experiment", "demo", "bm52", "bm25")
    assert code == 2
    assert "unknown retriever 'bm52'" in err
    code, _, err = run("experiment", "demo", "bm25", "bm25", "--clear-cache")
    assert code == 2
    assert "--clear-cache needs --cache DIR" in err
    code, _, err = run("experiment", "demo", "bm25(k1=)", "bm25")
    assert code == 2
    assert "expected options as key=value" in err


@pytest.mark.parametrize(
    ("argument", "expected"),
    [
        ("bm25", ("bm25", "bm25", {})),
        ("lucene=bm25(k1=1.2, b=0.75)", ("lucene", "bm25", {"k1": 1.2, "b": 0.75})),
        ("bm25(stemmer=None)", ("bm25(stemmer=None)", "bm25", {"stemmer": None})),
        ("bm25(method=atire)", ("bm25(method=atire)", "bm25", {"method": "atire"})),
        ("pkg.mod:Class(n=2)", ("pkg.mod:Class(n=2)", "pkg.mod:Class", {"n": 2})),
    ],
)
def test_system_arguments(argument: str, expected: tuple[str, str, dict[str, Any]]) -> None:
    assert parse_system(argument, 0) == expected


def test_a_run_file_is_named_by_its_file(tmp_path: Path) -> None:
    path = tmp_path / "bm25.trec"
    path.write_text("q1 Q0 d1 1 1.0 x\n")
    assert parse_system(str(path), 0) == ("bm25", str(path), {})
    assert parse_system(f"mine={path}", 0) == ("mine", str(path), {})


@pytest.mark.retrievers
def test_the_readme_command_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("bm25s", reason="the bm25 extra is not installed")
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    line = next(x for x in readme.splitlines() if x.startswith("ef-eval experiment demo"))
    import shlex

    arguments = shlex.split(line.split("#")[0])[1:]
    monkeypatch.chdir(tmp_path)  # the cache folder is made here
    (tmp_path / "examples").symlink_to(EXAMPLES)
    first = as_json(*arguments)
    second = as_json(*arguments)
    assert len(first["systems"]) == 3
    assert first["baseline"] == "bm25"
    assert sum(r == "computed; cached" for r in first["runs"].values()) == 2
    assert sum(r.startswith("from the cache") for r in second["runs"].values()) == 2
    assert second["means"] == first["means"]


def test_record_puts_every_retriever_in_the_store(tmp_path: Path) -> None:
    from ef.evaluation import open_store

    store = str(tmp_path / "store.sqlite")
    result = CliRunner().invoke(
        cli,
        ["experiment", "demo", f"bm25={EXAMPLES / 'run.bm25.trec'}",
         f"overlap={EXAMPLES / 'run.overlap.trec'}", "--record", "--store", store, "--tag",
         "nightly", "-o", "json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"recorded 2 systems on demo in {store}" in result.stderr
    with open_store(store) as opened:
        records = opened.records()
    assert [(r.system, r.dataset, r.tags) for r in records] == [
        ("bm25", "demo", ("nightly",)),
        ("overlap", "demo", ("nightly",)),
    ]
    means = json.loads(result.stdout)["means"]
    assert records[0].report.metrics["ndcg@10"] == means["bm25"]["ndcg@10"]
