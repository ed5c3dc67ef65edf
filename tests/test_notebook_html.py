"""Notebook HTML (``_repr_html_``, ``render(report, "html")``): one scoped, themed fragment
with the title above each table, its notes below, best values bold and marks raised."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ef.evaluation import RagEvalReport, RetrievalEvalReport, compare
from ef.evaluation._engine.ties import TieDiagnostic
from ef.evaluation._render import Table, format_table, render

from .conftest import short_scratch

RETRIEVAL = RetrievalEvalReport(
    {"ndcg@10": 0.625},
    {"q1": {"ndcg@10": 0.75}, "q2": {"ndcg@10": 0.5}},
    2,
    (10,),
    skipped={"s1": "no positive judgement"},
    missing=("m1", "m2"),
    ties=TieDiagnostic(tied=["q1", "q2"], at_cutoff=["q2"]),
)
RAG = RagEvalReport.from_values({"token_f1": [1.0, None, 0.5]}, ["s1", "s2", "s3"])
IDS = [f"q{i}" for i in range(12)]
POOR = [0.0, 0.1, 0.0, 0.2, 0.1, 0.0, 0.3, 0.1, 0.0, 0.2, 0.1, 0.0]
GOOD = [v + 0.5 + 0.01 * i for i, v in enumerate(POOR)]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@pytest.fixture(scope="module")
def comparison():
    systems = {
        name: RagEvalReport.from_values({"m": values}, IDS)
        for name, values in {"poor": POOR, "good": GOOD}.items()
    }
    return compare(systems, seed=0)


class _Tags(HTMLParser):
    """The open/close events of a page, and the text of its <style> elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.unbalanced: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.styles: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.unbalanced.append(tag)

    def handle_data(self, data: str) -> None:
        (self.styles if self.stack[-1:] == ["style"] else self.text).append(data)


def parsed(page: str) -> _Tags:
    tags = _Tags()
    tags.feed(page)
    tags.close()
    assert not tags.unbalanced, tags.unbalanced
    assert not tags.stack, tags.stack
    return tags


def selectors(css: str) -> list[str]:
    """Every selector of ``css``, inside ``@media`` blocks too; commas inside ``:where()``
    do not split a selector."""
    found: list[str] = []
    depth_of_rules = 0
    prelude = ""
    i = 0
    while i < len(css):
        char = css[i]
        if char == "{":
            head = prelude.strip()
            if head.startswith("@"):
                assert head.startswith("@media"), head  # no @import, no @font-face
                depth_of_rules += 1
            else:
                found += _split(head)
                i = css.index("}", i)  # a declaration block: skip it
            prelude = ""
        elif char == "}":
            depth_of_rules -= 1
            prelude = ""
        else:
            prelude += char
        i += 1
    assert depth_of_rules == 0
    assert not prelude.strip()
    return found


