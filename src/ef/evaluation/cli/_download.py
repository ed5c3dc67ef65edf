"""``ef-eval download``: a BEIR dataset fetched, checked and unpacked."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from .._formats.download import DEFAULT_DIRECTORY, dataset_present, download_dataset
from ._options import progress_option, show_progress

__all__ = ["download_command"]


@click.command("download")
@click.argument("name")
@click.option(
    "-d",
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    default=DEFAULT_DIRECTORY,
    show_default=True,
    help="The folder to put NAME/ in, created if absent.",
)
@click.option(
    "--url",
    default=None,
    help="Fetch the zip from here instead of BEIR's server (a mirror; http, https or file).",
)
@click.option(
    "--checksum",
    default=None,
    help="The zip's md5 (or md5:<hex>, sha256:<hex>); default: the md5 BEIR publishes.",
)
@click.option("--force", is_flag=True, help="Download again and replace DIR/NAME if it exists.")
@progress_option
def download_command(  # noqa: PLR0917 - click passes each option by position
    name: str,
    directory: Path,
    url: str | None,
    checksum: str | None,
    force: bool,
    no_progress: bool,
) -> None:
    """Download the BEIR dataset NAME (scifact, nfcorpus, fiqa, ...) into DIR/NAME.

    The zip's md5 is checked against the one BEIR publishes before anything is unpacked.
    It is unpacked into a temporary folder (nothing outside DIR/NAME, no symlinks) and
    renamed into place only when complete. A complete DIR/NAME is left as it is.
    """
    target = directory / name
    present = not force and dataset_present(target)
    path = download_dataset(
        name,
        directory,
        url=url,
        checksum=checksum,
        force=force,
        progress=not present and show_progress(no_progress),
    )
    if present:
        click.echo(f"{path} is already there; nothing downloaded (--force downloads it again)")
    else:
        click.echo(f"downloaded {name} into {path}")
    click.echo(f"score a run on it: ef-eval evaluate {shlex.quote(str(path))} RUN")
