"""The site's pages, each a function of the values :mod:`.stats` computed: the index, a
dataset's leaderboard, a system's history, and the drill-down of two systems.

A page takes the names of the other pages' files from :class:`Files`, so that every link is
made in one place.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import timezone
from typing import TYPE_CHECKING

import attrs

from .._render import number
from .._reports.retrieval import tie_note
from ..types import plain
from .html import Cell, esc, num_cell, page, slug, sortable_table, text_cell
from .stats import Board, History, Options, Pair, Step

if TYPE_CHECKING:
    from .._reports import PairComparison
    from .._store.record import Record

__all__ = ["Files", "dataset_page", "index_page", "pair_page", "system_page"]

INDEX = "index.html"


@attrs.frozen
class Files:
    """The file of each page, by what it shows."""

    @staticmethod
    def dataset(dataset: str) -> str:
        return f"dataset-{slug(dataset)}.html"

    @staticmethod
    def system(system: str) -> str:
        return f"system-{slug(system)}.html"

    @staticmethod
    def pair(dataset: str, a: str, b: str) -> str:
        return f"pair-{slug(dataset, a, b)}.html"

    @staticmethod
    def entry(record: Record, position: int) -> str:
        """The anchor of a record on its system's page."""
        return f"entry-{record.id if record.id is not None else position}"


def _when(record: Record) -> str:
    """When ``record`` was recorded, in UTC to the minute: sorted as text, it sorts by time."""
    return record.recorded_at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _p(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.4f}" if value >= 0.0001 else f"{value:.1e}"


def _mark(pair: PairComparison | None, baseline: str, options: Options) -> str:
    """The leaderboard's mark of a cell: up or down when its test rejects at ``alpha``."""
    if pair is None or not pair.reject:
        return ""
    better = pair.difference > 0
    arrow, kind, word = ("▲", "ef-up", "above") if better else ("▼", "ef-down", "below")
    said = f"significantly {word} {baseline} (p = {_p(pair.p_corrected)})"
    return (
        f'<sup class="{kind}" title="{esc(said)}" aria-hidden="true">{arrow}</sup>'
        f'<span class="ef-sr"> {esc(said)}</span>'
    )


def _statistics_note(options: Options) -> str:
    correction = options.correction or "no correction"
    return (
        f"{esc(options.test)} test on the per-query values, {esc(correction)}, "
        f"alpha = {options.alpha:g}: the statistics of ef-eval compare"
    )


# --- the index ------------------------------------------------------------------------


def index_page(
    boards: Sequence[Board], histories: Mapping[str, Sequence[History]], options: Options
) -> str:
    rows = []
    for board in boards:
        link = f'<a href="{esc(Files.dataset(board.dataset))}">{esc(board.dataset)}</a>'
        last = max(_when(row.record) for row in board.rows)
        rows.append(
            [
                text_cell(board.dataset, html_text=link),
                num_cell(len(board.rows), shown=str(len(board.rows))),
                text_cell(board.baseline),
                text_cell(board.metric),
                text_cell(last),
            ]
        )
    datasets = sortable_table(
        ["dataset", "systems", "baseline", "sorted by", "last recorded"],
        rows,
        caption="Datasets",
        sorted_by=0,
        descending=False,
    )
    system_rows = []
    for system, own in histories.items():
        link = f'<a href="{esc(Files.system(system))}">{esc(system)}</a>'
        count = sum(len(h.steps) for h in own)
        # Records that dropped significantly on some metric against the one before.
        regressions = sum(1 for h in own for s in h.steps if any(s.drop(k) for k in h.metrics))
        system_rows.append(
            [
                text_cell(system, html_text=link),
                text_cell(", ".join(h.dataset for h in own)),
                num_cell(count, shown=str(count)),
                num_cell(regressions, shown=str(regressions)),
            ]
        )
    systems = sortable_table(
        ["system", "datasets", "records", "regressions"],
        system_rows,
        caption="Systems",
        sorted_by=0,
        descending=False,
    )
    intro = (
        "<p>Each dataset's leaderboard shows every system's latest record, tested against a "
        "baseline; each system's page shows its history, with regressions marked. "
        f"Significance: {_statistics_note(options)}.</p>"
    )
    return page("Leaderboards", intro + datasets + systems, home=None)


