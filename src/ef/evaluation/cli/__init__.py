"""The ``ef-eval`` command (also ``python -m ef.evaluation``), and ``ef-trec-eval``.

Bad input ends with one line on stderr that names the file and line (or the sample, the query)
and exit code 2; ``ef-eval --debug ...`` shows the traceback instead. click and rich are
imported only here, never by ``import ef.evaluation``; and each entry point imports only its
own command: ``ef-trec-eval`` never loads ``ef-eval``'s other commands, and ``ef-eval
COMMAND`` loads COMMAND's module alone (``ef-eval --help`` none of them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click

__all__ = ["cli", "main", "trec_eval_main"]


def main() -> None:
    """Run ``ef-eval`` with the process arguments; the process ends with it."""
    from ._gc import pause, resume

    pause()  # until the command's modules are loaded (_app._Group.get_command)
    from ._app import cli

    try:
        cli(prog_name="ef-eval")
    finally:
        resume()
        _before_exit()


def trec_eval_main() -> None:
    """Run ``ef-trec-eval`` with the process arguments; the process ends with it."""
    from ._gc import pause, resume

    pause()  # until the scoring's modules are loaded (_trec_eval._evaluate)
    from ._trec_eval import trec_eval_main as run

    try:
        run()
    finally:
        resume()
        _before_exit()


def _before_exit() -> None:
    """Spare the interpreter's shutdown its garbage collections over every object loaded
    (numpy's, click's, ef's, ...): 30 to 40 ms of a small run's 0.2 s. What is frozen is
    still freed as the modules are cleared; only cycles stay, as the process ends."""
    import gc

    gc.freeze()


def __getattr__(name: str) -> click.Group:
    # `from ef.evaluation.cli import cli`: the ef-eval group, loaded when asked for.
    if name == "cli":
        from ._app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
