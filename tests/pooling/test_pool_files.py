"""Pool files: written atomically with an empty grade, refused by every qrels reader until
filled in (naming the file and line), and merged once judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from ef.evaluation import DatasetFormatError, Pool, evaluate_run, merge_qrels, pool, read_qrels
from ef.evaluation.errors import FormatNotDetectedError

RUNS = {"bm25": {"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d5": 1.0}}, "dense": {"q1": {"d3": 1.0}}}


@pytest.fixture
def pooled() -> Pool:
    return pool(RUNS, depth=2, qrels={"q1": {"d1": 1}})


def test_the_trec_form_has_no_grade(pooled, tmp_path: Path) -> None:
    pooled.write(tmp_path / "pool.txt")
    assert (tmp_path / "pool.txt").read_text() == "q1 0 d2\nq1 0 d3\nq2 0 d5\n"
    pooled.write(tmp_path / "pool.tsv")
    assert (tmp_path / "pool.tsv").read_text() == "q1\t0\td2\t\nq1\t0\td3\t\nq2\t0\td5\t\n"


def test_the_csv_form_has_empty_relevance_cells(pooled, tmp_path: Path) -> None:
    pooled.write(tmp_path / "pool.csv")
    assert (tmp_path / "pool.csv").read_text() == (
        "query_id,doc_id,relevance\nq1,d2,\nq1,d3,\nq2,d5,\n"
    )


@pytest.mark.parametrize("name", ["pool.txt", "pool.tsv"])
def test_the_qrels_reader_refuses_an_unfilled_pool_by_file_and_line(pooled, tmp_path, name) -> None:
    path = tmp_path / name
    pooled.write(path)
    with pytest.raises(
        DatasetFormatError, match=rf"{name}:1: .*doc 'd2' of query 'q1' has no relevance grade"
    ):
        read_qrels(path)
    with pytest.raises(DatasetFormatError, match=rf"{name}:1: "):
        evaluate_run(RUNS["bm25"], path)
    # Half filled in: the first line left without a grade is named.
    path.write_text("q1 0 d2 1\nq1 0 d3 0\nq2 0 d5\n")
    with pytest.raises(DatasetFormatError, match=rf"{name}:3: .*doc 'd5' of query 'q2'"):
        read_qrels(path)
    with pytest.raises(DatasetFormatError, match=rf"{name}:3: "):
        merge_qrels({"q1": {"d1": 1}}, path)


def test_the_csv_form_is_no_qrels_and_says_what_to_do(pooled, tmp_path: Path) -> None:
    path = tmp_path / "pool.csv"
    pooled.write(path)
    with pytest.raises(FormatNotDetectedError, match=r"looks like a pool to judge .*merge_qrels"):
        read_qrels(path)
    with pytest.raises(
        DatasetFormatError, match=r"pool\.csv:2: doc 'd2' of query 'q1' has no relevance grade yet"
    ):
        merge_qrels({"q1": {"d1": 1}}, path)


def test_a_judged_pool_merges_into_the_qrels_and_scores(pooled, tmp_path: Path) -> None:
    csv_path, trec_path = tmp_path / "judged.csv", tmp_path / "judged.tsv"
    csv_path.write_text('query_id,doc_id,relevance\nq1,d2,0\nq1,d3, 2\n"q2",d5,1\n')
    trec_path.write_text("q1\t0\td2\t0\nq1\t0\td3\t2\nq2\t0\td5\t1\n")
    expected = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d5": 1}}
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    assert merge_qrels(qrels, csv_path) == expected
    assert merge_qrels(qrels, trec_path) == expected
    merged = merge_qrels({"q1": {"d1": 1}}, csv_path)
    # q1: d3 of the relevant d1 and d3; q2: dense has no doc for it.
    assert evaluate_run(RUNS["dense"], merged, metrics=("recall@2",)).metrics["recall@2"] == 0.25


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty"),
        ("query_id,doc_id,relevance\n", ":1: a header and no row"),
        ("q,doc,rel\nq1,d1,1\n", ":1: expected the header query_id,doc_id,relevance"),
        ("query_id,doc_id,relevance\nq1,d1\n", ":2: expected 3 cells"),
        ("query_id,doc_id,relevance\nq1,d1,1.5\n", ":2: relevance '1.5' is not an integer"),
        ("query_id,doc_id,relevance\nq1,d1,1\nq1,d1,1\n", ":3: doc 'd1' is judged twice"),
        ("query_id,doc_id,relevance\nq1,,1\n", ":2: the doc id is empty"),
    ],
)
def test_a_bad_judged_csv_is_refused_by_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "judged.csv"
    path.write_text(text)
    with pytest.raises(DatasetFormatError, match=message):
        merge_qrels({"q1": {"d0": 1}}, path)


@pytest.mark.parametrize("name", ["pool.txt", "pool.csv"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("old\n")
    bad = Pool(depth=1, runs=("r",), docs={"q1": ("d1", "d 2")}, judged={}, contributed={"r": {}})
    with pytest.raises(ValueError, match="doc id 'd 2'"):
        bad.write(path)
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
