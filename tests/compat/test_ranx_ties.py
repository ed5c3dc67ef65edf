"""compat.ranx with make_comparable=True says where ranx's own tie order may differ: on a
run whose queries are not the qrels', ranx sorts each query twice."""

from __future__ import annotations

import warnings

import pytest

from ef.evaluation import InputWarning
from ef.evaluation.compat import ranx

QRELS = {"q1": {f"d{i}": int(i % 3 == 0) for i in range(40)}, "q2": {"d1": 1}}
TIED = {"q1": {f"d{i}": float(i // 10) for i in range(40)}}  # four blocks of ten equal scores


def test_ties_at_relevant_docs_of_a_run_made_comparable_are_said() -> None:
    with pytest.warns(InputWarning, match=r"ranx sorts each query twice, and 1 queries \('q1'\)"):
        ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(TIED), "map", make_comparable=True)


@pytest.mark.parametrize(
    "run",
    [
        {"q1": {f"d{i}": float(i) for i in range(40)}, "q2": {"d1": 1.0}},  # no tie
        {**TIED, "q2": {"d1": 1.0}},  # the same queries: one sort, ranx's own
    ],
)
def test_no_tie_or_the_same_queries_are_not_warned_of(run: dict[str, dict[str, float]]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(run), "map", make_comparable=True)
