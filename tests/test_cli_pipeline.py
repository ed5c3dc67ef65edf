"""ef-eval pipeline: a stored run and a file of answers against a dataset, in one report."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    demo_path,
    evaluate_pipeline,
    evaluate_run,
    read_answers,
    read_dataset,
    read_references,
)
from ef.evaluation.cli import cli

RUN = Path(__file__).parents[1] / "examples" / "run.overlap.trec"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.jsonl"
    rows = [
        {"id": "q1", "response": "the Moon's gravity"},
        {"id": "q2", "response": "Neil Armstrong"},
        {"id": "q7", "response": "yeast"},
        {"id": "q8", "response": "Homer"},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def pipeline(answers: Path, *args: str) -> tuple[int, str, str]:
    return run("pipeline", "demo", "--run", str(RUN), "--answers", str(answers), *args)


def test_json_is_the_report_of_evaluate_pipeline(answers, builtin_registry) -> None:
    code, out, err = pipeline(answers, "-o", "json", "-q", "--contexts", "2")
    assert code == 0, err
    corpus, queries, qrels = read_dataset(demo_path())
    expected = evaluate_pipeline(
        RUN,
        qrels,
        queries,
        generate=read_answers(answers),
        corpus=corpus,
        references=read_references(demo_path() / "references.jsonl"),
        n_contexts=2,
        registry=builtin_registry,
    )
    data = json.loads(out)
    assert expected.retrieval is not None
    assert data["rag"]["metrics"] == expected.rag.metrics
    assert data["retrieval"]["metrics"] == expected.retrieval.metrics
    assert data["retrieval"]["per_query"] == expected.retrieval.per_query
    assert [s["id"] for s in data["samples"]] == list(expected.query_ids)
    assert data["samples"][0]["response"] == "the Moon's gravity"
    assert "response" not in data["samples"][2]  # q3 has no answer: unanswered
    assert data["rag"]["per_sample"]["exact_match"][:2] == [1.0, 0.0]
    # the retrieval half is ef-eval evaluate's, on the whole run
    assert data["retrieval"]["metrics"] == evaluate_run(RUN, demo_path()).metrics
    assert f"note: the gold answers are {demo_path() / 'references.jsonl'}" in err


def test_without_per_query_json_holds_the_means_only(answers) -> None:
    code, out, _ = pipeline(answers, "-o", "json")
    assert code == 0
    data = json.loads(out)
    assert "samples" not in data
    assert "per_query" not in data["retrieval"]
    assert "per_sample" not in data["rag"]
    assert data["skipped"] == {"q8": "no positive judgement"}


def test_the_tables_in_every_output(answers) -> None:
    code, out, _ = pipeline(answers, "-m", "ndcg@10", "--rag-metrics", "exact_match,token_f1")
    assert code == 0
    assert "demo, run.overlap.trec: 14 queries (1 skipped), retrieval and answers" in out
    assert "exact_match" in out
    code, out, _ = pipeline(answers, "-m", "ndcg@10", "--rag-metrics", "exact_match", "-o", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["metric", "mean", "coverage"]
    assert [row[0] for row in rows[1:]] == ["ndcg@10", "exact_match"]
    code, out, _ = pipeline(
        answers, "-m", "ndcg@10", "--rag-metrics", "exact_match", "-q", "-o", "csv"
    )
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["query", "ndcg@10", "exact_match"]
    assert rows[1][0] == "q1"
    assert rows[1][2] == "1.0"
    for output, marker in (("markdown", "| ndcg@10 |"), ("latex", "\\toprule"), ("html", "<table")):
        code, out, _ = pipeline(answers, "-m", "ndcg@10", "-o", output)
        assert code == 0
        assert marker in out
        assert "demo, run.overlap.trec" in out


def test_references_from_a_file_of_ones_own(answers, tmp_path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q2", "reference": "Armstrong", "references": ["Neil Armstrong"]}\n')
    code, out, err = pipeline(answers, "--references", str(gold), "-o", "json", "-q")
    assert code == 0, err
    data = json.loads(out)
    assert data["rag"]["coverage"]["exact_match"] == 1
    assert data["samples"][1]["references"] == ["Neil Armstrong"]
    assert "note: the gold answers" not in err


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ('{"id": "q1", "response": "a"}\n{"id": "q1", "response": "b"}\n',
         "answers.jsonl:2: query 'q1' is given twice (first on line 1)"),
        ('{"id": "q99", "response": "a"}\n', "answers.jsonl:1: query 'q99' is not one of the queries"),
        ('{"id": "q1", "answer": "a"}\n', "answers.jsonl:1: unknown key 'answer'"),
        ('{"id": "q1", "response": 3}\n', "answers.jsonl:1: query 'q1': 'response' must be a string"),
        ('{"response": "a"}\n', "answers.jsonl:1: expected an 'id' (the query id)"),
        ('["q1", "a"]\n', "answers.jsonl:1: expected a JSON object"),
        ('{"id": "q1", "response": "a"\n', "answers.jsonl:1:"),
    ],
)  # fmt: skip
def test_a_bad_answers_file_is_one_line_with_file_and_line(tmp_path, lines, message) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text(lines, encoding="utf-8")
    code, out, err = pipeline(path)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_references_file_names_its_line(answers, tmp_path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "reference": "a"}\n{"id": "q2", "references": "b"}\n')
    code, _, err = pipeline(answers, "--references", str(gold))
    assert code == 2
    assert "gold.jsonl:2: query 'q2': 'reference' must be a string, got NoneType" in err


def test_answers_for_no_query_of_the_run_are_refused(tmp_path) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text('{"id": "q8", "response": "Homer"}\n')  # q8 is judged, but not relevant
    code, _, err = pipeline(path)
    assert code == 2
    assert "the answers share no id with the 14 queries run" in err


def test_a_missing_run_is_one_line(answers, tmp_path) -> None:
    code, _, err = run(
        "pipeline", "demo", "--run", str(tmp_path / "no.trec"), "--answers", str(answers)
    )
    assert code == 2
    assert "no.trec" in err
