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
    """Run ``ef-eval`` with the process arguments."""
    from ._app import cli

    cli(prog_name="ef-eval")


def trec_eval_main() -> None:
    """Run ``ef-trec-eval`` with the process arguments."""
    from ._trec_eval import trec_eval_main as run

    run()


def __getattr__(name: str) -> click.Group:
    # `from ef.evaluation.cli import cli`: the ef-eval group, loaded when asked for.
    if name == "cli":
        from ._app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
