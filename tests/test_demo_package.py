"""The demo dataset is package data: one copy, in the wheel, found from an installed wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ef.evaluation import demo_path, read_dataset, read_references, read_samples

ROOT = Path(__file__).parents[1]
DEMO_FILES = [
    "README.md", "corpus.jsonl", "qrels/test.tsv", "queries.jsonl", "rag_samples.jsonl",
    "references.jsonl",
]  # fmt: skip


def test_the_demo_is_one_beir_directory_inside_the_package() -> None:
    path = demo_path()
    assert path == ROOT / "src" / "ef" / "evaluation" / "data" / "demo"
    assert sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file()) == DEMO_FILES
    assert not (ROOT / "examples" / "demo").exists()  # no second copy
    corpus, queries, qrels = read_dataset(path)
    assert (len(corpus), len(queries), len(qrels)) == (36, 15, 15)
    assert set(qrels) <= set(queries)
    assert {doc for judged in qrels.values() for doc in judged} <= set(corpus)


def test_the_rag_samples_and_references_belong_to_the_demo_queries() -> None:
    path = demo_path()
    corpus, queries, qrels = read_dataset(path)
    texts = {document.id: document.text for document in corpus.documents}
    references = read_references(path / "references.jsonl", queries=queries)
    assert set(references) == set(queries) - {"q8"}  # q8: the corpus cannot answer it
    samples = read_samples(path / "rag_samples.jsonl")
    assert [s["id"] for s in samples] == ["q1", "q2", "q7", "q8"]
    for sample in samples:
        query_id = sample["id"]
        assert sample["user_input"] == queries[query_id]
        assert sample["retrieved_contexts"] == [texts[d] for d in sample["retrieved_context_ids"]]
        relevant = [doc for doc, grade in qrels[query_id].items() if grade > 0]
        assert sample.get("reference_context_ids", []) == relevant
        if "reference" in sample:
            assert sample["reference"] == references[query_id][0]
    assert "reference" not in samples[3]  # one sample without a reference, on purpose


def test_an_installed_wheel_carries_the_demo(tmp_path: Path) -> None:
    pytest.importorskip("hatchling", reason="hatchling (a test dependency) builds the wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-index",
         "--no-deps", "--wheel-dir", str(tmp_path / "dist"), str(ROOT)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("ef_evaluation-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for name in DEMO_FILES:
        assert f"ef/evaluation/data/demo/{name}" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import json; from ef.evaluation import demo_path, read_dataset;"
        "c, q, r = read_dataset(demo_path());"
        "print(json.dumps([str(demo_path()), len(c), len(q)]))"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
    )
    where, n_docs, n_queries = json.loads(out.stdout)
    assert Path(where) == site / "ef" / "evaluation" / "data" / "demo"
    assert (n_docs, n_queries) == (36, 15)
