"""convert(): whole datasets (the real SciFact) and single files between BEIR, TREC, MS MARCO."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ef.evaluation import (
    Dataset,
    Document,
    UnknownNameError,
    convert,
    read_dataset,
    read_qrels,
    read_queries,
    read_run,
    write_qrels,
    write_run,
)
from ef.evaluation.runs.order import scored_order

from ..conftest import shared_path
from .helpers import BUILTIN, listing, read_corpus, write_corpus


def _read(
    fmt: str, path: Path
) -> tuple[list[Document], dict[str, str], dict[str, dict[str, dict[str, float]]]]:
    reader = BUILTIN.format(fmt).read_dataset
    assert reader is not None
    dataset: Dataset = reader(path)
    qrels = {
        split: {q: dict(j) for q, j in judged.items()} for split, judged in dataset.qrels.items()
    }
    return list(dataset.corpus), dict(dataset.queries), qrels


@pytest.fixture(scope="module")
def scifact() -> Path:
    return shared_path("datasets", "scifact")


@pytest.fixture(scope="module")
def scifact_data(
    scifact: Path,
) -> tuple[list[Document], dict[str, str], dict[str, dict[str, dict[str, float]]]]:
    docs, queries, qrels = _read("beir", scifact)
    assert (len(docs), len(queries)) == (5183, 1109)
    assert {s: sum(map(len, j.values())) for s, j in qrels.items()} == {"test": 339, "train": 919}
    return docs, queries, qrels


def test_scifact_through_trec_and_back_keeps_everything(
    tmp_path: Path,
    scifact: Path,
    scifact_data: tuple[list[Document], dict[str, str], dict[str, dict[str, dict[str, float]]]],
) -> None:
    docs, queries, qrels = scifact_data
    assert convert(scifact, tmp_path / "trec", to_format="trec") == "dataset"
    assert set(listing(tmp_path / "trec")) == {
        "corpus.trec",
        "topics.tsv",
        "qrels.test.txt",
        "qrels.train.txt",
    }
    assert _read("trec", tmp_path / "trec") == (docs, queries, qrels)
    assert convert(tmp_path / "trec", tmp_path / "back", to_format="beir") == "dataset"
    back_docs, back_queries, back_qrels = _read("beir", tmp_path / "back")
    assert back_docs == docs  # ids, titles and texts exactly
    assert back_queries == queries
    assert back_qrels == qrels  # every judgement of every split


def test_scifact_through_msmarco_and_back_joins_titles(
    tmp_path: Path,
    scifact: Path,
    scifact_data: tuple[list[Document], dict[str, str], dict[str, dict[str, dict[str, float]]]],
) -> None:
    docs, queries, qrels = scifact_data
    assert convert(scifact, tmp_path / "ms", to_format="msmarco") == "dataset"
    assert set(listing(tmp_path / "ms")) == {
        "collection.tsv",
        "queries.test.tsv",
        "queries.train.tsv",
        "qrels.test.tsv",
        "qrels.train.tsv",
    }
    assert convert(tmp_path / "ms", tmp_path / "back", to_format="beir") == "dataset"
    back_docs, back_queries, back_qrels = _read("beir", tmp_path / "back")
    assert back_docs == [Document(d.id, "", d.joined) for d in docs]
    assert all(d.title for d in docs)  # so every title was joined
    assert back_queries == queries
    assert back_qrels == qrels


def test_scifact_read_dataset_after_trec_conversion(tmp_path: Path, scifact: Path) -> None:
    convert(scifact, tmp_path / "trec", to_format="trec")
    corpus, queries, qrels = read_dataset(tmp_path / "trec", split="train")
    original = read_dataset(scifact, split="train")
    assert (queries, qrels) == original[1:]
    assert len(corpus) == 5183
    assert corpus._loaded is None


# Single files


def test_a_trec_run_to_msmarco_keeps_the_ranking(tmp_path: Path) -> None:
    source = shared_path("datasets", "cacm", "run.cacm-bm25.txt")
    target = tmp_path / "run.tsv"
    assert convert(source, target, to_format="msmarco") == "run"
    lines = target.read_text().splitlines()
    assert len(lines) == 1920
    assert all(len(line.split("\t")) == 3 for line in lines)
    assert lines[0] == "1\tCACM-1938\t1"
    original = read_run(source)
    back = read_run(target)
    assert {q: scored_order(r) for q, r in back.items()} == {
        q: scored_order(r) for q, r in original.items()
    }


def test_an_msmarco_run_to_trec(tmp_path: Path) -> None:
    source = tmp_path / "run.tsv"
    source.write_text("q1\td7\t1\nq1\td3\t2\nq2\td1\t1\n")
    assert convert(source, tmp_path / "out.run", from_format="msmarco") == "run"
    assert (tmp_path / "out.run").read_text() == (
        "q1 Q0 d7 1 1.0 ef\nq1 Q0 d3 2 0.5 ef\nq2 Q0 d1 1 1.0 ef\n"
    )


@pytest.mark.parametrize("fmt", ["beir", "msmarco", "trec"])
def test_qrels_between_formats(tmp_path: Path, fmt: str) -> None:
    source = shared_path("datasets", "cacm", "qrels.cacm.txt")
    target = tmp_path / "qrels.out"
    assert convert(source, target, to_format=fmt) == "qrels"
    assert read_qrels(target, fmt) == read_qrels(source)
    assert sum(map(len, read_qrels(target).values())) == 796


def test_sgml_topics_to_tsv(tmp_path: Path) -> None:
    source = shared_path("datasets", "trec-adhoc-topics", "topics.adhoc.301-350.txt")
    target = tmp_path / "topics.tsv"
    assert convert(source, target, to_format="trec") == "queries"
    lines = target.read_text().splitlines()
    assert len(lines) == 50 == source.read_text().count("<top>")
    assert lines[0] == "301\tInternational Organized Crime"
    assert read_queries(target) == read_queries(source)


def test_cacm_doc_topics_to_tsv_and_jsonl(tmp_path: Path) -> None:
    source = shared_path("datasets", "cacm", "topics.cacm.txt")
    topics = read_queries(source)
    assert len(topics) == 64 == len(re.findall(r"<DOCNO>", source.read_text()))
    assert convert(source, tmp_path / "topics.tsv", to_format="msmarco") == "queries"
    assert read_queries(tmp_path / "topics.tsv") == topics
    assert convert(source, tmp_path / "queries.jsonl") == "queries"  # .jsonl: BEIR
    assert (tmp_path / "queries.jsonl").read_text().startswith('{"_id": "1", "text": "What ')
    assert read_queries(tmp_path / "queries.jsonl") == topics


def test_a_corpus_keeps_titles_into_trec_and_joins_them_into_msmarco(tmp_path: Path) -> None:
    docs = [Document("d1", "Title", "text <b>\nmore"), Document("d2", "", " x ")]
    write_corpus("beir", tmp_path / "corpus.jsonl", docs)
    assert convert(tmp_path / "corpus.jsonl", tmp_path / "corpus.trec") == "corpus"
    assert read_corpus("trec", tmp_path / "corpus.trec") == docs
    one_line = [Document("d1", "Title", "text"), Document("d2", "", " x ")]
    write_corpus("trec", tmp_path / "c.trec", one_line)
    assert (
        convert(tmp_path / "c.trec", tmp_path / "collection.tsv", to_format="msmarco") == "corpus"
    )
    assert (tmp_path / "collection.tsv").read_text() == "d1\tTitle text\nd2\t x \n"


def test_the_kind_is_told_by_the_first_line_when_the_name_says_nothing(tmp_path: Path) -> None:
    qrels = tmp_path / "judgements.txt"
    write_qrels(qrels, {"q1": {"d1": 1}})
    assert convert(qrels, tmp_path / "a.jsonl.tsv", to_format="beir") == "qrels"
    run = tmp_path / "bm25.txt"
    write_run(run, {"q1": {"d1": 1.0}})
    assert convert(run, tmp_path / "b.tsv", to_format="msmarco") == "run"
    assert (tmp_path / "b.tsv").read_text() == "q1\td1\t1\n"


def test_convert_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    source = tmp_path / "qrels.txt"
    write_qrels(source, {"q1": {"d1": 1}})
    with pytest.raises(FileNotFoundError, match="missing"):
        convert(tmp_path / "missing.txt", tmp_path / "out.txt", to_format="trec")
    with pytest.raises(ValueError, match="same path"):
        convert(source, source, to_format="trec")
    with pytest.raises(UnknownNameError, match="to_format"):
        convert(source, tmp_path / "out.txt")
    with pytest.raises(UnknownNameError, match="cannot write run"):
        convert(source, tmp_path / "out.txt", kind="run", to_format="beir")
    with pytest.raises(ValueError, match="kind must be one of"):
        convert(source, tmp_path / "out.txt", kind="nonsense", to_format="trec")  # type: ignore[arg-type]
    other = tmp_path / "mystery.txt"
    other.write_text("just some words\n")
    with pytest.raises(ValueError, match="cannot tell what"):
        convert(other, tmp_path / "out.txt", to_format="trec")
    assert set(listing(tmp_path)) == {"qrels.txt", "mystery.txt"}


def test_a_failed_conversion_leaves_no_target(tmp_path: Path) -> None:
    source = tmp_path / "qrels.tsv"
    source.write_text("q1\td1\t0.5\n")  # a fractional BEIR grade: TREC cannot hold it
    with pytest.raises(ValueError, match="integer relevance only"):
        convert(source, tmp_path / "qrels.txt", from_format="beir", to_format="trec")
    assert set(listing(tmp_path)) == {"qrels.tsv"}


def test_a_name_hint_inside_another_word_does_not_decide_the_kind(tmp_path: Path) -> None:
    source = tmp_path / "queries.truncated.tsv"
    source.write_text("q1\twhat is bm25\n")
    assert convert(source, tmp_path / "q.jsonl") == "queries"
