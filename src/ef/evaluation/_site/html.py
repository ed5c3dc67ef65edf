"""The pieces every page of the site is made of: the page itself, with the notebook HTML's
style and the script that sorts tables inlined (no server, no CDN: a page works from
``file://``, offline), and sortable tables whose headers are buttons.

Every text that comes from a record (a system's name, a query, a manifest) goes through
:func:`esc`.

>>> page("A <b>", "<p>hi</p>", home="index.html").count("<b>")
0
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from collections.abc import Sequence

import attrs

from .._render import _HTML_STYLE, number

__all__ = ["Cell", "esc", "num_cell", "page", "slug", "sortable_table", "text_cell"]


def esc(text: object) -> str:
    """``text`` escaped for HTML, quotes too (it may be an attribute's value).

    >>> esc('<script>"x"</script>')
    '&lt;script&gt;&quot;x&quot;&lt;/script&gt;'
    """
    return html.escape(str(text), quote=True)


def slug(*names: str) -> str:
    """A file name part for ``names``: their readable letters, then a hash of them whole,
    so two names never share a file however alike they look.

    >>> slug("BM25 <tuned>")
    'bm25-tuned-60fdca1a'
    """
    whole = "\x00".join(names)
    readable = re.sub(r"[^a-z0-9]+", "-", "-".join(names).lower()).strip("-")[:40].strip("-")
    digest = hashlib.sha256(whole.encode("utf-8")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else digest


@attrs.frozen
class Cell:
    """A table cell: its HTML (already escaped), its sort key, and whether it is a number."""

    html: str
    key: float | str
    numeric: bool = False
    #: A number that may carry a mark: its column keeps room for one (the notebook's rule).
    marked: bool = False


def text_cell(text: str, *, html_text: str | None = None) -> Cell:
    """A cell of text, sorted by its text; ``html_text`` shows it otherwise (a link)."""
    return Cell(esc(text) if html_text is None else html_text, text.casefold())


def num_cell(value: float | None, *, mark: str | None = None, shown: str | None = None) -> Cell:
    """A number cell, four decimals unless ``shown``; ``mark`` (HTML, maybe empty) after it
    makes its column one of marks. A missing value sorts last either way."""
    key = math.nan if value is None else float(value)
    text = esc(number(value) if shown is None else shown)
    return Cell(text + (mark or ""), key, numeric=True, marked=mark is not None)


def _sort_key(key: float | str) -> str:
    # Missing numbers carry no key: the script sorts them after every other row.
    if isinstance(key, float):
        return "" if math.isnan(key) else repr(key)
    return key


def sortable_table(
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    caption: str,
    sorted_by: int | None = None,
    descending: bool = True,
    notes: Sequence[str] = (),
    table_id: str | None = None,
) -> str:
    """A table sorted by the script when a header's button is pressed; the column it is
    sorted by now carries ``aria-sort``. ``caption`` names it for a screen reader."""
    numeric = [_is_numeric(rows, i) for i in range(len(header))]
    kinds = [_column_class(rows, i, numeric=numeric[i]) for i in range(len(header))]
    if sorted_by is not None:  # the rows in the order aria-sort says, as the script sorts
        rows = _sorted_rows(rows, sorted_by, descending=descending)
    ident = f' id="{esc(table_id)}"' if table_id else ""
    parts = [f'<div class="ef-block"><table class="ef-table ef-sortable"{ident}>']
    parts.append(f'<caption class="ef-title">{esc(caption)}</caption><thead><tr>')
    parts += [
        _header_cell(
            i, name, kinds[i], numeric=numeric[i], sorted_by=sorted_by, descending=descending
        )
        for i, name in enumerate(header)
    ]
    parts.append("</tr></thead><tbody>")
    parts += [_body_row(row, kinds) for row in rows]
    parts.append("</tbody></table>")
    if notes:
        parts.append('<div class="ef-notes">')
        parts += [f"<p><small>{note}</small></p>" for note in notes]
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def _is_numeric(rows: Sequence[Sequence[Cell]], column: int) -> bool:
    """Whether a column holds numbers: it has rows, and each one's cell is a number."""
    return bool(rows) and all(row[column].numeric for row in rows)


def _column_class(rows: Sequence[Sequence[Cell]], column: int, *, numeric: bool) -> str:
    """The class of a column's cells: text, numbers, or numbers with marks after them."""
    if not numeric:
        return "ef-text"
    return "ef-num ef-marked" if any(row[column].marked for row in rows) else "ef-num"


def _header_cell(
    column: int,
    name: str,
    kind: str,
    *,
    numeric: bool,
    sorted_by: int | None,
    descending: bool,
) -> str:
    """A column's header: the button that sorts by it, numbers first descending and text
    first ascending; ``aria-sort`` on the column the rows are sorted by now."""
    first = "descending" if numeric else "ascending"
    sort = ""
    if column == sorted_by:
        sort = f' aria-sort="{"descending" if descending else "ascending"}"'
    return (
        f'<th scope="col" class="{kind}" data-first="{first}"{sort}>'
        f'<button type="button" data-column="{column}">{esc(name)}'
        '<span class="ef-arrow" aria-hidden="true"></span></button></th>'
    )


def _body_row(row: Sequence[Cell], kinds: Sequence[str]) -> str:
    """A row of the table; its first cell is the row's header."""
    cells = []
    for i, cell in enumerate(row):
        tag = "th" if i == 0 else "td"
        scope = ' scope="row"' if i == 0 else ""
        cells.append(
            f'<{tag}{scope} class="{kinds[i]}" data-key="{esc(_sort_key(cell.key))}">'
            f"{cell.html}</{tag}>"
        )
    return "<tr>" + "".join(cells) + "</tr>"


def _sorted_rows(
    rows: Sequence[Sequence[Cell]], column: int, *, descending: bool
) -> list[Sequence[Cell]]:
    """``rows`` by ``column``'s keys as the script sorts them: stable, a missing number last
    in either direction.

    >>> rows = [[num_cell(0.5)], [num_cell(None)], [num_cell(0.7)]]
    >>> [row[0].key for row in _sorted_rows(rows, 0, descending=True)]
    [0.7, 0.5, nan]
    """
    present = [row for row in rows if _sort_key(row[column].key) != ""]
    missing = [row for row in rows if _sort_key(row[column].key) == ""]
    present.sort(key=lambda row: row[column].key, reverse=descending)  # stable both ways
    return present + missing


#: The site's rules beside the notebook HTML's own (render's ``_HTML_STYLE``): the page, the
#: navigation, the header buttons, the marks and the charts, in the same colour variables.
_SITE_STYLE = "".join(
    [
        "html,body{margin:0;padding:0}",
        "body{background:#ffffff}",
        "@media (prefers-color-scheme: dark){body{background:#0d1117}}",
        ".ef-report{--ef-good:#1a7f37;--ef-bad:#cf222e;max-width:72rem;margin:0 auto;"
        "padding:1rem 1.25rem 3rem;font-size:14px}",
        "@media (prefers-color-scheme: dark){.ef-report{--ef-good:#3fb950;--ef-bad:#f85149}}",
        ".ef-report h1{font-size:1.45em;margin:0.2em 0 0.6em}",
        ".ef-report h2{font-size:1.2em;margin:1.6em 0 0.5em}",
        ".ef-report h3{font-size:1.05em;margin:1.2em 0 0.4em}",
        ".ef-report a{color:var(--ef-mark)}",
        ".ef-report a:focus-visible,.ef-report button:focus-visible,"
        ".ef-report select:focus-visible,.ef-report summary:focus-visible{"
        "outline:2px solid var(--ef-mark);outline-offset:2px}",
        ".ef-report nav.ef-crumbs{font-size:0.9em;color:var(--ef-muted);margin-bottom:0.6em}",
        ".ef-report nav.ef-crumbs ol{list-style:none;margin:0;padding:0;display:flex;"
        "flex-wrap:wrap;gap:0.4em}",
        '.ef-report nav.ef-crumbs li+li::before{content:"/";margin-right:0.4em}',
        ".ef-report table.ef-table caption{caption-side:top;text-align:left}",
        ".ef-report table.ef-table tbody th{font-weight:600;border-bottom:none;text-align:left}",
        ".ef-report table.ef-table tbody tr:nth-child(even) th{background:var(--ef-stripe)}",
        ".ef-report table.ef-table th button{font:inherit;font-weight:600;color:inherit;"
        "background:none;border:none;padding:0;margin:0;cursor:pointer;white-space:nowrap}",
        ".ef-report table.ef-table th button:hover{text-decoration:underline}",
        ".ef-report .ef-arrow{display:inline-block;width:1em;margin-left:0.15em;"
        "color:var(--ef-muted)}",
        '.ef-report th[aria-sort="ascending"] .ef-arrow::after{content:"\\25B2"}',
        '.ef-report th[aria-sort="descending"] .ef-arrow::after{content:"\\25BC"}',
        ".ef-report table.ef-table sup.ef-up{color:var(--ef-good)}",
        ".ef-report table.ef-table sup.ef-down{color:var(--ef-bad)}",
        ".ef-report .ef-legend-up{color:var(--ef-good)}",
        ".ef-report .ef-legend-down{color:var(--ef-bad)}",
        ".ef-report .ef-nowrap{white-space:nowrap}",
        ".ef-report .ef-win{color:var(--ef-good)}",
        ".ef-report .ef-loss{color:var(--ef-bad)}",
        ".ef-report .ef-muted{color:var(--ef-muted)}",
        ".ef-report .ef-sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;"
        "overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}",
        ".ef-report pre{background:var(--ef-stripe);padding:0.6em 0.8em;overflow-x:auto;"
        "font-size:0.85em;max-height:28em}",
        ".ef-report details{margin:0.5em 0}",
        ".ef-report summary{cursor:pointer}",
        ".ef-report .ef-form{display:flex;flex-wrap:wrap;gap:0.8em;align-items:end;"
        "margin:0.5em 0 1em}",
        ".ef-report .ef-form label{display:flex;flex-direction:column;gap:0.2em;font-size:0.9em}",
        ".ef-report select,.ef-report .ef-form button{font:inherit;padding:0.25em 0.5em;"
        "color:var(--ef-fg);background:var(--ef-bg);border:1px solid var(--ef-rule);"
        "border-radius:4px}",
        ".ef-report .ef-form button{cursor:pointer}",
        ".ef-report .ef-charts{display:flex;flex-wrap:wrap;gap:0.4em 1.6em;margin:0.3em 0 0.8em}",
        ".ef-report figure.ef-figure{margin:0}",
        ".ef-report figure.ef-figure figcaption{font-weight:600;font-size:0.9em}",
        ".ef-report svg.ef-chart{display:block;max-width:100%}",
        ".ef-report svg.ef-chart .ef-line{fill:none;stroke:var(--ef-mark);stroke-width:1.5}",
        ".ef-report svg.ef-chart .ef-point{fill:var(--ef-mark)}",
        ".ef-report svg.ef-chart .ef-regression{fill:var(--ef-bad)}",
        ".ef-report svg.ef-chart .ef-axis{stroke:var(--ef-rule);stroke-width:1}",
        ".ef-report svg.ef-chart text{fill:var(--ef-muted);font-size:10px}",
        ".ef-report ul.ef-list{padding-left:1.2em}",
        ".ef-report ul.ef-list li{margin:0.15em 0}",
    ]
)

#: Sorts a table when a header's button is pressed: by each cell's ``data-key`` (numbers as
#: numbers, a missing one last), stable, first in the column's ``data-first`` direction, then
#: the other way; ``aria-sort`` moves to the column, and a live region says what was done.
#: The drill-down form opens the page of the two systems chosen.
_SCRIPT = """
(function () {
  "use strict";
  var status = document.getElementById("ef-status");
  function keyOf(cell) {
    var key = cell.getAttribute("data-key");
    return key === null ? cell.textContent : key;
  }
  function compare(a, b, numeric, sign) {
    if (a === "" && b === "") { return 0; }
    if (a === "") { return 1; }
    if (b === "") { return -1; }
    if (numeric) { return sign * (parseFloat(a) - parseFloat(b)); }
    return sign * (a < b ? -1 : a > b ? 1 : 0);
  }
  document.querySelectorAll("table.ef-sortable").forEach(function (table) {
    table.querySelectorAll("thead th button").forEach(function (button) {
      button.addEventListener("click", function () {
        var th = button.parentNode;
        var column = parseInt(button.getAttribute("data-column"), 10);
        var now = th.getAttribute("aria-sort");
        var next = now === "descending" ? "ascending"
          : now === "ascending" ? "descending" : th.getAttribute("data-first");
        table.querySelectorAll("thead th[aria-sort]").forEach(function (other) {
          other.removeAttribute("aria-sort");
        });
        th.setAttribute("aria-sort", next);
        var numeric = th.classList.contains("ef-num");
        var sign = next === "ascending" ? 1 : -1;
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          return compare(keyOf(r1.cells[column]), keyOf(r2.cells[column]), numeric, sign);
        });
        rows.forEach(function (row) { body.appendChild(row); });
        if (status) {
          status.textContent = "Sorted by " + button.textContent + ", " + next + ".";
        }
      });
    });
  });
  document.querySelectorAll("form.ef-pick").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var pages = JSON.parse(form.getAttribute("data-pages"));
      var a = form.elements.a.value, b = form.elements.b.value;
      var message = form.querySelector(".ef-message");
      if (a === b) { message.textContent = "Choose two different systems."; return; }
      var target = pages[a + "\\u0000" + b];
      if (target) { window.location.href = target; }
    });
  });
})();
"""


def page(title: str, body: str, *, home: str | None, crumbs: Sequence[tuple[str, str]] = ()) -> str:
    """A whole HTML page: ``title`` (escaped) as its title and heading, ``body`` (HTML), a
    trail of links back (``crumbs``: text, href) after the link ``home``."""
    trail = ""
    if home is not None:
        links = [f'<li><a href="{esc(home)}">Leaderboards</a></li>']
        links += [f'<li><a href="{esc(href)}">{esc(text)}</a></li>' for text, href in crumbs]
        links.append(f'<li aria-current="page">{esc(title)}</li>')
        trail = f'<nav class="ef-crumbs" aria-label="Breadcrumb"><ol>{"".join(links)}</ol></nav>'
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="ef-evaluation">\n'
        f"<title>{esc(title)} · ef-evaluation</title>\n"
        f"<style>{_HTML_STYLE}{_SITE_STYLE}</style>\n</head>\n<body>\n"
        f'<main class="ef-report">{trail}<h1>{esc(title)}</h1>{body}'
        '<div id="ef-status" class="ef-sr" role="status" aria-live="polite"></div></main>\n'
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )
