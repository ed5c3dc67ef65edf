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


@pytest.mark.parametrize(
    ("entry", "args", "threads"),
    [
        ("trec_eval_main", ["-v"], "1"),
        ("main", ["--debug", "evaluate", "--help"], "1"),
        ("main", ["fuse", "--help"], None),
    ],
)
def test_the_commands_that_multiply_no_matrix_start_one_blas_thread(
    tmp_path, entry: str, args: list[str], threads: str | None
) -> None:
    # numpy's OpenBLAS threads spin as it loads: ef-trec-eval and evaluate ask for one, and a
    # value given in the environment wins.
    import os
    import subprocess
    import sys

    # Printed as the process ends: ef-trec-eval and evaluate end it in cli._exit_now.
    code = (
        "import atexit, os, sys; from ef.evaluation import cli; sys.argv[1:] = "
        f"{args!r}\natexit.register(lambda: print(os.environ.get('OPENBLAS_NUM_THREADS'), "
        f"file=sys.stderr))\ncli.{entry}()"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stderr.splitlines()[-1] == str(threads)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**env, "OPENBLAS_NUM_THREADS": "2"},
        check=True,
    )
    assert done.stderr.splitlines()[-1] == "2"
