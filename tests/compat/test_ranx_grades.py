"""compat.ranx holds whole grades as ranx does (its ``int(grade)``), and says so where it cuts
one: the warning names the grade, and points at the line that made the qrels. (The numbers
against ranx itself: test_ranx.py, in the peers group.)"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from ef.evaluation import InputWarning
from ef.evaluation.compat.ranx import Qrels, evaluate

GRADED: dict[str, dict[str, float]] = {"q1": {"d1": 1.5, "d2": 2, "d3": -0.5}, "q2": {"d4": 2.0}}
WHOLE: dict[str, dict[str, float]] = {"q1": {"d1": 1, "d2": 2, "d3": 0}, "q2": {"d4": 2.0}}
RUN: dict[str, dict[str, float]] = {"q1": {"d3": 3.0, "d1": 2.0, "d2": 1.0}, "q2": {"d4": 1.0}}
MESSAGE = (
    "ranx holds whole grades: qrels['q1']['d1'] = 1.5 is read as 1, as ranx truncates it "
    "(2 grades cut in all); round the grades yourself to choose otherwise"
)


def _json(tmp_path: Path) -> Qrels:
    path = tmp_path / "qrels.json"
    path.write_text(json.dumps(GRADED), encoding="utf-8")
    return Qrels.from_file(path)


def _table() -> pl.DataFrame:
    rows = [(q, d, float(g)) for q, docs in GRADED.items() for d, g in docs.items()]
    return pl.DataFrame(rows, schema=["q_id", "doc_id", "score"], orient="row")


def _frame(_: Path) -> Qrels:
    return Qrels.from_df(_table())


def _parquet(tmp_path: Path) -> Qrels:
    path = tmp_path / "qrels.parquet"
    _table().write_parquet(path)
    return Qrels.from_parquet(path)


MAKERS: dict[str, Callable[[Path], Qrels]] = {
    "Qrels()": lambda _: Qrels(GRADED),
    "from_dict": lambda _: Qrels.from_dict(GRADED),
    "from_file (JSON)": _json,
    "from_df": _frame,
    "from_parquet": _parquet,
}


@pytest.mark.parametrize("how", MAKERS)
def test_a_fractional_grade_is_truncated_and_said(tmp_path: Path, how: str) -> None:
    with pytest.warns(InputWarning) as caught:
        qrels = MAKERS[how](tmp_path)
    assert qrels.to_dict() == WHOLE
    assert [str(w.message) for w in caught] == [MESSAGE]
    assert caught[0].filename == __file__, "the warning points inside compat.ranx"


def test_evaluate_with_a_dict_truncates_as_ranx_s_qrels_do() -> None:
    metrics = ["ndcg@10", "dcg@3", "map", "precision@2-l2"]
    with pytest.warns(InputWarning, match=r"qrels\['q1'\]\['d1'\] = 1\.5 is read as 1") as caught:
        got = evaluate(GRADED, RUN, metrics)
    assert caught[0].filename == __file__
    assert got == evaluate(WHOLE, RUN, metrics)


def test_whole_grades_pass_without_a_warning(recwarn: pytest.WarningsRecorder) -> None:
    qrels = Qrels({"q1": {"d1": 2.0, "d2": 1, "d3": -1}})
    assert qrels.to_dict() == {"q1": {"d1": 2.0, "d2": 1, "d3": -1}}
    assert not recwarn.list


@pytest.mark.parametrize("grade", [math.nan, math.inf])
def test_a_grade_that_is_not_finite_is_still_refused(grade: float) -> None:
    with pytest.raises(
        ValueError, match=r"^qrels\['q1'\]\['d1'\] = (nan|inf): a grade is a finite"
    ):
        Qrels({"q1": {"d1": grade}})


def test_qrels_of_another_shape_are_left_to_the_checks() -> None:
    bad: Any = {"q1": [("d1", 1.5)]}
    with pytest.raises(TypeError, match=r"^qrels\['q1'\] is a list; expected \{doc: grade\}"):
        Qrels(bad)


@pytest.mark.parametrize("kind", [np.float32, np.float64])
def test_a_numpy_grade_is_truncated_as_a_float_is(kind: type[np.floating[Any]]) -> None:
    """A grade as numpy holds it (a dict built from an array) is cut as ranx's int() cuts it."""
    graded = {q: {d: kind(g) for d, g in docs.items()} for q, docs in GRADED.items()}
    with pytest.warns(InputWarning, match=r"qrels\['q1'\]\['d1'\] = .*1\.5.* is read as 1"):
        qrels = Qrels(graded)
    assert qrels.to_dict() == WHOLE
    with pytest.warns(InputWarning, match=r"\(2 grades cut in all\)") as caught:
        got = evaluate(graded, RUN, ["ndcg@10", "dcg@3"])
    assert caught[0].filename == __file__
    assert got == evaluate(WHOLE, RUN, ["ndcg@10", "dcg@3"])
