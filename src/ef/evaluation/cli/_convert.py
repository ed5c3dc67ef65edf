"""``ef-eval convert``: evaluation data moved from one format into another."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .._formats.kinds import DROPPABLE, KINDS
from ._options import progress_option, show_progress, source_callback

if TYPE_CHECKING:
    from .._formats.kinds import Kind

__all__ = ["convert_command"]


@click.command("convert")
@click.argument("source", type=click.Path(), callback=source_callback)
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--from", "from_format", default=None, help="The SOURCE format; default: detected.")
@click.option(
    "--to",
    "to_format",
    default=None,
    help="The TARGET format (beir, trec, msmarco, or a plugin's); default: from a .jsonl, "
    ".trec or .run name.",
)
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default=None,
    help="What SOURCE holds; default: a directory is a dataset, a file is told by its name "
    "(qrels, run, topics, queries, collection, corpus) or its first line.",
)
@click.option(
    "--drop",
    default="",
    metavar="KINDS",
    help=f"Drop on purpose what the target cannot hold, comma-separated: {', '.join(DROPPABLE)}. "
    "Each is an error without it; a note on stderr says what was dropped.",
)
@progress_option
def convert_command(  # noqa: PLR0917 - click passes each option by position
    source: Path | str,
    target: Path,
    from_format: str | None,
    to_format: str | None,
    kind: Kind | None,
    drop: str,
    no_progress: bool,
) -> None:
    """Convert SOURCE into TARGET in another format: a dataset directory, qrels, a run,
    queries or a corpus.

    \b
    What each target keeps (ids, texts and judgements always):
      beir     titles, metadata (the other fields of a record)
      trec     titles, metadata (in corpus.meta.jsonl / topics.meta.jsonl
               beside the files), run scores, one run tag
      msmarco  none of these: a title (--drop title joins it to the text),
               metadata (--drop metadata), run scores (--drop scores writes
               ranks) and the run tag (--drop tag) are errors without --drop
    Integer grades only in TREC and MS MARCO qrels; texts with a tab or line
    break only in BEIR.

    Datasets keep every split; corpora stream through one document at a time. Nothing is
    written unless all of it can be: a value the target cannot hold is an error naming it.
    SOURCE may be an ir_datasets id (irds:<dataset-id>): --kind picks its qrels, run,
    queries or corpus; by default the whole dataset is written as a directory.
    """
    from .._formats.convert import convert as convert_data

    drops = tuple(part.strip() for part in drop.split(",") if part.strip())
    what = convert_data(
        source,
        target,
        from_format=from_format,
        to_format=to_format,
        kind=kind,
        drop=drops,
        on_drop=lambda note: click.echo(f"note: {note}", err=True),
        progress=show_progress(no_progress),
    )
    click.echo(f"converted {what}: {source} -> {target}")