# --- a dataset's leaderboard ------------------------------------------------------------


def dataset_page(board: Board, positions: Mapping[int, int], options: Options) -> str:
    """``positions``: each record's position in the store's order, by ``id()``, for its
    anchor."""
    header = ["system", "recorded", "queries", *board.metrics, "drill-down"]
    rows = []
    for row in board.rows:
        record = row.record
        name = record.system
        label = esc(name)
        if name == board.baseline:
            label += ' <span class="ef-muted">(baseline)</span>'
        link = f'<a href="{esc(Files.system(name))}">{label}</a>'
        entry = Files.entry(record, positions[id(record)])
        when = (
            f'<a class="ef-nowrap" href="{esc(Files.system(name))}#{esc(entry)}">'
            f"{esc(_when(record))}</a>"
        )
        cells: list[Cell] = [
            text_cell(name, html_text=link),
            text_cell(_when(record), html_text=when),
            num_cell(record.report.n_queries, shown=str(record.report.n_queries)),
        ]
        for key in board.metrics:
            value = record.report.metrics.get(key)
            pair = board.against_baseline(name, key)
            cells.append(num_cell(value, mark=_mark(pair, board.baseline, options)))
        if name == board.baseline:
            cells.append(text_cell("", html_text='<span class="ef-muted">-</span>'))
        else:
            target = Files.pair(board.dataset, board.baseline, name)
            said = f"{name} against {board.baseline}"
            shown = f"against {board.baseline}"
            cells.append(
                text_cell(
                    said,
                    html_text=(
                        f'<a class="ef-nowrap" href="{esc(target)}" aria-label="{esc(said)}">'
                        f"{esc(shown)}</a>"
                    ),
                )
            )
        rows.append(cells)
    sorted_by = 3 + board.metrics.index(board.metric) if board.metric in board.metrics else None
    notes = [
        '<span class="ef-legend-up">▲</span> <span class="ef-legend-down">▼</span>: '
        f"significantly above or below the baseline, {esc(board.baseline)}, on the "
        f"{len(board.tested)} metrics every system has; {_statistics_note(options)}."
    ]
    if board.reason:
        notes.append(f"No significance was computed: {esc(board.reason)}")
    table = sortable_table(
        header,
        rows,
        caption=f"Leaderboard of {board.dataset}",
        sorted_by=sorted_by,
        notes=notes,
        table_id="leaderboard",
    )
    return page(board.dataset, table + _pick_form(board), home=INDEX)


def ordered_pairs(board: Board) -> list[tuple[str, str]]:
    """The drill-downs of ``board``: every two systems, once, the baseline first where it is
    one of them, else in the leaderboard's first-recorded order."""
    names = [row.record.system for row in board.rows]
    names.remove(board.baseline)
    names.insert(0, board.baseline)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def _pick_form(board: Board) -> str:
    """Two systems to drill down into: a form (the script opens their page), and every
    pair's link for a browser without script."""
    pairs = ordered_pairs(board)
    if not pairs:
        return ""
    pages: dict[str, str] = {}
    for a, b in pairs:
        target = Files.pair(board.dataset, a, b)
        pages[f"{a}\x00{b}"] = target
        pages[f"{b}\x00{a}"] = target
    names = [row.record.system for row in board.rows]
    second = next(name for name in names if name != board.baseline)

    def options(chosen: str) -> str:
        return "".join(
            f'<option value="{esc(n)}"{" selected" if n == chosen else ""}>{esc(n)}</option>'
            for n in names
        )

    links = "".join(
        f'<li><a href="{esc(Files.pair(board.dataset, a, b))}">{esc(b)} against {esc(a)}</a></li>'
        for a, b in pairs
    )
    return (
        '<h2 id="drill-down">Per-query drill-down</h2>'
        "<p>Two systems' latest records, query by query: wins, ties and losses.</p>"
        f'<form class="ef-form ef-pick" data-pages="{esc(json.dumps(pages, sort_keys=True))}">'
        f'<label>System A<select name="a">{options(board.baseline)}</select></label>'
        f'<label>System B<select name="b">{options(second)}</select></label>'
        '<button type="submit">Show drill-down</button>'
        '<span class="ef-message" role="alert"></span></form>'
        f'<details><summary>Every pair</summary><ul class="ef-list">{links}</ul></details>'
    )


