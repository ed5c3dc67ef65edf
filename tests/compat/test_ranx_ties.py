"""compat.ranx with make_comparable=True says where ranx's own tie order may differ."""

from __future__ import annotations

import warnings

import pytest

from ef.evaluation import InputWarning
from ef.evaluation.compat import ranx

QRELS = {"q1": {f"d{i}": int(i % 3 == 0) for i in range(40)}}
TIED = {"q1": {f"d{i}": float(i // 10) for i in range(40)}}  # four blocks of ten equal scores


def test_ties_at_relevant_docs_under_make_comparable_are_said() -> None:
    with pytest.warns(InputWarning, match=r"make_comparable=True, .* 1 queries \('q1'\) have"):
        tied = ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(TIED), "map", make_comparable=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # without make_comparable: ranx's order, unsaid
        assert ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(TIED), "map") == tied


def test_a_run_without_ties_is_not_warned_of() -> None:
    distinct = {"q1": {f"d{i}": float(i) for i in range(40)}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(distinct), "map", make_comparable=True)
