"""examples/pipeline.py runs end to end offline, and ef-eval pipeline scores its files alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from ef.evaluation import demo_path, evaluate_run
from ef.evaluation.cli import cli

from .conftest import load_script

pytestmark = pytest.mark.retrievers

pytest.importorskip("bm25s", reason="examples/pipeline.py runs BM25 (the bm25 extra)")

EXAMPLES = Path(__file__).parents[1] / "examples"
RUN, ANSWERS = EXAMPLES / "run.bm25.trec", EXAMPLES / "answers.bm25.jsonl"


def example() -> ModuleType:
    return load_script(EXAMPLES / "pipeline.py", "pipeline_example")


@pytest.fixture(scope="module")
def report():
    return example().run_pipeline(demo_path())


def test_the_example_prints_one_report_of_retrieval_and_answers(report) -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "pipeline.py")], check=True, capture_output=True, text=True
    ).stdout
    assert out.startswith("Pipeline evaluation: 14 queries (1 skipped), retrieval and answers\n")
    assert f"ndcg@10            {report.metrics['ndcg@10']:.4f}     14/14" in out
    assert f"token_f1           {report.metrics['token_f1']:.4f}     14/14" in out
    assert "Skipped (not scored): 1 query: q8 (no positive judgement)." in out
    # each query's nDCG@10 beside its answer's F1: BM25 finds q6's passage, its answer scores
    q6 = report.per_query["q6"]
    assert f"q6       {q6['ndcg@10']:.4f}   {q6['token_f1']:.4f}  Rainbows A rainbow" in out


def test_the_answers_are_the_first_sentence_of_the_top_context(report) -> None:
    for sample in report.samples:
        contexts = sample["retrieved_contexts"]
        assert len(contexts) <= 3
        if contexts:
            assert contexts[0].startswith(sample["response"])
            assert sample["response"][-1] in ".!?;:" or sample["response"] == contexts[0]
        else:
            assert sample["response"] == ""
    assert 0.6 < report.metrics["ndcg@10"] < 0.9  # BM25 misses some: q9, q11
    assert 0.1 < report.metrics["token_f1"] < 0.5  # long extractive answers: low precision


def test_the_shipped_files_are_what_the_example_writes(tmp_path) -> None:
    run, answers = tmp_path / "run.trec", tmp_path / "answers.jsonl"
    subprocess.run(
        [sys.executable, str(EXAMPLES / "pipeline.py"), "--write", str(run), str(answers)],
        check=True,
    )
    assert run.read_text(encoding="utf-8") == RUN.read_text(encoding="utf-8")
    assert answers.read_text(encoding="utf-8") == ANSWERS.read_text(encoding="utf-8")


README = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
PIPELINE_JOB = (
    "ef-eval pipeline demo --run examples/run.bm25.trec --answers examples/answers.bm25.jsonl "
    "--contexts 3"
)


def test_ef_eval_pipeline_on_the_shipped_files_is_the_example_report(report, monkeypatch) -> None:
    assert "python examples/pipeline.py\n" in README
    assert PIPELINE_JOB in README
    monkeypatch.chdir(EXAMPLES.parent)  # the README's command runs from the checkout's root
    args = PIPELINE_JOB.split()[1:]
    result = CliRunner().invoke(cli, [*args, "-k", "1", "-k", "3", "-k", "10", "-o", "json", "-q"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["retrieval"]["metrics"] == report.retrieval.metrics
    assert data["rag"]["metrics"] == report.rag.metrics
    assert data["rag"]["per_sample"] == {k: list(v) for k, v in report.rag.per_sample.items()}
    assert [s["retrieved_contexts"] for s in data["samples"]] == [
        list(s["retrieved_contexts"]) for s in report.samples
    ]
    assert "note: the gold answers are " in result.stderr
    # and the retrieval half is what ef-eval evaluate says of the run
    assert (
        data["retrieval"]["metrics"] == evaluate_run(RUN, demo_path(), k_values=(1, 3, 10)).metrics
    )
