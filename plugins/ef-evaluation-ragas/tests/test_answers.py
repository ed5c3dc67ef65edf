"""Reading a judge's list of labels in the forms LLMs write it, and refusing the rest."""

from __future__ import annotations

import json

import pytest
from ef_evaluation_ragas._answers import AnswerNotRead, label_list, string_list
from hypothesis import given
from hypothesis import strategies as st

ALLOWED = {"entailment": "Entailment", "neutral": "Neutral", "contradiction": "Contradiction"}
LABELS = st.lists(st.sampled_from(sorted(ALLOWED.values())), min_size=1, max_size=8)


def forms(labels: list[str]) -> list[str]:
    """Ways a model writes the same list."""
    as_json = json.dumps(labels)
    return [
        as_json,
        repr(labels),  # a Python literal, single quotes
        f"```json\n{as_json}\n```",
        f"Here are the labels: {as_json}",
        json.dumps({"labels": labels}),
        "\n".join(labels),  # RefChecker's one label a line
        "\n".join(f"{i}. {label.upper()}" for i, label in enumerate(labels, 1)),
    ]


@given(LABELS)
def test_every_form_reads_back_the_same_labels(labels: list[str]) -> None:
    for answer in forms(labels):
        assert label_list(answer, ALLOWED, len(labels)) == labels, answer


@given(LABELS, st.integers(-2, 2).filter(bool))
def test_a_wrong_count_is_refused(labels: list[str], off: int) -> None:
    count = len(labels) + off
    for answer in forms(labels):
        with pytest.raises(AnswerNotRead):
            label_list(answer, ALLOWED, count)


@given(LABELS, st.data())
def test_an_unknown_label_is_refused_naming_its_position(
    labels: list[str], data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(labels) - 1))
    spoilt = [*labels[:index], "Probably", *labels[index + 1 :]]
    with pytest.raises(AnswerNotRead) as info:
        label_list(json.dumps(spoilt), ALLOWED, len(labels))
    assert info.value.index == index


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "I am not JSON",
        "Entailment, I think",
        '{"a": [], "b": []}',
        "[1, 2]",
        "Entailment Neutral",
    ],
)
def test_what_is_not_a_list_of_labels_is_refused(answer: str) -> None:
    with pytest.raises(AnswerNotRead):
        label_list(answer, ALLOWED, 1)


def test_claims_are_a_list_of_strings_only() -> None:
    assert string_list('```\n["Paris is the capital.", "It is big."]\n```') == [
        "Paris is the capital.",
        "It is big.",
    ]
    for answer in ("Paris is the capital.", "[1]", '{"claims": "Paris"}'):
        with pytest.raises(AnswerNotRead):
            string_list(answer)
