"""Rendering rows of cells as a terminal table, Markdown, LaTeX, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

import click

__all__ = ["OUTPUTS", "TABLE_OUTPUTS", "emit_json", "emit_rows", "latex_escape", "number"]

#: The tabular outputs every command offers, plus json.
OUTPUTS = ("table", "json", "csv", "markdown")
#: Every tabular output emit_rows can render.
TABLE_OUTPUTS = (*OUTPUTS, "latex")

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped.

    >>> print(latex_escape("ndcg@10 & P_5"))
    ndcg@10 \\& P\\_5
    """
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def number(value: float | None) -> str:
    """Four decimals, as trec_eval prints; '-' for a value that does not exist."""
    return "-" if value is None else f"{value:.4f}"


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def emit_rows(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    output: str,
    *,
    title: str | None = None,
    numeric: bool = True,
) -> None:
    """Print ``rows`` under ``header`` as ``table`` (rich), ``markdown`` or ``csv``.

    With ``numeric``, every column after the first holds numbers and is right-aligned.
    """
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        click.echo(buffer.getvalue(), nl=False)
        return
    if output == "latex":
        _emit_latex(header, rows, title=title, numeric=numeric)
        return
    if output == "markdown":
        if title:
            click.echo(f"**{title}**\n")
        right = "---:" if numeric else "---"
        click.echo("| " + " | ".join(header) + " |")
        click.echo("|" + "|".join("---" if i == 0 else right for i in range(len(header))) + "|")
        for row in rows:
            click.echo("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        click.echo()
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        # Piped or redirected: never truncate a cell to fit an imagined 80-column screen.
        console = Console(width=100_000)
    table = Table()
    for i, name in enumerate(header):
        table.add_column(name, justify="right" if numeric and i else "left", overflow="fold")
    for row in rows:
        table.add_row(*row)
    if title:
        console.print(title, markup=False, highlight=False)
    console.print(table)


def _emit_latex(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None, numeric: bool
) -> None:
    # booktabs rules, as journals ask; a title becomes a comment, since a caption needs a float.
    align = "l" + ("r" if numeric else "l") * (len(header) - 1)
    if title:
        click.echo(f"% {title}")
    click.echo(f"\\begin{{tabular}}{{{align}}}")
    click.echo("\\toprule")
    click.echo(" & ".join(latex_escape(cell) for cell in header) + " \\\\")
    click.echo("\\midrule")
    for row in rows:
        click.echo(" & ".join(latex_escape(cell) for cell in row) + " \\\\")
    click.echo("\\bottomrule")
    click.echo("\\end{tabular}")
