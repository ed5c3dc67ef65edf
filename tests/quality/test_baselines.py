"""A baseline gate is never dropped: a baseline that lacks a metric, or holds no finite number
for it (null, NaN, an infinity), fails that gate, naming the file and the metric and saying
how to rewrite it; not_worse fails the same way. (The plugin's summary: test_plugin.py.)"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ef.evaluation import RagEvalReport, RetrievalEvalReport, save_report
from ef.evaluation.quality import GateFailure, GateResult, QualityGates

QUERIES = [f"q{i}" for i in range(8)]


def retrieval(ndcg: float, recall: float = 0.8) -> RetrievalEvalReport:
    per_query = {
        q: {"ndcg@10": ndcg + (i % 2) * 0.01, "recall@10": recall} for i, q in enumerate(QUERIES)
    }
    means = {"ndcg@10": ndcg + 0.005, "recall@10": recall}
    return RetrievalEvalReport(means, per_query, len(QUERIES), (10,))


def gates(folder: Path) -> tuple[QualityGates, list[GateResult]]:
    results: list[GateResult] = []
    return QualityGates(folder, record=results.append), results


def store(folder: Path, metrics: str) -> Path:
    """A baseline ``main`` whose metrics are ``metrics`` (JSON text), the rest as saved."""
    path = save_report(retrieval(0.6), folder / "main.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    document["report"]["metrics"] = json.loads(metrics)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("null", "NaN"),
        ('"NaN"', "NaN"),
        ('"Infinity"', "Infinity"),
        ('"-Infinity"', "-Infinity"),
    ],
)
def test_a_baseline_metric_that_is_no_number_fails_its_gate(
    tmp_path: Path, stored: str, shown: str
) -> None:
    path = store(tmp_path, f'{{"ndcg@10": {stored}, "recall@10": 0.8}}')
    quality, results = gates(tmp_path)
    with pytest.raises(GateFailure) as info:
        quality.baseline("main", retrieval(0.6))
    assert str(info.value).splitlines() == [
        "baseline 'main' cannot gate 1 metric:",
        f"  ndcg@10: the baseline {path} holds ndcg@10 = {shown}, no number to hold the report to",
        "  re-save the baseline from a report where the metric is a number (pytest "
        "--ef-update-baselines), or leave it out of the gate (pass metrics= without it)",
    ]
    # Every metric asked for is a gate: recall@10 held, ndcg@10 failed; none is dropped.
    assert [(r.metric, r.status) for r in results] == [("ndcg@10", "fail"), ("recall@10", "pass")]
    assert str(path) in results[0].detail


def test_a_metric_the_baseline_lacks_fails_its_gate_and_a_typo_is_an_error(
    tmp_path: Path,
) -> None:
    path = store(tmp_path, '{"recall@10": 0.8}')
    quality, results = gates(tmp_path)
    with pytest.raises(GateFailure, match=rf"ndcg@10: the baseline {path} has no ndcg@10, "):
        quality.baseline("main", retrieval(0.6), metrics=["ndcg_cut_10", "recall@10"])
    assert [(r.metric, r.status) for r in results] == [("ndcg@10", "fail"), ("recall@10", "pass")]
    assert "drop it from metrics=" in results[0].detail
    with pytest.raises(ValueError, match="unknown metric 'ndcg@11': neither the report nor"):
        quality.baseline("main", retrieval(0.6), metrics=["ndcg@11"])


def test_drops_and_metrics_without_a_number_are_listed_together(tmp_path: Path) -> None:
    path = store(tmp_path, '{"ndcg@10": null, "recall@10": 0.9}')
    quality, _ = gates(tmp_path)
    with pytest.raises(GateFailure) as info:
        quality.baseline("main", retrieval(0.6, recall=0.5))
    lines = str(info.value).splitlines()
    assert lines[0] == "quality dropped below baseline 'main':"
    assert lines[1].startswith("  recall@10 = 0.5000, baseline 0.9000, a drop of 0.4000")
    assert "baseline 'main' cannot gate 1 metric:" in lines
    assert any(str(path) in line and "ndcg@10" in line for line in lines)


def test_a_rag_baseline_with_a_metric_that_scored_nothing_fails_that_gate(tmp_path: Path) -> None:
    stored = RagEvalReport.from_values({"token_f1": [0.5, 0.7], "context_recall": [None, None]},
                                       ["a", "b"])  # fmt: skip
    assert stored.metrics["context_recall"] is None
    quality, results = gates(tmp_path)
    save_report(stored, quality.baseline_path("rag"))
    with pytest.raises(GateFailure, match=r"holds context_recall = null \(nothing scored\)"):
        quality.baseline("rag", stored)
    assert {r.metric: r.status for r in results} == {"token_f1": "pass", "context_recall": "fail"}
    quality.baseline("rag", stored, metrics=["token_f1"])  # the fix the message gives


def test_the_same_report_holds_its_own_finite_baseline(tmp_path: Path) -> None:
    quality, results = gates(tmp_path)
    save_report(retrieval(0.6), quality.baseline_path("main"))
    quality.baseline("main", retrieval(0.6))
    assert [r.status for r in results] == ["pass", "pass"]


def test_an_unreadable_baseline_fails_the_gate_naming_the_file(tmp_path: Path) -> None:
    quality, results = gates(tmp_path)
    path = quality.baseline_path("main")
    path.write_text('{"format": "ef-evaluation-report", "version": 1, "report": NaN}')
    with pytest.raises(GateFailure, match=rf"{path}: line 1: the bare NaN is not JSON.*"
                       "re-create it with pytest --ef-update-baselines"):  # fmt: skip
        quality.baseline("main", retrieval(0.6))
    assert [(r.metric, r.status) for r in results] == [("-", "fail")]


@pytest.mark.parametrize("side", ["baseline", "report"])
def test_not_worse_fails_where_a_mean_is_no_number_instead_of_passing(
    tmp_path: Path, side: str
) -> None:
    pytest.importorskip("scipy")
    nan = RetrievalEvalReport(
        {"ndcg@10": math.nan, "recall@10": 0.8},
        {q: {"ndcg@10": math.nan, "recall@10": 0.8} for q in QUERIES},
        len(QUERIES),
        (10,),
    )
    good = retrieval(0.6)
    quality, results = gates(tmp_path)
    save_report(nan if side == "baseline" else good, quality.baseline_path("main"))
    report = good if side == "baseline" else nan
    with pytest.raises(GateFailure) as info:
        quality.not_worse(report, "main", metric=["ndcg@10", "recall@10"])
    where = f"the baseline {quality.baseline_path('main')}" if side == "baseline" else "the report"
    assert str(info.value).splitlines()[:2] == [
        "cannot compare with baseline main:",
        f"  ndcg@10: {where} holds ndcg@10 = NaN, no number to compare"
        + (" the report with" if side == "baseline" else ""),
    ]
    assert [(r.metric, r.status) for r in results] == [("ndcg@10", "fail"), ("recall@10", "pass")]


def test_a_baseline_of_no_metric_fails_rather_than_checking_nothing(tmp_path: Path) -> None:
    path = store(tmp_path, "{}")
    quality, results = gates(tmp_path)
    with pytest.raises(GateFailure, match=rf"cannot gate anything: the baseline {path} holds no"):
        quality.baseline("main", retrieval(0.6))
    assert [(r.metric, r.status) for r in results] == [("-", "fail")]  # counted, not dropped


@pytest.mark.parametrize("tolerance", [math.inf, math.nan, -0.01, "0.01", True])
def test_a_tolerance_that_lets_every_drop_through_is_refused(
    tmp_path: Path, tolerance: object
) -> None:
    # An infinite tolerance passed a drop to 0: the gate switched off with no word.
    store(tmp_path, '{"ndcg@10": 0.6}')
    gate, results = gates(tmp_path)
    with pytest.raises(ValueError, match=r"^tolerance must be a finite number >= 0, got "):
        gate.baseline("main", retrieval(0.0), tolerance=tolerance)  # type: ignore[arg-type]
    assert results == []


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_updating_a_baseline_from_a_report_with_no_number_writes_nothing(
    tmp_path: Path, bad: float
) -> None:
    before = save_report(retrieval(0.6), tmp_path / "main.json").read_bytes()
    results: list[GateResult] = []
    quality = QualityGates(tmp_path, update=True, record=results.append)
    with pytest.raises(GateFailure, match=r"not written to .*main\.json: the report holds no "
                       rf"number for ndcg@10 = {bad}, and a baseline of it would fail"):  # fmt: skip
        quality.baseline("main", retrieval(bad))
    assert (tmp_path / "main.json").read_bytes() == before  # the old baseline is untouched
    assert [(r.metric, r.status) for r in results] == [("ndcg@10", "fail"), ("recall@10", "pass")]
    # Gating only the metrics the report scores writes the baseline.
    quality.baseline("main", retrieval(bad), metrics=["recall@10"])
    assert (tmp_path / "main.json").read_bytes() != before