# --- a system's history -----------------------------------------------------------------


def system_page(
    system: str,
    histories: Sequence[History],
    positions: Mapping[int, int],
    queries: Mapping[str, Mapping[str, str]],
    options: Options,
) -> str:
    parts = [
        "<p>Each record of this system, oldest first. ▼ marks a regression: a drop the test "
        f"finds significant against the record before ({_statistics_note(options)}).</p>"
    ]
    for own in histories:
        parts.append(f'<h2><a href="{esc(Files.dataset(own.dataset))}">{esc(own.dataset)}</a></h2>')
        charts = "".join(_chart(own, key) for key in own.metrics)
        if charts:
            parts.append(f'<div class="ef-charts">{charts}</div>')
        parts.append(_history_table(own, positions))
        parts.append(f"<h3>Entries on {esc(own.dataset)}</h3>")
        parts += [
            _entry(step.record, positions, queries.get(own.dataset, {})) for step in own.steps
        ]
    return page(system, "".join(parts), home=INDEX)


def _history_table(own: History, positions: Mapping[int, int]) -> str:
    rows = []
    for step in own.steps:
        record = step.record
        entry = Files.entry(record, positions[id(record)])
        when = f'<a class="ef-nowrap" href="#{esc(entry)}">{esc(_when(record))}</a>'
        cells = [
            text_cell(_when(record), html_text=when),
            text_cell(record.commit or ""),
            text_cell(", ".join(record.tags)),
        ]
        for key in own.metrics:
            drop = step.drop(key)
            mark = ""  # a column of marks, each cell with or without one
            if drop is not None:
                said = (
                    f"regression: {number(drop.difference)} against the previous record "
                    f"(p = {_p(drop.p_corrected)})"
                )
                mark = (
                    f'<sup class="ef-down" title="{esc(said)}" aria-hidden="true">▼</sup>'
                    f'<span class="ef-sr"> {esc(said)}</span>'
                )
            cells.append(num_cell(record.report.metrics.get(key), mark=mark))
        rows.append(cells)
    notes = [
        f"Not tested against the previous record: {esc(s.reason)}" for s in own.steps if s.reason
    ]
    return sortable_table(
        ["recorded", "commit", "tags", *own.metrics],
        rows,
        caption=f"History of {own.system} on {own.dataset}",
        sorted_by=0,
        descending=False,
        notes=notes,
    )


#: The chart's size in pixels: width, height, the left margin for the scale, the padding.
_CHART_BOX = (420, 90, 46, 10)


def _chart(own: History, key: str) -> str:
    """``key`` over the records as a small line chart; regressions are red points. The
    history table beside it holds the same numbers for a screen reader."""
    points = [
        (step, step.record.report.metrics[key])
        for step in own.steps
        if key in step.record.report.metrics
    ]
    if len(points) < 2:  # one record is no line: the table says it
        return ""
    width, height, left, pad = _CHART_BOX
    values = [value for _, value in points]
    low, high = min(values), max(values)
    y = _chart_y(low, high)
    step_x = (width - left - pad) / (len(points) - 1)
    xs = [left + i * step_x for i in range(len(points))]
    line = " ".join(f"{x:.1f},{y(v):.1f}" for x, v in zip(xs, values, strict=True))
    dots, drops = _chart_dots(points, xs, y, key)
    label = (
        f"{key} over {len(points)} records, from {number(values[0])} to {number(values[-1])}; "
        f"{drops} regression{'s' if drops != 1 else ''}"
    )
    return (
        f'<figure class="ef-figure"><figcaption aria-hidden="true">{esc(key)}</figcaption>'
        f'<svg class="ef-chart" role="img" aria-label="{esc(label)}" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">{_chart_scale(low, high)}'
        f'<line class="ef-axis" x1="{left - 4}" y1="{height - pad}" x2="{width - pad}" '
        f'y2="{height - pad}"></line>'
        f'<polyline class="ef-line" points="{line}"></polyline>{"".join(dots)}</svg></figure>'
    )


