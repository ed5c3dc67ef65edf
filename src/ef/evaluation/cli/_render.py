"""Printing rows of cells as a terminal table, Markdown, LaTeX, CSV or JSON.

The formats themselves live in :mod:`ef.evaluation.render`, shared with the reports'
``to_markdown()``, ``to_latex()``, ... methods; this module only prints.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from ..render import (
    Table,
    column_widths,
    format_table,
    latex_escape,
    long_text,
    number,
    rich_renderable,
)

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


def emit_table(table: Table, output: str, *, long: Table | None = None) -> None:
    """Print ``table`` as ``table`` (rich, on the terminal), ``markdown``, ``latex`` or
    ``csv``.

    A table too wide for the terminal (``COLUMNS`` when not one) without splitting a number
    or a word is printed long instead: as ``long`` (a narrower table of the same values) if
    given and it fits, else a block per row; a ``note:`` line on stderr says so, once.
    """
    if output != "table":
        click.echo(format_table(table, output), nl=False)
        if output == "markdown":
            click.echo()  # a blank line ends the table before the next one
        return
    from rich.console import Console

    width = Console().width  # the terminal's, or COLUMNS, or 80 when piped
    console = Console(width=width)
    widths = column_widths(table, width)
    if widths is not None:
        console.print(rich_renderable(table, widths), crop=False)
        return
    _note_long(table, width)
    long_widths = None if long is None else column_widths(long, width)
    if long is not None and long_widths is not None:
        console.print(rich_renderable(long, long_widths), crop=False)
    else:
        click.echo(long_text(table, width), nl=False)


def _note_long(table: Table, width: int) -> None:
    context = click.get_current_context(silent=True)
    meta = context.find_root().meta if context is not None else {}
    if meta.get("ef_evaluation.long_noted"):
        return
    meta["ef_evaluation.long_noted"] = True
    click.echo(
        f"note: {len(table.header)} columns do not fit in {width} terminal columns: shown "
        "one value per line (a wider terminal or COLUMNS shows the table; -o csv or json "
        "are for machines)",
        err=True,
    )


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
