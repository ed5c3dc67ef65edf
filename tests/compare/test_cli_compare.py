"""ef-eval compare: runs against qrels, RAG reports, every output, plots, one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import matplotlib
import pytest
from click.testing import CliRunner

from ef.evaluation import RunTable, compare, demo_path, read_qrels, read_run, write_run
from ef.evaluation.cli import cli

from ..conftest import shared_path

matplotlib.use("Agg")

DEMO = demo_path()
DEMO_RUN = Path(__file__).parents[2] / "examples" / "run.overlap.trec"
DEMO_SAMPLES = DEMO / "rag_samples.jsonl"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    """The demo run and two deterministic variants: reversed ranks, and one query dropped."""
    base = read_run(DEMO_RUN)
    reversed_run = {q: {d: -s for d, s in docs.items()} for q, docs in base.items()}
    partial = {q: docs for q, docs in base.items() if q != "q2"}
    paths = [tmp_path / "reversed.trec", tmp_path / "partial.trec"]
    write_run(paths[0], reversed_run)
    write_run(paths[1], partial)
    return [DEMO_RUN, *paths]


def test_table_is_the_default_and_names_runs_by_file(runs) -> None:
    code, out, _ = run("compare", str(DEMO), *map(str, runs), "-m", "mrr@10")
    assert code == 0
    n_judged = sum(1 for j in read_qrels(DEMO).values() if any(g > 0 for g in j.values()))
    assert f"Comparison of 3 systems on {n_judged} queries" in out
    assert "(a) run.overlap" in out
    assert "(b) reversed" in out
    assert "Pairwise tests: paired t-test, no correction, alpha = 0.05" in out
    assert "Missing queries (scored 0): run.overlap 1, reversed 1, partial 2." in out


def test_json_is_the_report_dict(runs) -> None:
    code, out, _ = run(
        "compare", str(DEMO), *map(str, runs), "-m", "mrr@10,ndcg@10", "-t", "randomization",
        "--seed", "5", "--n-resamples", "500", "-c", "holm", "-o", "json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    qrels = read_qrels(DEMO)
    expected = compare(
        {"run.overlap": runs[0], "reversed": runs[1], "partial": runs[2]},
        qrels,
        metrics=("mrr@10", "ndcg@10"),
        test="randomization",
        seed=5,
        n_resamples=500,
        correction="holm",
    ).to_dict()
    assert data["comparisons"] == json.loads(json.dumps(expected["comparisons"]))
    assert data["means"] == expected["means"]
    assert "scores" not in data
    assert data["manifest"]["inputs"]["partial"]["path"] == str(runs[2])
    assert data["manifest"]["inputs"]["qrels"]["path"].endswith("test.tsv")
    code, out, _ = run("compare", str(DEMO), *map(str, runs[:2]), "-q", "-o", "json")
    judged = [q for q, j in read_qrels(DEMO).items() if any(g > 0 for g in j.values())]
    assert json.loads(out)["query_ids"] == judged


def test_baseline_by_name_or_path_and_names_given_with_equals(runs) -> None:
    code, out, _ = run(
        "compare", str(DEMO), f"ours={runs[0]}", f"theirs={runs[1]}", "--baseline", "theirs",
        "-o", "csv",
    )  # fmt: skip
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["a"], r["b"]) for r in rows] == [("theirs", "ours")]
    code, out, _ = run("compare", str(DEMO), *map(str, runs), "-b", str(runs[2]), "-o", "csv")
    assert [(r["a"], r["b"]) for r in csv.DictReader(io.StringIO(out))] == [
        ("partial", "run.overlap"),
        ("partial", "reversed"),
    ]


def test_markdown_latex_and_plots(runs, tmp_path: Path) -> None:
    code, out, _ = run("compare", str(DEMO), *map(str, runs[:2]), "-o", "markdown")
    assert code == 0
    assert out.startswith("**Comparison of 2 systems on ")
    assert "| metric | A | B |" in out
    diff, box = tmp_path / "diff.png", tmp_path / "box.png"
    code, out, _ = run(
        "compare", str(DEMO), *map(str, runs), "-o", "latex", "--plot", str(diff),
        "--plot-distribution", str(box),
    )  # fmt: skip
    assert code == 0
    assert "\\begin{tabular}{lr}" in out
    assert "\\textbf{" in out
    for path in (diff, box):
        assert path.read_bytes()[:8] == PNG_MAGIC


def test_rag_reports_and_sample_files(tmp_path: Path) -> None:
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-s", "-o", "json")
    assert code == 0
    saved = tmp_path / "a.json"
    saved.write_text(out)
    worse = tmp_path / "b.jsonl"
    lines = [json.loads(line) for line in DEMO_SAMPLES.read_text().splitlines()]
    worse.write_text("\n".join(json.dumps({**s, "response": "no idea"}) for s in lines) + "\n")
    code, out, _ = run("compare", "--rag", str(saved), str(worse), "-m", "token_f1", "-o", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["kind"] == "rag"
    assert data["systems"] == ["a", "b"]
    assert data["comparisons"][0]["n"] == 3  # s4 has no reference
    assert data["comparisons"][0]["difference"] < 0
    code, out, _ = run("compare", "--rag", str(saved), str(worse))
    assert code == 0
    assert "Comparison of 2 systems on 4 samples" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", str(DEMO), str(DEMO_RUN)], "give QRELS and at least two runs"),
        (["compare", str(DEMO), str(DEMO_RUN), "nope.trec"], "nope.trec: no such file"),
        (
            ["compare", str(DEMO), str(DEMO_RUN), str(DEMO_RUN)],
            "two systems are called 'run.overlap'; name them with NAME=PATH",
        ),
        (
            ["compare", str(DEMO), f"a={DEMO_RUN}", f"b={DEMO_RUN}", "-b", "c"],
            "--baseline 'c' is none of the systems: a, b",
        ),
        (
            ["compare", str(DEMO), f"a={DEMO_RUN}", f"b={DEMO_RUN}", "-m", "ndgc@10"],
            "unknown retrieval metric 'ndgc'",
        ),
        (["compare", "--rag", str(DEMO_RUN), str(DEMO_SAMPLES)], "run.overlap.trec"),
    ],
)
def test_errors_are_one_line_with_exit_2(args, message) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_json_that_is_not_a_rag_report(tmp_path: Path) -> None:
    bad, bare = tmp_path / "bad.json", tmp_path / "bare.json"
    bad.write_text("[1, 2]")
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-o", "json")
    bare.write_text(out)
    code, _, err = run("compare", "--rag", str(bad), str(bare))
    assert code == 2
    assert "bad.json: not a RAG report" in err
    code, _, err = run("compare", "--rag", str(bare), str(bare.with_name("x.json")))
    assert "x.json: no such file" in err
    bare.with_name("x.json").write_text("{")
    code, _, err = run("compare", "--rag", str(bare.with_name("x.json")), str(bare))
    assert code == 2
    assert "x.json: not a JSON RAG report" in err
    code, _, err = run("compare", "--rag", str(bare), str(bare), "-b", "bare")
    assert code == 2
    assert "two systems are called 'bare'" in err
    code, _, err = run("compare", "--rag", f"a={bare}", f"b={bare}")
    assert code == 2
    assert (
        "bare.json: the report has no per-sample values; save it with ef-eval rag -s -o json" in err
    )


def rrf(*runs: RunTable, k: int = 60, depth: int = 100) -> dict[str, dict[str, float]]:
    """Reciprocal rank fusion (Cormack et al. 2009) of runs, each ranked by trec_eval's rule."""
    fused: dict[str, dict[str, float]] = {}
    for query_id in runs[0].query_ids:
        scores: dict[str, float] = {}
        for one in runs:
            ranking = one.ranking(query_id) if query_id in one else []
            for rank, doc in enumerate(ranking, start=1):
                scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:depth]
        fused[query_id] = dict(best)
    return fused


