"""Printing rows of cells as a terminal table, Markdown, LaTeX, CSV or JSON.

The formats themselves live in :mod:`ef.evaluation._render`, shared with the reports'
``to_markdown()``, ``to_latex()``, ... methods; this module only prints.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import click

from .._render import (
    REPORT_OUTPUTS,
    Table,
    column_widths,
    exact_number,
    format_table,
    latex_escape,
    long_text,
    number,
    report_tables,
    rich_renderable,
)

if TYPE_CHECKING:
    from .._reports import ComparisonReport, RetrievalEvalReport

__all__ = [
    "emit_comparison",
    "emit_json",
    "emit_report",
    "emit_rows",
    "emit_table",
    "latex_escape",
    "number",
    "output_option",
]

_Command = TypeVar("_Command", bound=Callable[..., Any])


def output_option(kind: str) -> Callable[[_Command], _Command]:
    """``-o/--output``, whose choices are the outputs of ``kind`` of report
    (:data:`~ef.evaluation._render.REPORT_OUTPUTS`), ``table`` by default."""
    choice = click.Choice(REPORT_OUTPUTS[kind])
    return click.option("-o", "--output", type=choice, default="table", show_default=True)


def emit_json(data: Any) -> None:
    import json  # for -o json only

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
    plain = _plain_table(table)
    if plain is not None:  # off a terminal: rich's characters, without importing rich
        click.echo(plain, nl=False)
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


def _plain_table(table: Table) -> str | None:
    """``table`` as rich would print it on stdout, where stdout is no terminal and the table
    fits as it is (:mod:`~ef.evaluation._render.box`); None where rich must print it."""
    from .._render.box import boxed, plain_widths

    width = plain_width()
    widths = None if width is None else plain_widths(table, width)
    return None if widths is None else boxed(table, widths)


def plain_width(environ: Mapping[str, str] = os.environ) -> int | None:
    """The width a rich ``Console()`` takes, where it would print to stdout without styles;
    None where it may print styles (stdout a tty, ``FORCE_COLOR`` or ``TTY_COMPATIBLE``
    set), or where its rules differ from these (Windows, a non-UTF-8 stream, IPython).

    rich's width: the first of stdin, stdout and stderr that is a terminal, ``COLUMNS`` over
    it, 80 if neither says.
    """
    if sys.platform == "win32" or "IPython" in sys.modules:
        return None
    if not (getattr(sys.stdout, "encoding", None) or "utf-8").lower().startswith("utf"):
        return None  # rich would draw an ASCII box
    return None if _styled(environ) else _width(environ)


def _width(environ: Mapping[str, str]) -> int:
    """rich's width: the first standard stream that is a terminal, ``COLUMNS`` over it."""
    width = None
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    return width or 80


def _styled(environ: Mapping[str, str]) -> bool:
    """Whether rich may print styles on stdout: a tty, or ``FORCE_COLOR`` or
    ``TTY_COMPATIBLE`` set, which rich's versions read differently (``FORCE_COLOR=""`` is a
    terminal before rich 14, not since): those are left to rich."""
    return "FORCE_COLOR" in environ or "TTY_COMPATIBLE" in environ or _isatty(sys.stdout)


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return False if isatty is None else bool(isatty())
    except ValueError:  # a closed stream
        return False


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


def emit_report(report: RetrievalEvalReport, output: str, per_query: bool, name: str) -> None:
    """A retrieval report as ``output``, titled by ``name`` (the run, or the dataset)."""
    from .._reports.retrieval import tie_note

    title = str(report).splitlines()[0].replace("Retrieval evaluation", name)
    if output in ("csv", "trec"):  # plain data on stdout; what the tables' notes say, here
        for note in [*report.coverage_notes(unjudged=False), *report.manifest.get("notes", ())]:
            click.echo(f"note: {note}", err=True)
    if output == "json":
        emit_json(_report_data(report, per_query))
        return
    if output == "trec":
        _emit_trec(report, per_query)
        return
    # CSV is for machines: full precision and empty cells, as report.to_csv() writes them.
    table = (
        report.csv_table(details=per_query)
        if output == "csv"
        else report_tables(report, details=per_query)[-1]
    )
    # The ties note goes to stderr, in the shell's words (--ties): not twice, once as Python.
    in_python = tie_note(report.ties)
    table = attrs.evolve(table, notes=[note for note in table.notes if note != in_python])
    if per_query:
        _emit_per_query(report, table, output, title)
        return
    emit_table(attrs.evolve(table, title=title), output)


def _report_data(report: RetrievalEvalReport, per_query: bool) -> dict[str, Any]:
    """The report's JSON form; without -q, the per-query values are never copied into it."""
    data = (report if per_query else attrs.evolve(report, per_query={})).to_dict()
    if not per_query:
        del data["per_query"]
    return data


def _emit_per_query(report: RetrievalEvalReport, table: Table, output: str, title: str) -> None:
    """The per-query table closed by the means, as trec_eval's "all" lines close its output;
    too wide for the terminal, it is shown in trec_eval's three columns, measure query value."""
    cell = exact_number if output == "csv" else number
    rows = [*table.rows, ("all", *(cell(report.metrics[key]) for key in table.header[1:]))]
    notes = [*report.coverage_notes(), *report.manifest.get("notes", ())]
    table = attrs.evolve(table, rows=rows, notes=notes)
    long = Table(
        ["measure", "query", "value"],
        [
            (key, row[0], cell)
            for row in rows
            for key, cell in zip(table.header[1:], row[1:], strict=True)
        ],
        title=title,
        text_columns=2,
        notes=table.notes,
    )
    emit_table(attrs.evolve(table, title=title), output, long=long)


def _trec_value(name: str, value: float) -> float | int:
    # trec_eval prints its counts (num_ret, num_rel, num_rel_ret) as integers.
    return int(value) if name.startswith("num_") and float(value).is_integer() else value


def _emit_trec(report: RetrievalEvalReport, per_query: bool) -> None:
    from .._presentation.trec_names import SUMMARY_ONLY, trec_eval_line, trec_eval_name

    names = {key: trec_eval_name(key) for key in report.metrics}
    lines = []
    if per_query:
        for query_id, values in report.per_query.items():
            lines += [
                trec_eval_line(names[k], query_id, _trec_value(names[k], v))
                for k, v in values.items()
                if names[k] not in SUMMARY_ONLY  # gm_map: a summary only, as trec_eval's
            ]
    lines.append(trec_eval_line("num_q", "all", report.n_queries))
    lines += [
        trec_eval_line(names[k], "all", _trec_value(names[k], v)) for k, v in report.metrics.items()
    ]
    click.echo("\n".join(lines))


def emit_comparison(report: ComparisonReport, output: str, per_query: bool) -> None:
    """Print a comparison as ``output``: JSON without the per-query values unless
    ``per_query``, CSV and LaTeX whole, the other outputs table by table."""
    from .._render import render

    if output == "json":
        text = render(report, "json")
        if not per_query:
            import json

            data = json.loads(text)
            del data["query_ids"], data["scores"]
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        click.echo(text, nl=False)
        return
    if output in ("csv", "latex"):
        click.echo(render(report, output, details=per_query), nl=False)
        return
    for i, table in enumerate(report_tables(report, details=per_query)):
        if i and output == "table":
            click.echo()
        emit_table(table, output)
