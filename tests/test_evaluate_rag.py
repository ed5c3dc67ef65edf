"""evaluate_rag(): coverage, skipping, per-sample values and malformed samples."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ef.evaluation import (
    InvalidSampleError,
    PluginError,
    RagMetric,
    Registry,
    evaluate_rag,
    hookimpl,
)

SAMPLES: list[dict[str, Any]] = [
    {"user_input": "capital of France?", "response": "Paris", "reference": "Paris",
     "retrieved_contexts": ["Paris is the capital of France."]},
    {"user_input": "2 + 2?", "response": "five", "reference": "four", "retrieved_contexts": []},
    {"user_input": "no reference", "response": "maybe", "retrieved_contexts": ["text"]},
    {"user_input": "no contexts", "response": "The answer", "reference": "an answer"},
]  # fmt: skip


def test_coverage_counts_the_samples_each_metric_scored(builtin_registry) -> None:
    report = evaluate_rag(SAMPLES, registry=builtin_registry)
    assert report.n_samples == 4
    assert dict(report.coverage) == {
        "exact_match": 3,
        "token_f1": 3,
        "context_recall": 2,
        "context_precision": 2,
        "non_empty_rate": 3,
    }
    assert report.metrics["exact_match"] == pytest.approx(2 / 3)
    assert report.metrics["non_empty_rate"] == pytest.approx(2 / 3)
    assert report.per_sample["exact_match"] == (1.0, 0.0, None, 1.0)
    assert report.per_sample["context_recall"] == (1.0, 0.0, None, None)


def test_a_field_set_to_none_counts_as_absent(builtin_registry) -> None:
    report = evaluate_rag(
        [{"response": "x", "reference": None}], metrics=("token_f1",), registry=builtin_registry
    )
    assert report.coverage["token_f1"] == 0
    assert report.metrics["token_f1"] is None


def test_samples_may_be_a_generator(builtin_registry) -> None:
    report = evaluate_rag((s for s in SAMPLES), metrics=("token_f1",), registry=builtin_registry)
    assert report.coverage["token_f1"] == 3


def test_report_to_dict_is_json_ready_and_str_readable(builtin_registry) -> None:
    report = evaluate_rag(SAMPLES, metrics=("exact_match",), registry=builtin_registry)
    assert json.loads(json.dumps(report.to_dict()))["per_sample"]["exact_match"] == [
        1.0,
        0.0,
        None,
        1.0,
    ]
    lines = str(report).splitlines()
    assert lines[0] == "RAG evaluation: 4 samples"
    assert lines[2].split() == ["exact_match", "0.6667", "3/4"]


@pytest.mark.parametrize(
    ("sample", "message"),
    [
        ("Paris", r"sample 1: expected a mapping"),
        ({"response": 5}, r"sample 1: 'response' must be a string, got int 5"),
        ({"reference": ["Paris"]}, r"sample 1: 'reference' must be a string"),
        (
            {"retrieved_contexts": "one passage"},
            r"sample 1: 'retrieved_contexts' must be a list of strings, got str",
        ),
        (
            {"retrieved_contexts": ["ok", 3]},
            r"sample 1: retrieved_contexts\[1\] must be a string, got int",
        ),
        ({"reference_contexts": [None]}, r"sample 1: reference_contexts\[0\] must be a string"),
    ],
)
def test_malformed_samples_name_their_index(sample, message, builtin_registry) -> None:
    with pytest.raises(InvalidSampleError, match=message):
        evaluate_rag([SAMPLES[0], sample], registry=builtin_registry)


def test_empty_samples_and_unknown_metric_are_value_errors(builtin_registry) -> None:
    with pytest.raises(ValueError, match="samples is empty"):
        evaluate_rag([], registry=builtin_registry)
    with pytest.raises(
        ValueError, match=r"unknown RAG metric 'f2'.*Valid RAG metrics: context_precision"
    ):
        evaluate_rag(SAMPLES, metrics=("f2",), registry=builtin_registry)
    with pytest.raises(ValueError, match="'ndcg' is a retrieval metric, not a RAG metric"):
        evaluate_rag(SAMPLES, metrics=("ndcg",), registry=builtin_registry)


class NanPlugin:
    @hookimpl
    def ef_evaluation_metrics(self):
        return RagMetric(name="broken", func=lambda sample: float("nan"))


def test_a_metric_returning_nan_is_an_error_not_a_poisoned_mean() -> None:
    from ef.evaluation.plugin_engine.loading import load_plugin_manager

    pm, infos = load_plugin_manager(autoload=False)
    pm.register(NanPlugin(), name="nan")
    registry = Registry.from_plugin_manager(pm, infos)
    with pytest.raises(PluginError, match="RAG metric 'broken' returned nan for sample 0"):
        evaluate_rag(SAMPLES, metrics=("broken",), registry=registry)
