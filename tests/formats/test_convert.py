"""convert(): whole datasets (the real SciFact) and single files between BEIR, TREC, MS MARCO."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

import pytest

from ef.evaluation import (
    Dataset,
    DatasetFormatError,
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
from ef.evaluation._dataset import QueryTexts, extra_of
from ef.evaluation._runs.order import scored_order

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
        "corpus.meta.jsonl",  # every document's "metadata": {}
        "topics.tsv",
        "topics.meta.jsonl",  # the queries' metadata (693 of them non-empty)
        "qrels.test.txt",
        "qrels.train.txt",
    }
    assert _read("trec", tmp_path / "trec") == (docs, queries, qrels)
    assert convert(tmp_path / "trec", tmp_path / "back", to_format="beir") == "dataset"
    back_docs, back_queries, back_qrels = _read("beir", tmp_path / "back")
    assert back_docs == docs  # ids, titles and texts exactly
    assert back_queries == queries
    assert back_qrels == qrels  # every judgement of every split


def test_scifact_through_trec_and_back_is_the_same_bytes(tmp_path: Path, scifact: Path) -> None:
    convert(scifact, tmp_path / "trec", to_format="trec")
    convert(tmp_path / "trec", tmp_path / "back", to_format="beir")
    for name in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv", "qrels/train.tsv"):
        assert filecmp.cmp(scifact / name, tmp_path / "back" / name, shallow=False), name


def test_scifact_queries_keep_their_metadata_through_trec(tmp_path: Path, scifact: Path) -> None:
    convert(scifact / "queries.jsonl", tmp_path / "topics.tsv", to_format="trec")
    assert (tmp_path / "topics.meta.jsonl").is_file()
    convert(tmp_path / "topics.tsv", tmp_path / "queries.jsonl", to_format="beir")
    assert filecmp.cmp(scifact / "queries.jsonl", tmp_path / "queries.jsonl", shallow=False)
    back = BUILTIN.format("beir").read_queries(tmp_path / "queries.jsonl")  # type: ignore[misc]
    assert sum(1 for fields in extra_of(back).values() if fields["metadata"]) == 693


def test_scifact_through_msmarco_and_back_joins_titles(
    tmp_path: Path,
    scifact: Path,
    scifact_data: tuple[list[Document], dict[str, str], dict[str, dict[str, dict[str, float]]]],
) -> None:
    docs, queries, qrels = scifact_data
    # Every loss in one refusal: the queries' metadata and the documents' titles.
    with pytest.raises(DatasetFormatError) as info:
        convert(scifact, tmp_path / "ms", to_format="msmarco")
    assert str(info.value).startswith(
        f"{scifact}: query '0' has other fields ('metadata'), which msmarco cannot hold (its "
        "files are id<TAB>text only); document '4983' has a title, which msmarco cannot hold"
    )
    assert str(info.value).endswith(
        "drop them on purpose: drop=('metadata', 'title') (ef-eval convert --drop metadata,title)"
    )
    with pytest.raises(DatasetFormatError, match=r"document '4983' has a title.*--drop title\)$"):
        convert(scifact, tmp_path / "ms", to_format="msmarco", drop=("metadata",))
    assert not (tmp_path / "ms").exists() or listing(tmp_path / "ms") == {}
    notes: list[str] = []
    assert (
        convert(
            scifact,
            tmp_path / "ms",
            to_format="msmarco",
            drop=("title", "metadata"),
            on_drop=notes.append,
        )
        == "dataset"
    )
    assert notes == [
        "dropped the metadata of 6292 queries or documents of scifact "
        "(msmarco: its files are id<TAB>text only)",
        "joined the titles of 5183 documents to their texts of scifact "
        "(msmarco: its collection is pid<TAB>text)",
    ]
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
    with pytest.raises(
        DatasetFormatError,
        match=r"run.cacm-bm25.txt: the run has the run tag .*; query '1' has scores, not 1/rank,"
        r".*drop=\('tag', 'scores'\) \(ef-eval convert --drop tag,scores\)$",
    ):
        convert(source, target, to_format="msmarco")
    with pytest.raises(DatasetFormatError, match=r"run.cacm-bm25.txt: query '1' has scores"):
        convert(source, target, to_format="msmarco", drop=("tag",))
    assert not target.exists()
    assert convert(source, target, to_format="msmarco", drop=("scores", "tag")) == "run"
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
    with pytest.raises(DatasetFormatError, match=r"c.trec: document 'd1' has a title"):
        convert(tmp_path / "c.trec", tmp_path / "collection.tsv", to_format="msmarco")
    assert not (tmp_path / "collection.tsv").exists()
    assert (
        convert(
            tmp_path / "c.trec", tmp_path / "collection.tsv", to_format="msmarco", drop=["title"]
        )
        == "corpus"
    )
    assert (tmp_path / "collection.tsv").read_text() == "d1\tTitle text\nd2\t x \n"


def test_the_kind_is_told_by_the_first_line_when_the_name_says_nothing(tmp_path: Path) -> None:
    qrels = tmp_path / "judgements.txt"
    write_qrels(qrels, {"q1": {"d1": 1}})
    assert convert(qrels, tmp_path / "a.jsonl.tsv", to_format="beir") == "qrels"
    run = tmp_path / "bm25.txt"
    write_run(run, {"q1": {"d1": 1.0}})  # the score is 1/rank: nothing to lose but the tag
    assert convert(run, tmp_path / "b.tsv", to_format="msmarco", drop=["tag"]) == "run"
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


# What a target cannot hold: refused, unless dropped on purpose


def _run(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "run.trec"
    path.write_text(text)
    return path


def test_a_trec_run_keeps_its_tag_through_trec(tmp_path: Path) -> None:
    source = _run(tmp_path, "q1 Q0 d1 1 2.5 bm25-k1\nq1 Q0 d2 2 1.5 bm25-k1\n")
    convert(source, tmp_path / "out.run")
    assert (tmp_path / "out.run").read_text() == source.read_text()


def test_two_run_tags_cannot_go_into_one_trec_run(tmp_path: Path) -> None:
    source = _run(tmp_path, "q1 Q0 d1 1 2.5 a\nq2 Q0 d2 1 1.5 b\n")
    with pytest.raises(DatasetFormatError, match=r"run.trec: the run has 2 run tags \('a', 'b'\)"):
        convert(source, tmp_path / "out.run")
    notes: list[str] = []
    convert(source, tmp_path / "out.run", drop=["tag"], on_drop=notes.append)
    assert notes == [
        "dropped the run tags 'a', 'b' of run.trec (trec: a run written here has one tag)"
    ]
    assert (tmp_path / "out.run").read_text() == "q1 Q0 d1 1 2.5 ef\nq2 Q0 d2 1 1.5 ef\n"


def test_an_msmarco_run_to_msmarco_loses_nothing(tmp_path: Path) -> None:
    source = tmp_path / "run.tsv"
    source.write_text("q1\td7\t1\nq1\td3\t2\n")
    notes: list[str] = []
    convert(source, tmp_path / "again.tsv", from_format="msmarco", to_format="msmarco",
            on_drop=notes.append)  # fmt: skip
    assert notes == []
    assert (tmp_path / "again.tsv").read_text() == source.read_text()


def test_query_metadata_into_msmarco_is_refused_or_dropped(tmp_path: Path) -> None:
    source = tmp_path / "queries.jsonl"
    source.write_text('{"_id": "q1", "text": "a"}\n{"_id": "q2", "text": "b", "lang": "en"}\n')
    target = tmp_path / "queries.tsv"
    with pytest.raises(
        DatasetFormatError, match=r"queries.jsonl: query 'q2' has other fields \('lang'\).*msmarco"
    ):
        convert(source, target, to_format="msmarco")
    assert not target.exists()
    notes: list[str] = []
    convert(source, target, to_format="msmarco", drop=("metadata",), on_drop=notes.append)
    assert target.read_text() == "q1\ta\nq2\tb\n"
    assert notes == [
        "dropped the metadata of 1 query or document of queries.jsonl "
        "(msmarco: its files are id<TAB>text only)"
    ]


def test_document_metadata_survives_trec_and_is_refused_by_msmarco(tmp_path: Path) -> None:
    docs = [Document("d1", "", "x", extra={"url": "u1"}), Document("d2", "", "y")]
    write_corpus("beir", tmp_path / "corpus.jsonl", docs)
    convert(tmp_path / "corpus.jsonl", tmp_path / "corpus.trec")
    assert (tmp_path / "corpus.meta.jsonl").read_text() == '{"_id": "d1", "url": "u1"}\n'
    assert read_corpus("trec", tmp_path / "corpus.trec") == docs
    with pytest.raises(DatasetFormatError, match=r"corpus.trec: document 'd1' has other fields"):
        convert(tmp_path / "corpus.trec", tmp_path / "collection.tsv", to_format="msmarco")
    assert not (tmp_path / "collection.tsv").exists()


def test_a_corpus_refused_by_msmarco_names_titles_and_metadata_at_once(tmp_path: Path) -> None:
    docs = [Document("d1", "T", "x"), Document("d2", "", "y"), Document("d3", "", "z", {"u": 1})]
    write_corpus("beir", tmp_path / "corpus.jsonl", docs)
    target = tmp_path / "collection.tsv"
    with pytest.raises(DatasetFormatError) as info:
        convert(tmp_path / "corpus.jsonl", target, to_format="msmarco")
    assert str(info.value) == (
        f"{tmp_path / 'corpus.jsonl'}: document 'd1' has a title, which msmarco cannot hold "
        "(its collection is pid<TAB>text); document 'd3' has other fields ('u'), which msmarco "
        "cannot hold (its files are id<TAB>text only); nothing was written. Write another "
        "format, or drop them on purpose: drop=('title', 'metadata') (ef-eval convert --drop "
        "title,metadata)"
    )
    assert not target.exists()
    convert(tmp_path / "corpus.jsonl", target, to_format="msmarco", drop=("title", "metadata"))
    assert target.read_text() == "d1\tT x\nd2\ty\nd3\tz\n"


def test_a_trec_file_rewritten_without_metadata_loses_its_stale_sidecar(tmp_path: Path) -> None:
    write_corpus("trec", tmp_path / "corpus.trec", [Document("d1", text="x", extra={"k": 1})])
    assert (tmp_path / "corpus.meta.jsonl").exists()
    write_corpus("trec", tmp_path / "corpus.trec", [Document("d9", text="y")])
    assert not (tmp_path / "corpus.meta.jsonl").exists()
    assert read_corpus("trec", tmp_path / "corpus.trec") == [Document("d9", text="y")]


def test_a_sidecar_line_for_an_unknown_id_is_an_error_naming_its_line(tmp_path: Path) -> None:
    (tmp_path / "topics.tsv").write_text("q1\ta\n")
    (tmp_path / "topics.meta.jsonl").write_text('{"_id": "q1", "k": 1}\n{"_id": "q7", "k": 2}\n')
    with pytest.raises(DatasetFormatError, match=r"topics.meta.jsonl:2: _id 'q7' is not in the"):
        read_queries(tmp_path / "topics.tsv", format="trec")


def test_the_msmarco_writer_itself_refuses_metadata(tmp_path: Path) -> None:
    writer = BUILTIN.format("msmarco").write_queries
    assert writer is not None
    with pytest.raises(DatasetFormatError, match=r"query 'q1' has fields MS MARCO cannot hold"):
        writer(tmp_path / "q.tsv", QueryTexts({"q1": "a"}, extra={"q1": {"lang": "en"}}))
    assert listing(tmp_path) == {}


@pytest.mark.parametrize(
    ("drop", "message"),
    [
        (["nonsense"], "unknown kind 'nonsense'"),
        (["scores"], "nothing to drop, trec keeps the scores"),
    ],
)
def test_drop_names_only_what_the_target_cannot_hold(
    tmp_path: Path, drop: list[str], message: str
) -> None:
    source = _run(tmp_path, "q1 Q0 d1 1 2.5 a\n")
    with pytest.raises(ValueError, match=message):
        convert(source, tmp_path / "out.run", drop=drop)


def test_the_cli_refuses_with_one_line_and_notes_what_drop_dropped(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ef.evaluation.cli import cli

    source = _run(tmp_path, "q1 Q0 d1 1 2.5 bm25\n")
    target = str(tmp_path / "run.tsv")
    refused = CliRunner().invoke(cli, ["convert", str(source), target, "--to", "msmarco"])
    assert refused.exit_code == 2
    assert f"Error: {source}: the run has the run tag 'bm25'" in refused.output
    assert "query 'q1' has scores" in refused.output  # both losses, so one try fixes both
    assert "(ef-eval convert --drop tag,scores)" in refused.output
    done = CliRunner().invoke(
        cli, ["convert", str(source), target, "--to", "msmarco", "--drop", "scores,tag"]
    )
    assert done.exit_code == 0, done.output
    assert "note: dropped the run tag 'bm25' of run.trec" in done.stderr
    assert "note: dropped the scores of 1 query of run.trec" in done.stderr
