"""Garbage collection is paused while a command's modules load, and on again before its work."""

from __future__ import annotations

import gc

import click
import pytest

from ef.evaluation.cli import _gc
from ef.evaluation.cli._app import cli


@pytest.fixture
def paused():
    was = gc.isenabled()
    _gc.pause()
    yield
    _gc.resume()
    gc.unfreeze()  # what resume() froze: this test process's objects, collected as before
    if was:
        gc.enable()


@pytest.mark.parametrize("command", ["fuse", "trec_eval", "compare"])
def test_a_command_collects_again_once_imported(paused, command: str) -> None:
    assert not gc.isenabled()
    with click.Context(cli) as ctx:
        assert cli.get_command(ctx, command) is not None
    assert gc.isenabled()


def test_evaluate_collects_again_once_its_scoring_is_loaded(paused, tmp_path) -> None:
    # evaluate resumes itself, after its scoring's modules (numpy) are loaded.
    with click.Context(cli) as ctx:
        command = cli.get_command(ctx, "evaluate")
    assert command is not None
    assert not gc.isenabled()
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 2.0 t\n")
    command.main([str(qrels), str(run), "-m", "map@10", "-o", "json"], standalone_mode=False)
    assert gc.isenabled()


def test_resume_leaves_collection_off_where_it_was_off_already() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        _gc.pause()
        _gc.resume()
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
