"""``ef-eval history`` and ``ef-eval leaderboard``: reads of the store of evaluations.

The store is opened when a command runs: ``--help`` imports neither sqlite3 nor psycopg.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ._options import store_option
from ._render import emit_table, output_option

if TYPE_CHECKING:
    from .._store.reads import History, Leaderboard

__all__ = ["history_command", "leaderboard_command"]


def _emit(report: History | Leaderboard, output: str) -> None:
    from .._render import render

    if output == "json":
        click.echo(render(report, "json"), nl=False)
        return
    table = report.csv_table() if output == "csv" else report.tables()[0]
    emit_table(table, output)


@click.command("history")
@click.argument("metric")
@click.option("--system", default=None, help="Only this system's records.")
@click.option("--dataset", default=None, help="Only the records on this dataset.")
@store_option
@output_option("rows")
def history_command(
    *, metric: str, system: str | None, dataset: str | None, store: str | None, output: str
) -> None:
    """Show METRIC (ndcg@10, nDCG@10, ...) of every recorded evaluation, oldest first."""
    from .._store import open_store

    with open_store(store) as opened:
        report = opened.history(metric, system=system, dataset=dataset)
    _emit(report, output)


@click.command("leaderboard")
@click.argument("dataset")
@click.argument("metric")
@store_option
@output_option("rows")
def leaderboard_command(*, dataset: str, metric: str, store: str | None, output: str) -> None:
    """Rank the systems recorded on DATASET by their last METRIC, best first."""
    from .._store import open_store

    with open_store(store) as opened:
        report = opened.leaderboard(dataset, metric)
    _emit(report, output)
