"""The path arguments of the readers and writers (issue 25): swapped arguments, data where a
path belongs, and a folder that is not a dataset are errors naming the function, the
argument and the folder, never Python's bare "expected str, bytes or os.PathLike object"."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import (
    UnknownNameError,
    convert,
    download_dataset,
    fuse,
    read_beir,
    read_dataset,
    read_qrels,
    read_run,
    read_samples,
    write_beir,
    write_dataset,
    write_qrels,
    write_queries,
    write_run,
    write_samples,
)

RUN = {"q1": {"d1": 1.0}}
QRELS = {"q1": {"d1": 1}}
CORPUS = {"d1": "text"}
QUERIES = {"q1": "query"}


@pytest.mark.parametrize(
    ("call", "signature", "what"),
    [
        (lambda t: write_run(RUN, t), "write_run(path, run)", "a dict"),  # type: ignore[arg-type]
        (lambda t: write_qrels(QRELS, t), "write_qrels(path, qrels)", "a dict"),  # type: ignore[arg-type]
        (lambda t: write_queries(QUERIES, t), "write_queries(path, queries)", "a dict"),  # type: ignore[arg-type]
        (lambda t: write_samples([{"response": "a"}], t), "write_samples(path, samples)", "a list"),  # type: ignore[arg-type]
        (
            lambda t: write_dataset(CORPUS, t, QUERIES, QRELS),  # type: ignore[arg-type]
            "write_dataset(path, corpus, queries, qrels)",
            "a dict",
        ),
        (
            lambda t: write_beir(CORPUS, t, QUERIES, QRELS),  # type: ignore[arg-type]
            "write_beir(directory, corpus, queries, qrels)",
            "a dict",
        ),
    ],
)
def test_a_writer_with_its_arguments_swapped_says_so(
    tmp_path: Path, call: Callable[[Any], None], signature: str, what: str
) -> None:
    target = tmp_path / "out"
    with pytest.raises(TypeError, match=f"^{re.escape(signature)}: .* is {what}; expected") as e:
        call(str(target))
    assert str(e.value).endswith("; are the arguments swapped?")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: read_run(RUN), r"read_run\(path\): path is a dict; .* pass it to evaluate_run"),  # type: ignore[arg-type]
        (lambda: read_qrels(QRELS), r"read_qrels\(path\): path is a dict; .* to evaluate_run"),  # type: ignore[arg-type]
        (lambda: read_samples([{}]), r"read_samples\(path\): path is a list; expected a file"),  # type: ignore[arg-type]
        (lambda: read_dataset(QRELS), r"read_dataset\(path\): path is a dict; expected a data"),  # type: ignore[arg-type]
        (lambda: read_beir(3), r"read_beir\(directory\): directory is an int; expected a BEIR"),  # type: ignore[arg-type]
    ],
)
def test_data_where_a_path_belongs_names_the_argument(call: Callable[[], object], message) -> None:
    with pytest.raises(TypeError, match=f"^{message}"):
        call()


def test_a_path_given_as_the_format_is_taken_for_swapped_arguments(tmp_path: Path) -> None:
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 1.0 x\n")
    with pytest.raises(UnknownNameError, match=r"format='.*run\.trec' is the path of a file"):
        read_run("trec", str(run))


@pytest.mark.parametrize(
    ("triple", "error", "message"),
    [
        ((QRELS, QUERIES, CORPUS), TypeError, r"qrels\['d1'\] is a str; expected \{doc_id: grade"),
        ((CORPUS, QUERIES, CORPUS), TypeError, r".* is it a corpus or queries, given as qrels\?"),
        (
            (QUERIES, CORPUS, QRELS),
            ValueError,
            r"the judged queries \('q1', ...\) are ids of corpus",
        ),
        (([("d1", "text")], QUERIES, QRELS), TypeError, r"corpus is a list; expected a mapping"),
    ],
)
def test_write_beir_names_the_argument_of_the_wrong_shape(
    tmp_path: Path, triple: tuple[Any, Any, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(
        error, match=r"^write_beir\(directory, corpus, queries, qrels\): " + message
    ):
        write_beir(tmp_path / "ds", *triple)
    assert not (tmp_path / "ds").exists()


def test_read_beir_of_a_folder_that_is_no_dataset_names_it_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # read_beir(".") said "no such file: corpus.jsonl": which folder, and what else is missing?
    (tmp_path / "notes.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as caught:
        read_beir(".")
    assert str(caught.value) == (
        f". is not a BEIR dataset folder: {tmp_path.resolve()} lacks corpus.jsonl; "
        "queries.jsonl; a qrels file (tried qrels/test.tsv, qrels/dev.tsv, qrels/train.tsv, "
        "qrels.tsv; or pass qrels=) (it holds notes.txt); a BEIR folder holds corpus.jsonl, "
        "queries.jsonl and qrels/test.tsv (or dev.tsv, train.tsv, qrels.tsv)"
    )
    with pytest.raises(FileNotFoundError, match=f"{re.escape(str(tmp_path.resolve()))} lacks"):
        read_dataset(".", "beir")


def test_read_beir_names_only_what_is_missing(tmp_path: Path) -> None:
    write_beir(tmp_path, CORPUS, QUERIES, QRELS)
    (tmp_path / "queries.jsonl").unlink()
    with pytest.raises(FileNotFoundError, match=r"lacks queries\.jsonl \(it holds corpus\.jsonl"):
        read_beir(tmp_path)


def test_read_beir_of_a_file_says_it_takes_the_folder(tmp_path: Path) -> None:
    write_beir(tmp_path, CORPUS, QUERIES, QRELS)
    corpus = tmp_path / "corpus.jsonl"
    with pytest.raises(FileNotFoundError, match=r"is a file, not a dataset folder; read_beir"):
        read_beir(corpus)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: convert(RUN, "run.trec"), r"^convert\(source, target\): source is a dict; "),  # type: ignore[arg-type]
        (lambda: convert("run.trec", RUN), r"^convert\(source, target\): target is a dict; "),  # type: ignore[arg-type]
        (lambda: download_dataset({"scifact": 1}), r"^download_dataset\(name, directory\): name"),  # type: ignore[arg-type]
    ],
)
def test_convert_and_download_name_the_argument(call: Callable[[], object], message) -> None:
    with pytest.raises(TypeError, match=message):
        call()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: write_run(t, "run.trec"), r"write_run\(path, run\): run is a str; .* convert"),  # type: ignore[arg-type]
        (lambda t: write_qrels(t, [("q1", "d1", 1)]), r"write_qrels\(path, qrels\): qrels is a"),  # type: ignore[arg-type]
        (lambda t: write_queries(t, ["a query"]), r"write_queries\(path, queries\): queries is"),  # type: ignore[arg-type]
        (
            lambda t: write_run(t, fuse([RUN, RUN])),  # type: ignore[arg-type]
            r"run is a RunTable; .* pass run\.to_dict\(\)",
        ),
        (lambda t: write_samples(t, {"response": "a"}), r"samples is one sample \(a dict\)"),  # type: ignore[dict-item]
        (lambda t: write_samples(t, "a"), r"samples is a str; expected a list of samples"),  # type: ignore[arg-type]
    ],
)
def test_a_writer_given_data_of_another_shape_says_what_it_takes(
    tmp_path: Path, call: Callable[[Path], None], message: str
) -> None:
    # Was a bare AttributeError ("'str' object has no attribute 'items'").
    with pytest.raises(TypeError, match=message):
        call(tmp_path / "out.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_a_data_frame_given_to_write_run_is_refused_not_read_by_its_columns(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"q_id": ["q1"], "doc_id": ["d1"], "score": [1.0]})
    with pytest.raises(TypeError, match=r"run is a DataFrame; .* saved as Parquet"):
        write_run(tmp_path / "run.trec", frame)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("triple", "error", "message"),
    [
        ((QRELS, QUERIES, CORPUS), TypeError, r"qrels\['d1'\] is a str; expected \{doc_id: grade"),
        ((CORPUS, ["query"], QRELS), TypeError, r"queries is a list; expected a mapping"),
        ((QUERIES, CORPUS, QRELS), ValueError, r".* are corpus and queries swapped\?"),
        ((CORPUS, QUERIES, "qrels.txt"), TypeError, r"qrels is a str; expected a mapping"),
    ],
)
def test_write_dataset_names_the_argument_of_the_wrong_shape(
    tmp_path: Path, triple: tuple[Any, Any, Any], error: type[Exception], message: str
) -> None:
    # Was a bare AttributeError, or (corpus and queries swapped) a dataset written wrong.
    call = re.escape("write_dataset(path, corpus, queries, qrels): ")
    with pytest.raises(error, match=f"^{call}{message}"):
        write_dataset(tmp_path / "ds", *triple, format="msmarco")
    assert not (tmp_path / "ds").exists()
