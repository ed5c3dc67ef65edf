"""Reports as tables: terminal (rich), Markdown, LaTeX (booktabs), CSV, JSON, HTML and pandas.

Every report (:class:`~ef.evaluation.RetrievalEvalReport`,
:class:`~ef.evaluation.RagEvalReport`, :class:`~ef.evaluation.ComparisonReport`) becomes one
or more :class:`Table` values, and each output format renders a Table. The reports' methods
(``to_markdown()``, ``to_latex()``, ...) and the ``ef-eval`` commands both come here, so a
table looks the same from Python and from the shell. rich and pandas are imported only by
the functions that need them.

>>> from ef.evaluation import RetrievalEvalReport
>>> report = RetrievalEvalReport({"ndcg@10": 0.5, "recall@10": 0.75}, {}, 4, (10,))
>>> print(report.to_markdown(), end="")
**Retrieval evaluation: 4 queries scored**
<BLANKLINE>
| metric | @10 |
|---|---:|
| ndcg | 0.5000 |
| recall | 0.7500 |
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table as RichTable

__all__ = [
    "OUTPUTS",
    "REPORT_OUTPUTS",
    "Table",
    "Tabular",
    "column_widths",
    "exact_number",
    "format_table",
    "html_fragment",
    "latex_escape",
    "long_text",
    "number",
    "p_value",
    "pandas_module",
    "plain_text",
    "render",
    "report_tables",
    "rich_renderable",
    "rich_table",
    "some",
    "superscript",
]

#: The outputs ``render()`` and :func:`format_table` produce.
OUTPUTS = ("table", "markdown", "latex", "csv", "json", "html")

_ROWS = ("table", "json", "csv", "markdown")
#: The outputs each kind of report is printed in by ``ef-eval`` (``-o``), in the order its
#: ``--help`` lists them: the one list its commands take their choices from. ``"rows"`` is a
#: listing of cells (metrics, plugins, fusion methods, a fused run's summary); ``"trec"`` is
#: trec_eval's lines, which only a retrieval report has.
REPORT_OUTPUTS: Mapping[str, tuple[str, ...]] = {
    "rows": _ROWS,
    "rag": (*_ROWS, "latex"),
    "retrieval": (*_ROWS, "latex", "trec"),
    "pipeline": (*_ROWS, "latex", "html"),
    "comparison": ("table", "markdown", "latex", "json", "csv"),
}

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
_LATEX_MARKS = {"†": r"\dag{}", "*": "*"}
_SUPERSCRIPTS = dict(
    zip(
        "abcdefghijklmnoprstuvwxyz0123456789*†,",
        "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹*†˒",
        strict=True,
    )
)


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped.

    >>> print(latex_escape("ndcg@10 & P_5"))
    ndcg@10 \\& P\\_5
    """
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def number(value: float | None) -> str:
    """Four decimals, as trec_eval prints; '-' for a value that does not exist (None, NaN).

    >>> number(0.123456), number(None)
    ('0.1235', '-')
    """
    return "-" if value is None or math.isnan(value) else f"{value:.4f}"


def exact_number(value: float | None) -> str:
    """Full precision for machines (CSV): ``repr(float)``, which reads back to the same float;
    an empty cell for a value that does not exist (None, NaN).

    >>> exact_number(1 / 3), exact_number(None), exact_number(2)
    ('0.3333333333333333', '', '2.0')
    """
    return "" if value is None or math.isnan(value) else repr(float(value))


def p_value(value: float) -> str:
    """A p-value with four decimals, or in scientific notation below 0.0001.

    >>> p_value(0.04321), p_value(0.0000123)
    ('0.0432', '1.2e-05')
    """
    if math.isnan(value):
        return "-"
    return f"{value:.4f}" if value >= 0.0001 or value == 0 else f"{value:.1e}"


def some(items: Sequence[str], shown: int = 5) -> str:
    """The first ``shown`` of ``items``, then how many more: for notes that name ids.

    >>> some(["q1", "q2"]), some([f"q{i}" for i in range(8)])
    ('q1, q2', 'q0, q1, q2, q3, q4 and 3 more')
    """
    head = ", ".join(items[:shown])
    return head if len(items) <= shown else f"{head} and {len(items) - shown} more"


