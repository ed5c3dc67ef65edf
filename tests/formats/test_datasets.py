"""write_dataset / read_dataset in BEIR, TREC and MS MARCO; splits; the streaming corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ef.evaluation import (
    Dataset,
    DatasetFormatError,
    Document,
    InputWarning,
    StreamingCorpus,
    read_dataset,
    write_dataset,
)
from ef.evaluation._dataset import DocumentStream

from .helpers import BUILTIN, format_error_at, listing

DOCS = [
    Document("d1", "Paris", "is in France."),
    Document("d2", "", "No title, <b>markup</b> & a\nline break."),
    Document("CR#93E-1860", "Title only", ""),
    Document("d4", " padded title ", "  padded text  "),
]
QUERIES = {"q1": "where is Paris?", "q2": " leading space", "q3": "unjudged"}
QRELS = {"q1": {"d1": 2, "d2": 0}, "q2": {"CR#93E-1860": 1}}

LAYOUTS = {
    "beir": {"corpus.jsonl", "queries.jsonl", "qrels/test.tsv"},
    "trec": {"corpus.trec", "topics.tsv", "qrels.test.txt"},
    "msmarco": {"collection.tsv", "queries.test.tsv", "queries.tsv", "qrels.test.tsv"},
}
FORMATS = list(LAYOUTS)


def _one_line(docs: list[Document]) -> list[Document]:
    # MS MARCO holds one line per passage.
    return [Document(d.id, d.title, d.text.replace("\n", " ")) for d in docs]


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_then_read_a_dataset_detects_its_format(tmp_path: Path, fmt: str) -> None:
    docs = _one_line(DOCS) if fmt == "msmarco" else DOCS
    write_dataset(tmp_path, docs, QUERIES, QRELS, format=fmt)
    assert set(listing(tmp_path)) == LAYOUTS[fmt]  # and no temporary file
    corpus, queries, qrels = read_dataset(tmp_path)
    assert queries == QUERIES  # the unjudged query too
    assert qrels == QRELS
    assert dict(corpus.items()) == {d.id: d.joined for d in docs}
    assert list(corpus) == [d.id for d in docs]  # file order
    if fmt == "msmarco":  # no title column: the title is joined to the text
        assert list(corpus.documents) == [Document(d.id, "", d.joined) for d in docs]
    else:
        assert list(corpus.documents) == docs
    assert read_dataset(tmp_path, fmt)[1:] == (QUERIES, QRELS)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_mapping_corpus_is_written_without_titles(tmp_path: Path, fmt: str) -> None:
    write_dataset(tmp_path, {"d1": "one", "d2": "two"}, {"q1": "x"}, {"q1": {"d2": 1}}, format=fmt)
    corpus, _, _ = read_dataset(tmp_path)
    assert list(corpus.documents) == [Document("d1", "", "one"), Document("d2", "", "two")]


def test_write_dataset_defaults_to_beir(tmp_path: Path) -> None:
    write_dataset(tmp_path, {"d1": "x"}, {"q1": "y"}, {"q1": {"d1": 1}})
    assert set(listing(tmp_path)) == LAYOUTS["beir"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_dataset_names_the_split(tmp_path: Path, fmt: str) -> None:
    write_dataset(tmp_path, {"d1": "x"}, {"q1": "y"}, {"q1": {"d1": 1}}, format=fmt, split="dev")
    assert any("dev" in name for name in listing(tmp_path))
    assert not any("test" in name for name in listing(tmp_path))
    assert read_dataset(tmp_path, split="dev")[2] == {"q1": {"d1": 1}}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_corpus_read_with_titles_keeps_them_when_written_again(tmp_path: Path, fmt: str) -> None:
    write_dataset(tmp_path / "a", DOCS, QUERIES, QRELS, format="beir")
    corpus, queries, qrels = read_dataset(tmp_path / "a")
    write_dataset(tmp_path / "b", corpus, queries, qrels, format="trec")
    assert list(read_dataset(tmp_path / "b")[0].documents) == DOCS


# Splits

SPLITS = {
    "train": {"q1": {"d1": 1}},
    "dev": {"q2": {"CR#93E-1860": 2}},
    "test": {"q1": {"d2": 1}, "q2": {"d1": 0}},
}


def _write_splits(root: Path, fmt: str, splits: dict[str, dict[str, dict[str, int]]]) -> None:
    writer = BUILTIN.format(fmt).write_dataset
    assert writer is not None
    writer(root, Dataset(_one_line(DOCS), QUERIES, splits))


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_split_is_written_and_read(tmp_path: Path, fmt: str) -> None:
    _write_splits(tmp_path, fmt, SPLITS)
    reader = BUILTIN.format(fmt).read_dataset
    assert reader is not None
    dataset = reader(tmp_path)
    assert sorted(dataset.split_names) == ["dev", "test", "train"]
    assert {s: dict(q) for s, q in dataset.qrels.items()} == SPLITS
    for split, qrels in SPLITS.items():
        assert read_dataset(tmp_path, split=split)[2] == qrels


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("present", "default"),
    [
        (["train", "dev", "test"], "test"),
        (["train", "dev"], "dev"),
        (["train"], "train"),
        (["other"], "other"),
    ],
)
def test_the_default_split_is_test_then_dev_then_train(
    tmp_path: Path, fmt: str, present: list[str], default: str
) -> None:
    splits = {name: {"q1": {f"d{i + 1}": 1}} for i, name in enumerate(present)}
    _write_splits(tmp_path, fmt, splits)
    if default == "test":
        assert read_dataset(tmp_path)[2] == splits[default]
        return
    # Another split than test is said, with how to choose it on purpose.
    with pytest.warns(
        InputWarning, match=rf"has no test split: its judgements are those of the {default} split"
    ):
        assert read_dataset(tmp_path)[2] == splits[default]
    assert read_dataset(tmp_path, split=default)[2] == splits[default]  # chosen: no warning


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_unknown_split_is_an_error_listing_the_splits(tmp_path: Path, fmt: str) -> None:
    _write_splits(tmp_path, fmt, SPLITS)
    with pytest.raises(ValueError, match="has no split 'validation'") as info:
        read_dataset(tmp_path, split="validation")
    assert all(name in str(info.value) for name in SPLITS)
    assert str(tmp_path) in str(info.value)


def test_beir_splits_written_one_at_a_time_are_all_kept(tmp_path: Path) -> None:
    write_dataset(tmp_path, DOCS, QUERIES, SPLITS["dev"], split="dev")
    write_dataset(tmp_path, DOCS, QUERIES, SPLITS["train"], split="train")
    assert read_dataset(tmp_path, split="dev")[2] == SPLITS["dev"]
    assert read_dataset(tmp_path, split="train")[2] == SPLITS["train"]


def test_beir_splits_are_the_qrels_folders_tsv_files_by_name_up_to_the_first_dot(
    tmp_path: Path,
) -> None:
    import gzip

    write_dataset(tmp_path, DOCS, QUERIES, SPLITS["dev"], split="dev")
    qrels = tmp_path / "qrels"
    table = (qrels / "dev.tsv").read_bytes()
    (qrels / "train.tsv.gz").write_bytes(gzip.compress(table))
    (qrels / "test.v2.tsv").write_bytes(table)
    (qrels / "notes.txt").write_text("not a split")
    (qrels / "other.tsv.bak").write_bytes(table)
    with pytest.raises(ValueError, match="has no split 'validation'") as info:
        read_dataset(tmp_path, split="validation")
    listed = str(info.value).rpartition("it has: ")[2]
    assert sorted(listed.split(", ")) == ["dev", "test", "train"]
    assert read_dataset(tmp_path, split="train")[2] == SPLITS["dev"]
    assert read_dataset(tmp_path, split="test")[2] == SPLITS["dev"]


def test_msmarco_keeps_each_splits_queries_and_the_unjudged_ones(tmp_path: Path) -> None:
    _write_splits(tmp_path, "msmarco", SPLITS)
    assert (tmp_path / "queries.dev.tsv").read_text() == "q2\t leading space\n"
    assert (tmp_path / "queries.tsv").read_text() == "q3\tunjudged\n"
    assert read_dataset(tmp_path)[1] == QUERIES


def test_msmarco_refuses_judged_queries_without_text(tmp_path: Path) -> None:
    with pytest.raises(DatasetFormatError, match="qrels judge queries with no text"):
        write_dataset(tmp_path, DOCS, {"q1": "x"}, {"q1": {"d1": 1}, "q9": {"d1": 1}}, "msmarco")
    assert listing(tmp_path) == {}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_dataset_without_judgements_reads_back(tmp_path: Path, fmt: str) -> None:
    write_dataset(tmp_path, {"d1": "x"}, {"q1": "y"}, {}, format=fmt)
    assert read_dataset(tmp_path)[2] == {}


# Reading errors


def test_a_missing_dataset_directory_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nope"):
        read_dataset(tmp_path / "nope")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_directory_of_another_kind_is_an_error(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.raises((FileNotFoundError, ValueError), match=str(tmp_path)):
        read_dataset(tmp_path, fmt)
    with pytest.raises(ValueError, match="cannot tell the format"):
        read_dataset(tmp_path)


@pytest.mark.parametrize(
    ("fmt", "missing"), [("trec", "topics.tsv"), ("msmarco", "qrels.test.tsv")]
)
def test_a_dataset_missing_a_file_says_what_it_needs(
    tmp_path: Path, fmt: str, missing: str
) -> None:
    write_dataset(tmp_path, _one_line(DOCS), QUERIES, QRELS, format=fmt)
    (tmp_path / missing).unlink()
    with pytest.raises(FileNotFoundError, match="qrels"):
        read_dataset(tmp_path, fmt)


def test_a_bad_document_line_is_named_when_the_corpus_is_iterated(tmp_path: Path) -> None:
    write_dataset(tmp_path, DOCS, QUERIES, QRELS, format="trec")
    corpus_file = tmp_path / "corpus.trec"
    corpus_file.write_text(corpus_file.read_text() + "stray text\n")
    corpus, _, _ = read_dataset(tmp_path)  # nothing read yet
    lines = corpus_file.read_text().count("\n")
    format_error_at(corpus_file, lines, lambda: list(corpus.items()))


# StreamingCorpus


def _beir(tmp_path: Path, docs: list[Document]) -> StreamingCorpus:
    write_dataset(tmp_path, docs, {"q1": "x"}, {"q1": {docs[0].id: 1}})
    return read_dataset(tmp_path)[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_iterating_streams_and_never_loads_all_texts(tmp_path: Path, fmt: str) -> None:
    docs = _one_line(DOCS)
    write_dataset(tmp_path, docs, QUERIES, QRELS, format=fmt)
    corpus = read_dataset(tmp_path)[0]
    expected = [(d.id, d.joined) for d in docs]
    assert list(corpus.items()) == expected
    assert list(corpus.items()) == expected  # a second pass reads the file again
    assert list(corpus.values()) == [t for _, t in expected]
    assert list(corpus) == list(corpus.keys()) == [i for i, _ in expected]
    assert len(corpus) == len(docs) == len(corpus.items()) == len(corpus.values())
    assert corpus._loaded is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_looking_a_document_up_loads_the_texts_once(tmp_path: Path, fmt: str) -> None:
    docs = _one_line(DOCS)
    write_dataset(tmp_path, docs, QUERIES, QRELS, format=fmt)
    corpus = read_dataset(tmp_path)[0]
    assert corpus["d1"] == "Paris is in France."
    assert corpus._loaded is not None
    assert "CR#93E-1860" in corpus
    assert "nope" not in corpus
    assert corpus.get("nope") is None
    with pytest.raises(KeyError):
        corpus["nope"]
    assert corpus == {d.id: d.joined for d in docs}


def test_each_pass_rereads_the_file(tmp_path: Path) -> None:
    corpus = _beir(tmp_path, [Document("d1", "", "one")])
    assert dict(corpus.items()) == {"d1": "one"}
    with (tmp_path / "corpus.jsonl").open("a") as out:
        out.write(json.dumps({"_id": "d2", "title": "", "text": "two"}) + "\n")
    assert dict(corpus.items()) == {"d1": "one", "d2": "two"}
    assert corpus._loaded is None


def test_iteration_reads_no_further_than_asked(tmp_path: Path) -> None:
    corpus = _beir(tmp_path, [Document("d1", "", "one"), Document("d2", "", "two")])
    with (tmp_path / "corpus.jsonl").open("a") as out:
        out.write("not json\n")
    assert next(iter(corpus.items())) == ("d1", "one")  # the bad line is never reached
    format_error_at(tmp_path / "corpus.jsonl", 3, lambda: list(corpus.items()))


def test_a_streaming_corpus_over_a_generator_factory() -> None:
    opened = []

    def documents() -> DocumentStream:
        def gen() -> object:
            opened.append(1)
            yield Document("a", "T", "x")
            yield Document("b", "", "y")

        return DocumentStream(gen)  # type: ignore[arg-type]

    corpus = StreamingCorpus(documents())
    for _ in range(2):
        assert [pair for pair in corpus.items()] == [("a", "T x"), ("b", "y")]  # noqa: C416
    assert len(opened) == 2  # opened afresh for each pass
    assert len(corpus) == 2
    assert len(corpus) == 2
    assert len(opened) == 3  # len() counts in one pass, once
    assert corpus["b"] == "y"
    assert list(corpus) == ["a", "b"]
    assert len(opened) == 4  # the lookup loaded once; iteration now uses the loaded texts


@pytest.mark.parametrize(
    ("fmt", "names"),
    [("msmarco", ("queries.dev.tsv", "queries.test.tsv")), ("trec", ("topics.a", "topics.b"))],
)
def test_one_query_with_two_texts_in_two_files_is_an_error(
    tmp_path: Path, fmt: str, names: tuple[str, str]
) -> None:
    write_dataset(tmp_path, {"d1": "x"}, {"q1": "y"}, {"q1": {"d1": 1}}, format=fmt)
    (tmp_path / names[0]).write_text("q1\tsame\n", encoding="utf-8")
    (tmp_path / names[1]).write_text("q1\tother\n", encoding="utf-8")
    with pytest.raises(DatasetFormatError, match=r"query 'q1' has a different text"):
        read_dataset(tmp_path)