def test_three_scifact_bm25_systems_render_as_a_table_latex_and_a_png(tmp_path: Path) -> None:
    folder = shared_path("datasets", "scifact-runs")
    qrels = shared_path("datasets", "scifact", "qrels", "test.tsv")
    first = folder / "run.scifact.test.bm25s-lucene-k1_1.2-b_0.75.txt.gz"
    second = folder / "run.scifact.test.bm25s-lucene-k1_0.9-b_0.4.txt.gz"
    # Only two runs are shared; the third is their reciprocal rank fusion (top 100), made here.
    fused = tmp_path / "run.scifact.test.rrf.txt"
    write_run(fused, rrf(RunTable.read(first), RunTable.read(second)))
    named = [f"bm25-1.2-0.75={first}", f"bm25-0.9-0.4={second}", f"rrf={fused}"]
    options = ["-m", "ndcg@10,recall@100", "-c", "holm"]
    plot = tmp_path / "scifact.png"
    code, table, err = run("compare", str(qrels), *named, *options, "--plot", str(plot))
    assert code == 0, err
    assert "Comparison of 3 systems on 300 queries" in table
    assert "Holm correction over 6 tests" in table
    # The published number: nDCG@10 of BM25 (1.2, 0.75) is 0.6791 (shared PROVENANCE.md).
    assert "(a) bm25-1.2-0.75 │  0.6791 │" in table
    data = plot.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert len(data) > 10_000
    code, latex, _ = run("compare", str(qrels), *named, *options, "-o", "latex")
    assert code == 0
    assert latex.count("\\textbf{") >= 2
    assert "\\toprule" in latex
    assert "(a) bm25-1.2-0.75 & \\textbf{0.6791}" in latex


def test_ties_reach_every_run_compared(tmp_path: Path) -> None:
    # Both runs tie d1 and d2 for q1; only d1 is relevant. Under trec_eval's order d2 ranks
    # first in both runs, under docno_asc d1 does: mrr@1 means 0.5 and 1.0, and the manifest
    # records the policy.
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d3 1\n")
    paths = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.trec"
        path.write_text("q1 Q0 d1 1 1.0 x\nq1 Q0 d2 2 1.0 x\nq2 Q0 d3 1 1.0 x\n")
        paths.append(str(path))
    means = {}
    for policy in ("trec_eval", "docno_asc"):
        code, out, _ = run(
            "compare", str(qrels), *paths, "-m", "mrr@1", "-o", "json", "--ties", policy
        )
        assert code == 0
        data = json.loads(out)
        means[policy] = data["comparisons"][0]["mean_a"]
        assert {m["tie_policy"] for m in data["manifest"]["systems"].values()} == {policy}
    assert means == {"trec_eval": 0.5, "docno_asc": 1.0}


def test_a_json_rag_report_past_the_parser_s_limits_names_file_and_line(tmp_path: Path) -> None:
    bare = tmp_path / "bare.json"
    _, out, _ = run("rag", str(DEMO_SAMPLES), "-o", "json")
    bare.write_text(out)
    for body, line_no in (('{\n"metrics": ' + "7" * 5_001 + "}", 2), ("[" * 100_000, 1)):
        bad = tmp_path / "bad.json"
        bad.write_text(body)
        code, _, err = run("compare", "--rag", str(bad), str(bare))
        assert code == 2
        assert f"bad.json:{line_no}: " in err
        assert "Traceback" not in err
