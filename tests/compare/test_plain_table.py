"""The terminal table drawn without rich off a terminal (``_render.box``) is rich's own table,
character for character, and is drawn where rich would draw it the same way only."""

from __future__ import annotations

import io
import os
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from ef.evaluation._render import _SUPERSCRIPTS, Table, column_widths, rich_renderable
from ef.evaluation._render.box import boxed, plain_widths
from ef.evaluation.cli._render import plain_width

from ..profiles_hypothesis import examples

#: Printable ASCII (space included) and the marks' superscripts: what the plain table draws.
_NARROW = st.sampled_from([chr(c) for c in range(0x20, 0x7F)] + sorted(_SUPERSCRIPTS.values()))
#: What only rich may draw: a tab, a newline, a wide CJK character, an emoji, a combining
#: accent (no width).
_ODD = st.sampled_from(["\t", "\n", "東", "😀", "\u0301"])
_CELL = st.text(_NARROW, max_size=9)


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """Tables of narrow text; one in five has no row, or an odd character in a cell."""
    twist = draw(st.integers(0, 9))
    n_columns = draw(st.integers(1, 5))
    n_rows = 0 if twist == 0 else draw(st.integers(1, 4))
    position = st.tuples(st.integers(0, max(n_rows - 1, 0)), st.integers(0, n_columns - 1))
    header = draw(st.lists(_CELL, min_size=n_columns, max_size=n_columns))
    rows = draw(st.lists(st.lists(_CELL, min_size=n_columns, max_size=n_columns),
                         min_size=n_rows, max_size=n_rows))  # fmt: skip
    if twist == 1:
        row, column = draw(position)
        cells = rows[row] if rows else header
        cells[column] += draw(_ODD)
    return Table(
        header,
        rows,
        title=draw(st.none() | st.text(_NARROW, max_size=60)),
        numeric=draw(st.booleans()),
        text_columns=draw(st.integers(0, 2)),
        bold=draw(st.sets(position, max_size=2)) if n_rows else frozenset(),
        marks=draw(st.dictionaries(position, st.sampled_from(["a", "b", "ab", "q", "1"]),
                                   max_size=2)) if n_rows else {},
        notes=draw(st.lists(st.text(_NARROW, max_size=60), max_size=2)),
    )  # fmt: skip


def _by_rich(table: Table, widths: list[int], width: int) -> str:
    """What ef-eval's emit_table prints through rich off a terminal, at ``width`` columns."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=False, color_system=None)
    console.print(rich_renderable(table, widths), crop=False)
    return out.getvalue()


@settings(max_examples=examples(500))
@given(tables(), st.integers(10, 160))
@example(Table(["metric", "@10"], [["ndcg", "0.5000 "]], title="run: 1 query"), 30)
@example(Table(["a", "b"], [[" x", " 1"]], marks={(0, 1): "ab"}, bold={(0, 1)}), 12)
def test_the_plain_table_is_riches_character_for_character(table: Table, width: int) -> None:
    widths = plain_widths(table, width)
    if widths is None:  # rich's to draw: nothing to compare
        return
    # What emit_table printed through rich: the widths column_widths picks, then rich.
    assert column_widths(table, width) == widths
    assert boxed(table, widths) == _by_rich(table, widths, width)


def test_the_plain_table_is_drawn_for_ordinary_reports_only() -> None:
    report = Table(
        ["metric", "@1", "@10"],
        [["ndcg", "0.6154", "0.4543"], ["map", "0.0945", "0.2225ᵃ"]],
        title="run.txt: 52 queries scored",
        notes=["Unjudged in the run (never scored): 12 queries: 34, 35 and 10 more."],
    )
    widths = plain_widths(report, 80)
    assert widths == [6, 6, 7]
    assert boxed(report, widths) == _by_rich(report, widths, 80)
    assert plain_widths(report, sum(widths) + 9) is None  # wider than the terminal: rich's
    for odd in ("東京", "a\tb", "x\ny", "😀"):
        assert plain_widths(Table(["m", "v"], [[odd, "1"]]), 80) is None
    assert plain_widths(Table(["m", "v"], []), 80) is None  # no row
    assert plain_widths(Table(["m", "v"], [["a", "1"]], notes=["ends in a space "]), 80) is None


@pytest.mark.parametrize(
    ("environ", "terminal", "isatty"),
    [
        ({}, None, False),
        ({"COLUMNS": "120"}, None, False),
        ({"COLUMNS": "wide"}, None, False),
        ({}, 100, False),
        ({"COLUMNS": "60"}, 100, False),
        ({"TTY_COMPATIBLE": "0"}, 100, True),
        ({"FORCE_COLOR": ""}, None, False),
        ({"FORCE_COLOR": "1"}, None, False),
        ({"TTY_COMPATIBLE": "1"}, None, False),
        ({}, 100, True),
    ],
)
def test_the_width_is_riches_and_a_terminal_is_left_to_rich(
    monkeypatch, environ: dict[str, str], terminal: int | None, isatty: bool
) -> None:
    """``plain_width`` takes rich's width where rich prints without styles, and gives None
    wherever rich's console is a terminal (and would print styles), or may be by the
    version of rich."""

    def terminal_size(fd: int = 1) -> os.terminal_size:
        if terminal is None or fd != 2:  # stderr is the terminal, if any
            raise OSError("not a terminal")
        return os.terminal_size((terminal, 40))

    class Stdout(io.StringIO):
        encoding = "utf-8"

        def isatty(self) -> bool:
            return isatty

    for name in ("COLUMNS", "LINES", "TTY_COMPATIBLE", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(os, "get_terminal_size", terminal_size)
    monkeypatch.setattr(sys, "stdout", Stdout())
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    console = Console()
    ours = plain_width()
    if ours is not None:  # rich prints no style, at that width
        assert not console.is_terminal
        assert ours == console.width
    # FORCE_COLOR and TTY_COMPATIBLE, which rich's versions read differently, go to rich.
    plain = not (isatty or "FORCE_COLOR" in environ or "TTY_COMPATIBLE" in environ)
    assert (ours is not None) == plain
