"""ef-eval evaluate and convert: outputs, trec_eval's numbers, and one-line errors with exit 2."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import demo_path, evaluate_run, read_qrels, read_run
from ef.evaluation.cli import cli

from .conftest import shared_path

DEMO = demo_path()
DEMO_RUN = Path(__file__).parents[1] / "examples" / "run.overlap.trec"
#: The demo's judged queries in qrels order; q8 has no relevant document and is skipped.
DEMO_SCORED = [f"q{i}" for i in (*range(1, 8), *range(9, 16))]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def test_json_is_the_report_dict_keyed_name_at_k(builtin_registry) -> None:
    code, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10,recall@5", "-o", "json")
    assert code == 0
    data = json.loads(out)
    expected = evaluate_run(
        DEMO_RUN, DEMO, metrics=("ndcg@10", "recall@5"), registry=builtin_registry
    ).to_dict()
    del expected["per_query"]
    assert data == expected
    assert list(data["metrics"]) == ["ndcg@10", "recall@5"]
    assert "per_query" not in data


def test_per_query_json_adds_per_query() -> None:
    code, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "mrr@10", "-q", "-o", "json")
    assert code == 0
    data = json.loads(out)
    assert sorted(data["per_query"]) == sorted(DEMO_SCORED)
    assert data["skipped"] == {"q8": "no positive judgement"}


def test_metric_names_with_and_without_cutoffs() -> None:
    code, out, _ = run(
        "evaluate",
        str(DEMO),
        str(DEMO_RUN),
        "-m",
        "ndcg",
        "-m",
        "map@1000",
        "-k",
        "3",
        "-o",
        "json",
    )
    assert code == 0
    assert list(json.loads(out)["metrics"]) == ["ndcg@3", "map@1000"]


def test_csv_markdown_latex_and_table_show_the_same_numbers(builtin_registry) -> None:
    report = evaluate_run(DEMO_RUN, DEMO, metrics=("ndcg@10",), registry=builtin_registry)
    shown = f"{report.metrics['ndcg@10']:.4f}"
    code, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10", "-o", "csv")
    assert code == 0
    exact = repr(report.metrics["ndcg@10"])  # CSV is for machines: full precision
    assert list(csv.reader(io.StringIO(out))) == [["metric", "@10"], ["ndcg", exact]]
    _, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10", "-o", "markdown")
    assert f"| ndcg | {shown} |" in out
    _, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10", "-o", "latex")
    assert "\\toprule" in out
    assert f"ndcg & {shown} \\\\" in out
    _, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10")
    assert shown in out
    assert "14 queries scored (1 skipped, 1 missing from the run)" in out


def test_per_query_table_ends_with_the_all_row() -> None:
    code, out, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "precision@1", "-q", "-o", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["query", "precision@1"]
    assert [r[0] for r in rows[1:]] == [*DEMO_SCORED, "all"]


def test_trec_output_is_trec_eval_lines() -> None:
    code, out, _ = run(
        "evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndcg@10,precision@5,map@1000", "-o", "trec"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "num_q                 \tall\t14"
    assert [line.split("\t")[0].rstrip() for line in lines[1:]] == [
        "ndcg_cut_10",
        "P_5",
        "map_cut_1000",
    ]
    assert all(len(line.split("\t")[0]) == 22 for line in lines)


def test_trec_eval_s_own_syntax_and_output_reproduce_out_test() -> None:
    # trec_eval qrels.test results.test: every line we print is one trec_eval printed.
    trec = shared_path("validation", "trec_eval")
    golden = set((trec / "out.test").read_text(encoding="utf-8").splitlines())
    code, out, _ = run(
        "evaluate",
        str(trec / "qrels.test"),
        str(trec / "results.test"),
        "-m",
        "num_ret,num_rel,num_rel_ret,AP,Rprec,bpref,recip_rank,P.5,10,15,20,30,100,200,500,1000",
        "--averaging",
        "run",
        "-o",
        "trec",
    )
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1 + 7 + 9
    assert set(lines) <= golden, sorted(set(lines) - golden)


def test_parameters_and_identical_ids_on_the_command_line(tmp_path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 2\n1 0 b 1\n")
    run_file = tmp_path / "run.trec"
    run_file.write_text("1 Q0 1 1 3.0 x\n1 Q0 b 2 2.0 x\n1 Q0 a 3 1.0 x\n")
    args = ("evaluate", str(qrels), str(run_file), "-o", "json")
    _, out, _ = run(*args, "-m", "P(rel=2)@2,nDCG(gains={1:0,2:1})@2,P.1,2")
    metrics = json.loads(out)["metrics"]
    assert list(metrics) == [
        "precision(rel=2)@2", "ndcg(gains={1:0,2:1})@2", "precision@1", "precision@2"
    ]  # fmt: skip
    assert metrics["precision(rel=2)@2"] == 0.0
    _, out, _ = run(*args, "-m", "P(rel=2)@2", "--ignore-identical-ids")
    assert json.loads(out)["metrics"]["precision(rel=2)@2"] == 0.5


def test_ties_choose_the_order_and_a_note_counts_the_queries(tmp_path) -> None:
    # d1 and d2 tie; only d1 is relevant. trec_eval's order puts d2 first, docno_asc and the
    # file's order put d1 first, and expected averages the two orders.
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n")
    run_file = tmp_path / "run.trec"
    run_file.write_text("1 Q0 d1 1 1.0 x\n1 Q0 d2 2 1.0 x\n")
    values = {}
    for policy in ("trec_eval", "docno_asc", "input_order", "expected"):
        code, out, err = run(
            "evaluate", str(qrels), str(run_file), "-m", "P@1", "-o", "json", "--ties", policy
        )
        assert code == 0
        data = json.loads(out)
        values[policy] = data["metrics"]["precision@1"]
        assert data["ties"]["policy"] == data["manifest"]["tie_policy"] == policy
        # the note names the queries, and what to do unless the policy already averages
        advice = (
            "; --ties expected averages each metric over every order of the tied docs"
            if policy != "expected"
            else ""
        )
        assert err == (
            f"note: ties ({policy}): 1 queries with tied scores, 1 across a cutoff, "
            f"1 at a relevant doc (affected: 1){advice}\n"
        )
    assert values == {"trec_eval": 0.0, "docno_asc": 1.0, "input_order": 1.0, "expected": 0.5}
    code, _, err = run("evaluate", str(qrels), str(run_file), "--ties", "random")
    assert code == 2
    assert "'random' is not one of 'trec_eval', 'docno_asc', 'input_order', 'expected'" in err


@pytest.mark.parametrize("output", ["table", "markdown"])
def test_the_ties_note_is_said_once_in_the_shells_words(tmp_path, output) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n")
    run_file = tmp_path / "run.trec"
    run_file.write_text("1 Q0 d1 1 1.0 x\n1 Q0 d2 2 1.0 x\n")
    code, out, err = run("evaluate", str(qrels), str(run_file), "-m", "P@1", "-o", output)
    assert code == 0
    assert "precision" in out
    assert "tied" not in out, "the table repeated the note, in Python's words"
    assert err == (
        "note: ties (trec_eval): 1 queries with tied scores, 1 across a cutoff, 1 at a relevant "
        "doc (affected: 1); --ties expected averages each metric over every order of the tied "
        "docs\n"
    )


@pytest.fixture(scope="module")
def cacm() -> Path:
    return shared_path("datasets", "cacm")


def test_cacm_through_the_cli_prints_trec_eval_s_lines(cacm) -> None:
    # Per query and `all`, the lines equal trec_eval 9.0.8's output for the same measures.
    golden_file = shared_path("validation", "generated", "cacm-bm25.trec_eval-9.0.8.all_trec.q.txt")
    golden = {
        tuple(line.split("\t")[:2]): line
        for line in golden_file.read_text(encoding="utf-8").splitlines()
    }
    code, out, _ = run(
        "evaluate",
        str(cacm / "qrels.cacm.txt"),
        str(cacm / "run.cacm-bm25.txt"),
        "-m",
        "ndcg@10,precision@30,recall@10,map@1000",
        "-q",
        "-o",
        "trec",
    )
    assert code == 0
    lines = [line for line in out.splitlines() if not line.startswith("map_cut_1000")]
    assert len(lines) == 52 * 3 + 1 + 3
    for line in lines:
        assert golden[tuple(line.split("\t")[:2])] == line
    assert "map_cut_1000          \tall\t0.2744" in out  # trec_eval: map all 0.2744


def test_scifact_beir_directory_as_qrels() -> None:
    scifact = shared_path("datasets", "scifact")
    runs = shared_path("datasets", "scifact-runs")
    code, out, _ = run(
        "evaluate",
        str(scifact),
        str(runs / "run.scifact.test.bm25s-lucene-k1_1.2-b_0.75.txt.gz"),
        "-m",
        "ndcg@10,recall@100",
        "-o",
        "json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["n_queries"] == 300
    # trec_eval 9.0.8: ndcg_cut_10 all 0.6791, recall_100 all 0.9127
    assert f"{data['metrics']['ndcg@10']:.4f}" == "0.6791"
    assert f"{data['metrics']['recall@100']:.4f}" == "0.9127"


def test_averaging_intersection_and_the_missing_queries(tmp_path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n2 0 b 1\n")
    run_file = tmp_path / "run.trec"
    run_file.write_text("1 Q0 a 1 1.0 x\n3 Q0 c 1 1.0 x\n")
    _, out, _ = run("evaluate", str(qrels), str(run_file), "-m", "mrr@10", "-o", "json")
    data = json.loads(out)
    assert (data["metrics"]["mrr@10"], data["missing"], data["extra"]) == (0.5, ["2"], ["3"])
    args = ("evaluate", str(qrels), str(run_file), "-m", "mrr@10", "-o", "json")
    _, out, _ = run(*args, "--averaging", "intersection")
    assert json.loads(out)["metrics"]["mrr@10"] == 1.0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("q1 Q0 d1 1 abc tag\n", "score 'abc' is not a number"),
        ("q1 Q0 d1 1 nan tag\n", "score 'nan' is not a finite number"),
        ("q1 Q0 d1 1\n", "expected 6 columns"),
        ("q1 Q0 d1 1 1.0 t\nq1 Q0 d1 2 0.5 t\n", "doc 'd1' is listed twice for query 'q1'"),
    ],
)
def test_bad_run_lines_give_one_line_naming_file_and_line(tmp_path, content, message) -> None:
    bad = tmp_path / "bad.run"
    bad.write_text(content)
    code, out, err = run("evaluate", str(DEMO), str(bad))
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    line_no = content.count("\n")
    assert err.startswith(f"Error: {bad}:{line_no}: {message}")
    assert "Traceback" not in err


def test_missing_and_empty_files_exit_2(tmp_path) -> None:
    code, _, err = run("evaluate", str(tmp_path / "nope.txt"), str(DEMO_RUN))
    assert (code, err.strip()) == (2, f"Error: no such file or directory: {tmp_path / 'nope.txt'}")
    empty = tmp_path / "empty.run"
    empty.write_text("")
    code, _, err = run("evaluate", str(DEMO), str(empty), "--run-format", "trec")
    assert code == 2
    assert err.strip() == f"Error: {empty}: the file is empty; expected run lines " + (
        "(query-id Q0 doc-id rank score run-tag)"
    )


def test_unknown_metric_is_a_usage_error() -> None:
    code, _, err = run("evaluate", str(DEMO), str(DEMO_RUN), "-m", "ndgc@10")
    assert code == 2
    assert "did you mean 'ndcg'" in err


@pytest.mark.parametrize(
    ("measure", "message"),
    [
        ("rbp(p=1.5)", "-m rbp(p=1.5): rbp's parameter 'p' must lie strictly between 0 and 1, "
                       "got 1.5"),
        ("rbp.p=1.5", "-m rbp.p=1.5: rbp's parameter 'p' must lie strictly between 0 and 1, "
                      "got 1.5"),
        ("RBP(p=0)", "-m RBP(p=0): rbp's parameter 'p' must lie strictly between 0 and 1, got 0"),
        ("rbp(x=1)", "-m rbp(x=1): retrieval metric 'rbp' has no parameter 'x'. Its parameters:"),
        ("P(rel=0)@5", "-m P(rel=0)@5: precision's parameter 'rel' must be > 0, got 0"),
        ("P@99999999999999999999999", "-m P@99999999999999999999999: the cutoff "
         "99999999999999999999999 is beyond the largest, 9223372036854775807; name the metric "
         "with @all"),
        ("P.99999999999999999999999", "-m P.99999999999999999999999: the cutoff "),
        ("P@\u00b2", "-m P@\u00b2: the cutoff after '@' must be a positive int or 'all'"),
    ],
)  # fmt: skip
def test_a_bad_measure_names_the_option_the_measure_and_the_rule(measure, message) -> None:
    for command in (["evaluate"], ["compare", str(DEMO_RUN)]):
        code, out, err = run(*command[:1], str(DEMO), str(DEMO_RUN), *command[1:], "-m", measure)
        assert (code, out) == (2, "")
        assert err.startswith(f"Error: {message}"), err
        assert err.count("\n") == 1


def test_debug_shows_the_traceback(tmp_path) -> None:
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 d1 1 nan tag\n")
    result = CliRunner().invoke(cli, ["--debug", "evaluate", str(DEMO), str(bad)])
    assert result.exception is not None
    assert "not a finite number" in str(result.exception)


def test_convert_a_run_and_evaluate_it_again(tmp_path, builtin_registry) -> None:
    target = tmp_path / "run.tsv"
    code, out, _ = run(
        "convert", str(DEMO_RUN), str(target), "--to", "msmarco", "--drop", "scores,tag"
    )
    assert code == 0
    assert out.strip() == f"converted run: {DEMO_RUN} -> {target}"
    assert target.read_text().splitlines()[0] == "q1\ttide-1\t1"
    # Ranks survive as 1/rank scores, so every number stays the same.
    before = evaluate_run(read_run(DEMO_RUN), DEMO, registry=builtin_registry)
    after = evaluate_run(read_run(target), DEMO, registry=builtin_registry)
    assert before.metrics == after.metrics


def test_convert_a_dataset_to_trec_and_back(tmp_path) -> None:
    code, _, _ = run("convert", str(DEMO), str(tmp_path / "trec"), "--to", "trec")
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "trec").iterdir()) == [
        "corpus.trec",
        "qrels.test.txt",
        "topics.tsv",
    ]
    code, _, _ = run("convert", str(tmp_path / "trec"), str(tmp_path / "beir"), "--to", "beir")
    assert code == 0
    assert read_qrels(tmp_path / "beir") == read_qrels(DEMO)


def test_a_warning_of_the_input_is_one_line_in_evaluate_and_convert(tmp_path) -> None:
    # A '#' line with a run line's shape: a query '#5', or a line commented out?
    source = tmp_path / "run.trec"
    source.write_text(DEMO_RUN.read_text(encoding="utf-8") + "#5 Q0 tide-1 1 0.5 t\n")
    line = DEMO_RUN.read_text(encoding="utf-8").count("\n") + 1
    said = f"warning: {source}:{line}: starts with '#' but has the shape of a run line"
    for args in (
        ["evaluate", str(DEMO), str(source)],
        ["convert", str(source), str(tmp_path / "out.trec")],
    ):
        code, _, err = run(*args)
        assert code == 0, err
        assert [x for x in err.splitlines() if "'#'" in x] == [
            x for x in err.splitlines() if x.startswith(said)
        ]
        assert err.count(said) == 1  # one line, not Python's two of a warning


def test_convert_without_a_target_format_is_a_usage_error(tmp_path) -> None:
    code, _, err = run("convert", str(DEMO_RUN), str(tmp_path / "out.txt"))
    assert code == 2
    assert "name it with --to" in err  # the option of the command, not the API keyword
    assert not (tmp_path / "out.txt").exists()


def test_python_dash_m_is_the_same_cli() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ef.evaluation", "evaluate", str(DEMO), str(DEMO_RUN), "-o", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    code, direct, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-o", "json")
    assert code == 0
    assert json.loads(out) == json.loads(direct)


# Issue 15: trec_eval's names and sets, the notes and warnings of the evaluate command.


def test_all_trec_prints_trec_eval_s_lines_and_names_what_is_left_out(cacm) -> None:
    golden_file = shared_path("validation", "generated", "cacm-bm25.trec_eval-9.0.8.all_trec.q.txt")
    golden = set(golden_file.read_text(encoding="utf-8").splitlines())
    qrels, run_file = str(cacm / "qrels.cacm.txt"), str(cacm / "run.cacm-bm25.txt")
    code, out, err = run("evaluate", qrels, run_file, "-m", "all_trec", "-q", "-o", "trec")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) > 3000
    assert not [line for line in lines if line not in golden]  # each equals trec_eval's
    assert "ndcg                  \tall\t" in out
    assert "P_1000                \tall\t" in out
    assert "gm_map                \tall\t" in out
    assert "iprec_at_recall_0.50  \tall\t" in out
    assert err.splitlines() == [
        "note: -m all_trec: trec_eval's runid, relstring are not implemented and left out"
    ]
    code, out, _ = run("evaluate", qrels, run_file, "-m", "official", "-o", "trec")
    assert code == 0
    assert "map                   \tall\t0.2744" in out


def test_trec_eval_s_printed_names_are_read_back(cacm) -> None:
    names = "P_30,ndcg_cut_10,recall_100,recip_rank,map_cut_5,Rprec,num_ret,success_10"
    qrels, run_file = str(cacm / "qrels.cacm.txt"), str(cacm / "run.cacm-bm25.txt")
    code, out, err = run("evaluate", qrels, run_file, "-m", names, "-o", "trec")
    assert (code, err) == (0, "")
    assert [line.split("\t")[0].strip() for line in out.splitlines()] == [
        "num_q",
        *names.split(","),
    ]


def test_bare_names_trec_eval_reads_otherwise_give_one_note(cacm) -> None:
    qrels, run_file = str(cacm / "qrels.cacm.txt"), str(cacm / "run.cacm-bm25.txt")
    code, out, err = run("evaluate", qrels, run_file, "-m", "map", "-m", "P,ndcg", "-o", "trec")
    assert code == 0
    assert "map_cut_10" in out
    assert "\nmap " not in out  # the spec's meaning
    notes = err.splitlines()
    assert len(notes) == 1
    assert notes[0].startswith("note: bare map and P and ndcg mean the metric at each cutoff")
    assert "write map@all" in notes[0]
    assert "write ndcg@all" in notes[0]
    _, _, err = run("evaluate", qrels, run_file, "-m", "map@all,ndcg@10", "-o", "trec")
    assert err == ""


def test_a_partial_run_is_scored_with_one_warning_line(tmp_path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 d1 1\n" for q in range(1, 6)), encoding="utf-8")
    run_file = tmp_path / "run.trec"
    run_file.write_text("1 Q0 d1 1 1.0 x\n2 Q0 d1 1 1.0 x\n", encoding="utf-8")
    code, out, err = run("evaluate", str(qrels), str(run_file), "-m", "mrr@10", "-o", "json")
    assert code == 0
    assert json.loads(out)["metrics"]["mrr@10"] == 0.4
    assert err.splitlines() == [
        "warning: the run answers only 2 of the 5 judged queries (with a relevant doc); the 3 "
        "missing ones, e.g. ('3', '4', '5'), score 0: is it the run of these qrels?"
    ]


def test_a_run_of_another_collection_is_one_line_and_exit_2(tmp_path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n2 0 d1 1\n", encoding="utf-8")
    run_file = tmp_path / "run.trec"
    run_file.write_text("Q1 Q0 d1 1 1.0 x\nQ2 Q0 d1 1 1.0 x\n", encoding="utf-8")
    code, out, err = run("evaluate", str(qrels), str(run_file))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    for part in ("no query in common", "('Q1', 'Q2')", "('1', '2')"):
        assert part in err
    assert "starts with 'Q'" in err


def test_swapped_files_say_so(tmp_path) -> None:
    # trec_eval takes QRELS RUN; a run given first is read as qrels and refused at line 1,
    # and the message says the files look swapped.
    qrels, ranked = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("q1 0 d1 1\n")
    ranked.write_text("q1 Q0 d1 1 2.5 bm25\n")
    result = CliRunner().invoke(cli, ["evaluate", str(ranked), str(qrels)])
    assert result.exit_code == 2
    assert f"{ranked}:1: expected 4 columns" in result.stderr
    assert "got 6: a TREC run line (query-id Q0 doc-id rank score run-tag)" in result.stderr
    assert "; ef-eval evaluate takes QRELS RUN, as trec_eval does" in result.stderr
    assert f"ef-eval evaluate {qrels} {ranked}?" in result.stderr


def test_a_run_at_a_qrels_url_is_named_a_run_line(tmp_path) -> None:
    """The copy of a QRELS URL is gone when the error reaches the command: the reader's own
    message says the line is a run line."""
    qrels, ranked = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("q1 0 d1 1\n")
    ranked.write_text("q1 Q0 d1 1 2.5 bm25\n")
    code, out, err = run("evaluate", f"file://{ranked}", str(qrels))
    assert (code, out) == (2, "")
    assert err == (
        f"Error: file://{ranked}:1: expected 4 columns (query-id iteration doc-id relevance), "
        "got 6: a TREC run line (query-id Q0 doc-id rank score run-tag), not a judgement "
        "(line: 'q1 Q0 d1 1 2.5 bm25')\n"
    )


def split_demo_run(folder: Path) -> list[Path]:
    """DEMO_RUN's queries, split in two files of whole queries."""
    parts: dict[int, list[str]] = {0: [], 1: []}
    owner: dict[str, int] = {}
    for line in DEMO_RUN.read_text().splitlines(keepends=True):
        query_id = line.split()[0]
        parts[owner.setdefault(query_id, len(owner) % 2)].append(line)
    paths = [folder / f"part-{i}.trec" for i in parts]
    for path, lines in zip(paths, parts.values(), strict=True):
        path.write_text("".join(lines))
    return paths