def _split(selector_list: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in selector_list:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


def check_fragment(page: str) -> _Tags:
    """What every report's HTML holds: one wrapper, one scoped style, no script or URL."""
    assert page.startswith('<div class="ef-report"><style>')
    tags = parsed(page)
    assert [t for t, _ in tags.tags].count("style") == 1
    assert not {"script", "link", "img", "iframe", "caption"} & {t for t, _ in tags.tags}
    assert not any(name.startswith("on") for _, attrs in tags.tags for name in attrs)
    css = tags.styles[0]
    found = selectors(css)
    assert len(found) > 10
    assert all(s.startswith(".ef-report") for s in found), found
    assert "url(" not in css
    assert "@import" not in css
    assert "http" not in page
    assert "font-variant-numeric:tabular-nums" in css
    assert "@media (prefers-color-scheme: dark)" in css
    assert '[data-jp-theme-light="false"]' in css
    assert "body.vscode-dark" in css
    return tags


def test_a_retrieval_report_shows_its_title_above_and_every_note_below() -> None:
    page = RETRIEVAL._repr_html_()
    assert page == render(RETRIEVAL, "html")
    tags = check_fragment(page)
    title = "Retrieval evaluation: 2 queries scored"
    assert re.search(
        rf'<div class="ef-title"[^>]*>{title}[^<]*</div><table class="ef-table">', page
    )
    notes = page.split('<div class="ef-notes">', 1)[1]
    assert all(
        f"<p><small>{html.escape(note)}</small></p>" in notes
        for note in RETRIEVAL.tables()[0].notes
    )
    assert "s1 (no positive judgement)" in notes  # the skipped list
    assert "m1, m2" in notes  # the missing list
    assert '<th class="ef-num" scope="col">@10</th>' in page
    assert '<td class="ef-num">0.6250</td>' in page
    assert "".join(tags.text).count("ndcg") == 1


def test_a_retrieval_report_html_carries_the_tie_note() -> None:
    assert "ties (trec_eval): 2 queries with tied scores" in RETRIEVAL._repr_html_()


def test_a_rag_report_with_details_is_one_fragment_of_two_tables() -> None:
    page = render(RAG, "html", details=True)
    check_fragment(page)
    assert page.count('<div class="ef-block">') == 2
    assert page.count("<style>") == 1
    assert '<td class="ef-text">token_f1</td><td class="ef-num">0.7500</td>' in page
    assert ">per sample</div>" in page
    assert "<th" in RAG._repr_html_()


def test_a_comparison_shows_its_best_value_bold_and_its_marks_raised(comparison) -> None:
    page = comparison._repr_html_()
    check_fragment(page)
    means = comparison.tables()[0]
    assert means.bold == {(1, 1)}
    assert means.marks[(1, 1)] == "a"
    best = means.rows[1][1]
    assert f'<td class="ef-num ef-marked"><strong>{best}</strong><sup>a</sup></td>' in page
    assert "Bold: the best mean of each metric." in page
    assert "Superscripts: significantly better than that system" in page
    header = page.split("Pairwise tests", 1)[1]
    assert '<th class="ef-num" scope="col">p</th><th class="ef-num" scope="col">sig</th>' in header


def test_titles_cells_and_notes_are_escaped() -> None:
    nasty = "<b>\"q\" & 'x'</b>"
    table = Table(
        ["metric", "v<1>"],
        [["<script>alert(1)</script>", "0.5"]],
        title=f"A {nasty}",
        marks={(0, 1): "<&>"},
        bold={(0, 1)},
        notes=[f"note {nasty}"],
    )
    page = format_table(table, "html")
    tags = check_fragment(page)
    assert "<script" not in page
    assert "<b>" not in page
    assert "A &lt;b&gt;&quot;q&quot; &amp; &#x27;x&#x27;&lt;/b&gt;</div>" in page
    assert "<sup>&lt;&amp;&gt;</sup>" in page
    assert '<th class="ef-num ef-marked" scope="col">v&lt;1&gt;</th>' in page
    text = "".join(tags.text)
    assert f"A {nasty}" in text
    assert f"note {nasty}" in text
    assert "<script>alert(1)</script>" in text


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    with short_scratch("ef-chromium-") as scratch:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-extensions",
             f"--user-data-dir={scratch / 'profile'}", *args],
            capture_output=True, text=True, timeout=120, check=True,
            env={**os.environ, "TMPDIR": str(scratch)},
        )  # fmt: skip


@pytest.mark.browser  # tox -e browser, which installs Chromium; the README's command skips it
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary on PATH")
def test_headless_chromium_parses_and_draws_a_comparison(comparison, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>report</title></head>'
        f"<body>{comparison._repr_html_()}</body></html>",
        encoding="utf-8",
    )
    dom = _chromium("--dump-dom", page.as_uri()).stdout
    assert '<div class="ef-report">' in dom
    best = comparison.tables()[0].rows[1][1]
    assert f"<strong>{best}</strong><sup>a</sup>" in dom  # the rows made it into the DOM
    assert dom.count('<tr><td class="ef-text">m</td>') == 1  # the one pairwise row
    shot = tmp_path / "report.png"
    _chromium(f"--screenshot={shot}", "--window-size=900,500", page.as_uri())
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 1000
