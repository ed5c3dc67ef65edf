"""Printing rows of cells as a terminal table, Markdown, LaTeX, CSV or JSON.

The formats themselves live in :mod:`ef.evaluation.render`, shared with the reports'
``to_markdown()``, ``to_latex()``, ... methods; this module only prints.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from ..render import Table, format_table, latex_escape, number, rich_renderable

__all__ = [
    "OUTPUTS",
    "TABLE_OUTPUTS",
    "emit_json",
    "emit_rows",
    "emit_table",
    "latex_escape",
    "number",
]

#: The tabular outputs every command offers, plus json.
OUTPUTS = ("table", "json", "csv", "markdown")
#: Every tabular output emit_rows can render.
TABLE_OUTPUTS = (*OUTPUTS, "latex")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def emit_table(table: Table, output: str) -> None:
    """Print ``table`` as ``table`` (rich, on the terminal), ``markdown``, ``latex`` or
    ``csv``."""
    if output != "table":
        click.echo(format_table(table, output), nl=False)
        if output == "markdown":
            click.echo()  # a blank line ends the table before the next one
        return
    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        # Piped or redirected: never truncate a cell to fit an imagined 80-column screen.
        console = Console(width=100_000)
    console.print(rich_renderable(table))


def emit_rows(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    output: str,
    *,
    title: str | None = None,
    numeric: bool = True,
) -> None:
    """Print ``rows`` under ``header`` as ``table`` (rich), ``markdown``, ``latex`` or ``csv``.

    With ``numeric``, every column after the first holds numbers and is right-aligned.
    """
    emit_table(Table(header, rows, title=title, numeric=numeric), output)
