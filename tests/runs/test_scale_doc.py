"""docs/scale.md's examples run as the page writes them, on files of the names they use, and
each gives the numbers of the same run read as one file.

The page's buckets (``s3://bucket``, ``gs://bucket``) become a ``file://`` folder of the
test's: the same fsspec path, with no network and no credentials, which spawned workers see
too. Every ``evaluate_shards`` or ``evaluate_run`` call of a block is checked against the whole file's report, with
the same keywords; every ``ef-eval`` line of the page prints the whole file's JSON numbers.
"""

from __future__ import annotations

import functools
import gzip
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ef.evaluation
from ef.evaluation import demo_path, read_beir
from ef.evaluation.cli import cli

from ..test_docs_examples import BLOCK, DOCS, python_blocks
from .shards import same, write_parquet

PAGE = DOCS / "scale.md"
DEMO_RUN = Path(__file__).parents[2] / "examples" / "run.overlap.trec"
BUCKETS = ("s3://bucket", "gs://bucket")


def page_blocks() -> list[str]:
    """The page's Python blocks, in order (none is followed by printed output)."""
    return [code for code, _ in python_blocks(PAGE)]


def page_commands() -> list[list[str]]:
    """The arguments of each ``$ ef-eval ...`` line of the page's console blocks."""
    lines = [
        line.removeprefix("$ ")
        for lang, body in BLOCK.findall(PAGE.read_text(encoding="utf-8"))
        if lang == "console"
        for line in body.splitlines()
    ]
    return [shlex.split(line)[1:] for line in lines if line.startswith("ef-eval ")]


def in_folder(text: str, folder: Path) -> str:
    """``text`` with the page's buckets as the file URL of ``folder``'s ``bucket``."""
    for bucket in BUCKETS:
        text = text.replace(bucket, f"file://{folder}/bucket")
    return text


def whole_queries(lines: list[str]) -> list[list[str]]:
    """``lines`` of a run (grouped by query) cut in two parts of whole queries."""
    queries = list(dict.fromkeys(line.split()[0] for line in lines))
    first = set(queries[: len(queries) // 2])
    return [
        [line for line in lines if line.split()[0] in first],
        [line for line in lines if line.split()[0] not in first],
    ]


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The files the page names, each layout holding the demo run's queries: two shards in
    ``_runs/`` (as ``part-*`` and as ``a``, ``b``), two Parquet partitions, the bucket's
    shards (plain and gzip) and its one-file run, and ``qrels.txt``; the whole run is
    ``whole.trec``. The test runs in this folder."""
    monkeypatch.chdir(tmp_path)
    lines = DEMO_RUN.read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "whole.trec").write_text("".join(lines), encoding="utf-8")
    _, _, qrels = read_beir(demo_path())
    (tmp_path / "qrels.txt").write_text(
        "".join(f"{q} 0 {d} {int(g)}\n" for q, judged in qrels.items() for d, g in judged.items()),
        encoding="utf-8",
    )
    bucket = tmp_path / "bucket"
    (bucket / "runs").mkdir(parents=True)
    (tmp_path / "runs").mkdir()
    (bucket / "run.trec").write_text("".join(lines), encoding="utf-8")
    for i, part in enumerate(whole_queries(lines)):
        text = "".join(part)
        for name in (
            f"runs/part-{i}.trec",
            "runs/" + "ab"[i] + ".trec",
            f"bucket/runs/part-{i}.trec",
        ):
            (tmp_path / name).write_text(text, encoding="utf-8")
        (bucket / ("ab"[i] + ".trec.gz")).write_bytes(gzip.compress(text.encode()))
        run: dict[str, dict[str, float]] = {}
        for line in part:
            q, _, d, _, score, _ = line.split()
            run.setdefault(q, {})[d] = float(score)
        write_parquet(tmp_path / f"runs/part={i}/0.parquet", run)
    return tmp_path


@pytest.fixture
def checked_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """``ef.evaluation.evaluate_shards`` and ``evaluate_run`` (as a block imports them)
    checking each report against evaluate_run's of ``whole.trec`` with the same keywords;
    the list of the calls made."""
    real = ef.evaluation.evaluate_run
    calls: list[tuple[Any, ...]] = []

    def checking(function: Callable[..., Any]) -> Callable[..., Any]:
        def checked(run: Any, qrels: Any, **keywords: Any) -> Any:
            got = function(run, qrels, **keywords)
            keywords.pop("executor", None)
            same(got, real("whole.trec", "qrels.txt", **keywords))
            assert got.per_query, "a report with no query scored proves nothing"
            calls.append((run, qrels))
            return got

        return checked

    monkeypatch.setattr(ef.evaluation, "evaluate_run", checking(real))
    monkeypatch.setattr(ef.evaluation, "evaluate_shards", checking(ef.evaluation.evaluate_shards))
    return calls


def run_blocks(blocks: list[str], folder: Path, calls: list[tuple[Any, ...]]) -> None:
    """Each block of ``blocks`` run in one namespace, as a reader pastes them; each must call
    ``evaluate_shards`` and ``evaluate_run`` as often as it writes them."""
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for code in blocks:
        before = len(calls)
        exec(compile(in_folder(code, folder), f"{PAGE.name} example", "exec"), namespace)
        written = code.count("evaluate_run(") + code.count("evaluate_shards(")
        assert len(calls) - before == written


def is_dask(code: str) -> bool:
    return "LocalCluster" in code


def test_the_pages_examples_give_the_whole_files_numbers(layout, checked_calls) -> None:
    blocks = [code for code in page_blocks() if not is_dask(code)]
    assert len(blocks) == 4, "the page's examples changed: check this test still runs them all"
    run_blocks(blocks, layout, checked_calls)
    assert [run for run, _ in checked_calls][:3] == [
        "runs/part-*.trec",
        ["runs/a.trec", "runs/b.trec"],
        "runs/**/*.parquet",
    ]
    assert sum(isinstance(run, str) and run.startswith("file://") for run, _ in checked_calls) == 2


@pytest.mark.retrievers
def test_the_pages_dask_example_gives_the_whole_files_numbers(
    layout, checked_calls, monkeypatch
) -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    # The page's cluster, with the scheduler's health-check server on a free loopback port:
    # it would take 8787 otherwise, which another test's cluster may hold, and the warning
    # that says so is an error here.
    local: Callable[..., Any] = functools.partial(
        distributed.LocalCluster,
        host="127.0.0.1",
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    monkeypatch.setattr(distributed, "LocalCluster", local)
    blocks = [code for code in page_blocks() if is_dask(code)]
    assert len(blocks) == 1
    run_blocks(["from ef.evaluation import evaluate_shards", *blocks], layout, checked_calls)
    assert checked_calls == [("runs/part-*.trec", "qrels.txt")]


def test_the_pages_commands_print_the_whole_files_numbers(layout) -> None:
    commands = page_commands()
    assert len(commands) == 4, "the page's commands changed: check this test still runs them all"

    def numbers(*args: str) -> dict[str, Any]:
        result = CliRunner().invoke(cli, [*args, "-q", "-o", "json"], prog_name="ef-eval")
        assert result.exit_code == 0, result.stderr
        data: dict[str, Any] = json.loads(result.stdout)
        return {key: data[key] for key in ("metrics", "per_query", "skipped")}

    expected = numbers("evaluate", "qrels.txt", "whole.trec")
    assert expected["per_query"]
    for args in commands:
        assert numbers(*(in_folder(arg, layout) for arg in args)) == expected, args
