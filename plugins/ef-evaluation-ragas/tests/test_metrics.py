"""Ragas' deterministic metrics through evaluate_rag: Ragas' own numbers, offline, by name."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from ef_evaluation_ragas.metrics import METRICS

from ef.evaluation import evaluate_rag, get_registry, write_samples
from ef.evaluation.cli import cli

# Complete samples: every metric applies to every one.
SAMPLES: list[dict[str, Any]] = [
    {"id": "fr", "user_input": "What is the capital of France?", "response": "Paris",
     "reference": "Paris", "retrieved_contexts": ["Paris is the capital of France.", "Berlin is in Germany."],
     "reference_contexts": ["Paris is the capital of France."],
     "retrieved_context_ids": ["d1", "d7"], "reference_context_ids": ["d1"]},
    {"id": "ham", "user_input": "Who wrote Hamlet?", "response": "Hamlet was written by William Shakespeare.",
     "reference": "William Shakespeare",
     "retrieved_contexts": ["Macbeth is a tragedy.", "Hamlet is a play by William Shakespeare."],
     "reference_contexts": ["Hamlet is a tragedy written by William Shakespeare."],
     "retrieved_context_ids": ["d9", "d3"], "reference_context_ids": ["d3", "d4"]},
    {"id": "case", "user_input": "Capital?", "response": "paris", "reference": "Paris",
     "retrieved_contexts": ["Lyon is a city."], "reference_contexts": ["Paris is big."],
     "retrieved_context_ids": [1, 2], "reference_context_ids": ["2"]},
]  # fmt: skip
NAMES = [spec.name for spec in METRICS]


def test_all_ten_metrics_are_registered_with_descriptions() -> None:
    rag = get_registry().rag_metrics
    assert NAMES == [
        "ragas.exact_match", "ragas.string_presence", "ragas.string_similarity", "ragas.bleu",
        "ragas.rouge_l", "ragas.chrf", "ragas.context_recall", "ragas.context_precision",
        "ragas.id_context_recall", "ragas.id_context_precision",
    ]  # fmt: skip
    for name in NAMES:
        assert rag[name].description.startswith("Ragas ")
        assert get_registry().provider(name).name == "ragas"


def test_every_metric_returns_numbers_in_the_unit_interval() -> None:
    report = evaluate_rag(SAMPLES, metrics=NAMES)
    for name in NAMES:
        assert report.coverage[name] == 3, name
        values = report.per_sample[name]
        assert all(v is not None and 0.0 <= v <= 1.0 for v in values), (name, values)


def test_values_equal_ragas_evaluate_on_the_same_samples() -> None:
    import ragas
    from ragas import metrics as rm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        objects = [getattr(rm, spec.ragas_class)(**dict(spec.options)) for spec in METRICS]
        result = ragas.evaluate(
            ragas.EvaluationDataset.from_list([{k: v for k, v in s.items() if k != "id"} for s in SAMPLES]),
            metrics=objects, show_progress=False, raise_exceptions=True,
        )  # fmt: skip
    ours = evaluate_rag(SAMPLES, metrics=NAMES)
    for spec, metric in zip(METRICS, objects, strict=True):
        key = next(
            k for k in result.scores[0] if k == metric.name or k.startswith(f"{metric.name}(mode=")
        )
        assert list(ours.per_sample[spec.name]) == pytest.approx(
            [row[key] for row in result.scores]
        ), spec.name


def test_known_semantics_differ_from_efs_own() -> None:
    report = evaluate_rag(
        SAMPLES, metrics=("exact_match", "ragas.exact_match", "ragas.id_context_recall")
    )
    # "paris" vs "Paris": ef normalises, Ragas does not.
    assert report.per_sample["exact_match"][2] == 1.0
    assert report.per_sample["ragas.exact_match"][2] == 0.0
    # Ragas compares ids as strings: retrieved 2 matches reference "2".
    assert report.per_sample["ragas.id_context_recall"][2] == 1.0


def test_missing_fields_and_ragas_nan_are_coverage_gaps() -> None:
    samples = [
        SAMPLES[0],
        {"id": "no-ref", "response": "Paris"},
        {"id": "no-ids", "retrieved_context_ids": [], "reference_context_ids": ["d1"],
         "response": "a", "reference": "a"},
    ]  # fmt: skip
    report = evaluate_rag(samples, metrics=("ragas.bleu", "ragas.id_context_precision"))
    assert report.per_sample["ragas.bleu"] == (0.0, None, 0.0)
    # Ragas returns NaN for precision over no retrieved ids: not a number in the mean.
    assert report.per_sample["ragas.id_context_precision"] == (0.5, None, None)
    assert report.coverage["ragas.id_context_precision"] == 1
    assert not any(isinstance(v, float) and math.isnan(v) for v in report.metrics.values())


def test_the_cli_lists_and_runs_them(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["metrics", "-o", "json"])
    assert result.exit_code == 0
    entries = {e["name"]: e for e in json.loads(result.stdout)}
    assert {name: entries[name]["plugin"] for name in NAMES} == dict.fromkeys(NAMES, "ragas")
    assert {entries[name]["kind"] for name in NAMES} == {"rag"}

    path = tmp_path / "samples.jsonl"
    write_samples(path, SAMPLES)
    result = CliRunner().invoke(
        cli, ["rag", str(path), "-m", "ragas.rouge_l,token_f1", "-s", "-o", "json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["coverage"] == {"ragas.rouge_l": 3, "token_f1": 3}
    assert data["sample_ids"] == ["fr", "ham", "case"]
