"""A plugin format's writer is atomic without its help (DESIGN §6): the engine gives it a path
in a private folder beside the target and moves what it wrote into place only when it returns.
Whatever it raises, the target is left as it was, nothing of it stays, and the error names the
format, its plugin and distribution, and the target."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    DatasetFormatError,
    PluginError,
    Registry,
    convert,
    write_dataset,
    write_qrels,
    write_run,
)
from ef.evaluation.cli import cli

RUN = {"q1": {"d1": 2.0, "d2": 1.0}}
#: How the error names the plugin (ef_make_dist installs it as a real distribution).
WHO = "format 'halfway' of plugin 'halfway' (ef-evaluation-halfway 1.0)"

#: A plugin whose writers do what HALFWAY_MODE says: finish, write a few bytes and fail, or
#: write nothing.
PLUGIN = """
import os, sys
from pathlib import Path
from ef.evaluation import DatasetFormat, DatasetFormatError, hookimpl
from ef.evaluation.errors import Keyword

SEEN = []

def fail(mode):
    if mode == "raise":
        raise ValueError("disk on fire")
    if mode == "exit":
        sys.exit(3)
    if mode == "interrupt":
        raise KeyboardInterrupt
    if mode == "invalid":
        raise DatasetFormatError("query 'q1' cannot be written here")

def fail_at(mode, path):
    if mode == "named":
        raise ValueError(f"cannot write {path}")
    if mode == "oserror":
        raise FileNotFoundError(2, "No such file", str(path))
    if mode == "keyword":
        raise DatasetFormatError(f"{path} cannot hold the tag; ", Keyword("drop", ("tag",)))

def write(path, data):
    mode = os.environ.get("HALFWAY_MODE", "ok")
    SEEN.append(path)
    if mode == "nothing":
        return
    path.write_bytes(b"half")
    fail(mode)
    fail_at(mode, path)
    if mode == "sidecar":
        path.with_name(path.name + ".idx").write_text("index")
    path.write_text(f"whole {sorted(data)}\\n")

def write_dataset(path, dataset):
    mode = os.environ.get("HALFWAY_MODE", "ok")
    (path / "sub").mkdir(parents=True)
    (path / "corpus.x").write_text("new corpus")
    fail(mode)
    (path / "sub" / "queries.x").write_text("new queries")

@hookimpl
def ef_evaluation_formats():
    return DatasetFormat(
        name="halfway",
        write_run=write,
        write_qrels=write,
        write_dataset=write_dataset,
        detect=lambda path: Path(path).suffix == ".x",
    )
"""


@pytest.fixture
def registry(ef_make_dist) -> Registry:
    ef_make_dist(
        "ef-evaluation-halfway", "1.0", {"halfway": "halfway_mod"}, {"halfway_mod": PLUGIN}
    )
    return Registry.load()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of its own (ef_make_dist's site is in tmp_path): every entry is the test's."""
    path = tmp_path / "out"
    path.mkdir()
    return path


