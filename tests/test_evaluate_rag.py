"""evaluate_rag(): coverage, skipping, per-sample values and malformed samples."""

from __future__ import annotations

import json
import re
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
        "non_empty_rate": 4,  # every sample: one without retrieved_contexts retrieved none
    }
    assert report.metrics["exact_match"] == pytest.approx(2 / 3)
    assert report.metrics["non_empty_rate"] == pytest.approx(2 / 4)
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
        ValueError,
        match=r"unknown RAG metric 'f2'.*Valid RAG metrics: bleu, chrf, claims\.claim_recall",
    ):
        evaluate_rag(SAMPLES, metrics=("f2",), registry=builtin_registry)
    with pytest.raises(ValueError, match="'ndcg' is a retrieval metric, not a RAG metric"):
        evaluate_rag(SAMPLES, metrics=("ndcg",), registry=builtin_registry)


class NanPlugin:
    @hookimpl
    def ef_evaluation_metrics(self):
        return RagMetric(name="broken", func=lambda sample: float("nan"))


def test_a_metric_returning_nan_is_an_error_not_a_poisoned_mean() -> None:
    from ef.evaluation._plugin_engine.loading import load_plugin_manager

    pm, infos = load_plugin_manager(autoload=False)
    pm.register(NanPlugin(), name="nan")
    registry = Registry.from_plugin_manager(pm, infos)
    with pytest.raises(PluginError, match="RAG metric 'broken' returned nan for sample 0"):
        evaluate_rag(SAMPLES, metrics=("broken",), registry=registry)


# -- samples that would score nothing (issue 15, item 7) -------------------------------------

OLD_NAMES = [
    {
        "id": "s1",
        "question": "q",
        "answer": "Paris",
        "contexts": ["Paris."],
        "ground_truth": "Paris",
    }
]


def test_samples_in_ragas_old_names_are_refused_with_the_new_names(builtin_registry) -> None:
    with pytest.raises(InvalidSampleError) as info:
        evaluate_rag(OLD_NAMES, registry=builtin_registry)
    message = str(info.value)
    assert "no sample has a RagSample field" in message
    for old, new in [
        ("question", "user_input"),
        ("answer", "response"),
        ("contexts", "retrieved_contexts"),
        ("ground_truth", "reference"),
    ]:
        assert f"'{old}' -> '{new}'" in message


def test_a_file_in_ragas_old_names_is_refused_naming_the_file(tmp_path, builtin_registry) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(OLD_NAMES[0]) + "\n")
    with pytest.raises(InvalidSampleError, match=f"{re.escape(str(path))}: no sample has"):
        evaluate_rag(path, registry=builtin_registry)


def test_samples_with_only_misspelt_fields_get_a_did_you_mean(builtin_registry) -> None:
    with pytest.raises(InvalidSampleError, match=r"did you mean 'respnse' -> 'response'"):
        evaluate_rag([{"respnse": "a", "id": "s1"}], registry=builtin_registry)


def test_samples_with_no_known_key_list_their_keys(builtin_registry) -> None:
    with pytest.raises(InvalidSampleError, match=r"the keys are 'id', 'blob'"):
        evaluate_rag([{"id": "s1", "blob": 1}], registry=builtin_registry)


def test_a_misspelt_key_beside_real_fields_is_a_warning_naming_the_sample(builtin_registry) -> None:
    samples = [
        {"id": "s1", "response": "Paris", "reference": "Paris"},
        {"id": "s2", "response": "Paris", "refrence": "Paris"},
    ]
    with pytest.warns(
        UserWarning, match=r"'refrence' -> 'reference' \(first in sample 1 \(id 's2'\)\)"
    ):
        report = evaluate_rag(samples, metrics=("exact_match",), registry=builtin_registry)
    assert report.coverage["exact_match"] == 1


def test_extra_keys_of_our_own_or_private_give_no_warning(builtin_registry) -> None:
    samples = [
        {"id": "s1", "response": "a", "reference": "a", "references": ["a"], "query_id": "7",
         "reference_context_ids": ["d1"], "reference_context_grades": {"d1": 2}, "_note": "x",
         "_refrence": "x"},
    ]  # fmt: skip
    report = evaluate_rag(samples, metrics=("exact_match",), registry=builtin_registry)
    assert report.metrics["exact_match"] == 1.0


def test_an_empty_samples_file_names_the_file(tmp_path, builtin_registry) -> None:
    path = tmp_path / "samples.jsonl"
    path.write_text("")
    with pytest.raises(InvalidSampleError, match=f"{re.escape(str(path))}: no sample in it"):
        evaluate_rag(path, registry=builtin_registry)


@pytest.mark.parametrize(
    ("samples", "error", "message"),
    [
        ({"response": "a", "reference": "a"}, TypeError, r"samples is one sample \(a dict\); "),
        (
            {"s1": {"response": "a"}},
            TypeError,
            r"samples is a dict; pass a list of samples, e\.g\.",
        ),
        ("Paris", FileNotFoundError, r"no such samples file: 'Paris' \(a str is read as the"),
    ],
)
def test_samples_of_the_wrong_kind_say_what_to_pass(samples, error, message) -> None:
    # A dict was iterated by its keys: "sample 0: expected a mapping ..., got str".
    with pytest.raises(error, match=r"^evaluate_rag\(samples\): " + message):
        evaluate_rag(samples)
