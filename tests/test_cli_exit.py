"""ef-trec-eval and ``ef-eval evaluate`` end without the interpreter's teardown
(``cli._exit_now``): their output whole, their exit code kept, and ``atexit`` functions run."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from ef.evaluation.cli._app import cli

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "".join(f"q{q} Q0 d{d} {d} {10 - d}.5 t\n" for q in (1, 2, 3) for d in range(1, 400))

# A plugin-like atexit function, and os._exit traced: "fast exit" when the teardown is skipped.
_PRELUDE = """
import atexit, os, sys, threading
atexit.register(lambda: print("atexit ran", file=sys.stderr, flush=True))
real_exit = os._exit
def traced(code):
    os.write(2, b"fast exit\\n")
    real_exit(code)
os._exit = traced
{before}
from ef.evaluation import cli
sys.argv[1:] = {args!r}
cli.{entry}()
"""


def _run(entry: str, args: list[str], before: str = "") -> subprocess.CompletedProcess[str]:
    code = _PRELUDE.format(entry=entry, args=args, before=before)
    return subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)


@pytest.fixture
def files(tmp_path) -> tuple[str, str]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


@pytest.mark.parametrize(
    ("entry", "first"),
    [("trec_eval_main", []), ("main", ["trec_eval"])],
)
def test_trec_eval_output_is_whole_and_atexit_runs(files, entry, first) -> None:
    done = _run(entry, [*first, "-q", "-m", "all_trec", *files])
    assert done.returncode == 0, done.stderr
    # The same bytes as the command's in process, where nothing ends early.
    whole = CliRunner().invoke(cli, ["trec_eval", "-q", "-m", "all_trec", *files])
    assert whole.exit_code == 0
    assert len(done.stdout) > 8192  # more than a pipe's buffer: flushed before the end
    assert done.stdout == whole.stdout
    assert "atexit ran" in done.stderr
    assert "fast exit" in done.stderr


def test_evaluate_output_is_whole_and_its_exit_code_kept(files) -> None:
    done = _run("main", ["evaluate", *files, "-o", "json"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("}")
    assert "atexit ran" in done.stderr
    assert "fast exit" in done.stderr
    bad = _run("main", ["evaluate", files[0], files[0] + ".missing"])
    assert bad.returncode == 2
    assert bad.stderr.startswith("Error:")
    assert "atexit ran" in bad.stderr
    assert "fast exit" in bad.stderr


def test_a_usage_error_keeps_its_code(files) -> None:
    done = _run("trec_eval_main", ["-m", "no_such_measure", *files])
    assert done.returncode == 2
    assert "no_such_measure" in done.stderr
    assert "fast exit" in done.stderr


def test_a_running_thread_is_joined_as_usual(files) -> None:
    # A plugin's thread still running at the end: the interpreter joins it, nothing is cut.
    thread = (
        "threading.Thread(target=lambda: (threading.Event().wait(2.0), "
        "os.write(2, b'thread done\\n'))).start()"
    )
    done = _run("trec_eval_main", ["-m", "map", *files], before=thread)
    assert done.returncode == 0
    assert "thread done" in done.stderr
    assert done.stdout.startswith("map")


def test_other_commands_end_as_usual() -> None:
    # Commands that may leave work to the teardown (a retriever's threads, a store) keep it.
    done = _run("main", ["--help"])
    assert done.returncode == 0
    assert "atexit ran" in done.stderr
    assert "fast exit" not in done.stderr
