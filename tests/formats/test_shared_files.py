"""The real files in ../shared/datasets read in full, checked against an independent parse."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from ef.evaluation import read_qrels, read_queries, read_run

from ..conftest import shared_path


def _lines(path: Path) -> list[str]:
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    # CRLF line ends are line ends (topics.dl20.txt has them).
    return [line.removesuffix("\r") for line in raw.decode("utf-8").split("\n") if line.strip()]


def _parse_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in _lines(path):
        qid, _, doc, rel = line.split()
        assert doc not in qrels.get(qid, {})
        qrels.setdefault(qid, {})[doc] = int(rel)
    return qrels


def _parse_run(path: Path) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    for line in _lines(path):
        qid, _, doc, _, score, _ = line.split()
        run.setdefault(qid, {})[doc] = float(score)
    return run


def _parse_tsv(path: Path) -> dict[str, str]:
    return dict(line.split("\t", 1) for line in _lines(path))


@pytest.mark.parametrize(
    ("name", "iteration", "queries", "pairs"),
    [("qrels.dl19-passage.txt", "Q0", 43, 9260), ("qrels.dl20-passage.txt", "0", 54, 11386)],
)
def test_trec_dl_graded_qrels(name: str, iteration: str, queries: int, pairs: int) -> None:
    path = shared_path("datasets", "trec-dl", name)
    assert {line.split()[1] for line in _lines(path)} == {iteration}
    qrels = read_qrels(path)
    assert qrels == _parse_qrels(path)
    assert (len(qrels), sum(map(len, qrels.values()))) == (queries, pairs)
    assert {g for judged in qrels.values() for g in judged.values()} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("name", "count"), [("topics.dl19-passage.txt", 43), ("topics.dl20.txt", 200)]
)
def test_trec_dl_topics(name: str, count: int) -> None:
    path = shared_path("datasets", "trec-dl", name)
    queries = read_queries(path)
    assert queries == _parse_tsv(path)
    assert len(queries) == count == len(_lines(path))
    assert not any(text.endswith("\r") for text in queries.values())
    assert (b"\r\n" in path.read_bytes()) == ("dl20" in name)  # dl20 has CRLF line ends
    assert queries["156493" if "dl19" in name else "1030303"] in {
        "do goldfish grow",
        "who is aziz hashim",
    }


def test_msmarco_dev_subset_qrels_and_topics() -> None:
    root = shared_path("datasets", "msmarco-passage")
    qrels = read_qrels(root / "qrels.msmarco-passage.dev-subset.txt")
    assert qrels == _parse_qrels(root / "qrels.msmarco-passage.dev-subset.txt")
    assert (len(qrels), sum(map(len, qrels.values()))) == (6980, 7437)
    assert {g for judged in qrels.values() for g in judged.values()} == {1}
    topics_path = root / "topics.msmarco-passage.dev-subset.txt"
    topics = read_queries(topics_path)
    assert topics == _parse_tsv(topics_path)
    assert len(topics) == 6980
    assert topics["2"] == " Androgen receptor define"  # the leading space is kept
    assert set(qrels) == set(topics)
    assert read_queries(topics_path, format="msmarco") == topics


def test_cacm_qrels_run_and_topics() -> None:
    root = shared_path("datasets", "cacm")
    qrels = read_qrels(root / "qrels.cacm.txt")
    assert qrels == _parse_qrels(root / "qrels.cacm.txt")
    assert (len(qrels), sum(map(len, qrels.values()))) == (52, 796)
    run = read_run(root / "run.cacm-bm25.txt")
    assert run == _parse_run(root / "run.cacm-bm25.txt")
    assert len(run) == 64
    assert {len(ranked) for ranked in run.values()} == {30}
    assert run["1"]["CACM-1938"] == 12.033
    text = (root / "topics.cacm.txt").read_text(encoding="utf-8")
    numbers = re.findall(r"<DOCNO>\s*(\S+)\s*</DOCNO>", text)
    topics = read_queries(root / "topics.cacm.txt")
    assert list(topics) == numbers
    assert len(topics) == 64
    assert topics["1"] == (
        "What articles exist which deal with TSS (Time Sharing System), "
        "an operating system for IBM computers?"
    )
    assert all(text.strip() and "  " not in text and "<" not in text for text in topics.values())


def test_trec_adhoc_sgml_topics() -> None:
    path = shared_path("datasets", "trec-adhoc-topics", "topics.adhoc.301-350.txt")
    raw = path.read_text(encoding="utf-8")
    titles = re.findall(r"<title>\s*(.*?)\s*\n", raw)
    topics = read_queries(path)
    assert list(topics) == [str(n) for n in range(301, 351)]
    assert list(topics.values()) == [" ".join(t.split()) for t in titles]
    assert topics["301"] == "International Organized Crime"
    assert topics["302"] == "Poliomyelitis and Post-Polio"


@pytest.mark.parametrize("k1_b", ["0.9-b_0.4", "1.2-b_0.75"])
def test_scifact_bm25_runs_gzipped(k1_b: str) -> None:
    path = shared_path(
        "datasets", "scifact-runs", f"run.scifact.test.bm25s-lucene-k1_{k1_b}.txt.gz"
    )
    run = read_run(path)
    assert (len(run), sum(map(len, run.values()))) == (300, 300_000)
    assert run == _parse_run(path)


@pytest.mark.parametrize(("name", "count"), [("nfcorpus", 323), ("scifact", 300)])
def test_beir_anserini_topics_and_qrels(name: str, count: int) -> None:
    root = shared_path("datasets", "beir-anserini")
    topics_path = root / f"topics.beir-v1.0.0-{name}.test.tsv.gz"
    topics = read_queries(topics_path)
    assert topics == _parse_tsv(topics_path)
    assert len(topics) == count
    qrels_path = root / f"qrels.beir-v1.0.0-{name}.test.txt"
    qrels = read_qrels(qrels_path)
    assert qrels == _parse_qrels(qrels_path)
    assert set(qrels) == set(topics)


def test_scifact_qrels_agree_between_beir_and_anserini() -> None:
    beir = read_qrels(shared_path("datasets", "scifact", "qrels", "test.tsv"))
    anserini = read_qrels(
        shared_path("datasets", "beir-anserini", "qrels.beir-v1.0.0-scifact.test.txt")
    )
    assert beir == anserini
    assert read_qrels(shared_path("datasets", "scifact")) == beir  # a directory: its test split
    train = read_qrels(shared_path("datasets", "scifact", "qrels", "train.tsv"))
    assert (len(train), sum(map(len, train.values()))) == (809, 919)
