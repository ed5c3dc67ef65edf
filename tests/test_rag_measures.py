"""RAG metric strings: parameters (bare words or literals), cutoffs, ids.*, canonical keys."""

from __future__ import annotations

import pytest

from ef.evaluation import MetricParam, RagMetric, Registry, UnknownNameError, evaluate_rag
from ef.evaluation._engine.rag_measures import (
    ContextIdMeasure,
    RagMeasure,
    parse_rag_metric,
    parse_rag_metrics,
)


def keys(*specs: str, registry: Registry, k_values: tuple[int, ...] = (1, 5, 10, 100)) -> list[str]:
    return [m.key for m in parse_rag_metrics(specs, k_values=k_values, registry=registry)]


def test_a_bare_word_and_a_quoted_string_are_one_value(builtin_registry) -> None:
    bare = parse_rag_metric("has_answer(match=regex)@5", registry=builtin_registry)
    assert parse_rag_metric("has_answer(match='regex')@5", registry=builtin_registry) == bare
    [measure] = bare
    assert isinstance(measure, RagMeasure)
    assert measure.key == "has_answer(match='regex')@5"
    assert measure.kwargs == {"match": "regex", "k": 5}


def test_canonical_keys_parse_back_to_the_same_measure(builtin_registry) -> None:
    for spec in [
        "has_answer(match=regex)@all",
        "has_answer@3",
        "token_f1",
        "ids.nDCG@10",
        "ids.P.5",
    ]:
        for measure in parse_rag_metric(spec, registry=builtin_registry):
            assert parse_rag_metric(measure.key, registry=builtin_registry) == [measure]


def test_defaults_are_left_out_of_keys_and_repeats_are_dropped(builtin_registry) -> None:
    assert keys(
        "has_answer(match=string)@5", "has_answer@5", "ids.ndcg@10", "ids.ndcg_cut.10",
        registry=builtin_registry,
    ) == ["has_answer@5", "ids.ndcg@10"]  # fmt: skip


def test_a_bare_name_of_a_metric_that_cuts_is_every_cutoff(builtin_registry) -> None:
    assert keys(
        "has_answer", "ids.mrr", "exact_match", k_values=(1, 20), registry=builtin_registry
    ) == [
        "has_answer@1",
        "has_answer@20",
        "ids.mrr@1",
        "ids.mrr@20",
        "exact_match",
    ]


def test_ids_measures_wrap_the_retrieval_measure(builtin_registry) -> None:
    [measure] = parse_rag_metric("ids.P(rel=2)@5", registry=builtin_registry)
    assert isinstance(measure, ContextIdMeasure)
    assert (measure.key, measure.measure.key) == ("ids.precision(rel=2)@5", "precision(rel=2)@5")
    assert measure.entry == (
        "ids.precision(rel=2)@5",
        "precision",
        5,
        {"rel": 2.0, "judged_only": False},
    )


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("token_f1@5", ValueError, r"the RAG metric 'token_f1' takes no cutoff \('@'\)"),
        ("has_answer@0", ValueError, r"the cutoff after '@' must be a positive int or 'all'"),
        ("has_answer@five", ValueError, r"the cutoff after '@' must be a positive int or 'all'"),
        (
            "has_answer(mach=regex)@5",
            UnknownNameError,
            r"has no parameter 'mach'; did you mean 'match'",
        ),
        ("has_answer(match=fuzzy)@5", ValueError, r"'match' must be one of 'string', 'regex'"),
        (
            "has_answer(match=a.b)@5",
            ValueError,
            r"the value of 'match' must be a literal .* got 'a.b'",
        ),
        ("has_answer(regex)@5", ValueError, r"parameters are name=value pairs"),
        ("has_answer(match=)@5", ValueError, r"cannot read the parameters"),
        ("token_f2", UnknownNameError, r"unknown RAG metric 'token_f2'; did you mean 'token_f1'"),
    ],
)
def test_malformed_strings_say_what_is_wrong(spec, error, message, builtin_registry) -> None:
    with pytest.raises(error, match=message):
        parse_rag_metric(spec, registry=builtin_registry)


def test_metrics_must_be_a_sequence_and_not_empty(builtin_registry) -> None:
    with pytest.raises(
        TypeError, match=r"metrics must be a sequence of names, e.g. \('has_answer@5',\)"
    ):
        evaluate_rag([{"response": "x"}], metrics="has_answer@5", registry=builtin_registry)
    with pytest.raises(ValueError, match="metrics is empty"):
        evaluate_rag([{"response": "x"}], metrics=(), registry=builtin_registry)
    with pytest.raises(ValueError, match=r"k_values must be positive ints"):
        evaluate_rag(
            [{"response": "x"}], metrics=("has_answer",), k_values=(0,), registry=builtin_registry
        )


def answer_length(sample, *, unit="chars", k=None):
    """Length of the response, in chars or words (a plugin's parameterised metric)."""
    response = sample.get("response")
    if response is None:
        return None
    return float(len(response) if unit == "chars" else len(response.split()))


def test_a_plugin_metric_takes_parameters_from_the_string(builtin_registry) -> None:
    unit = MetricParam("unit", str, "chars", "what to count", choices=("chars", "words"))
    registry = builtin_registry.with_metrics(
        RagMetric(name="answer_length", func=answer_length, params=(unit,))
    )
    report = evaluate_rag(
        [{"response": "two words"}],
        metrics=["answer_length", "answer_length(unit=words)"],
        registry=registry,
    )
    assert dict(report.metrics) == {"answer_length": 9.0, "answer_length(unit='words')": 2.0}
    params = [m["params"] for m in report.manifest["metrics"]]
    assert params == [{"unit": "chars"}, {"unit": "words"}]


def test_a_rag_metric_refuses_a_repeated_parameter() -> None:
    unit = MetricParam("unit", str, "chars")
    with pytest.raises(ValueError, match="RAG metric 'answer_length' repeats a parameter"):
        RagMetric(name="answer_length", func=answer_length, params=(unit, unit))