def _chart_y(low: float, high: float) -> Callable[[float], float]:
    """The chart's height of a value between ``low`` and ``high`` (SVG's y grows down)."""
    _, height, _, pad = _CHART_BOX
    span = high - low or 1.0

    def y(value: float) -> float:
        if high == low:  # one level: a flat line through the middle
            return height / 2
        return height - pad - (value - low) / span * (height - 2 * pad)

    return y


def _chart_dots(
    points: Sequence[tuple[Step, float]],
    xs: Sequence[float],
    y: Callable[[float], float],
    key: str,
) -> tuple[list[str], int]:
    """A point per record, titled with its time and value, and how many are regressions."""
    dots = []
    drops = 0
    for x, (step, value) in zip(xs, points, strict=True):
        dropped = step.drop(key) is not None
        drops += dropped
        kind = "ef-regression" if dropped else "ef-point"
        said = f"{_when(step.record)}: {number(value)}" + (" (regression)" if dropped else "")
        dots.append(
            f'<circle class="{kind}" cx="{x:.1f}" cy="{y(value):.1f}" r="{4.5 if dropped else 3}">'
            f"<title>{esc(said)}</title></circle>"
        )
    return dots, drops


def _chart_scale(low: float, high: float) -> str:
    """The highest and lowest values written at the left; one when they are equal."""
    _, height, _, pad = _CHART_BOX
    if high == low:
        return f'<text x="0" y="{height / 2 + 3}">{esc(number(high))}</text>'
    return (
        f'<text x="0" y="{pad + 4}">{esc(number(high))}</text>'
        f'<text x="0" y="{height - pad + 3}">{esc(number(low))}</text>'
    )


def _entry(record: Record, positions: Mapping[int, int], texts: Mapping[str, str]) -> str:
    """A record's manifest, ties note and skipped queries, folded under its time."""
    report = record.report
    anchor = Files.entry(record, positions[id(record)])
    title = _when(record) + (f" · {record.commit}" if record.commit else "")
    if record.tags:
        title += " · " + ", ".join(record.tags)
    ties = tie_note(report.ties) or f"{report.ties}: no number depends on them"
    parts = [
        f'<details class="ef-entry" id="{esc(anchor)}"><summary>{esc(title)}</summary>',
        f'<p class="ef-ties"><strong>Ties:</strong> {esc(ties)}</p>',
    ]
    if report.skipped:
        rows = [
            [text_cell(qid), text_cell(texts.get(qid, "")), text_cell(reason)]
            for qid, reason in report.skipped.items()
        ]
        parts.append(
            sortable_table(
                ["query", "text", "reason"], rows, caption=f"Skipped queries ({len(rows)})"
            )
        )
    else:
        parts.append("<p><strong>Skipped queries:</strong> none.</p>")
    if report.missing:
        parts.append(
            f"<p><strong>Queries the run did not answer</strong> ({len(report.missing)}, "
            f"scored 0): {esc(', '.join(report.missing))}</p>"
        )
    manifest = json.dumps(plain(report.manifest), indent=2, ensure_ascii=False, sort_keys=True)
    parts.append(f'<h4>Manifest</h4><pre class="ef-manifest">{esc(manifest)}</pre></details>')
    return "".join(parts)


# --- the drill-down of two systems ------------------------------------------------------


