"""Threshold strings parse strictly; metric keys resolve in any syntax the measures know."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from ef.evaluation import RagEvalReport, RetrievalEvalReport
from ef.evaluation.quality import GateFailure, GateResult, QualityGates, Threshold, parse_threshold
from ef.evaluation.quality.gates import resolve_metric


@pytest.mark.parametrize(
    ("text", "op", "bound"),
    [(">= 0.65", ">=", 0.65), ("> 0.6", ">", 0.6), ("<=0.1", "<=", 0.1), (" < .5 ", "<", 0.5),
     ("== 1.0", "==", 1.0), (">= 1e-3", ">=", 0.001), ("> -0.5", ">", -0.5)],
)  # fmt: skip
def test_good_thresholds(text: str, op: str, bound: float) -> None:
    assert parse_threshold(text) == Threshold(op, bound)


@pytest.mark.parametrize(
    "text", ["0.65", "=> 0.6", ">= ", ">= 0.6 0.7", "≥ 0.6", ">= nan", ">= inf", "!= 1", "", 0.65]
)
def test_bad_thresholds_name_themselves(text: object) -> None:
    with pytest.raises(ValueError, match=rf"bad threshold {text!r} for m: write an operator"):
        parse_threshold(text, metric="m")  # type: ignore[arg-type]


def test_nan_and_none_pass_no_threshold() -> None:
    assert not Threshold("<=", 1.0).holds(math.nan)
    assert not Threshold(">=", 0.0).holds(None)
    assert Threshold("==", 1.0).holds(1.0)


def test_metric_keys_in_other_syntaxes() -> None:
    report = RetrievalEvalReport({"precision@5": 0.4, "ndcg@10": 0.5}, {}, 1, (5, 10))
    assert resolve_metric(report, "P@5") == "precision@5"
    assert resolve_metric(report, "P_5") == "precision@5"  # trec_eval's printed name
    assert resolve_metric(report, "nDCG@10") == "ndcg@10"  # ir_measures'
    with pytest.raises(ValueError, match="unknown metric 'ndcg': the report has precision@5"):
        resolve_metric(report, "ndcg")  # two cutoffs: which one?


def test_a_rag_metric_not_scored_fails_its_threshold(tmp_path: Path) -> None:
    report = RagEvalReport({"token_f1": None, "exact_match": 0.5}, {"token_f1": 0}, 2)
    results: list[GateResult] = []
    gates = QualityGates(tmp_path, record=results.append)
    with pytest.raises(GateFailure, match=r"token_f1 = none \(nothing scored\), expected >= 0.5"):
        gates.check(report, {"token_f1": ">= 0.5", "exact_match": ">= 0.5"})
    assert [(r.metric, r.status) for r in results] == [
        ("token_f1", "fail"),
        ("exact_match", "pass"),
    ]


def test_a_bad_threshold_is_found_before_any_gate_runs(tmp_path: Path) -> None:
    results: list[GateResult] = []
    gates = QualityGates(tmp_path, record=results.append)
    report = RetrievalEvalReport({"ndcg@10": 0.1, "recall@10": 1.0}, {}, 1, (10,))
    with pytest.raises(ValueError, match="bad threshold"):
        gates.check(report, {"ndcg@10": ">= 0.5", "recall@10": "0.9"})
    assert results == []


@pytest.mark.parametrize("name", ["../escape", "a/b", ".hidden", "", "a..b"])
def test_a_baseline_name_stays_in_its_folder(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="bad baseline name"):
        QualityGates(tmp_path).baseline_path(name)


@pytest.mark.parametrize("text", ["<= 1e999", ">= -1e999", "> 1E+400", "== 9e9999"])
def test_a_bound_that_overflows_to_infinity_is_refused(text: str) -> None:
    # "<= 1e999" read as "<= inf" and passed every value, while ">= inf" was refused.
    said = re.escape(
        f"bad threshold {text!r} for m: {text.rsplit(maxsplit=1)[-1]} is no finite number"
    )
    with pytest.raises(ValueError, match=f"^{said}"):
        parse_threshold(text, metric="m")


@pytest.mark.parametrize("bound", [math.inf, -math.inf, math.nan, "0.5", True, None])
def test_a_threshold_built_by_hand_needs_a_finite_bound(bound: object) -> None:
    with pytest.raises(ValueError, match=r"^a threshold's bound is a finite number"):
        Threshold(">=", bound)  # type: ignore[arg-type]


def test_a_gate_with_an_overflowing_bound_fails_before_any_gate_runs(tmp_path: Path) -> None:
    results: list[GateResult] = []
    report = RetrievalEvalReport({"ndcg@10": 0.1}, {}, 1, (10,))
    with pytest.raises(ValueError, match=r"bad threshold '<= 1e999' for ndcg@10"):
        QualityGates(tmp_path, record=results.append).check(report, {"ndcg@10": "<= 1e999"})
    assert results == []
