"""RAG samples on disk: JSONL and CSV readers and writers, with Ragas' own export shapes."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormatError,
    InvalidSampleError,
    UnknownNameError,
    read_samples,
    write_samples,
)

from ..profiles_hypothesis import examples

SAMPLES: list[dict[str, Any]] = [
    {"id": "s1", "user_input": "capital of France?", "response": "Paris", "reference": "Paris",
     "retrieved_contexts": ["Paris is the capital of France.", "Line one\n\nline three, \"quoted\""],
     "retrieved_context_ids": ["d1", 7], "rubrics": {"score1": "bad"}},
    {"id": "s2", "user_input": "2 + 2?", "response": "five", "retrieved_contexts": []},
]  # fmt: skip


@pytest.mark.parametrize("name", ["samples.jsonl", "samples.csv"])
def test_round_trip_keeps_every_field_and_extra_keys(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    write_samples(path, SAMPLES)
    assert read_samples(path) == SAMPLES


def test_csv_layout_puts_ragas_fields_first(tmp_path: Path) -> None:
    write_samples(tmp_path / "s.csv", SAMPLES)
    header = (tmp_path / "s.csv").read_text().splitlines()[0]
    assert (
        header
        == "user_input,retrieved_contexts,retrieved_context_ids,response,reference,rubrics,id"
    )


def test_reads_a_ragas_to_csv_export_with_python_list_cells(tmp_path: Path) -> None:
    # What EvaluationDataset.to_csv (pandas) writes: list cells as Python literals.
    path = tmp_path / "ragas.csv"
    path.write_text(
        "user_input,retrieved_contexts,response,reference\n"
        'q1,"[\'Paris is in France.\', ""It\'s big.""]",Paris,Paris\n'
    )
    assert read_samples(path) == [
        {"user_input": "q1", "retrieved_contexts": ["Paris is in France.", "It's big."],
         "response": "Paris", "reference": "Paris"},
    ]  # fmt: skip


def test_reads_a_ragas_to_jsonl_export_gzipped(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl.gz"
    with gzip.open(path, "wt") as out:
        out.write('{"user_input": "q", "retrieved_contexts": ["c"], "response": "a"}\n\n')
    assert read_samples(path) == [{"user_input": "q", "retrieved_contexts": ["c"], "response": "a"}]


def test_an_empty_csv_cell_is_an_absent_field(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text("user_input,response,reference\nq1,,Paris\n")
    assert read_samples(path) == [{"user_input": "q1", "reference": "Paris"}]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("s.jsonl", '{"response": "ok"}\n{"response": \n', r"s\.jsonl:2: invalid JSON"),
        (
            "s.jsonl",
            '{"response": "ok"}\n\n{"response": 5}\n',
            r"s\.jsonl:3: sample 1: 'response' must be a string",
        ),
        ("s.jsonl", '["not", "a", "mapping"]\n', r"s\.jsonl:1: sample 0: expected a mapping"),
        ("s.csv", "", r"s\.csv:1: the file is empty"),
        ("s.csv", "response,response\na,b\n", r"s\.csv:1: the header has empty or repeated"),
        ("s.csv", "user_input,response\nq1,a\nq2\n", r"s\.csv:3: expected 2 columns, got 1"),
        (
            "s.csv",
            'response,retrieved_contexts\na,"not a list"\n',
            r"s\.csv:2: 'retrieved_contexts' must be a JSON array",
        ),
        (
            "s.csv",
            'response,retrieved_contexts\n"multi\nline",[1]\n',
            r"s\.csv:2: sample 0: retrieved_contexts\[0\] must be a string",
        ),
        (
            "s.csv",
            'response,retrieved_context_ids\na,"[1.5]"\n',
            r"s\.csv:2: .*must be a string or an int",
        ),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path, name, text, message) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(DatasetFormatError, match=message):
        read_samples(path)


def test_csv_line_numbers_count_multi_line_cells(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text('user_input,response\n"a\n\nb",x\nq,"y"\nq2,1,extra\n')
    with pytest.raises(DatasetFormatError, match=r"s\.csv:6: expected 2 columns, got 3"):
        read_samples(path)


def test_unknown_or_undetectable_formats(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("x")
    with pytest.raises(
        UnknownNameError, match=r"cannot tell the format of .*s\.txt.*rag_csv, rag_jsonl"
    ):
        read_samples(tmp_path / "s.txt")
    with pytest.raises(FileNotFoundError, match=r"missing\.jsonl"):
        read_samples(tmp_path / "missing.jsonl")
    with pytest.raises(UnknownNameError, match="format 'beir' cannot write samples"):
        write_samples(tmp_path / "x.jsonl", SAMPLES, format="beir")
    write_samples(tmp_path / "data.txt", SAMPLES, format="rag_jsonl")
    assert read_samples(tmp_path / "data.txt", format="rag_jsonl") == SAMPLES


def test_a_malformed_sample_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(InvalidSampleError, match="sample 1: 'response' must be a string"):
        write_samples(tmp_path / "s.jsonl", [{"response": "ok"}, {"response": 3}])
    assert list(tmp_path.iterdir()) == []


text = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=20)
samples = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "user_input": text,
            "response": text,
            "reference": text,
            "retrieved_contexts": st.lists(
                st.text(st.characters(exclude_categories=["Cs"])), max_size=3
            ),
            "reference_context_ids": st.lists(st.one_of(text, st.integers()), max_size=3),
            "id": text,
        },
    ),
    min_size=1,
    max_size=5,
)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rows=samples, name=st.sampled_from(["s.jsonl", "s.csv"]))
def test_round_trip_property(tmp_path_factory, rows, name) -> None:
    path = tmp_path_factory.mktemp("samples") / name
    write_samples(path, rows)
    assert read_samples(path) == rows


def test_grades_round_trip_through_csv(tmp_path: Path) -> None:
    # A CSV cell holds them as a JSON object, as it holds retrieved_context_ids as an array.
    samples = [
        {"id": "s1", "retrieved_context_ids": ["d1", "d2"], "reference_context_ids": ["d1"],
         "reference_context_grades": {"d1": 2}},
    ]  # fmt: skip
    write_samples(tmp_path / "s.csv", samples)
    assert read_samples(tmp_path / "s.csv") == samples