def superscript(marks: str) -> str:
    """``marks`` in Unicode superscript, for the terminal; a character with no superscript
    form is written ``^x``.

    >>> superscript("ab"), superscript("q")
    ('ᵃᵇ', '^q')
    """
    return "".join(_SUPERSCRIPTS.get(char, f"^{char}") for char in marks)


def _frozen_marks(value: Mapping[tuple[int, int], str]) -> Mapping[tuple[int, int], str]:
    return dict(value)


def _cells(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _rows(rows: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(row) for row in rows)


def _positions(cells: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    return frozenset(cells)


@attrs.frozen
class Table:
    """Rows of cells under a header, with what each output needs to style them.

    ``bold`` holds the ``(row, column)`` cells to set in bold (the best value of a column);
    ``marks`` maps a cell to its significance marks, shown as a superscript; ``notes`` are
    the legend lines printed under the table. With ``numeric``, every column after the first
    ones named in ``text_columns`` holds numbers and is right-aligned.
    """

    header: tuple[str, ...] = attrs.field(converter=_cells)
    rows: tuple[tuple[str, ...], ...] = attrs.field(converter=_rows)
    title: str | None = None
    numeric: bool = True
    text_columns: int = 1
    bold: frozenset[tuple[int, int]] = attrs.field(default=frozenset(), converter=_positions)
    marks: Mapping[tuple[int, int], str] = attrs.field(factory=dict, converter=_frozen_marks)
    notes: tuple[str, ...] = attrs.field(default=(), converter=_cells)

    def _right(self, column: int) -> bool:
        return self.numeric and column >= self.text_columns


def plain_text(table: Table) -> str:
    """``table`` as aligned plain text, marks as superscripts: what ``str()`` shows.

    >>> print(plain_text(Table(["system", "ndcg@10"], [["bm25", "0.6791"], ["dense", "0.7012"]],
    ...                        marks={(1, 1): "a"}, title="Comparison")))
    Comparison
    system  ndcg@10
    bm25     0.6791
    dense   0.7012ᵃ
    """
    rows = [list(table.header)]
    for r, row in enumerate(table.rows):
        rows.append([cell + superscript(table.marks.get((r, c), "")) for c, cell in enumerate(row)])
    widths = [max(len(line[i]) for line in rows) for i in range(len(table.header))]
    lines = [table.title] if table.title else []
    for line in rows:
        cells = [
            cell.rjust(width) if table._right(i) else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join([*lines, *table.notes])


def _markdown(table: Table) -> str:
    import html  # here and below: the terminal table needs neither html nor csv

    lines = [f"**{table.title}**", ""] if table.title else []
    lines.append("| " + " | ".join(table.header) + " |")
    lines.append(
        "|" + "|".join("---:" if table._right(i) else "---" for i in range(len(table.header))) + "|"
    )
    for r, row in enumerate(table.rows):
        cells = []
        for c, cell in enumerate(row):
            text = cell.replace("|", "\\|")
            if (r, c) in table.bold:
                text = f"**{text}**"
            if table.marks.get((r, c)):
                text += f"<sup>{html.escape(table.marks[(r, c)])}</sup>"
            cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    if table.notes:  # a paragraph under the table, a hard line break between notes
        lines += ["", *(f"{note}  " for note in table.notes[:-1]), table.notes[-1]]
    return "\n".join(lines) + "\n"


def _latex_marks(marks: str) -> str:
    return ",".join(_LATEX_MARKS.get(mark, latex_escape(mark)) for mark in marks)


def _latex(table: Table) -> str:
    # booktabs rules, as journals ask; a title becomes a comment, since a caption needs a float.
    align = "".join("r" if table._right(i) else "l" for i in range(len(table.header)))
    lines = [f"% {table.title}"] if table.title else []
    lines += [f"\\begin{{tabular}}{{{align}}}", "\\toprule"]
    lines.append(" & ".join(latex_escape(cell) for cell in table.header) + " \\\\")
    lines.append("\\midrule")
    for r, row in enumerate(table.rows):
        cells = []
        for c, cell in enumerate(row):
            text = latex_escape(cell)
            if (r, c) in table.bold:
                text = f"\\textbf{{{text}}}"
            if table.marks.get((r, c)):
                text += f"\\textsuperscript{{{_latex_marks(table.marks[(r, c)])}}}"
            cells.append(text)
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    lines += [f"% {latex_escape(note)}" for note in table.notes]
    return "\n".join(lines) + "\n"


def _csv(table: Table) -> str:
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.header)
    writer.writerows(table.rows)
    return buffer.getvalue()


# Scoped: every rule starts with .ef-report, so a notebook's own styles stay as they are. The
# colours are variables: light, then dark when the system asks, then the theme a notebook
# says it shows (JupyterLab's data-jp-theme-light, VS Code's body class), which wins. Inside
# JupyterLab or VS Code, the host's own colour variables come first.
_HTML_LIGHT = (
    "--ef-fg:var(--jp-content-font-color1,var(--vscode-editor-foreground,#1f2328));"
    "--ef-bg:var(--jp-layout-color0,var(--vscode-editor-background,#ffffff));"
    "--ef-muted:#59636e;--ef-rule:#d1d9e0;--ef-stripe:rgba(175,184,193,0.16);--ef-mark:#0969da;"
)
_HTML_DARK = (
    "--ef-fg:var(--jp-content-font-color1,var(--vscode-editor-foreground,#e6edf3));"
    "--ef-bg:var(--jp-layout-color0,var(--vscode-editor-background,#0d1117));"
    "--ef-muted:#9198a1;--ef-rule:#3d444d;--ef-stripe:rgba(110,118,129,0.16);--ef-mark:#4493f8;"
)
_HTML_CELL = ".ef-report table.ef-table th,.ef-report table.ef-table td"
_HTML_STYLE = "".join(
    [
        ".ef-report{" + _HTML_LIGHT + "color:var(--ef-fg);background:var(--ef-bg);"
        'font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,'
        "sans-serif;font-size:13px;line-height:1.45;max-width:100%;overflow-x:auto;"
        "padding:6px 4px;box-sizing:border-box}",
        "@media (prefers-color-scheme: dark){.ef-report{" + _HTML_DARK + "}}",
        '.ef-report:where([data-jp-theme-light="false"] *,body.vscode-dark *,'
        "body.vscode-high-contrast:not(.vscode-high-contrast-light) *){" + _HTML_DARK + "}",
        '.ef-report:where([data-jp-theme-light="true"] *,body.vscode-light *,'
        "body.vscode-high-contrast-light *){" + _HTML_LIGHT + "}",
        ".ef-report .ef-block+.ef-block{margin-top:1.25em}",
        ".ef-report .ef-title{margin:0 0 0.4em;padding:0;font-size:1.05em;font-weight:600;"
        "color:var(--ef-fg)}",
        ".ef-report table.ef-table{border-collapse:collapse;border-spacing:0;border:none;"
        "margin:0;width:auto;table-layout:auto;font-size:inherit;color:inherit;"
        "background:transparent;border-top:1.5px solid var(--ef-fg);"
        "border-bottom:1.5px solid var(--ef-fg)}",
        ".ef-report table.ef-table tr{background:transparent;border:none}",
        _HTML_CELL + "{padding:0.3em 0.8em;border:none;vertical-align:baseline;"
        "background:transparent;color:inherit;line-height:inherit}",
        ".ef-report table.ef-table th{font-weight:600;white-space:nowrap;"
        "border-bottom:1px solid var(--ef-rule)}",
        ".ef-report table.ef-table tbody tr:nth-child(even) td{background:var(--ef-stripe)}",
        ".ef-report table.ef-table .ef-num{text-align:right;white-space:nowrap;"
        "font-variant-numeric:tabular-nums}",
        ".ef-report table.ef-table .ef-text{text-align:left}",
        ".ef-report table.ef-table strong{font-weight:700;color:var(--ef-fg)}",
        ".ef-report table.ef-table sup{font-size:0.75em;line-height:0;vertical-align:super;"
        "margin-left:0.1em;font-weight:600;color:var(--ef-mark)}",
        # In a column with marks, a mark hangs in the cell's right padding: the numbers stay
        # aligned on their last digit.
        ".ef-report table.ef-table td.ef-marked{position:relative;padding-right:1.9em}",
        ".ef-report table.ef-table th.ef-marked{padding-right:1.9em}",
        ".ef-report table.ef-table td.ef-marked sup{position:absolute;top:0.55em;line-height:1}",
        ".ef-report .ef-notes{margin:0.45em 0 0;padding:0;color:var(--ef-muted);font-size:0.85em}",
        ".ef-report .ef-notes p{margin:0.1em 0;padding:0;line-height:1.4}",
        ".ef-report .ef-notes small{font-size:inherit}",
    ]
)


def _html_block(table: Table) -> str:
    import html

    marked = {column for (_, column), marks in table.marks.items() if marks}

    def kind(column: int) -> str:
        return _html_class(table, column, marked)

    parts = ['<div class="ef-block">']
    if table.title:  # a heading above, not a <caption> that wraps to the table's width
        parts.append(
            f'<div class="ef-title" role="heading" aria-level="4">{html.escape(table.title)}</div>'
        )
    parts.append('<table class="ef-table"><thead><tr>')
    parts += [
        f'<th class="{kind(i)}" scope="col">{html.escape(cell)}</th>'
        for i, cell in enumerate(table.header)
    ]
    parts.append("</tr></thead><tbody>")
    for r, row in enumerate(table.rows):
        cells = [
            f'<td class="{kind(c)}">{_html_cell(table, r, c, cell)}</td>'
            for c, cell in enumerate(row)
        ]
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</tbody></table>")
    if table.notes:
        parts.append('<div class="ef-notes">')
        parts += [f"<p><small>{html.escape(note)}</small></p>" for note in table.notes]
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def _html_class(table: Table, column: int, marked: set[int]) -> str:
    """The class of a column's cells: text, number, or number with marks."""
    if not table._right(column):
        return "ef-text"
    return "ef-num ef-marked" if column in marked else "ef-num"


def _html_cell(table: Table, r: int, c: int, cell: str) -> str:
    """The escaped text of cell ``(r, c)``, bold if it is best, with its marks after."""
    import html

    text = html.escape(cell)
    if (r, c) in table.bold:
        text = f"<strong>{text}</strong>"
    if table.marks.get((r, c)):
        text += f"<sup>{html.escape(table.marks[(r, c)])}</sup>"
    return text


def html_fragment(tables: Sequence[Table]) -> str:
    """``tables`` as one HTML fragment for a notebook or a page: a ``<div class="ef-report">``
    with its own ``<style>`` (every rule scoped to ``.ef-report``, light and dark themes), then
    each table with its title above and its notes below. No script, no external resource;
    every text is escaped.

    >>> page = html_fragment([Table(["metric", "@10"], [["ndcg", "0.5000"]], title="A < B")])
    >>> page.startswith('<div class="ef-report"><style>.ef-report{'), "A &lt; B" in page
    (True, True)
    """
    blocks = "".join(_html_block(table) for table in tables)
    return f'<div class="ef-report"><style>{_HTML_STYLE}</style>{blocks}</div>\n'


def _html(table: Table) -> str:
    return html_fragment([table])


#: What rich's default table adds to its columns' widths: a space each side of every cell,
#: and the borders between and around them.
def _frame(columns: int) -> int:
    return 3 * columns + 1


def _shown(table: Table) -> list[list[str]]:
    return [
        list(table.header),
        *(
            [cell + superscript(table.marks.get((r, c), "")) for c, cell in enumerate(row)]
            for r, row in enumerate(table.rows)
        ),
    ]


def column_widths(table: Table, width: int) -> list[int] | None:
    """Widths for ``table``'s columns in ``width`` terminal columns, or None if it cannot fit
    without breaking a number or a word.

    A number column (right-aligned) is never narrower than its widest cell; a text column may
    wrap, at spaces only, down to its longest word. The room left goes to the text columns.

    >>> table = Table(["name", "value"], [["a long description", "0.1234"]])
    >>> column_widths(table, 80), column_widths(table, 25), column_widths(table, 10)
    ([18, 6], [12, 6], None)
    """
    from rich.cells import cell_len

    shown = _shown(table)
    natural = [max(cell_len(line[i]) for line in shown) for i in range(len(table.header))]
    room = width - _frame(len(natural))
    if sum(natural) <= room:
        return natural
    least = [
        n
        if table._right(i)
        else max(cell_len(w) for line in shown for w in line[i].split() or [""])
        for i, n in enumerate(natural)
    ]
    if sum(least) > room:
        return None
    return _shared_room(least, natural, room)


def _shared_room(least: list[int], natural: list[int], room: int) -> list[int]:
    """Each column at its ``least`` width plus a share of the room left, in proportion to
    what it would take to reach its ``natural`` width."""
    widths = list(least)
    spare = room - sum(least)
    want = [n - m for n, m in zip(natural, least, strict=True)]
    total = sum(want)
    for i, extra in enumerate(want):  # the spare room, shared by what each would take
        widths[i] += extra * spare // total if total else 0
    return widths


def long_text(table: Table, width: int) -> str:
    """``table`` as blocks, one per row, for a terminal too narrow for its columns: the row's
    text cells as a heading, then ``column: value`` lines, wrapped at spaces only.

    >>> print(long_text(Table(["metric", "@10"], [["ndcg", "0.5000"]], title="T"), 40), end="")
    T
    ndcg
      @10: 0.5000
    """
    import textwrap

    lines = [table.title] if table.title else []
    heads = max(table.text_columns, 1)
    for line in _shown(table)[1:]:
        lines.append(" ".join(cell for cell in line[:heads] if cell))
        for name, cell in zip(table.header[heads:], line[heads:], strict=True):
            lines += textwrap.wrap(
                f"{name}: {cell}",
                width=max(width, 20),
                initial_indent="  ",
                subsequent_indent="      ",
                break_long_words=False,
                break_on_hyphens=False,
            ) or [f"  {name}:"]
    return "\n".join([*lines, *table.notes]) + "\n"


def rich_table(table: Table, widths: Sequence[int] | None = None) -> RichTable:
    """``table`` as a :class:`rich.table.Table`: best values bold, marks as superscripts.

    ``widths`` (from :func:`column_widths`) fixes each column's width; a number never wraps,
    text wraps at spaces. The title and notes are not part of it (rich would wrap them to the
    table's width): :func:`rich_renderable` adds them.
    """
    from rich.table import Table as RichTable
    from rich.text import Text

    result = RichTable()
    for i, name in enumerate(table.header):
        number_column = table._right(i)
        result.add_column(
            Text(name),  # as written: a str would be read as markup and :emoji: codes
            justify="right" if number_column else "left",
            no_wrap=number_column,  # a number is never split
            width=None if widths is None else widths[i],
        )
    for r, row in enumerate(table.rows):
        cells = []
        for c, cell in enumerate(row):
            text = Text(cell, style="bold" if (r, c) in table.bold else "")
            if table.marks.get((r, c)):
                text.append(superscript(table.marks[(r, c)]))
            cells.append(text)
        result.add_row(*cells)
    return result


def rich_renderable(table: Table, widths: Sequence[int] | None = None) -> RenderableType:
    """``table`` for a rich console: its title, the table, then its notes."""
    from rich.console import Group
    from rich.text import Text

    def line(text: str) -> Text:
        # a title or note is one line, as in plain text: a path or an id list stays whole
        return Text(text, no_wrap=True, overflow="ignore")

    parts: list[RenderableType] = []
    if table.title:
        parts.append(line(table.title))
    parts.append(rich_table(table, widths))
    parts += [line(note) for note in table.notes]
    return Group(*parts)


def _rich_text(renderables: Sequence[RenderableType]) -> str:
    from rich.console import Console

    console = Console(file=io.StringIO(), width=100_000, color_system=None, force_terminal=False)
    for i, renderable in enumerate(renderables):
        if i:
            console.print()
        console.print(renderable)
    # Trailing spaces pad each line to the table's width; they carry nothing.
    return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines()) + "\n"  # type: ignore[attr-defined]


def format_table(table: Table, output: str) -> str:
    """``table`` as text in ``output``: ``table`` (rich, no colour), ``markdown``,
    ``latex``, ``csv`` or ``html``.

    >>> table = Table(["system", "ndcg@10"], [["bm25", "0.6791"], ["dense", "0.7012"]],
    ...               bold={(1, 1)}, marks={(1, 1): "a"}, notes=["a: better than bm25"])
    >>> print(format_table(table, "latex"))
    \\begin{tabular}{lr}
    \\toprule
    system & ndcg@10 \\\\
    \\midrule
    bm25 & 0.6791 \\\\
    dense & \\textbf{0.7012}\\textsuperscript{a} \\\\
    \\bottomrule
    \\end{tabular}
    % a: better than bm25
    <BLANKLINE>
    """
    if output == "markdown":
        return _markdown(table)
    if output == "latex":
        return _latex(table)
    if output == "csv":
        return _csv(table)
    if output == "html":
        return _html(table)
    if output == "table":
        return _rich_text([rich_renderable(table)])
    raise ValueError(f"output must be one of table, markdown, latex, csv or html, got {output!r}")


_FORMATS = {"markdown": _markdown, "latex": _latex, "csv": _csv, "html": _html}


# --- Reports as tables ------------------------------------------------------------------


class Tabular(Protocol):
    """What ``render()`` needs of a report: its tables, its one CSV table and its dict.

    Every ef.evaluation report satisfies it; so may a plugin's own report."""

    def tables(self, *, details: bool = False) -> list[Table]: ...

    def csv_table(self, *, details: bool = False) -> Table: ...

    def to_dict(self) -> dict[str, Any]: ...


def report_tables(report: Tabular, *, details: bool = False) -> list[Table]:
    """The tables that show ``report``: its summary, then (with ``details``) the values per
    query or sample. A comparison shows its means per system and the pairwise tests.

    >>> from ef.evaluation import RagEvalReport
    >>> report = RagEvalReport.from_values({"token_f1": [1.0, 0.5]}, ["a", "b"])
    >>> [table.title for table in report_tables(report, details=True)]
    ['RAG evaluation: 2 samples', 'per sample']
    """
    return _tabular(report).tables(details=details)


def _tabular(report: object) -> Tabular:
    if not all(hasattr(report, name) for name in ("tables", "csv_table", "to_dict")):
        raise TypeError(f"expected an ef.evaluation report, got {type(report).__name__}")
    return report  # type: ignore[return-value]  # it has what Tabular asks


def render(report: Tabular, output: str = "table", *, details: bool = False) -> str:
    """``report`` as text: ``table`` (what the terminal shows, without colour), ``markdown``,
    ``latex``, ``csv``, ``json`` or ``html``.

    ``details`` adds the values per query (or per sample). LaTeX shows only the first table
    (the one a paper prints: for a comparison, the means with significance marks). CSV is one
    table for machines: a report's summary (its per-query values with ``details``), and a
    comparison's pairwise tests, with full precision. JSON is ``report.to_dict()``.

    >>> from ef.evaluation import RagEvalReport
    >>> report = RagEvalReport.from_values({"token_f1": [1.0, 0.5]}, ["a", "b"])
    >>> print(render(report, "csv"))
    metric,mean,coverage
    token_f1,0.75,2/2
    <BLANKLINE>
    """
    report = _tabular(report)
    if output == "json":
        import json  # for this output only

        return json.dumps(_json_ready(report.to_dict()), indent=2, ensure_ascii=False) + "\n"
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(OUTPUTS)}, got {output!r}")
    if output == "csv":
        tables = [report.csv_table(details=details)]
    else:
        tables = report.tables(details=details)
        if output == "latex":
            tables = tables[:1]
    if output == "table":
        return _rich_text([rich_renderable(table) for table in tables])
    if output == "html":  # one wrapper and one style for all the tables
        return html_fragment(tables)
    return ("\n" if output == "markdown" else "").join(_FORMATS[output](t) for t in tables)


def _json_ready(value: Any) -> Any:
    """NaN and infinities become None: JSON has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _json_ready(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_json_ready(inner) for inner in value]
    return value


def pandas_module() -> Any:
    """pandas, or a MissingDependencyError that says how to install it (``to_pandas()``)."""
    try:
        import pandas
    except ImportError as exc:
        from ..errors import MissingDependencyError

        raise MissingDependencyError(
            'to_pandas() needs pandas: pip install "ef-evaluation[pandas]" '
            f"(or pip install pandas); importing it failed: {exc}"
        ) from exc
    return pandas
