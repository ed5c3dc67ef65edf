"""The ``ef-eval`` command (also ``python -m ef.evaluation``).

Bad input ends with one line on stderr that names the file and line (or the sample, the query)
and exit code 2; ``ef-eval --debug ...`` shows the traceback instead. click and rich are
imported only here, never by ``import ef.evaluation``.
"""

from __future__ import annotations

from ._app import cli
from ._trec_eval import trec_eval_main

__all__ = ["cli", "main", "trec_eval_main"]


def main() -> None:
    """Run ``ef-eval`` with the process arguments."""
    cli(prog_name="ef-eval")
