"""SubtopicQrels refuses judgements of the wrong shape, naming the level and what it expects."""

from __future__ import annotations

import pytest

from ef.evaluation import SubtopicQrels


@pytest.mark.parametrize(
    ("judgements", "message"),
    [
        ([1], "SubtopicQrels: expected {query_id: {subtopic: {doc_id: grade}}}, got list"),
        ({"q1": 3}, "SubtopicQrels['q1']: expected {subtopic: {doc_id: grade}}, got int"),
        ({"q1": {"1": ["d1"]}}, "SubtopicQrels['q1']['1']: expected {doc_id: grade}, got list"),
    ],
)
def test_a_level_that_is_no_mapping(judgements: object, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        SubtopicQrels(judgements)  # type: ignore[arg-type]  # the wrong shape, on purpose
    assert str(raised.value) == message


def test_a_grade_is_named_by_its_path() -> None:
    with pytest.raises(ValueError, match=r"^SubtopicQrels\['q1'\]\['1'\]\['d1'\] = 'x': "):
        SubtopicQrels({"q1": {"1": {"d1": "x"}}})  # type: ignore[dict-item]


def test_ids_become_str_and_the_levels_read_only() -> None:
    qrels = SubtopicQrels({1: {2: {3: 1}}})  # type: ignore[dict-item]
    assert qrels.judgements == {"1": {"2": {"3": 1}}}
    with pytest.raises(TypeError):
        qrels.judgements["1"]["2"]["4"] = 1  # type: ignore[index]