def sharded_cli_run(*args: str) -> list[dict[str, str]]:
    """``ef-eval evaluate DEMO *args``, checked to give DEMO_RUN's numbers: its run entries."""
    code, out, err = run("evaluate", str(DEMO), *args, "-q", "-o", "json")
    assert code == 0, err
    _, whole, _ = run("evaluate", str(DEMO), str(DEMO_RUN), "-q", "-o", "json")
    got, expected = json.loads(out), json.loads(whole)
    assert got["metrics"] == expected["metrics"]
    assert got["per_query"] == expected["per_query"]
    entries: list[dict[str, str]] = got["manifest"]["inputs"]["run"]
    return entries


@pytest.mark.parametrize("how", ["files", "glob", "workers"])
def test_a_sharded_run_gives_the_whole_runs_numbers(tmp_path, how) -> None:
    paths = split_demo_run(tmp_path)
    given = {"files": [str(p) for p in paths], "glob": [str(tmp_path / "part-*.trec")]}
    entries = sharded_cli_run(*given.get(how, [*given["files"], "--workers", "2"]))
    assert [Path(e["path"]) for e in entries] == paths


@pytest.mark.parametrize("how", ["urls", "glob", "workers"])
def test_a_run_at_file_urls_gives_the_whole_runs_numbers(tmp_path, how) -> None:
    paths = split_demo_run(tmp_path)
    urls = [f"file://{p}" for p in paths]
    given = {"urls": urls, "glob": [f"file://{tmp_path}/part-*.trec"]}
    entries = sharded_cli_run(*given.get(how, [*urls, "--workers", "2"]))
    assert [e["path"] for e in entries] == urls
    assert [e["sha256"] for e in entries] == [
        hashlib.sha256(p.read_bytes()).hexdigest() for p in paths
    ]