def entries(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


@pytest.mark.parametrize(
    ("mode", "what"),
    [("raise", "raised ValueError: disk on fire"), ("exit", r"called sys.exit(3)")],
)
def test_a_failing_writer_leaves_the_target_as_it_was(
    registry, folder, monkeypatch, mode, what
) -> None:
    monkeypatch.setenv("HALFWAY_MODE", mode)
    target = folder / "run.x"
    target.write_bytes(b"precious\n")
    with pytest.raises(PluginError) as info:
        write_run(target, RUN, format="halfway", registry=registry)
    assert str(info.value).startswith(
        f"{WHO} {what} in write_run(), on the file {target} (nothing was written)"
    )
    assert target.read_bytes() == b"precious\n"
    assert entries(folder) == {"run.x"}


def test_a_failing_writer_creates_nothing(registry, folder, monkeypatch) -> None:
    monkeypatch.setenv("HALFWAY_MODE", "raise")
    with pytest.raises(PluginError, match=re.escape(f"on the file {folder / 'qrels.x'}")):
        write_qrels(folder / "qrels.x", {"q1": {"d1": 1}}, format="halfway", registry=registry)
    assert entries(folder) == set()


def test_an_interrupt_or_a_documented_error_also_leaves_the_target(
    registry, folder, monkeypatch
) -> None:
    target = folder / "run.x"
    target.write_bytes(b"precious\n")
    monkeypatch.setenv("HALFWAY_MODE", "interrupt")
    with pytest.raises(KeyboardInterrupt):  # Ctrl-C still stops
        write_run(target, RUN, format="halfway", registry=registry)
    monkeypatch.setenv("HALFWAY_MODE", "invalid")
    with pytest.raises(DatasetFormatError) as info:  # a documented error keeps its type
        write_run(target, RUN, format="halfway", registry=registry)
    assert str(info.value) == (
        f"query 'q1' cannot be written here ({WHO} in write_run(), on the file {target}; "
        "nothing was written)"
    )
    assert target.read_bytes() == b"precious\n"
    assert entries(folder) == {"run.x"}


@pytest.mark.parametrize("mode", ["named", "oserror"])
def test_an_error_names_the_target_not_the_path_the_writer_was_given(
    registry, folder, monkeypatch, mode
) -> None:
    monkeypatch.setenv("HALFWAY_MODE", mode)
    target = folder / "run.x"
    with pytest.raises(PluginError) as info:
        write_run(target, RUN, format="halfway", registry=registry)
    assert str(target) in str(info.value)
    assert ".ef-tmp-" not in str(info.value)


def test_a_writer_that_finishes_replaces_the_target_keeping_its_mode(registry, folder) -> None:
    target = folder / "run.x.gz"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    write_run(target, RUN, format="halfway", registry=registry)
    assert target.read_text() == "whole ['q1']\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert entries(folder) == {"run.x.gz"}
    seen = sys.modules["halfway_mod"].SEEN[-1]
    assert seen.name == "run.x.gz"  # its name, suffixes and all, as the writer would expect
    assert seen.parent.name.startswith(f".run.x.gz.ef-tmp-{os.getpid()}-")


def test_what_a_writer_writes_beside_its_file_moves_with_it(registry, folder, monkeypatch) -> None:
    monkeypatch.setenv("HALFWAY_MODE", "sidecar")
    write_run(folder / "run.x", RUN, format="halfway", registry=registry)
    assert entries(folder) == {"run.x", "run.x.idx"}
    assert (folder / "run.x.idx").read_text() == "index"


def test_nothing_to_write_is_refused_before_a_plugin_writer_runs(registry, folder) -> None:
    # The plugin would write a file for {}; the engine refuses it as it does for built-ins.
    target = folder / "run.x"
    target.write_text("old")
    with pytest.raises(ValueError, match=r"^write_run: the run holds no query, so nothing was"):
        write_run(target, {}, registry=registry)
    with pytest.raises(ValueError, match=r"^write_qrels: the qrels hold no doc"):
        write_qrels(target, {"q1": {}}, registry=registry)
    assert target.read_text() == "old"
    assert entries(folder) == {"run.x"}


def test_a_writer_that_writes_nothing_is_a_plugin_error(registry, folder, monkeypatch) -> None:
    monkeypatch.setenv("HALFWAY_MODE", "nothing")
    target = folder / "run.x"
    target.write_bytes(b"precious\n")
    with pytest.raises(PluginError, match=re.escape(f"{WHO} wrote nothing in write_run()")):
        write_run(target, RUN, format="halfway", registry=registry)
    assert target.read_bytes() == b"precious\n"


def test_a_dataset_writer_fills_a_new_or_existing_folder_or_leaves_it(
    registry, folder, monkeypatch
) -> None:
    target = folder / "data"
    write_dataset(target, {"d1": "t"}, {"q1": "q"}, {"q1": {"d1": 1}}, format="halfway",
                  registry=registry)  # fmt: skip
    assert (target / "sub" / "queries.x").read_text() == "new queries"
    # Into an existing folder: its files are replaced one by one, the others stay.
    (target / "corpus.x").write_text("old corpus")
    (target / "notes.txt").write_text("mine")
    write_dataset(target, {"d1": "t"}, {"q1": "q"}, {"q1": {"d1": 1}}, format="halfway",
                  registry=registry)  # fmt: skip
    assert (target / "corpus.x").read_text() == "new corpus"
    assert (target / "notes.txt").read_text() == "mine"
    (target / "corpus.x").write_text("old corpus")
    monkeypatch.setenv("HALFWAY_MODE", "raise")
    with pytest.raises(PluginError, match=re.escape(f"on the folder {target} (nothing was")):
        write_dataset(target, {"d1": "t"}, {"q1": "q"}, {"q1": {"d1": 1}}, format="halfway",
                      registry=registry)  # fmt: skip
    assert (target / "corpus.x").read_text() == "old corpus"
    assert entries(folder) == {"data"}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_next_write_removes_a_killed_writers_folder(registry, folder) -> None:
    stale = folder / f".run.x.ef-tmp-{_dead_pid()}-abc123"
    (stale / "run.x").parent.mkdir()
    (stale / "run.x").write_text("half")
    write_run(folder / "run.x", RUN, format="halfway", registry=registry)
    assert entries(folder) == {"run.x"}


def test_a_writers_error_keeps_its_keyword_fields_for_ef_eval(registry, folder, monkeypatch):
    # The target and what was being written go into the message's parts too, not its text
    # alone: ef-eval names its option from the field, in the message Python reads.
    monkeypatch.setenv("HALFWAY_MODE", "keyword")
    source, target = folder / "run.trec", folder / "out.x"
    source.write_text("q1 Q0 d1 1 2.0 bm25\n")
    writing = f"({WHO} in write_run(), on the file {target}; nothing was written)"
    with pytest.raises(DatasetFormatError) as info:
        write_run(target, RUN, format="halfway", registry=registry)
    assert str(info.value) == f"{target} cannot hold the tag; drop=('tag',) {writing}"
    result = CliRunner().invoke(cli, ["convert", str(source), str(target), "--to", "halfway"])
    assert result.stderr == f"Error: {target} cannot hold the tag; --drop tag {writing}\n"


def test_convert_to_a_failing_plugin_format_leaves_the_target(
    registry, folder, monkeypatch
) -> None:
    source = folder / "run.trec"
    source.write_text("q1 Q0 d1 1 2.0 bm25\n")
    target = folder / "out.x"
    target.write_bytes(b"precious\n")
    monkeypatch.setenv("HALFWAY_MODE", "raise")
    with pytest.raises(PluginError, match=re.escape(f"{WHO} raised ValueError: disk on fire")):
        convert(source, target, to_format="halfway", registry=registry)
    assert target.read_bytes() == b"precious\n"
    assert entries(folder) == {"run.trec", "out.x"}


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_ef_eval_convert_says_so_in_one_line(registry, folder, monkeypatch, mode) -> None:
    source = folder / "run.trec"
    source.write_text("q1 Q0 d1 1 2.0 bm25\n")
    target = folder / "out.x"
    target.write_bytes(b"precious\n")
    monkeypatch.setenv("HALFWAY_MODE", mode)
    result = CliRunner().invoke(cli, ["convert", str(source), str(target), "--to", "halfway"])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: {WHO} ")
    assert f"in write_run(), on the file {target} (nothing was written)" in line
    assert "internal error" not in line
    assert target.read_bytes() == b"precious\n"
    assert entries(folder) == {"run.trec", "out.x"}
