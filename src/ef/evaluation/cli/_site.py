"""``ef-eval site``: the leaderboard site of the evaluations a store holds, as static files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ._options import significance_options

if TYPE_CHECKING:
    from .._engine.significance import Significance
    from .._store.record import Record

__all__ = ["site_command"]


def _load_records(store: str | None) -> list[Record]:
    """Every record of the store at ``store`` (a path or URL; None: the default store),
    oldest first. The one place the command reads the store."""
    from .._store import open_store

    with open_store(store) as opened:
        return opened.records()


def _queries(given: Sequence[str]) -> dict[str, dict[str, str]]:
    """``DATASET=FILE`` arguments: each file's query texts, by dataset."""
    from .._formats.files import read_queries

    texts: dict[str, dict[str, str]] = {}
    for argument in given:
        dataset, equals, path = argument.partition("=")
        if not equals or not dataset or not path:
            raise click.BadParameter(
                f"{argument!r}: expected DATASET=FILE, e.g. scifact=queries.jsonl",
                param_hint="--queries",
            )
        texts[dataset] = dict(read_queries(Path(path)))
    return texts


@click.command("site")
@click.argument("store", required=False)
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("site"),
    show_default=True,
    help="The site's directory; a site built before is replaced, any other directory with "
    "files is refused.",
)
@click.option(
    "-b",
    "--baseline",
    default=None,
    help="The system every other is tested against. Default: on each dataset, the system "
    "recorded first.",
)
@click.option(
    "-m",
    "--metric",
    default=None,
    help="The metric leaderboards are sorted by first. Default: ndcg@10 where recorded.",
)
@click.option(
    "--queries",
    "queries",
    multiple=True,
    metavar="DATASET=FILE",
    help="The query texts of DATASET, shown in its drill-downs (repeatable).",
)
@significance_options(
    test_help="The significance test, as ef-eval compare's.",
    correction_help="Multiple-comparison correction over each family: a leaderboard's "
    "systems and metrics, a record and the one before it, two systems of a drill-down.",
    seed=False,
)
def site_command(  # click passes every option by keyword
    *,
    store: str | None,
    out: Path,
    baseline: str | None,
    metric: str | None,
    queries: tuple[str, ...],
    significance: Significance,
) -> None:
    """Write the leaderboard site of the evaluations in STORE into a directory: static pages
    that open from disk, with no server and no network.

    A leaderboard per dataset (significance against a baseline), each system's history
    (regressions marked), drill-downs of two systems query by query, and each record's
    manifest. STORE is the store's path or URL; default: the default store.
    """
    from .._site import build_site

    texts = _queries(queries)
    records = _load_records(store)
    index = build_site(
        records,
        out,
        baseline=baseline,
        metric=metric,
        queries=texts,
        test=significance.test,
        correction=significance.correction,
        alpha=significance.alpha,
        n_resamples=significance.n_resamples,
    )
    click.echo(f"wrote {len(records)} records into {index}")