def test_a_profile_says_a_url_must_be_copied_and_shards_concatenated(tmp_path) -> None:
    paths = split_demo_run(tmp_path)
    url = f"file://{paths[0]}"
    code, _, err = run("evaluate", str(DEMO), url, "--profile", "trec_eval")
    assert code == 2
    assert err == (
        f"Error: --profile trec_eval needs a local run file, not the URL '{url}': copy it "
        "locally first and give its path, or give --ties and --averaging instead\n"
    )
    code, _, err = run("evaluate", str(DEMO), *map(str, paths), "--profile", "trec_eval")
    assert code == 2
    assert err == (
        "Error: --profile trec_eval does not score a sharded run; concatenate the shards, or "
        "give --ties and --averaging instead\n"
    )
    code, _, err = run("evaluate", str(DEMO), str(paths[0]), "--workers", "1", "--profile", "beir")
    assert code == 2
    assert err == (
        "Error: --profile beir does not score a sharded run, here of one shard: give its path "
        f"'{paths[0]}' itself (without --workers, not a pattern), or give --ties and "
        "--averaging instead\n"
    )


def test_a_missing_run_url_or_file_is_one_line(tmp_path) -> None:
    missing = f"file://{tmp_path}/nope.trec"
    code, _, err = run("evaluate", str(DEMO), missing)
    assert code == 2
    assert err == f"Error: {missing}: no such file\n"
    code, _, err = run("evaluate", str(DEMO), str(tmp_path / "nope.trec"))
    assert code == 2
    assert err == f"Error: no such file or directory: {tmp_path / 'nope.trec'}\n"


