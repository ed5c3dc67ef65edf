"""as_ragas_dataset / from_ragas_dataset: what Ragas accepts, and a lossless round trip."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ef.evaluation as ev

SAMPLES: list[dict[str, Any]] = [
    {"id": "s1", "user_input": "What is the capital of France?", "response": "Paris",
     "reference": "Paris", "retrieved_contexts": ["Paris is the capital of France.", "Berlin."],
     "reference_contexts": ["Paris is the capital of France."],
     "retrieved_context_ids": ["d1", 7], "reference_context_ids": ["d1"],
     "multi_responses": ["Paris", "paris"], "rubrics": {"score1": "wrong", "score5": "right"},
     "persona_name": "tourist", "query_style": "formal", "query_length": "short",
     "references": ["City of Light"], "run": {"model": "m1"}},
    {"id": 2, "user_input": "Who wrote Hamlet?", "response": "Shakespeare"},
]  # fmt: skip


def test_the_core_api_returns_a_dataset_ragas_evaluate_accepts() -> None:
    import ragas
    from ragas.metrics import ExactMatch

    dataset = ev.as_ragas_dataset(SAMPLES)
    assert isinstance(dataset, ragas.EvaluationDataset)
    assert len(dataset) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Ragas 0.4 deprecates evaluate()
        result = ragas.evaluate(dataset[:1], metrics=[ExactMatch()], show_progress=False)
    assert result["exact_match"] == [1.0]


def test_round_trip_is_lossless_and_keeps_ids() -> None:
    dataset = ev.as_ragas_dataset(SAMPLES)
    assert dataset.ef_extras == [
        {"id": "s1", "references": ["City of Light"], "run": {"model": "m1"}},
        {"id": 2},
    ]
    assert dataset[0].retrieved_context_ids == ["d1", 7]  # ints stay ints
    assert ev.from_ragas_dataset(dataset) == SAMPLES


def test_slicing_keeps_ids_aligned() -> None:
    sliced = ev.as_ragas_dataset(SAMPLES)[1:]
    assert ev.from_ragas_dataset(sliced) == SAMPLES[1:]


def test_a_plain_ragas_dataset_converts_too() -> None:
    import ragas

    plain = ragas.EvaluationDataset.from_list([{"user_input": "q", "response": "a"}])
    assert ev.from_ragas_dataset(plain) == [{"user_input": "q", "response": "a"}]


def test_bad_inputs() -> None:
    with pytest.raises(
        ev.InvalidSampleError, match="sample 1: 'retrieved_contexts' must be a list"
    ):
        ev.as_ragas_dataset([{"response": "a"}, {"retrieved_contexts": "text"}])
    with pytest.raises(
        ev.InvalidSampleError, match=r"sample 0 \(id 's1'\): 'references' must be a list"
    ):
        ev.as_ragas_dataset([{"id": "s1", "reference": "a", "references": "b"}])
    with pytest.raises(TypeError, match=r"expected a ragas\.EvaluationDataset, got list"):
        ev.from_ragas_dataset(SAMPLES)


texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
samples = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "user_input": texts,
            "response": texts,
            "reference": texts,
            "retrieved_contexts": st.lists(texts, max_size=3),
            "reference_contexts": st.lists(texts, max_size=3),
            "retrieved_context_ids": st.lists(st.one_of(texts, st.integers()), max_size=3),
            "reference_context_ids": st.lists(st.one_of(texts, st.integers()), max_size=3),
            "multi_responses": st.lists(texts, max_size=2),
            "rubrics": st.dictionaries(texts, texts, max_size=2),
            "persona_name": texts,
            "query_style": texts,
            "query_length": texts,
            "id": st.one_of(texts, st.integers()),
            "references": st.lists(texts, max_size=3),
        },
    ),
    max_size=4,
)


@settings(max_examples=50, deadline=None)
@given(rows=samples)
def test_round_trip_property(rows: list[dict[str, Any]]) -> None:
    assert ev.from_ragas_dataset(ev.as_ragas_dataset(rows)) == rows
