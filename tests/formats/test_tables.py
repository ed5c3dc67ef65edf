"""Runs and qrels as pandas or polars DataFrames and as Parquet files: the same numbers as
the dicts they hold, and every bad value named by column and row."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormatError,
    compare,
    convert,
    evaluate_run,
    read_qrels,
    read_run,
    write_qrels,
    write_run,
)
from ef.evaluation._formats.frames import run_of_table
from ef.evaluation.cli import cli

from ..profiles_hypothesis import examples
from .helpers import BUILTIN

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

METRICS = ("ndcg@10", "map@all", "precision@5", "recall@10", "mrr@10", "bpref")


def _inputs(seed: int = 7) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]]:
    """A run with tied scores (one decimal) and graded qrels with a query the run lacks."""
    rng = random.Random(seed)
    run = {
        f"q{q}": {f"d{d}": round(rng.random(), 1) for d in rng.sample(range(40), 15)}
        for q in range(12)
    }
    qrels = {
        f"q{q}": {f"d{d}": rng.choice((0, 1, 2)) for d in rng.sample(range(40), 8)}
        for q in range(14)
    }
    return run, qrels


def _rows(
    mapping: Mapping[str, Mapping[str, float]], value: str, shuffle: bool = False
) -> dict[str, list[Any]]:
    rows = [(q, d, v) for q, docs in mapping.items() for d, v in docs.items()]
    if shuffle:  # a query's rows need not be together; their order within it is kept
        random.Random(3).shuffle(rows)
    return {
        "q_id": [r[0] for r in rows],
        "doc_id": [r[1] for r in rows],
        value: [r[2] for r in rows],
    }


def _same(a, b) -> None:
    assert a.metrics == b.metrics
    assert a.per_query == b.per_query
    assert a.missing == b.missing


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_a_dataframe_scores_as_the_dict_it_holds(library: str) -> None:
    run, qrels = _inputs()
    make = pd.DataFrame if library == "pandas" else pl.DataFrame
    frame_run, frame_qrels = make(_rows(run, "score")), make(_rows(qrels, "score"))
    expected = evaluate_run(run, qrels, metrics=METRICS, registry=BUILTIN)
    got = evaluate_run(frame_run, frame_qrels, metrics=METRICS, registry=BUILTIN)
    _same(got, expected)
    assert expected.ties.at_cutoff  # the ties are there, and ranked by trec_eval's rule alike
    assert got.ties == expected.ties


def test_row_order_within_a_query_is_the_input_order() -> None:
    run, qrels = _inputs(11)
    shuffled = pd.DataFrame(_rows(run, "score", shuffle=True))
    # The dict in the shuffled rows' order: what input_order must rank ties by.
    in_rows: dict[str, dict[str, float]] = {}
    for q, d, s in zip(shuffled.q_id, shuffled.doc_id, shuffled.score, strict=True):
        in_rows.setdefault(q, {})[d] = s
    for policy in ("input_order", "trec_eval"):
        _same(
            evaluate_run(shuffled, qrels, metrics=METRICS, tie_policy=policy, registry=BUILTIN),
            evaluate_run(in_rows, qrels, metrics=METRICS, tie_policy=policy, registry=BUILTIN),
        )


def test_ir_measures_and_pyterrier_columns_are_found() -> None:
    run, qrels = _inputs()
    expected = evaluate_run(run, qrels, metrics=METRICS, registry=BUILTIN)
    ir_run = pd.DataFrame(_rows(run, "score")).rename(columns={"q_id": "query_id"})
    ir_qrels = pd.DataFrame(_rows(qrels, "relevance")).rename(columns={"q_id": "query_id"})
    _same(evaluate_run(ir_run, ir_qrels, metrics=METRICS, registry=BUILTIN), expected)
    pt_run = pd.DataFrame(_rows(run, "score")).rename(columns={"q_id": "qid", "doc_id": "docno"})
    pt_qrels = pd.DataFrame(_rows(qrels, "label")).rename(
        columns={"q_id": "qid", "doc_id": "docno"}
    )
    _same(evaluate_run(pt_run, pt_qrels, metrics=METRICS, registry=BUILTIN), expected)


def test_columns_can_be_named() -> None:
    run, qrels = _inputs()
    frame = pd.DataFrame(_rows(run, "score")).rename(
        columns={"q_id": "topic", "doc_id": "doc", "score": "s"}
    )
    grades = pd.DataFrame(_rows(qrels, "score")).rename(columns={"score": "grade"})
    got = evaluate_run(
        frame,
        grades,
        metrics=METRICS,
        run_columns=("topic", "doc", "s"),
        qrels_columns=("q_id", "doc_id", "grade"),
        registry=BUILTIN,
    )
    _same(got, evaluate_run(run, qrels, metrics=METRICS, registry=BUILTIN))
    with pytest.raises(DatasetFormatError, match=r"no column 'score' \(run_columns="):
        evaluate_run(frame, qrels, run_columns=("topic", "doc", "score"), registry=BUILTIN)
    with pytest.raises(ValueError, match="run_columns names 3 columns"):
        evaluate_run(frame, qrels, run_columns=("topic", "doc"), registry=BUILTIN)


def test_the_caller_s_dataframes_are_not_changed() -> None:
    run, qrels = _inputs()
    frame, grades = pd.DataFrame(_rows(run, "score")), pd.DataFrame(_rows(qrels, "score"))
    before = frame.copy(), grades.copy()
    evaluate_run(frame, grades, metrics=METRICS, ignore_identical_ids=True, registry=BUILTIN)
    pd.testing.assert_frame_equal(frame, before[0])
    pd.testing.assert_frame_equal(grades, before[1])


GOOD: dict[str, list[Any]] = {
    "q_id": ["q1", "q1", "q2"],
    "doc_id": ["d1", "d2", "d3"],
    "score": [0.5, 0.9, 0.1],
}
QRELS = {"q1": {"d1": 1}, "q2": {"d3": 1}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"score": [0.5, None, 0.1]}, "column 'score' row 1 is null; every row needs a score"),
        ({"score": ["0.5", "0.9", "0.1"]}, "column 'score' row 0 holds '0.5' (a str)"),
        ({"score": [0.5, float("nan"), 0.1]}, "column 'score' row 1 is null"),  # NaN is NA
        ({"score": [0.5, float("inf"), 0.1]}, "row 1 holds inf; a score is a finite number"),
        # Ints too large for a float, whose sum is 0: was a bare OverflowError.
        (
            {"score": [10**400, -(10**400), 1]},
            "row 0 holds 100000000000000000...0000000000000000000; a score is a finite number",
        ),
        ({"score": [True, False, True]}, "column 'score' row 0 holds True (a bool)"),
        ({"doc_id": ["d1", "d1", "d3"]}, "rows 0 and 1 both have q_id='q1', doc_id='d1'"),
        ({"doc_id": ["d1", None, "d3"]}, "column 'doc_id' row 1 is null; every row needs an id"),
        ({"q_id": [1.5, 1.5, 2.0]}, "column 'q_id' row 0 holds 1.5 (a float)"),
        ({"doc_id": ["d1", "", "d3"]}, "column 'doc_id' row 1 is an empty id"),
    ],
)
def test_a_bad_value_is_named_by_column_and_row(change: dict[str, list[Any]], message: str) -> None:
    frame = pd.DataFrame({**GOOD, **change})
    with pytest.raises(DatasetFormatError) as info:
        evaluate_run(frame, QRELS, registry=BUILTIN)
    assert str(info.value).startswith("the run DataFrame: ")
    assert message in str(info.value)


def test_polars_nulls_and_nans_are_refused_too() -> None:
    frame = pl.DataFrame({**GOOD, "score": [0.5, None, 0.1]})
    with pytest.raises(DatasetFormatError, match="column 'score' row 1 is null"):
        evaluate_run(frame, QRELS, registry=BUILTIN)
    frame = pl.DataFrame({**GOOD, "score": [0.5, float("nan"), 0.1]})
    with pytest.raises(DatasetFormatError, match="row 1 holds nan; a score is a finite number"):
        evaluate_run(frame, QRELS, registry=BUILTIN)


def test_int_ids_are_their_str() -> None:
    frame = pd.DataFrame({"q_id": [1, 1, 2], "doc_id": [10, 11, 12], "score": [0.5, 0.9, 0.1]})
    got = evaluate_run(frame, {"1": {"10": 1}, "2": {"12": 1}}, metrics=("mrr@10",))
    assert got.metrics == {"mrr@10": 0.75}


def _object_column(values: list[Any], library: str) -> Any:
    return (
        pd.Series(values, dtype=object)
        if library == "pandas"
        else pl.Series(values, dtype=pl.Object)
    )


@pytest.mark.parametrize("library", ["pandas", "polars"])
@pytest.mark.parametrize(
    ("column", "values", "rows"),
    [
        ("q_id", ["q1", 1, "q2"], "row 0 holds 'q1', row 1 holds 1, an int"),
        ("doc_id", [10, "d2", "d3"], "row 1 holds 'd2', row 0 holds 10, an int"),
    ],
)
def test_ids_that_mix_str_and_int_are_refused(
    library: str, column: str, values: list[Any], rows: str
) -> None:
    # 1 and "q1" (or "1") in one column: one query spelt two ways, split in two, scored 0.
    columns = {**GOOD, column: _object_column(values, library)}
    frame = pd.DataFrame(columns) if library == "pandas" else pl.DataFrame(columns)
    with pytest.raises(DatasetFormatError) as info:
        evaluate_run(frame, QRELS, registry=BUILTIN)
    message = str(info.value)
    assert message.startswith(f"the run DataFrame: column {column!r} mixes str and int ids")
    assert rows in message
    assert f"df[{column!r}].astype(str)" in message
    qrels = {"query_id": ["q1", 1], "doc_id": ["d1", "d3"], "relevance": [1, 1]}
    with pytest.raises(DatasetFormatError, match=r"^the qrels DataFrame: column 'query_id' mixes"):
        evaluate_run(pd.DataFrame(GOOD), pd.DataFrame(qrels), registry=BUILTIN)


def test_columns_that_cannot_be_told_are_refused() -> None:
    with pytest.raises(DatasetFormatError, match=r"cannot tell the query, doc and score columns"):
        evaluate_run(pd.DataFrame({"a": ["q1"], "b": ["d1"], "c": [1.0]}), QRELS)
    both = pd.DataFrame({**GOOD, "query_id": GOOD["q_id"]})
    with pytest.raises(
        DatasetFormatError,
        match=r"hold both ranx's q_id, doc_id, score and ir_measures' query_id, doc_id, score",
    ):
        evaluate_run(both, QRELS)
    with pytest.raises(DatasetFormatError, match=r"^the qrels DataFrame: cannot tell"):
        evaluate_run({"q1": {"d1": 1.0}}, pd.DataFrame({"x": [1]}))


def test_a_lazy_frame_is_refused_with_what_to_do() -> None:
    with pytest.raises(TypeError, match=r"run is a polars LazyFrame; collect\(\) it first"):
        evaluate_run(pl.DataFrame(GOOD).lazy(), QRELS)
    with pytest.raises(TypeError, match=r"qrels is a polars LazyFrame; collect\(\) it first"):
        evaluate_run({"q1": {"d1": 1.0}}, pl.DataFrame(GOOD).lazy())


def test_swapped_tables_are_caught() -> None:
    # ranx's columns are the same for runs and qrels: the values tell them apart.
    run = pd.DataFrame(GOOD)
    grades = pd.DataFrame({"q_id": ["q1", "q2"], "doc_id": ["d1", "d3"], "score": [1, 2]})
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        evaluate_run(grades, run)
    assert evaluate_run(grades, run, check_swapped=False).n_queries == 2


def test_compare_takes_dataframes(builtin_registry) -> None:
    run, qrels = _inputs()
    other, _ = _inputs(8)
    report = compare(
        {"a": pd.DataFrame(_rows(run, "score")), "b": pl.DataFrame(_rows(other, "score"))},
        pd.DataFrame(_rows(qrels, "score")),
        metrics=("ndcg@10",),
        registry=builtin_registry,
    )
    expected = compare({"a": run, "b": other}, qrels, metrics=("ndcg@10",))
    assert report.means == expected.means
    assert report.scores == expected.scores
    assert report.comparisons == expected.comparisons


# Parquet


def test_parquet_round_trips_and_scores_as_the_dicts(tmp_path: Path) -> None:
    run, qrels = _inputs()
    write_run(tmp_path / "run.parquet", run, format="parquet")
    write_qrels(tmp_path / "qrels.parquet", qrels, format="parquet")
    assert read_run(tmp_path / "run.parquet") == run
    assert read_qrels(tmp_path / "qrels.parquet") == qrels
    _same(
        evaluate_run(tmp_path / "run.parquet", tmp_path / "qrels.parquet", metrics=METRICS),
        evaluate_run(run, qrels, metrics=METRICS, registry=BUILTIN),
    )


def test_parquet_is_detected_by_its_magic_bytes(tmp_path: Path) -> None:
    pl.DataFrame(GOOD).write_parquet(tmp_path / "run.bin")
    assert read_run(tmp_path / "run.bin") == {"q1": {"d1": 0.5, "d2": 0.9}, "q2": {"d3": 0.1}}


def test_a_parquet_file_of_ir_datasets_columns_with_named_columns(tmp_path: Path) -> None:
    path = tmp_path / "run.parquet"
    pl.DataFrame({"topic": ["q1", "q2"], "doc": ["d1", "d3"], "s": [1.0, 2.0]}).write_parquet(path)
    with pytest.raises(DatasetFormatError, match=rf"^{path}: cannot tell the query, doc"):
        evaluate_run(path, QRELS)
    got = evaluate_run(path, QRELS, run_columns=("topic", "doc", "s"), metrics=("mrr@10",))
    assert got.metrics == {"mrr@10": 1.0}
    with pytest.raises(ValueError, match="run_columns= names the columns of a DataFrame or a"):
        evaluate_run({"q1": {"d1": 1.0}}, QRELS, run_columns=("topic", "doc", "s"))


def test_a_bad_parquet_value_names_the_file_column_and_row(tmp_path: Path) -> None:
    path = tmp_path / "qrels.parquet"
    pl.DataFrame({"q_id": ["q1", "q1"], "doc_id": ["d1", "d1"], "score": [1, 2]}).write_parquet(
        path
    )
    with pytest.raises(DatasetFormatError, match=f"^{path}: rows 0 and 1 both have q_id='q1'"):
        read_qrels(path)


def test_a_damaged_parquet_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "run.parquet"
    pl.DataFrame(GOOD).write_parquet(path)
    data = path.read_bytes()
    path.write_bytes(data[:4] + b"\0" * 64 + data[68:])
    with pytest.raises(DatasetFormatError, match=f"^{path}: cannot read it as Parquet"):
        read_run(path)


def _empty_parquet(path: Path) -> Path:
    schema = {"q_id": pl.String, "doc_id": pl.String, "score": pl.Float64}
    pl.DataFrame({"q_id": [], "doc_id": [], "score": []}, schema=schema).write_parquet(path)
    return path


def test_an_empty_parquet_file_is_refused_naming_it(tmp_path: Path) -> None:
    # Not {} (a run that scores nothing, "the run is empty" naming no file): as TREC's readers.
    path = _empty_parquet(tmp_path / "run.parquet")
    named = f"^{path}: the file holds no rows \\(columns: q_id, doc_id, score\\); expected"
    with pytest.raises(DatasetFormatError, match=named + " a run, one row per"):
        read_run(path)
    with pytest.raises(DatasetFormatError, match=named + " qrels, one row per"):
        read_qrels(path)
    for run_columns in (None, ("q_id", "doc_id", "score")):  # read as a file, or as a table
        with pytest.raises(DatasetFormatError, match=named + " a run"):
            evaluate_run(path, QRELS, run_columns=run_columns)
    with pytest.raises(DatasetFormatError, match=named + " qrels"):
        evaluate_run({"q1": {"d1": 1.0}}, path, qrels_columns=("q_id", "doc_id", "score"))


def test_the_cli_names_an_empty_parquet_run(tmp_path: Path) -> None:
    from click.testing import CliRunner

    path = _empty_parquet(tmp_path / "run.parquet")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    result = CliRunner().invoke(cli, ["evaluate", str(qrels), str(path)])
    assert result.exit_code == 2
    assert f"Error: {path}: the file holds no rows" in result.stderr


def test_a_failed_parquet_write_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(DatasetFormatError, match="a score must be a finite number"):
        write_run(tmp_path / "run.parquet", {"q1": {"d1": float("nan")}}, format="parquet")
    assert list(tmp_path.iterdir()) == []


def test_convert_to_parquet_and_back_keeps_the_tag(tmp_path: Path) -> None:
    source = tmp_path / "run.txt"
    source.write_text("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\nq2 Q0 d3 1 0.5 bm25\n")
    assert convert(source, tmp_path / "run.parquet") == "run"
    assert pl.read_parquet(tmp_path / "run.parquet").get_column("tag").to_list() == ["bm25"] * 3
    convert(tmp_path / "run.parquet", tmp_path / "back.trec")
    assert (tmp_path / "back.trec").read_text() == source.read_text()
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\n")
    convert(qrels, tmp_path / "judged.parquet", kind="qrels")
    assert read_qrels(tmp_path / "judged.parquet") == {"q1": {"d1": 2, "d2": 0}}
    with pytest.raises(ValueError, match="name it with kind="):
        convert(tmp_path / "judged.parquet", tmp_path / "x.trec")


def test_the_cli_evaluates_parquet_files(tmp_path: Path) -> None:
    from click.testing import CliRunner

    run, qrels = _inputs()
    write_run(tmp_path / "run.parquet", run, format="parquet")
    write_qrels(tmp_path / "qrels.parquet", qrels, format="parquet")
    result = CliRunner().invoke(
        cli,
        ["evaluate", str(tmp_path / "qrels.parquet"), str(tmp_path / "run.parquet"), "-o", "json"],
    )
    assert result.exit_code == 0, result.stderr
    import json

    expected = evaluate_run(run, qrels, registry=BUILTIN)
    assert json.loads(result.stdout)["metrics"] == pytest.approx(expected.metrics, abs=0)


def test_the_cli_reads_parquet_columns_it_is_told(tmp_path: Path) -> None:
    from click.testing import CliRunner

    run = tmp_path / "run.parquet"
    pl.DataFrame({"topic": ["q1", "q2"], "doc": ["d1", "d3"], "s": [1.0, 2.0]}).write_parquet(run)
    write_qrels(tmp_path / "qrels.txt", QRELS)
    args = ["evaluate", str(tmp_path / "qrels.txt"), str(run), "-m", "mrr@10", "-o", "csv"]
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 2
    assert "cannot tell the query, doc and score columns among topic, doc, s" in refused.stderr
    told = CliRunner().invoke(cli, [*args, "--run-columns", "topic,doc,s"])
    assert told.exit_code == 0, told.stderr
    assert told.stdout == "metric,@10\nmrr,1.0\n"


def _grouped_row_by_row(
    queries: list[str], docs: list[str], scores: list[float]
) -> dict[str, dict[str, float]] | str:
    """The run a table holds, read as the module's rules say, one row at a time: a query's
    rows merged wherever they stand, a doc listed twice for a query an error naming both."""
    rows: dict[str, dict[str, int]] = {}
    for row, (query_id, doc_id) in enumerate(zip(queries, docs, strict=True)):
        first = rows.setdefault(query_id, {}).setdefault(doc_id, row)
        if first != row:
            return f"rows {first} and {row} both have q_id={query_id!r}, doc_id={doc_id!r}"
    return {q: {d: scores[row] for d, row in ranked.items()} for q, ranked in rows.items()}


@given(
    st.lists(
        st.tuples(st.sampled_from(["q1", "q2", "q3"]), st.sampled_from(["d1", "d2", "d3"])),
        min_size=1,
        max_size=12,
    ),
    st.booleans(),
)
@settings(max_examples=examples(300))
def test_a_table_is_grouped_as_row_by_row(pairs: list[tuple[str, str]], together: bool) -> None:
    # Each query's rows together (the usual table, grouped in C-level passes) or not.
    if together:
        pairs = sorted(pairs, key=lambda pair: pair[0])
    queries, docs = [q for q, _ in pairs], [d for _, d in pairs]
    scores = [float(i) for i in range(len(pairs))]
    want = _grouped_row_by_row(queries, docs, scores)
    table = {"q_id": queries, "doc_id": docs, "score": scores}
    if isinstance(want, str):
        with pytest.raises(DatasetFormatError, match=re.escape(want)):
            run_of_table(table)
        return
    got = run_of_table(table)
    assert [(q, list(ranked.items())) for q, ranked in got.items()] == [
        (q, list(ranked.items())) for q, ranked in want.items()
    ]