def test_a_local_demo_wins_over_the_shipped_demo_with_a_note(tmp_path, monkeypatch) -> None:
    # evaluate_run(run, "demo") reads ./demo; the shell reads what the user typed too.
    monkeypatch.chdir(tmp_path)
    shipped = run("evaluate", "demo", str(DEMO_RUN), "-m", "P@1", "-o", "json")
    assert shipped[0] == 0
    assert "note: demo" not in shipped[2]  # no ./demo here: the shipped demo, without a word
    one = f"q1 0 {next(iter(read_run(DEMO_RUN)['q1']))} 1\n"  # a doc the run retrieves
    for local in (tmp_path / "demo", tmp_path / "demo" / "qrels" / "test.tsv"):
        local.parent.mkdir(parents=True, exist_ok=True)
        if local.name == "demo":
            local.write_text(one)  # a TREC qrels file called demo
        else:
            _beir_qrels(local, one)
        code, out, err = run("evaluate", "demo", str(DEMO_RUN), "-m", "P@1", "-o", "json")
        assert code == 0, err
        assert json.loads(out)["n_queries"] == 1  # the local judgements: one query
        kind = "file" if local.name == "demo" else "folder"
        assert f"note: demo is the {kind} ./demo here, read as given; the name also means " in err
        assert str(DEMO) in err  # where the shipped one is
        expected = evaluate_run(DEMO_RUN, "demo", metrics=["P@1"]).metrics
        assert json.loads(out)["metrics"] == expected
        if local.name == "demo":
            local.unlink()


