"""What goes wrong around Ragas is an error that says what to do, or a coverage gap: never a
crash from inside Ragas, a ModuleNotFoundError, or telemetry the user asked to turn off."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from ef_evaluation_ragas import _ragas, metrics

from ef.evaluation import MissingDependencyError, evaluate_rag
from ef.evaluation.cli import cli

FULL = {
    "id": "full", "response": "Paris", "reference": "Paris",
    "retrieved_contexts": ["Paris is the capital of France."],
    "reference_contexts": ["Paris is the capital of France."],
}  # fmt: skip


def test_no_retrieved_contexts_is_outside_context_recalls_coverage() -> None:
    samples = [FULL, {**FULL, "id": "none", "retrieved_contexts": []}]
    report = evaluate_rag(samples, metrics=("ragas.context_recall",))
    assert report.per_sample["ragas.context_recall"] == (1.0, None)
    assert report.coverage["ragas.context_recall"] == 1


def test_no_reference_contexts_is_outside_context_precisions_coverage() -> None:
    samples = [{**FULL, "id": "none", "reference_contexts": []}, FULL]
    report = evaluate_rag(samples, metrics=("ragas.context_precision",))
    assert report.per_sample["ragas.context_precision"][0] is None
    assert report.coverage["ragas.context_precision"] == 1


@pytest.fixture
def without_ragas(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the bridge were installed without Ragas: every ragas module fails to import."""
    for name in [m for m in sys.modules if m == "ragas" or m.startswith("ragas.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "ragas", None)
    metrics._ragas_metric.cache_clear()
    yield
    metrics._ragas_metric.cache_clear()


@pytest.mark.usefixtures("without_ragas")
def test_the_bridge_without_ragas_is_a_missing_dependency_error_with_the_pip_command() -> None:
    with pytest.raises(MissingDependencyError, match=r"needs ragas.*pip install ragas==0\.4\.3"):
        evaluate_rag([FULL], metrics=("ragas.exact_match",))


@pytest.mark.usefixtures("without_ragas")
def test_the_cli_without_ragas_prints_the_pip_command(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps(FULL) + "\n")
    result = CliRunner().invoke(cli, ["rag", str(path), "-m", "ragas.bleu"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: the Ragas bridge (ef-evaluation-ragas) needs ragas")
    assert "pip install ragas==0.4.3" in result.stderr


def test_a_metrics_missing_extra_names_its_package() -> None:
    error = _ragas.missing_dependency(ImportError("sacrebleu is required for bleu score."))
    assert "needs sacrebleu" in str(error)
    assert str(error).endswith('pip install "sacrebleu>=2.0"')


@pytest.mark.parametrize("value", ["1", "yes", "TRUE", "On", " true "])
def test_a_true_ish_do_not_track_becomes_the_true_ragas_honours(monkeypatch, value) -> None:
    monkeypatch.setenv("RAGAS_DO_NOT_TRACK", value)
    _ragas.ragas_module()
    assert _ragas.os.environ["RAGAS_DO_NOT_TRACK"] == "true"


@pytest.mark.parametrize("value", ["0", "false", "off"])
def test_tracking_the_user_turned_on_is_left_alone(monkeypatch, value) -> None:
    monkeypatch.setenv("RAGAS_DO_NOT_TRACK", value)
    _ragas.telemetry_off()
    assert _ragas.os.environ["RAGAS_DO_NOT_TRACK"] == value


def test_unset_do_not_track_is_set_to_true(monkeypatch) -> None:
    monkeypatch.delenv("RAGAS_DO_NOT_TRACK", raising=False)
    _ragas.telemetry_off()
    assert _ragas.os.environ["RAGAS_DO_NOT_TRACK"] == "true"
