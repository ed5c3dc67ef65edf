"""A table drawn as rich draws it off a terminal, without importing rich.

``ef-eval``'s terminal table is rich's default table (heavy head, a space each side of every
cell). Off a terminal (a pipe, a file, a CI log) rich adds no style, and where each cell fits
its column, drawing the box is all it does: importing rich for that is a tenth of a small
evaluation's time. :func:`boxed` draws those same characters; :func:`plain_widths` says when
it may: every character of the table one column wide by rich's own count (printable ASCII
and the marks' superscripts). Anything else is rich's to draw. A test holds the two equal,
character for character, on generated tables.
"""

from __future__ import annotations

from . import _SUPERSCRIPTS, Table, _frame, _shown

__all__ = ["boxed", "plain_widths"]

#: Characters rich counts one column wide and draws as they are.
_NARROW = frozenset(map(chr, range(0x20, 0x7F))) | frozenset(_SUPERSCRIPTS.values())


def _narrow(text: str) -> bool:
    return _NARROW.issuperset(text)


def _whole_line(text: str) -> bool:
    # rich prints a title or note whole, but drops its trailing spaces past the width
    return _narrow(text) and not text.endswith(" ")


def plain_widths(table: Table, width: int) -> list[int] | None:
    """Each column's width (its widest cell), where the table fits in ``width`` terminal
    columns as it is; None where rich must draw it: too wide, a character that is not one
    column wide, a title or note ending in a space, no column, or no row.

    >>> plain_widths(Table(["metric", "@10"], [["ndcg", "0.5000"]]), 80)
    [6, 6]
    >>> plain_widths(Table(["metric", "@10"], [["ndcg", "0.5000"]]), 18) is None
    True
    >>> plain_widths(Table(["metric", "@10"], [["東京", "0.5000"]]), 80) is None  # wide
    True
    """
    shown = _shown(table)
    if not table.header or not table.rows or not _drawable(table, shown):
        return None
    widths = [max(len(line[i]) for line in shown) for i in range(len(table.header))]
    return widths if sum(widths) + _frame(len(widths)) <= width else None


def _drawable(table: Table, shown: list[list[str]]) -> bool:
    """Every cell narrow, and the title and notes printable whole."""
    lines = [table.title or "", *table.notes]
    return all(map(_whole_line, lines)) and all(_narrow(c) for line in shown for c in line)


def boxed(table: Table, widths: list[int]) -> str:
    """``table`` in columns of ``widths`` (from :func:`plain_widths`): its title, the table in
    rich's heavy-head box, then its notes, each line ended.

    >>> print(boxed(Table(["metric", "@10"], [["ndcg", "0.5000"]]), [6, 6]), end="")
    ┏━━━━━━━━┳━━━━━━━━┓
    ┃ metric ┃    @10 ┃
    ┡━━━━━━━━╇━━━━━━━━┩
    │ ndcg   │ 0.5000 │
    └────────┴────────┘
    """

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def row(cells: list[str], edge: str) -> str:
        padded = (
            cell.rstrip().rjust(w) if table._right(i) else cell.ljust(w)  # as rich justifies
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        )
        return edge + edge.join(f" {cell} " for cell in padded) + edge

    header, *rows = _shown(table)
    lines = [table.title] if table.title else []
    lines += [rule("┏", "━", "┳", "┓"), row(header, "┃"), rule("┡", "━", "╇", "┩")]
    lines += [row(cells, "│") for cells in rows]
    lines += [rule("└", "─", "┴", "┘"), *table.notes]
    return "\n".join(lines) + "\n"
