"""The ``ef-eval`` command (also ``python -m ef.evaluation``), and ``ef-trec-eval``.

Bad input ends with one line on stderr that names the file and line (or the sample, the query)
and exit code 2; ``ef-eval --debug ...`` shows the traceback instead. click and rich are
imported only here, never by ``import ef.evaluation``; and each entry point imports only its
own command: ``ef-trec-eval`` never loads ``ef-eval``'s other commands, and ``ef-eval
COMMAND`` loads COMMAND's module alone (``ef-eval --help`` none of them).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click

__all__ = ["cli", "main", "trec_eval_main"]


def main() -> None:
    """Run ``ef-eval`` with the process arguments; the process ends with it."""
    from ._gc import pause, resume

    lean = _command(sys.argv[1:]) in _LEAN
    if lean:
        _one_blas_thread()
    pause()  # until the command's modules are loaded (_app._Group.get_command)
    from ._app import cli

    try:
        cli(prog_name="ef-eval")
    except SystemExit as end:
        if lean:
            _exit_now(end.code)
        raise
    finally:
        resume()
        _before_exit()


def trec_eval_main() -> None:
    """Run ``ef-trec-eval`` with the process arguments; the process ends with it."""
    from ._gc import pause, resume

    _one_blas_thread()
    pause()  # until the scoring's modules are loaded (_trec_eval._evaluate)
    from ._trec_eval import trec_eval_main as run

    try:
        run()
    except SystemExit as end:
        _exit_now(end.code)
        raise
    finally:
        resume()
        _before_exit()


#: The ef-eval commands that multiply no large matrices (their OpenBLAS needs no threads), and
#: whose process may end without the interpreter's teardown (:func:`_exit_now`).
_LEAN = frozenset({"evaluate", "trec_eval"})


def _command(args: list[str]) -> str | None:
    """The command named in ef-eval's arguments: the first that is not an option (the
    group's only options are flags).

    >>> _command(["--debug", "evaluate", "qrels", "run"]), _command(["--help"])
    ('evaluate', None)
    """
    return next((arg for arg in args if not arg.startswith("-")), None)


def _one_blas_thread() -> None:
    """One OpenBLAS thread, unless the environment says otherwise (before numpy loads).

    numpy's OpenBLAS starts a thread per core as it loads, and those spin, waiting for work,
    for a while: on two cores, 50 ms of a 0.3 s ef-trec-eval run on SciFact, taken from the
    command's own thread, for work that multiplies no matrix. A process pool's workers
    inherit the setting, as they should (one thread each).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _before_exit() -> None:
    """Spare the interpreter's shutdown its garbage collections over every object loaded
    (numpy's, click's, ef's, ...): 30 to 40 ms of a small run's 0.2 s. What is frozen is
    still freed as the modules are cleared; only cycles stay, as the process ends."""
    import gc

    gc.freeze()


def _exit_now(code: object) -> None:
    """End the process with ``code`` (a ``SystemExit``'s) without the interpreter's teardown.

    Once a command has written its output, the teardown only frees memory the process is
    about to give back: it clears every module and deallocates their objects, 10 to 20 ms of
    a 0.3 s ``ef-trec-eval`` run on SciFact. The ``atexit`` functions still run, and the
    output is flushed first; a write that fails here, or another thread still running, leaves
    the ending to the interpreter (returns, so the caller re-raises the ``SystemExit``).
    """
    import atexit
    import threading

    if threading.active_count() > 1 or not isinstance(code, int | None):
        return  # a thread to join, or a message to print: the interpreter's usual ending
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stream: say it as the interpreter does
        return
    atexit._run_exitfuncs()
    os._exit(code or 0)


def __getattr__(name: str) -> click.Group:
    # `from ef.evaluation.cli import cli`: the ef-eval group, loaded when asked for.
    if name == "cli":
        from ._app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
