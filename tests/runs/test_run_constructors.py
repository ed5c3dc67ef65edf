"""RunTable's named constructors: a DataFrame (from_frame) and a Parquet file (from_parquet)
make the table from_dict makes of the same run, and evaluate_run gives the same numbers."""

from __future__ import annotations

import pandas as pd
import polars as pl
import pytest

from ef.evaluation import DatasetFormatError, evaluate_run
from ef.evaluation._runs.table import RunTable
from ef.evaluation.types import TiePolicy

RUN = {
    "q1": {"d1": 1.5, "d2": 1.5, "d3": 0.25},
    "q2": {"d9": -2.0, "d4": 3.0},
    "q3": {"d1": 0.5},
}
QRELS = {"q1": {"d2": 1, "d3": 2}, "q2": {"d4": 1}, "q3": {"d7": 1}}
ROWS = [(q, d, s) for q, docs in RUN.items() for d, s in docs.items()]


def _same(table: RunTable, expected: RunTable) -> None:
    assert table.query_ids == expected.query_ids
    assert list(table.offsets) == list(expected.offsets)
    assert list(table.original_scores) == list(expected.original_scores)
    for query_id in expected.query_ids:
        assert table.docs_and_scores(query_id)[0] == expected.docs_and_scores(query_id)[0]
        for policy in ("trec_eval", "docno_asc", "input_order"):
            assert table.ranking(query_id, policy) == expected.ranking(query_id, policy)
    policies: tuple[TiePolicy, ...] = ("trec_eval", "input_order", "expected")
    for policy in policies:
        got = evaluate_run(table, QRELS, metrics=("ndcg@3", "map@all"), tie_policy=policy)
        want = evaluate_run(expected, QRELS, metrics=("ndcg@3", "map@all"), tie_policy=policy)
        assert got.metrics == want.metrics
        assert got.per_query == want.per_query


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_from_frame_equals_from_dict(library: str) -> None:
    names = ["q_id", "doc_id", "score"]
    frame = (
        pd.DataFrame(ROWS, columns=names)
        if library == "pandas"
        else pl.DataFrame(ROWS, schema=names, orient="row")
    )
    _same(RunTable.from_frame(frame), RunTable.from_dict(RUN))


def test_from_frame_takes_named_columns() -> None:
    frame = pd.DataFrame(ROWS, columns=["topic", "docno", "sim"])
    table = RunTable.from_frame(frame, columns=("topic", "docno", "sim"))
    _same(table, RunTable.from_dict(RUN))


@pytest.mark.parametrize("names", [None, ("topic", "docno", "sim")])
def test_from_parquet_equals_from_dict(tmp_path, names) -> None:
    path = tmp_path / "run.parquet"
    schema = ["q_id", "doc_id", "score"] if names is None else list(names)
    pl.DataFrame(ROWS, schema=schema, orient="row").write_parquet(path)
    _same(RunTable.from_parquet(path, columns=names), RunTable.from_dict(RUN))
    _same(RunTable.from_parquet(str(path), columns=names), RunTable.from_dict(RUN))


def test_the_constructors_refuse_what_the_readers_refuse(tmp_path) -> None:
    frame = pd.DataFrame([("q1", "d1", None)], columns=["q_id", "doc_id", "score"])
    with pytest.raises(DatasetFormatError, match="the run DataFrame"):
        RunTable.from_frame(frame)
    empty = tmp_path / "empty.parquet"
    pl.DataFrame(
        schema={"q_id": pl.String, "doc_id": pl.String, "score": pl.Float64}
    ).write_parquet(empty)
    with pytest.raises(DatasetFormatError, match="holds no rows"):
        RunTable.from_parquet(empty)
