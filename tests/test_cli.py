"""ef-eval: the rag, metrics and plugins commands, outputs, and one-line errors with exit 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from ef.evaluation import demo_path, evaluate_rag, read_samples
from ef.evaluation.cli import cli

DEMO_SAMPLES = demo_path() / "rag_samples.jsonl"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def test_rag_json_is_the_report_dict(builtin_registry) -> None:
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-o", "json")
    assert code == 0
    expected = evaluate_rag(DEMO_SAMPLES, registry=builtin_registry).to_dict()
    assert expected["manifest"]["inputs"]["samples"]["path"] == str(DEMO_SAMPLES)
    in_memory = evaluate_rag(read_samples(DEMO_SAMPLES), registry=builtin_registry)
    assert expected["metrics"] == in_memory.metrics
    del expected["per_sample"], expected["sample_ids"]
    assert json.loads(out) == expected


def test_rag_per_sample_drill_down_uses_sample_ids() -> None:
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-m", "token_f1,exact_match", "-s", "-o", "json")
    assert code == 0
    data = json.loads(out)
    assert list(data["metrics"]) == ["token_f1", "exact_match"]
    assert data["sample_ids"] == ["q1", "q2", "q7", "q8"]
    assert data["per_sample"]["exact_match"] == [0.0, 1.0, 0.0, None]


def test_rag_csv_and_markdown_and_table() -> None:
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-m", "exact_match", "-s", "-o", "csv")
    assert code == 0
    # CSV is one table for machines, as report.to_csv(details=True): full precision, and an
    # empty cell where the metric did not apply.
    assert list(csv.reader(io.StringIO(out))) == [
        ["sample", "exact_match"],
        ["q1", "0.0"],
        ["q2", "1.0"],
        ["q7", "0.0"],
        ["q8", ""],
    ]
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-m", "exact_match", "-o", "csv")
    assert list(csv.reader(io.StringIO(out))) == [
        ["metric", "mean", "coverage"],
        ["exact_match", repr(1 / 3), "3/4"],
    ]
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-o", "markdown")
    assert "| token_f1 | 0.4286 | 3/4 |" in out
    code, out, _ = run("rag", str(DEMO_SAMPLES))
    assert code == 0
    assert "non_empty_rate" in out
    assert "0.7500" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rag", "missing.jsonl"], "Error: no such file or directory: missing.jsonl"),
        (["rag", "{bad}", "-m", "f2"], "Error: unknown RAG metric 'f2'"),
        (["rag", "{bad}"], r"Error: {bad}:2: invalid JSON"),
        (["rag", "{bad}", "-f", "nope"], "Error: unknown format 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"response": "ok"}\n{"response": \n')
    args = [a.replace("{bad}", str(bad)) for a in args]
    if "-m" in args:  # an unknown metric is reported before the file is parsed
        bad.write_text('{"response": "ok"}\n')
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith(message.replace("{bad}", str(bad)))
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_debug_shows_the_real_exception(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    result = CliRunner().invoke(cli, ["--debug", "rag", str(bad)])
    assert result.exit_code == 1
    assert type(result.exception).__name__ == "DatasetFormatError"


def test_metrics_catalogue_json_fields() -> None:
    code, out, _ = run("metrics", "-o", "json")
    assert code == 0
    entries = {e["name"]: e for e in json.loads(out)}
    assert {"ndcg", "recall", "precision", "mrr", "map", "exact_match", "token_f1"} <= set(entries)
    assert {key: entries["ndcg"][key] for key in ("name", "kind", "plugin", "description")} == {
        "name": "ndcg",
        "kind": "retrieval",
        "plugin": "builtin.retrieval_metrics",
        "description": "Normalized DCG at cutoff ``k``: ef's primary retrieval metric.",
    }
    assert entries["ndcg"]["syntaxes"]["trec_eval"] == ["ndcg_cut.k", "ndcg"]
    assert [p["name"] for p in entries["ndcg"]["parameters"]] == [
        "gains",
        "dcg",
        "judged_only",
        "rel",
    ]
    assert entries["token_f1"]["kind"] == "rag"
    assert entries["token_f1"]["plugin"] == "builtin.rag_metrics"


def test_metrics_table_lists_parameters_and_syntaxes() -> None:
    code, out, _ = run("metrics", "-o", "csv")
    assert code == 0
    rows = {row.split(",")[0]: row for row in out.splitlines()}
    assert rows["name"] == "name,kind,parameters,syntaxes,plugin"
    assert "ir_measures: P@k" in rows["precision"]
    assert "trec_eval: P.k" in rows["precision"]
    assert "rel=unset" in rows["precision"]


def test_plugins_listing() -> None:
    code, out, _ = run("plugins", "-o", "json")
    assert code == 0
    plugins = {p["name"]: p for p in json.loads(out)}
    assert plugins["builtin.formats"]["provides"] == {
        "format": ["beir", "msmarco", "parquet", "rag_csv", "rag_jsonl", "trec"]
    }
    assert plugins["builtin.formats"]["distribution"] == "ef-evaluation"
    code, out, _ = run("plugins")
    assert "builtin.adapters" in out


def test_python_dash_m_is_the_same_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ef.evaluation", "rag", str(DEMO_SAMPLES), "-m", "exact_match", "-o", "csv"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    assert out.splitlines()[1] == f"exact_match,{1 / 3!r},3/4"


def _saved_rag_report(tmp_path, name: str, edit) -> str:
    code, out, _ = run("rag", str(DEMO_SAMPLES), "-m", "token_f1,exact_match", "-s", "-o", "json")
    assert code == 0
    data = json.loads(out)
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _drop_last_value(data) -> None:
    data["per_sample"]["token_f1"].pop()


def _string_value(data) -> None:
    data["per_sample"]["token_f1"][0] = "high"


def _wrong_count(data) -> None:
    data["n_samples"] = 9


def _wrong_coverage(data) -> None:
    data["coverage"]["exact_match"] = 4


def _wrong_mean(data) -> None:
    data["metrics"]["exact_match"] = 0.9


def _per_sample_list(data) -> None:
    data["per_sample"] = [1.0]


@pytest.mark.parametrize(
    ("edit", "what"),
    [
        (_drop_last_value, "per_sample['token_f1'] has 3 values for 4 samples"),
        (_string_value, "per_sample['token_f1'] holds 'high' for sample 'q1'"),
        (_wrong_count, "n_samples is 9 but sample_ids has 4 ids"),
        (_wrong_coverage, "coverage['exact_match'] is 4 but per_sample scores 3 samples"),
        (_wrong_mean, "metrics['exact_match'] is 0.9 but the mean of per_sample is 0.333"),
        (_per_sample_list, "per_sample must map each metric to its list of values"),
    ],
)
def test_compare_rag_refuses_an_inconsistent_saved_report(tmp_path, edit, what) -> None:
    good = _saved_rag_report(tmp_path, "good.json", lambda data: None)
    bad = _saved_rag_report(tmp_path, "bad.json", edit)
    code, _, err = run("compare", "--rag", good, bad)
    assert code == 2
    assert err.startswith(f"Error: {bad}: an inconsistent RAG report: {what}")
    assert "internal error" not in err


def test_compare_rag_on_a_samples_file_in_old_names_names_the_file(tmp_path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({"question": "q", "answer": "a", "ground_truth": "a"}) + "\n")
    code, _, err = run("compare", "--rag", str(DEMO_SAMPLES), str(old))
    assert code == 2
    assert err.startswith(f"Error: {old}: no sample has a RagSample field")
    assert "'question' -> 'user_input'" in err


def test_a_users_retriever_module_calling_sys_exit_is_one_line_not_a_silent_exit(
    tmp_path, monkeypatch
) -> None:
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "quits", raising=False)
    code, _, err = run("retrieve", "demo", "-r", "quits:Retriever", "-q", "--no-progress")
    assert code == 2
    assert err.startswith("Error: the command was ended by sys.exit(0)")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["evaluate", "{qrels}", "{odd}"], "--run-format"),
        (["evaluate", "{odd}", "{run}"], "--qrels-format"),
        (["compare", "{qrels}", "a={odd}", "b={odd}"], "--run-format"),
        (["convert", "{odd}", "{out}", "--to", "trec"], "--kind"),
    ],
)
def test_an_undetected_format_names_the_commands_own_option(tmp_path, args, option) -> None:
    # The API says format= (or kind=); the shell user needs the option that does it.
    paths = {
        "qrels": tmp_path / "qrels.txt",
        "run": tmp_path / "run.trec",
        "odd": tmp_path / "odd.txt",
        "out": tmp_path / "out",
    }
    paths["qrels"].write_text("q1 0 d1 1\n")
    paths["run"].write_text("q1 Q0 d1 1 2.5 t\n")
    paths["odd"].write_text("x y z w v\n")
    code, _, err = run(*(a.format(**{k: str(v) for k, v in paths.items()}) for a in args))
    assert code == 2
    assert f"name it with {option}" in err
    assert "format=" not in err
    assert "kind=" not in err
    assert str(paths["odd"]) in err


@pytest.mark.parametrize(
    ("args", "said", "keyword"),
    [
        (
            ["evaluate", "{qrels}", "{run}", "--run-columns", "a,b"],
            "--run-columns names the columns of a DataFrame or a Parquet file",
            "run_columns=",
        ),
        (["convert", "{run}", "{out}"], "name it with --to", "to_format="),
        (
            ["fuse", "{run}", "{negative}", "--norm", "max", "-o", "{out}"],
            "--norm max divides by the top score and needs scores of 0 or more, got -2.0 "
            "(use --norm min-max for scores that can be negative)",
            "norm=",
        ),
        (
            ["fuse", "{run}", "{run}", "--weights", "1,1", "-p", "weights=1,1", "-o", "{out}"],
            "weights is given twice: as --weights and in --param",
            "weights=",
        ),
        (
            ["evaluate", "{qrels}", "{parquet}"],
            "or name them with --run-columns query,doc,score",
            "run_columns=",
        ),
        (  # a warning, in the shell's words too
            ["evaluate", "{qrels}", "{run}", "--averaging", "run", "-m", "P@1"],
            "warning: the run answers only 1 of the 3 judged queries (with a relevant doc); the "
            "2 missing ones, e.g. ('q2', 'q3'), are not scored (--averaging run)",
            "averaging=",
        ),
    ],
    ids=["run-columns", "to-format", "norm", "weights", "run-columns-value", "warning"],
)
def test_a_library_message_names_the_commands_option_not_the_keyword(
    tmp_path, args, said, keyword
) -> None:
    import polars as pl

    paths = {
        "qrels": tmp_path / "qrels.txt",
        "run": tmp_path / "run.trec",
        "negative": tmp_path / "negative.trec",
        "parquet": tmp_path / "run.parquet",
        "out": tmp_path / "out.x",
    }
    paths["qrels"].write_text("q1 0 d1 1\nq2 0 d2 1\nq3 0 d3 1\n")
    paths["run"].write_text("q1 Q0 d1 1 2.5 t\n")
    paths["negative"].write_text("q1 Q0 d1 1 -2.0 t\nq1 Q0 d2 2 -1.0 t\n")
    pl.DataFrame({"a": ["q1"], "b": ["d1"], "c": [1.0]}).write_parquet(paths["parquet"])
    _, _, err = run(*(a.format(**{k: str(v) for k, v in paths.items()}) for a in args))
    assert said in " ".join(err.split()), err
    assert keyword not in err