def _beir_qrels(path: Path, trec_line: str) -> None:
    query, _, doc, grade = trec_line.split()
    path.write_text(f"query-id\tcorpus-id\tscore\n{query}\t{doc}\t{grade}\n")
    for stem in ("corpus", "queries"):  # a BEIR folder, as read_qrels detects one
        (path.parents[1] / f"{stem}.jsonl").write_text('{"_id": "x", "text": "x"}\n')


def test_the_split_scored_is_said_when_it_is_not_test(tmp_path) -> None:
    folder = tmp_path / "ds"
    (folder / "qrels").mkdir(parents=True)
    _beir_qrels(folder / "qrels" / "train.tsv", "q1 0 d1 1")
    run_file = tmp_path / "run.trec"
    run_file.write_text("q1 Q0 d1 1 2.0 t\n")
    code, out, err = run("evaluate", str(folder), str(run_file), "-m", "P@1", "-o", "json")
    assert code == 0
    assert json.loads(out)["metrics"] == {"precision@1": 1.0}
    assert err == (
        f"warning: {folder} has no qrels/test.tsv: its judgements are read from "
        "qrels/train.tsv, the train split, not the test split; name the file "
        f"({folder / 'qrels' / 'train.tsv'}) to say that is what you mean\n"
    )
    code, _, err = run("evaluate", str(folder / "qrels" / "train.tsv"), str(run_file), "-m", "P@1")
    assert (code, err) == (0, "")  # named: no warning