def pair_page(pair: Pair, texts: Mapping[str, str], chosen: str, options: Options) -> str:
    a, b = pair.a.system, pair.b.system
    title = f"{b} against {a}"
    parts = [
        f"<p>The latest records of {esc(b)} and {esc(a)} on {esc(pair.dataset)}, query by "
        f"query. A win is a query where {esc(b)} scores higher than {esc(a)}.</p>"
    ]
    comparison = pair.comparison
    if comparison is None:
        parts.append(f"<p>No test was run: {esc(pair.reason or 'no shared metric')}</p>")
    else:
        parts.append(_pair_summary(pair, options))
        keys = comparison.metrics
        first = chosen if chosen in keys else keys[0]
        for key in keys:
            parts.append(_per_query(pair, key, texts, is_open=key == first))
    crumbs = [(pair.dataset, Files.dataset(pair.dataset))]
    return page(title, "".join(parts), home=INDEX, crumbs=crumbs)


def _pair_summary(pair: Pair, options: Options) -> str:
    assert pair.comparison is not None
    a, b = pair.a.system, pair.b.system
    rows = []
    for key in pair.comparison.metrics:
        found = pair.comparison.pair(a, b, metric=key)
        rows.append(
            [
                text_cell(key),
                num_cell(found.mean_a),
                num_cell(found.mean_b),
                num_cell(found.difference, shown=f"{found.difference:+.4f}"),
                num_cell(found.p_corrected, shown=_p(found.p_corrected)),
                text_cell("yes" if found.reject else "no"),
                num_cell(found.wins, shown=str(found.wins)),
                num_cell(found.ties, shown=str(found.ties)),
                num_cell(found.losses, shown=str(found.losses)),
            ]
        )
    return sortable_table(
        ["metric", a, b, "difference", "p", "significant", "wins", "ties", "losses"],
        rows,
        caption="Summary",
        notes=[f"{_statistics_note(options)}, over this pair's metrics."],
        table_id="summary",
    )


#: A query's outcome for b against a, and its mark's class.
_OUTCOME_CLASS = {"win": "ef-win", "loss": "ef-loss", "tie": "ef-muted"}

#: The outcomes in the summary's order, each with its plural.
_OUTCOME_PLURALS = (("win", "wins"), ("tie", "ties"), ("loss", "losses"))


def _per_query(pair: Pair, key: str, texts: Mapping[str, str], *, is_open: bool) -> str:
    assert pair.comparison is not None
    a, b = pair.a.system, pair.b.system
    scores = pair.comparison.scores
    with_text = bool(texts)
    paired = zip(pair.comparison.query_ids, scores[a][key], scores[b][key], strict=True)
    rows = [
        _query_row(qid, va, vb, texts.get(qid, "") if with_text else None)
        for qid, va, vb in paired
        if va is not None and vb is not None
    ]
    header = ["query", *(["text"] if with_text else []), a, b, "difference", "outcome"]
    table = sortable_table(
        header, rows, caption=f"{key} per query", table_id=f"per-query-{slug(key)}"
    )
    opened = " open" if is_open else ""
    summary = _outcome_summary(key, rows)
    return f'<details class="ef-queries"{opened}><summary>{summary}</summary>{table}</details>'


def _outcome_summary(key: str, rows: Sequence[Sequence[Cell]]) -> str:
    """How many wins, ties and losses the rows hold (their last cell), after ``key``."""
    counts = {o: sum(1 for row in rows if row[-1].key == o) for o, _ in _OUTCOME_PLURALS}
    return f"{esc(key)}: " + ", ".join(
        f"{counts[o]} {o if counts[o] == 1 else plural}" for o, plural in _OUTCOME_PLURALS
    )


def _query_row(qid: str, va: float, vb: float, text: str | None) -> list[Cell]:
    """A query's row: its id, its text unless ``None``, both scores, b's difference and
    whether it is a win, a tie or a loss for b."""
    difference = vb - va
    shown = f"{difference:+.4f}" if difference else "0.0000"
    outcome = "win" if difference > 0 else "loss" if difference < 0 else "tie"
    kind = _OUTCOME_CLASS[outcome]
    cells = [text_cell(qid)]
    if text is not None:
        cells.append(text_cell(text))
    return [
        *cells,
        num_cell(va),
        num_cell(vb),
        num_cell(difference, shown=shown),
        text_cell(outcome, html_text=f'<span class="{kind}">{outcome}</span>'),
    ]
