"""The README's first command, examples/quickstart.py, runs and prints the library's numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ef.evaluation import BM25Retriever, demo_path, evaluate_retrieval, evaluate_run, read_beir

from .conftest import load_script

EXAMPLES = Path(__file__).parents[1] / "examples"
SHIPPED_RUN = EXAMPLES / "run.overlap.trec"


def test_quickstart_prints_the_report_of_the_demo_dataset(builtin_registry) -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "quickstart.py")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "36 documents, 15 queries, 15 judged" in out
    assert "Retrieval evaluation: 14 queries scored (1 skipped)" in out
    assert "skipped q8: no positive judgement" in out
    assert "RAG evaluation: 4 samples" in out

    quickstart = load_script(EXAMPLES / "quickstart.py", "quickstart")
    corpus, queries, qrels = read_beir(demo_path())
    report = evaluate_retrieval(
        quickstart.WordOverlapRetriever(corpus),
        qrels,
        queries,
        k_values=(1, 3, 10),
        registry=builtin_registry,
    )
    assert f"primary metric, nDCG@10: {report.primary:.4f}" in out
    assert report.primary is not None
    assert 0.5 < report.primary < 1.0


README = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
MAIN_JOB = 'python -m pip install -e ".[bm25]" && ef-eval retrieve demo --retriever bm25'
STORED_RUN_JOB = "ef-eval evaluate demo examples/run.overlap.trec"


def ef_eval(*args: str) -> str:
    """``ef-eval ARGS`` as a user's shell runs it, from the root of the checkout."""
    return subprocess.run(
        [sys.executable, "-m", "ef.evaluation", *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=EXAMPLES.parent,
    ).stdout


@pytest.mark.retrievers
def test_the_readme_main_job_retrieves_and_scores_the_demo_with_bm25(builtin_registry) -> None:
    pytest.importorskip("bm25s", reason="the main job needs the bm25 extra")
    assert MAIN_JOB in README
    command = MAIN_JOB.split(" && ")[1].split()[1:]
    data = json.loads(ef_eval(*command, "-o", "json", "--no-progress"))
    corpus, queries, qrels = read_beir(demo_path())
    expected = evaluate_retrieval(BM25Retriever(corpus), qrels, queries, registry=builtin_registry)
    assert data["metrics"] == expected.metrics
    assert data["n_queries"] == 14
    assert data["skipped"] == {"q8": "no positive judgement"}
    assert 0.6 < data["metrics"]["ndcg@10"] < 0.9  # meaningful, and imperfect: BM25 misses q11


def test_the_readme_stored_run_job_evaluates_the_shipped_run(builtin_registry) -> None:
    assert STORED_RUN_JOB in README
    data = json.loads(ef_eval(*STORED_RUN_JOB.split()[1:], "-o", "json"))
    expected = evaluate_run(SHIPPED_RUN, demo_path(), registry=builtin_registry)
    assert data["metrics"] == expected.metrics
    assert data["n_queries"] == 14
    assert data["skipped"] == {"q8": "no positive judgement"}


def test_the_shipped_run_is_what_the_quickstart_writes(tmp_path) -> None:
    target = tmp_path / "run.trec"
    subprocess.run(
        [sys.executable, str(EXAMPLES / "quickstart.py"), "--write-run", str(target)],
        check=True,
    )
    assert target.read_text(encoding="utf-8") == SHIPPED_RUN.read_text(encoding="utf-8")
