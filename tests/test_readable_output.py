"""Readable output everywhere (issue 18): tables that never break a number or a word, short
reprs, cutoffs in order, CSV at full precision, and notes that name the queries."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ef.evaluation import RagEvalReport, RetrievalEvalReport, demo_path
from ef.evaluation._render import plain_text
from ef.evaluation._reports import ComparisonReport, PairComparison
from ef.evaluation.cli import cli

DEMO = demo_path()
DEMO_RUN = Path(__file__).parents[1] / "examples" / "run.overlap.trec"
DEMO_SAMPLES = DEMO / "rag_samples.jsonl"


def run(*args: str, columns: int | None = None) -> tuple[int, str, str]:
    env = {"COLUMNS": str(columns)} if columns else {}
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval", env=env)
    return result.exit_code, result.stdout, result.stderr


def _big_report(n: int = 5000) -> RetrievalEvalReport:
    keys = [f"{name}@{k}" for name in ("ndcg", "recall", "precision", "mrr") for k in (1, 5, 10)]
    per_query = {f"query-{i:05d}": dict.fromkeys(keys, i % 97 / 97) for i in range(n)}
    metrics = dict.fromkeys(keys, 0.123456789)
    return RetrievalEvalReport(
        metrics,
        per_query,
        n,
        (1, 5, 10),
        skipped={f"s{i}": "no positive judgement" for i in range(300)},
        missing=[f"m{i}" for i in range(300)],
        ties={"policy": "trec_eval", "tied": [f"query-{i:05d}" for i in range(n)]},
    )


# --- 2. repr ------------------------------------------------------------------------------


def test_repr_of_a_large_retrieval_report_is_short_and_names_the_key_metrics() -> None:
    report = _big_report()
    text = repr(report)
    assert len(text) < 1000
    assert len(text.splitlines()) <= 3
    assert text.startswith(
        "<RetrievalEvalReport: 5000 queries (300 skipped, 300 missing), ndcg@10=0.1235"
    )
    assert "(12 metrics)" in text
    assert "ties trec_eval" in text
    assert str(report).count("\n") > 3  # str() stays the full table


def test_repr_of_rag_and_comparison_reports_is_short() -> None:
    n = 5000
    rag = RagEvalReport.from_values(
        {"token_f1": [0.5] * n, "exact_match": [1.0] * n}, [str(i) for i in range(n)]
    )
    assert repr(rag) == "<RagEvalReport: 5000 samples, token_f1=0.5000, exact_match=1.0000>"
    pair = PairComparison(
        metric="ndcg@10", a="x", b="y", n=n, mean_a=0.5, mean_b=0.6, difference=0.1,
        ci_low=0.05, ci_high=0.15, p_value=0.01, p_corrected=0.01, reject=True,
        effect_size=1.2, wins=2, ties=1, losses=0,
    )  # fmt: skip
    comparison = ComparisonReport(
        systems=("x", "y"),
        metrics=("ndcg@10",),
        means={"x": {"ndcg@10": 0.5}, "y": {"ndcg@10": 0.6}},
        comparisons=(pair,),
        query_ids=[str(i) for i in range(n)],
        scores={"x": {"ndcg@10": [0.5] * n}, "y": {"ndcg@10": [0.6] * n}},
        missing={"x": [str(i) for i in range(n)]},
    )
    text = repr(comparison)
    assert len(text) < 1000
    assert text.startswith("<ComparisonReport: 2 systems (x, y), 5000 queries, 1 metric")
    assert "paired-t" in text
    assert "1 significant" in text


def test_str_of_a_rag_report_is_its_summary_table() -> None:
    # str() shows what tables() and render() show: "-" for a mean that is not a number.
    rag = RagEvalReport(
        {"token_f1": 0.25, "exact_match": float("nan"), "rouge_l": None},
        {"token_f1": 2, "exact_match": 2},
        3,
        unanswered=["s3"],
    )
    lines = str(rag).splitlines()
    assert lines[0] == "RAG evaluation: 3 samples"
    assert [line.split() for line in lines[2:5]] == [
        ["token_f1", "0.2500", "2/3"],
        ["exact_match", "-", "2/3"],
        ["rouge_l", "-", "0/3"],
    ]
    assert lines[5].startswith("Unanswered (a gold answer but no response, or a blank one)")
    assert str(rag) == plain_text(rag.tables()[0])


# --- 3. cutoffs in order, CSV at full precision -------------------------------------------


def test_cutoff_columns_are_in_numeric_order_and_all_last() -> None:
    report = RetrievalEvalReport(
        {"ndcg@100": 0.1, "ndcg@30": 0.2, "map@all": 0.3, "ndcg@5": 0.4}, {}, 1, (100, 30, 5)
    )
    assert report.tables()[0].header == ("metric", "@5", "@30", "@100", "all")
    assert str(report).splitlines()[1].split() == ["metric", "@5", "@30", "@100", "all"]


def test_csv_has_full_precision_and_empty_cells() -> None:
    report = RetrievalEvalReport(
        {"ndcg@5": 1 / 3, "recall@10": 2 / 3}, {"q1": {"ndcg@5": 1 / 3}}, 1, (5, 10)
    )
    assert list(csv.reader(io.StringIO(report.to_csv()))) == [
        ["metric", "@5", "@10"],
        ["ndcg", repr(1 / 3), ""],
        ["recall", "", repr(2 / 3)],
    ]
    assert list(csv.reader(io.StringIO(report.to_csv(details=True))))[1] == [
        "q1", repr(1 / 3), "",
    ]  # fmt: skip
    rag = RagEvalReport.from_values({"token_f1": [1 / 3, None]}, ["a", "b"])
    assert rag.to_csv(details=True).splitlines() == ["sample,token_f1", f"a,{1 / 3!r}", "b,"]


# --- 4. the skipped and missing ids in the notes ------------------------------------------


def test_notes_name_the_skipped_and_missing_queries() -> None:
    report = RetrievalEvalReport(
        {"ndcg@10": 0.5},
        {},
        2,
        (10,),
        skipped={f"s{i}": "no positive judgement" for i in range(8)},
        missing=["m1", "m2"],
    )
    notes = report.tables()[0].notes
    assert any("s0 (no positive judgement)" in n and "and 3 more" in n for n in notes)
    assert any("m1, m2" in n for n in notes)
    for output in ("markdown", "latex", "html"):
        text = getattr(report, "to_" + output if output != "html" else "_repr_html_")()
        assert "s0 (no positive judgement)" in text
        assert "m1, m2" in text
    assert "m1, m2" in str(report)
    assert "m1" not in report.to_csv()


def test_cli_csv_stays_plain_data_and_its_notes_go_to_stderr() -> None:
    code, out, err = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10", "-o", "csv")
    assert code == 0
    assert "q8" not in out
    assert "q8 (no positive judgement)" in err
    assert "q11" in err
    code, out, err = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10", "-o", "markdown")
    assert "q8 (no positive judgement)" in out


# --- 5. the tie note names queries and what to do -----------------------------------------


def test_tie_note_names_the_queries_and_the_policy_to_use() -> None:
    ties = {"policy": "trec_eval", "tied": ["q1", "q2"], "at_cutoff": [f"q{i}" for i in range(7)]}
    report = RetrievalEvalReport({"ndcg@10": 0.5}, {}, 7, (10,), ties=ties)
    text = str(report)
    assert "(affected: q0, q1, q2, q3, q4 and 2 more)" in text
    assert 'tie_policy="expected"' in text
    code, _, err = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10")
    assert code == 0
    tie_line = next(line for line in err.splitlines() if "ties (" in line)
    assert tie_line.startswith("note: ")
    assert "--ties expected" in tie_line
    assert "tie_policy" not in tie_line
    _, _, err = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10", "--ties", "expected")
    assert "--ties expected" not in err


# --- 6. the small faults ------------------------------------------------------------------


def test_rag_offers_latex() -> None:
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-o", "latex")
    assert code == 0, out
    assert "\\toprule" in out


def test_debug_is_accepted_after_the_subcommand(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-qrels")
    quiet = CliRunner().invoke(cli, ["evaluate", missing, str(DEMO_RUN)])
    assert quiet.exit_code == 2  # a one-line error
    loud = CliRunner().invoke(cli, ["evaluate", missing, str(DEMO_RUN), "--debug"])
    assert "no such option" not in loud.stderr
    assert isinstance(loud.exception, OSError)  # raised, for the traceback


def test_one_test_is_singular_and_no_correction_says_nothing(tmp_path: Path) -> None:
    pair = PairComparison(
        metric="m", a="x", b="y", n=30, mean_a=0.5, mean_b=0.6, difference=0.1,
        ci_low=0.05, ci_high=0.15, p_value=0.01, p_corrected=0.01, reject=True,
        effect_size=1.2, wins=20, ties=0, losses=10,
    )  # fmt: skip
    base: dict[str, Any] = {
        "systems": ("x", "y"),
        "metrics": ("m",),
        "means": {"x": {"m": 0.5}, "y": {"m": 0.6}},
        "comparisons": (pair,),
        "query_ids": [],
        "scores": {"x": {"m": []}, "y": {"m": []}},
    }
    holm = ComparisonReport(**base, correction="holm")
    assert "Holm correction over 1 test," in str(holm)
    plain = ComparisonReport(**base)
    assert "correction" not in str(plain)


def test_a_sample_too_small_to_reach_alpha_gets_a_note(tmp_path: Path) -> None:
    samples = [
        {"id": f"s{i}", "user_input": "q", "response": answer, "reference": "cat dog"}
        for i, answer in enumerate(["cat dog"] * 3)
    ]
    paths = []
    for name, answers in (("one", ["cat dog"] * 3), ("two", ["cat", "dog", "fox"])):
        path = tmp_path / f"{name}.jsonl"
        rows = [dict(s, response=a) for s, a in zip(samples, answers, strict=True)]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        paths.append(str(path))
    code, out, err = run(
        "compare", "--rag", *paths, "-t", "wilcoxon", "-m", "token_f1", "-o", "markdown"
    )
    assert code == 0, err
    assert "With n = 3 pairs the Wilcoxon signed-rank test cannot reach alpha = 0.05" in out


def test_minimum_attainable_p() -> None:
    from ef.evaluation._engine.stats import min_attainable_p

    assert min_attainable_p("wilcoxon", 3, n_resamples=10_000) == 0.25
    assert min_attainable_p("randomization", 3, n_resamples=10_000) == 0.25
    assert min_attainable_p("randomization", 30, n_resamples=999) == pytest.approx(2 / 1000)
    assert min_attainable_p("paired-t", 3, n_resamples=10_000) == 0.0


# --- 1. no number or word split, at any width ---------------------------------------------


def _words(text: str) -> set[str]:
    return {word.strip(",;") for line in text.splitlines() for word in line.split()}


@pytest.mark.parametrize("columns", [80, 100])
def test_per_query_table_never_splits_a_number(columns: int, builtin_registry) -> None:
    from ef.evaluation import evaluate_run
    from ef.evaluation._render import number

    report = evaluate_run(DEMO_RUN, DEMO, registry=builtin_registry)
    code, out, err = run("evaluate", str(DEMO), str(DEMO_RUN), "-q", columns=columns)
    assert code == 0
    table_lines = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert table_lines
    assert all(len(line) <= columns for line in table_lines)  # the title may be longer
    words = _words(out)
    values = {number(v) for q in report.per_query.values() for v in q.values()}
    assert values <= words  # every value whole on some line
    assert set(report.per_query) <= words
    assert sum(line.startswith("note: ") and "do not fit" in line for line in err.splitlines()) == 1


def test_the_summary_still_fits_as_a_table_at_80_columns() -> None:
    code, out, err = run("evaluate", str(DEMO), str(DEMO_RUN), columns=80)
    assert code == 0
    assert "┃ metric" in out
    assert "do not fit" not in err


@pytest.mark.parametrize("columns", [80, 100])
def test_metrics_listing_never_splits_a_word(columns: int) -> None:
    code, out, _ = run("metrics", columns=columns)
    assert code == 0
    _, data, _ = run("metrics", "-o", "json")
    words = _words(out)
    for entry in json.loads(data):
        for param in entry["parameters"]:
            default = param["default"] if param["default"] is not None else "unset"
            assert f"{param['name']}={default}" in words
        assert entry["name"] in words


@pytest.mark.parametrize("columns", [80, 120])
def test_compare_keeps_each_interval_whole(columns: int, tmp_path: Path) -> None:
    reversed_run = tmp_path / "reversed.trec"  # the same docs, scores negated
    lines = DEMO_RUN.read_text(encoding="utf-8").split("\n")
    reversed_run.write_text(
        "".join(  # listed by the new scores, highest first, as a run is
            " ".join([*parts[:4], str(-float(parts[4])), parts[5]]) + "\n"
            for parts in (line.split() for line in reversed(lines) if line.strip())
        ),
        encoding="utf-8",
    )
    runs = [str(DEMO_RUN), str(reversed_run)]
    code, out, _ = run("compare", str(DEMO), *runs, "-m", "ndcg@10,recall@10", columns=columns)
    assert code == 0, out
    _, data, _ = run("compare", str(DEMO), *runs, "-m", "ndcg@10,recall@10", "-o", "json")
    for pair in json.loads(data)["comparisons"]:
        interval = f"[{pair['ci_low']:+.4f}, {pair['ci_high']:+.4f}]"
        assert any(interval in line for line in out.splitlines())


def test_column_widths_keep_numbers_whole_and_wrap_text_at_spaces() -> None:
    from rich.console import Console

    from ef.evaluation._render import Table, column_widths, rich_renderable

    table = Table(
        ["name", "description", "value"],
        [["ndcg", "normalised discounted cumulative gain judged_only=False", "0.123456"]],
        text_columns=2,
    )
    widths = column_widths(table, 45)
    assert widths is not None
    buffer = io.StringIO()
    Console(width=45, file=buffer, color_system=None).print(rich_renderable(table, widths))
    words = _words(buffer.getvalue())
    assert {"0.123456", "judged_only=False", "cumulative"} <= words
    assert column_widths(table, 30) is None  # judged_only=False and the number cannot fit