@pytest.mark.retrievers  # BM25: bm25s
def test_retrieve_says_the_split_it_scores_in_the_shells_words(tmp_path) -> None:
    folder = tmp_path / "ds"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        '{"_id": "d1", "text": "paris france"}\n{"_id": "d2", "text": "berlin germany"}\n'
        '{"_id": "d3", "text": "rome italy"}\n'
    )
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "paris"}\n')
    (folder / "qrels" / "train.tsv").write_text("q1\td1\t1\n")
    code, _, err = run("retrieve", str(folder), "-r", "bm25", "-m", "P@1", "--no-progress")
    assert code == 0, err
    assert (
        f"warning: {folder} has no test split: its judgements are those of the train split "
        "(it has: train); pass --split train to say that is what you mean\n"
    ) in err
    code, _, err = run("retrieve", str(folder), "-r", "bm25", "--split", "train", "--no-progress")
    assert code == 0
    assert "warning" not in err


def test_only_a_shown_or_kept_manifest_hashes_the_files(tmp_path, monkeypatch) -> None:
    # The sha256 of the inputs is the manifest's: a table shows none, so nothing is hashed
    # (a run of 2 MB or more, which the reader would otherwise hash on a thread as it reads).
    from ef.evaluation._formats import digests
    from ef.evaluation._store import open_store

    qrels, run_file = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("".join(f"q{q} 0 d{q}-3 1\n" for q in range(400)))
    run_file.write_text(
        "".join(
            f"q{q} Q0 d{q}-{rank} {rank} {100 - rank / 10:.4f} tag\n"
            for q in range(400)
            for rank in range(1, 200)
        )
    )
    assert run_file.stat().st_size >= 2 << 20
    expected = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in (qrels, run_file)
    }

    def refused(*_: object) -> None:
        raise AssertionError("hashed for a manifest no one sees")

    with monkeypatch.context() as patched:
        patched.setattr(hashlib, "sha256", refused)
        code, out, err = run("evaluate", str(qrels), str(run_file), "-m", "recall@10")
        assert code == 0, err
        assert "recall" in out
        code, _, err = run("evaluate", str(qrels), str(run_file), "-m", "recall@10", "-o", "csv")
        assert code == 0, err
    assert digests.asked()  # only within the command
    code, out, err = run("evaluate", str(qrels), str(run_file), "-m", "recall@10", "-o", "json")
    assert code == 0, err
    inputs = json.loads(out)["manifest"]["inputs"]
    assert {Path(inputs[k]["path"]).name: inputs[k]["sha256"] for k in inputs} == expected
    store = str(tmp_path / "store.sqlite")
    code, _, err = run(
        "evaluate", str(qrels), str(run_file), "-m", "recall@10", "--record", "--store", store
    )
    assert code == 0, err
    with open_store(store) as opened:
        (record,) = opened.records()
    assert record.report.manifest["inputs"]["run"]["sha256"] == expected["run.trec"]
