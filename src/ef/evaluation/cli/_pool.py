"""``ef-eval pool``: the docs to judge from several run files, written for assessors."""

from __future__ import annotations

from pathlib import Path

import click

from ._options import (
    echo_warnings,
    input_warnings,
    per_query_option,
    single_order_ties_option,
    source_callback,
)
from ._render import emit_json, emit_table

__all__ = ["pool_command"]


@click.command("pool")
@click.argument("runs", nargs=-1, required=True, type=click.Path(), callback=source_callback)
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the docs to judge here, each with an empty grade, atomically: CSV "
    "(query_id,doc_id,relevance) for a name ending in .csv, else TREC qrels lines "
    "(qid 0 docno; tab-separated for .tsv).",
)
@click.option(
    "-d",
    "--depth",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many of each RUN's top docs per query are pooled.",
)
@click.option(
    "--qrels",
    type=click.Path(),
    callback=source_callback,
    default=None,
    help="The judgements there are already: their docs are not pooled again.",
)
@single_order_ties_option(
    "How each RUN's tied docs are ranked, which decides the ties at the depth."
)
@click.option("--run-format", default=None, help="The RUN files' format; default: detected.")
@click.option("--qrels-format", default=None, help="The QRELS file's format; default: detected.")
@per_query_option
@click.option(
    "--report",
    type=click.Choice(["table", "markdown", "csv", "json"]),
    default="table",
    show_default=True,
    help="How the contributions of each RUN are shown on stdout.",
)
def pool_command(  # click passes every option by keyword
    *,
    runs: tuple[Path | str, ...],
    out: Path,
    depth: int,
    qrels: Path | str | None,
    tie_policy: str,
    run_format: str | None,
    qrels_format: str | None,
    per_query: bool,
    report: str,
) -> None:
    """Pool the top docs of RUN... into a file to judge.

    Each query's pool is the union of every RUN's top --depth docs, less the docs --qrels
    judges already (depth-k pooling, as TREC pools its runs). The file has no grade: fill
    one in for each line, then merge it into the old qrels (merge_qrels) and score again.
    The table says how many docs each RUN contributed, and how many no other RUN did. A RUN
    or --qrels may be an ir_datasets id (irds:<dataset-id>): its run, or its qrels.
    """
    from .._evaluate.pooling import pool

    with input_warnings() as caught:
        pooled = pool(
            list(runs),
            depth=depth,
            qrels=qrels,
            tie_policy=tie_policy,
            run_format=run_format,
            qrels_format=qrels_format,
        )
    echo_warnings(caught)
    pooled.write(out)
    if report == "json":
        data = pooled.to_dict()
        emit_json({key: data[key] for key in ("depth", "runs", "contributions")})
    elif report == "csv":  # one table for machines
        emit_table(pooled.csv_table(details=per_query), report)
    else:
        for table in pooled.tables(details=per_query):
            emit_table(table, report)
    click.echo(
        f"pooled {len(runs)} runs at depth {depth}: {len(pooled)} docs to judge for "
        f"{len(pooled.docs)} queries -> {out}",
        err=report != "table",  # stdout stays the report alone for machines
    )
