"""Every report renders as a terminal table, Markdown, LaTeX, CSV, JSON, HTML and pandas."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest
from rich.console import Console

from ef.evaluation import (
    MissingDependencyError,
    RagEvalReport,
    RetrievalEvalReport,
    compare,
)
from ef.evaluation._render import Table, format_table, render

RETRIEVAL = RetrievalEvalReport(
    {"ndcg@5": 0.5, "ndcg@10": 0.625, "recall@10": 0.75},
    {"q1": {"ndcg@5": 0.5, "ndcg@10": 0.75, "recall@10": 1.0},
     "q2": {"ndcg@5": 0.5, "ndcg@10": 0.5, "recall@10": 0.5}},
    2,
    (5, 10),
    missing=("q2",),
)  # fmt: skip
RAG = RagEvalReport.from_values(
    {"token_f1": [1.0, None, 0.5], "exact_match": [1.0, 0.0, 0.0]}, ["s1", "s2", "s3"]
)

# Three systems over 12 queries: "good" beats "poor" on every query, "mid" is in between.
IDS = [f"q{i}" for i in range(12)]
POOR = [0.0, 0.1, 0.0, 0.2, 0.1, 0.0, 0.3, 0.1, 0.0, 0.2, 0.1, 0.0]
MID = [
    v + d
    for v, d in zip(POOR, [0.3, 0.0, 0.2, 0.0, 0.1, 0.3, 0.0, 0.2, 0.1, 0.0, 0.3, 0.1], strict=True)
]
GOOD = [v + 0.5 + 0.01 * i for i, v in enumerate(POOR)]
SYSTEMS = {
    name: RagEvalReport.from_values({"m": values, "n": [1 - v for v in values]}, IDS)
    for name, values in {"poor": POOR, "mid": MID, "good": GOOD}.items()
}


@pytest.fixture(scope="module")
def comparison():
    return compare(SYSTEMS, correction="holm", seed=0)


def test_retrieval_report_outputs() -> None:
    markdown = RETRIEVAL.to_markdown()
    assert "| ndcg | 0.5000 | 0.6250 |" in markdown
    assert markdown.startswith(
        "**Retrieval evaluation: 2 queries scored (1 missing from the run)**"
    )
    assert "| q1 | 0.5000 | 0.7500 | 1.0000 |" in RETRIEVAL.to_markdown(details=True)
    latex = RETRIEVAL.to_latex()
    assert "\\begin{tabular}{lrr}" in latex
    assert "recall & - & 0.7500 \\\\" in latex
    rows = list(csv.reader(io.StringIO(RETRIEVAL.to_csv())))
    assert rows == [
        ["metric", "@5", "@10"],
        ["ndcg", "0.5", "0.625"],
        ["recall", "", "0.75"],
    ]  # CSV is for machines: full precision, no value an empty cell
    assert next(csv.reader(io.StringIO(RETRIEVAL.to_csv(details=True)))) == [
        "query", "ndcg@5", "ndcg@10", "recall@10",
    ]  # fmt: skip
    assert json.loads(RETRIEVAL.to_json()) == RETRIEVAL.to_dict()
    html = RETRIEVAL._repr_html_()
    assert html.startswith('<div class="ef-report"><style>')
    assert ">Retrieval evaluation: 2 queries scored (1 missing from the run)</div>" in html
    assert '<td class="ef-num">0.6250</td>' in html
    text = render(RETRIEVAL, "table")
    assert "ndcg" in text
    assert "0.6250" in text
    assert (
        str(RETRIEVAL).splitlines()[0]
        == "Retrieval evaluation: 2 queries scored (1 missing from the run)"
    )


def test_rag_report_outputs() -> None:
    assert "| token_f1 | 0.7500 | 2/3 |" in RAG.to_markdown()
    assert "| s2 | - | 0.0000 |" in RAG.to_markdown(details=True)
    assert "token\\_f1 & 0.7500 & 2/3 \\\\" in RAG.to_latex()
    assert RAG.to_csv(details=True).splitlines()[:2] == [
        "sample,token_f1,exact_match",
        "s1,1.0,1.0",
    ]
    assert json.loads(RAG.to_json())["per_sample"]["token_f1"] == [1.0, None, 0.5]
    assert "<th" in RAG._repr_html_()


def test_comparison_table_marks_what_is_significantly_better(comparison) -> None:
    good_over_poor = comparison.pair("poor", "good", "m")
    assert good_over_poor.reject
    table = comparison._means_table()
    assert table.header == ("system", "m", "n")
    assert [row[0] for row in table.rows] == ["(a) poor", "(b) mid", "(c) good"]
    # good (row 2) beats a and b on m; on n (1 - m) poor and mid beat good.
    assert table.marks[(2, 1)] == "ab"
    assert (2, 1) in table.bold
    assert (0, 2) in table.bold
    assert "c" in table.marks[(0, 2)]
    text = str(comparison)
    assert (
        "Superscripts: significantly better than that system (paired t-test, Holm correction over 6 tests, alpha = 0.05)."
        in text
    )
    assert "ᵃᵇ" in text
    markdown = comparison.to_markdown()
    assert f"| (c) good | **{good_over_poor.mean_b:.4f}**<sup>ab</sup> |" in markdown
    assert "| m | poor | good |" in markdown
    latex = comparison.to_latex()
    assert f"(c) good & \\textbf{{{good_over_poor.mean_b:.4f}}}\\textsuperscript{{a,b}}" in latex
    assert "\\toprule" in latex
    assert "\\bottomrule" in latex
    assert "% Bold: the best mean of each metric." in latex


def test_a_baseline_comparison_marks_better_and_worse(comparison) -> None:
    report = compare(SYSTEMS, baseline="mid", seed=0)
    table = report._means_table()
    assert table.rows[1][0] == "mid (baseline)"
    assert table.marks.get((2, 1)) == "*"  # good is better than mid on m
    assert table.marks.get((2, 2)) == "†"  # and worse on n
    assert "* significantly better than the baseline mid, † significantly worse" in table.notes[0]
    assert "\\textsuperscript{\\dag{}}" in report.to_latex()


def test_comparison_csv_json_html_and_rich(comparison) -> None:
    rows = list(csv.DictReader(io.StringIO(comparison.to_csv())))
    assert len(rows) == 6
    assert float(rows[0]["p_value"]) == comparison.comparisons[0].p_value
    assert rows[0]["reject"] in ("True", "False")
    per_query = list(csv.reader(io.StringIO(comparison.to_csv(details=True))))
    assert per_query[0] == ["sample", "metric", "poor", "mid", "good"]
    assert len(per_query) == 1 + 12 * 2
    assert json.loads(comparison.to_json())["correction"] == "holm"
    html = comparison._repr_html_()
    assert "<strong>" in html
    assert "<sup>ab</sup>" in html
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(comparison)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Pairwise tests: paired t-test, Holm correction over 6 tests" in shown
    assert "p (holm)" in shown
    assert "ᵃᵇ" in shown


def test_to_pandas_for_every_report(comparison) -> None:
    frame = RETRIEVAL.to_pandas()
    assert frame.loc["ndcg", "@10"] == 0.625
    assert RETRIEVAL.to_pandas(details=True).loc["q1", "recall@10"] == 1.0
    assert RAG.to_pandas().loc["token_f1", "coverage"] == 2
    assert RAG.to_pandas(details=True).index.tolist() == ["s1", "s2", "s3"]
    pairs = comparison.to_pandas()
    assert list(pairs.columns[:3]) == ["metric", "a", "b"]
    assert pairs["p_corrected"].tolist() == [p.p_corrected for p in comparison.comparisons]
    values = comparison.to_pandas(details=True)
    assert values[("m", "good")].tolist() == pytest.approx(GOOD)


def test_without_pandas_to_pandas_names_the_extra_and_html_still_works(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingDependencyError, match=r'pip install "ef-evaluation\[pandas\]"'):
        RAG.to_pandas()
    assert '<table class="ef-table">' in RAG._repr_html_()


def test_unknown_outputs_are_errors() -> None:
    with pytest.raises(
        ValueError, match="output must be one of table, markdown, latex, csv, json, html, got 'xml'"
    ):
        render(RAG, "xml")
    with pytest.raises(
        ValueError, match="output must be one of table, markdown, latex, csv or html, got 'json'"
    ):
        format_table(Table(["a"], [["1"]]), "json")
    with pytest.raises(TypeError, match=r"expected an ef\.evaluation report, got dict"):
        render({}, "markdown")  # type: ignore[arg-type]


def test_latex_and_markdown_escape_their_special_characters() -> None:
    table = Table(["metric", "value"], [["P_5 & 50%", "a|b"]])
    assert "P\\_5 \\& 50\\%" in format_table(table, "latex")
    assert "| P_5 & 50% | a\\|b |" in format_table(table, "markdown")
    assert '<td class="ef-text">P_5 &amp; 50%</td>' in format_table(table, "html")


def test_the_terminal_table_shows_headers_and_cells_as_written() -> None:
    """rich reads a plain string as markup and ``:name:`` as an emoji: a metric, a system or a
    query named so must still be shown as written."""
    from ef.evaluation._render import Table, format_table

    text = format_table(Table(["[b]run", ":smile:@10"], [["[i]bm25", ":x:"]]), "table")
    for written in ("[b]run", ":smile:@10", "[i]bm25", ":x:"):
        assert written in text
