"""QueryValues (the engine's per-query values as columns) against the dict of dicts it stands
for: every way a report's ``per_query`` is read must give the same answers."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import evaluate_run
from ef.evaluation._engine.query_values import QueryValues
from ef.evaluation._reports import RetrievalEvalReport
from ef.evaluation.types import FrozenDict

from .profiles_hypothesis import examples

KEYS = st.lists(st.sampled_from(["ndcg@10", "P@10", "map@all", "mrr@10"]), unique=True)
VALUES = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], dict[str, list[float]]]:
    ids = draw(st.lists(st.text("qab12", min_size=1, max_size=4), unique=True, max_size=12))
    keys = draw(KEYS)
    return ids, {k: draw(st.lists(VALUES, min_size=len(ids), max_size=len(ids))) for k in keys}


@settings(max_examples=examples(200))
@given(tables())
def test_query_values_read_as_the_dict_of_dicts(
    table: tuple[list[str], dict[str, list[float]]],
) -> None:
    ids, columns = table
    values = QueryValues(ids, columns)
    rows = {q: {k: columns[k][i] for k in columns} for i, q in enumerate(ids)}
    nested = FrozenDict({q: FrozenDict(row) for q, row in rows.items()})
    assert values == rows
    assert rows == values
    assert values == nested
    assert hash(values) == hash(nested)
    assert repr(values) == repr(rows)
    assert list(values) == ids
    assert len(values) == len(ids)
    assert list(values.items()) == list(rows.items())
    assert list(values.values()) == list(rows.values())
    assert all(values[q] == rows[q] and q in values for q in ids)
    assert "absent" not in values
    with pytest.raises(KeyError):
        values["absent"]
    for again in (pickle.loads(pickle.dumps(values)), copy.deepcopy(values)):
        assert again == values
        assert type(again) is QueryValues
    for key in columns:
        assert values.column(key).tolist() == columns[key]
    if ids and columns:
        other = {**rows, ids[0]: {k: v + 1.0 for k, v in rows[ids[0]].items()}}
        assert values != other


def test_rows_are_read_only_and_duplicates_are_refused() -> None:
    values = QueryValues(["q1"], {"P@10": [0.1]})
    with pytest.raises(TypeError, match="read-only"):
        values["q1"]["P@10"] = 1.0  # a FrozenDict: refused at run time
    with pytest.raises(TypeError, match="read-only"):
        values.column("P@10")[0] = 1.0  # type: ignore[call-overload]  # read-only view
    with pytest.raises(ValueError, match="listed twice"):
        _ = "q1" in QueryValues(["q1", "q1"], {"P@10": [0.1, 0.2]})
    with pytest.raises(ValueError, match="1 values for 2 queries"):
        QueryValues(["q1", "q2"], {"P@10": [0.1]})


def test_a_report_keeps_the_engines_columns_and_round_trips(tmp_path) -> None:
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d3 1 1.0 r\n")
    qrels = {"q1": {"d2": 1}, "q2": {"d3": 2}, "q3": {"d9": 1}}
    report = evaluate_run(run, qrels, metrics=("ndcg@10", "P@10"))
    # Columns, not a dict per query: the memory of a report of 200,000 queries.
    assert type(report.per_query) is QueryValues
    assert report.per_query["q3"] == {"ndcg@10": 0.0, "precision@10": 0.0}
    again = RetrievalEvalReport.from_dict(report.to_dict())
    assert again == report
    assert hash(again) == hash(report)
    assert type(again.per_query) is not QueryValues  # made of plain mappings: kept so
