"""evaluate_squad_v2 gives the official SQuAD v2.0 script's 13 outputs, divided by 100.

The oracle is the script's main() restated step by step (official_qa_scripts.v2_evaluate):
the script itself reads files and cannot be imported. Hypothesis draws questions whose
answers, predictions and no-answer probabilities meet the script's corner cases (answers that
normalise to nothing, blank predictions, equal probabilities); the hand cases pin the
threshold search's ties.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import (
    InvalidSampleError,
    evaluate_rag,
    evaluate_squad_v2,
    exact_match,
    read_samples,
    token_f1,
    write_samples,
)
from ef.evaluation.metrics.squad_v2 import SQUAD_V2_KEYS, squad_v2_scores

from .official_qa_scripts import v2_evaluate

words = st.sampled_from(["Paris", "the", "a", "city", "of", "light", ".", "!", "Lyon", "«x»"])
text = st.lists(words, max_size=4).map(" ".join)
answer = text.filter(lambda t: bool(t.strip()))  # SQuAD's answers are never blank
prediction = st.one_of(text, st.sampled_from(["", " ", "the", "unanswerable"]))
probability = st.sampled_from([0.0, 0.1, 0.5, 0.5, 0.9, 1.0])  # ties on purpose


@st.composite
def questions(draw: Any) -> list[tuple[list[str], str, float]]:
    count = draw(st.integers(1, 8))
    return [
        (draw(st.lists(answer, max_size=3)), draw(prediction), draw(probability))
        for _ in range(count)
    ]


def as_samples(
    drawn: list[tuple[list[str], str, float]], *, with_probs: bool
) -> list[dict[str, Any]]:
    samples = []
    for i, (answers, response, na_prob) in enumerate(drawn):
        sample: dict[str, Any] = {"id": f"q{i}", "response": response}
        sample["reference"] = answers[0] if answers else ""
        if answers[1:]:
            sample["references"] = answers[1:]
        if with_probs:
            sample["na_prob"] = na_prob
        samples.append(sample)
    return samples


def script(
    drawn: list[tuple[list[str], str, float]], *, with_probs: bool, thresh: float = 1.0
) -> dict[str, float | int]:
    dataset = [(f"q{i}", answers) for i, (answers, _, _) in enumerate(drawn)]
    preds = {f"q{i}": response for i, (_, response, _) in enumerate(drawn)}
    na_probs = {f"q{i}": p for i, (_, _, p) in enumerate(drawn)} if with_probs else None
    return v2_evaluate(dataset, preds, na_probs, thresh)


def assert_script_outputs(ours: dict[str, float | int], theirs: dict[str, float | int]) -> None:
    assert list(ours) == list(theirs)  # the same keys, in the script's order
    for key, value in theirs.items():
        if key.endswith("_total") or key == "total":
            assert ours[key] == value, key
            assert isinstance(ours[key], int), key
        elif key.endswith("_thresh"):
            assert ours[key] == value, key  # a probability, not a percentage
        else:
            assert ours[key] == pytest.approx(value / 100, rel=1e-12, abs=1e-15), key


@given(questions(), st.booleans(), st.sampled_from([1.0, 0.5, 0.0, -1.0]))
def test_equals_the_official_script(
    drawn: list[tuple[list[str], str, float]], with_probs: bool, thresh: float
) -> None:
    ours = evaluate_squad_v2(as_samples(drawn, with_probs=with_probs), na_prob_thresh=thresh)
    assert_script_outputs(ours, script(drawn, with_probs=with_probs, thresh=thresh))


@given(questions())
def test_abstentions_are_the_empty_answer(drawn: list[tuple[list[str], str, float]]) -> None:
    abstain = ["unanswerable", "I don't know"]
    ours = evaluate_squad_v2(as_samples(drawn, with_probs=True), abstain=abstain)
    # The script fed the predictions with each abstention replaced by "".
    replaced = [
        (a, "" if r.lower().strip(" .!") in ("unanswerable", "i don't know") else r, p)
        for a, r, p in drawn
    ]
    assert_script_outputs(ours, script(replaced, with_probs=True))


@given(questions())
def test_exact_and_f1_are_the_means_of_the_squad_v2_metrics(
    drawn: list[tuple[list[str], str, float]],
) -> None:
    samples = as_samples(drawn, with_probs=False)
    ours = evaluate_squad_v2(samples)
    report = evaluate_rag(
        samples, metrics=["exact_match(normalize=squad_v2)", "token_f1(normalize=squad_v2)"]
    )
    assert ours["exact"] == pytest.approx(report.metrics["exact_match(normalize='squad_v2')"])
    assert ours["f1"] == pytest.approx(report.metrics["token_f1(normalize='squad_v2')"])
    assert set(ours) == set(SQUAD_V2_KEYS[:9]) - (
        {"HasAns_exact", "HasAns_f1", "HasAns_total"} if all(not a for a, _, _ in drawn) else set()
    ) - ({"NoAns_exact", "NoAns_f1", "NoAns_total"} if all(a for a, _, _ in drawn) else set())


def test_all_thirteen_outputs_by_hand() -> None:
    samples = [
        {"id": "a", "response": "Paris", "reference": "Paris", "na_prob": 0.1},
        {"id": "b", "response": "the city", "reference": "Paris city", "na_prob": 0.3},
        {"id": "c", "response": "Lyon", "reference": "", "na_prob": 0.8},
        {"id": "d", "response": "", "reference": "", "na_prob": 0.6},
    ]
    got = evaluate_squad_v2(samples)
    assert list(got) == list(SQUAD_V2_KEYS)
    # Raw: a EM 1 F1 1; b EM 0, F1 2PR/(P+R) with P = 1/1, R = 1/2; c 0 0; d 1 1.
    f1_b = 2 * 1 * 0.5 / 1.5
    assert got["exact"] == 2 / 4
    assert got["f1"] == pytest.approx((2 + f1_b) / 4)
    assert (got["HasAns_exact"], got["HasAns_total"]) == (1 / 2, 2)
    assert (got["NoAns_exact"], got["NoAns_f1"], got["NoAns_total"]) == (1 / 2, 1 / 2, 2)
    # Threshold search from "no answer everywhere" (2 right): a +1 (0.1), b +0 / +F1 (0.3),
    # d +0 (0.6), c -1 (0.8). Best exact 3 at 0.1; best F1 3 + f1_b at 0.3.
    assert (got["best_exact"], got["best_exact_thresh"]) == (3 / 4, 0.1)
    assert got["best_f1"] == pytest.approx((3 + f1_b) / 4)
    assert got["best_f1_thresh"] == 0.3


def test_the_threshold_search_takes_equal_probabilities_in_sample_order() -> None:
    # Two questions at the same probability: the script adds them one at a time, so the
    # order decides whether the total after the first one (a threshold no cut can make) wins.
    right = {"id": "r", "response": "Paris", "reference": "Paris", "na_prob": 0.5}
    wrong = {"id": "w", "response": "Lyon", "reference": "", "na_prob": 0.5}
    first_right = evaluate_squad_v2([right, wrong])
    assert (first_right["best_exact"], first_right["best_exact_thresh"]) == (1.0, 0.5)
    first_wrong = evaluate_squad_v2([wrong, right])
    assert (first_wrong["best_exact"], first_wrong["best_exact_thresh"]) == (0.5, 0.0)


def test_an_equal_total_later_does_not_move_the_threshold() -> None:
    samples = [
        {"id": "a", "response": "Paris", "reference": "Paris", "na_prob": 0.2},
        {"id": "b", "response": "Lyon", "reference": "", "na_prob": 0.4},
        {"id": "c", "response": "Rome", "reference": "Rome", "na_prob": 0.6},
    ]
    got = evaluate_squad_v2(samples)  # totals: 1, 2 (0.2), 1, 2 (0.6): the first 2 stays
    assert (got["best_exact"], got["best_exact_thresh"]) == (2 / 3, 0.2)


def test_na_prob_thresh_predicts_no_answer_above_it() -> None:
    samples = [
        {"id": "a", "response": "Paris", "reference": "Paris", "na_prob": 0.9},
        {"id": "b", "response": "Lyon", "reference": "", "na_prob": 0.7},
    ]
    assert evaluate_squad_v2(samples)["exact"] == 0.5
    assert evaluate_squad_v2(samples, na_prob_thresh=0.8)["exact"] == 0.0  # a: NA, b: answered
    assert evaluate_squad_v2(samples, na_prob_thresh=0.5)["exact"] == 0.5  # b right as NA


def test_without_na_prob_there_are_no_best_keys() -> None:
    got = evaluate_squad_v2([{"response": "Paris", "reference": "Paris"}])
    assert list(got) == ["exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total"]


def test_na_prob_is_a_number_in_a_csv_file(tmp_path: Path) -> None:
    samples = [
        {"id": "a", "response": "Paris", "reference": "Paris", "na_prob": 0.25},
        {"id": "b", "response": "Lyon", "reference": "Rome", "na_prob": 0.75},
    ]
    path = tmp_path / "samples.csv"
    write_samples(path, samples)
    assert [s["na_prob"] for s in read_samples(path)] == [0.25, 0.75]
    assert evaluate_squad_v2(path) == evaluate_squad_v2(samples)
    path.write_text("id,response,reference,na_prob\na,Paris,Paris,high\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"samples\.csv:2: 'na_prob' must be a number, got 'high'"):
        read_samples(path)


def test_na_prob_survives_a_samples_file(tmp_path: Path) -> None:
    samples = [
        {"id": "a", "response": "Paris", "reference": "Paris", "na_prob": 0.25},
        {"id": "b", "response": "", "reference": "", "na_prob": 0.75},
    ]
    path = tmp_path / "samples.jsonl"
    write_samples(path, samples)
    assert [s["na_prob"] for s in read_samples(path)] == [0.25, 0.75]
    assert evaluate_squad_v2(path) == evaluate_squad_v2(samples)


@pytest.mark.parametrize(
    ("samples", "message"),
    [
        ([], "samples is empty"),
        ([{"id": "q", "response": "x"}], "sample 0 (id 'q'): no gold answer key"),
        ([{"reference": "x"}], "sample 0: no 'response'"),
        (
            [
                {"response": "x", "reference": "x", "na_prob": 0.5},
                {"response": "", "reference": ""},
            ],
            "sample 1: 'na_prob' is none; it must be a finite number on every sample",
        ),
        ([{"response": "x", "reference": "x", "na_prob": math.nan}], "sample 0: 'na_prob' is nan"),
        ([{"response": "x", "reference": "x", "na_prob": "0.5"}], "sample 0: 'na_prob' is '0.5'"),
        ([{"response": "x", "reference": "x", "na_prob": True}], "sample 0: 'na_prob' is True"),
        (
            [
                {"id": 1, "response": "x", "reference": "x"},
                {"id": "1", "response": "", "reference": ""},
            ],
            "sample 1 (id '1'): the id '1' is also sample 0's",
        ),
    ],
)
def test_mistakes_name_the_sample(samples: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(InvalidSampleError, match="^" + re.escape(message)):
        evaluate_squad_v2(samples)


def test_abstain_must_be_a_list_of_phrases() -> None:
    sample = {"response": "x", "reference": "x"}
    with pytest.raises(TypeError, match="abstain is a str; expected a list of phrases"):
        evaluate_squad_v2([sample], abstain="unanswerable")
    with pytest.raises(ValueError, match="the abstain phrase 'the' normalises to nothing"):
        evaluate_squad_v2([sample], abstain=["the"])


@pytest.mark.parametrize("normalize", ["unicode", "squad", "squad_v2"])
def test_abstain_is_the_empty_answer_in_every_mode(normalize: str) -> None:
    for metric in (exact_match, token_f1):
        for gold in ("", "Paris"):
            said = metric("I don't know!", gold, normalize=normalize, abstain=["I don't know"])
            assert said == metric("", gold, normalize=normalize)
    assert exact_match(
        "I don't know", "", normalize="mlqa", lang="en", abstain=["i dont know"]
    ) == (exact_match("", "", normalize="mlqa", lang="en"))


def test_the_kernel_checks_its_lists() -> None:
    with pytest.raises(ValueError, match="one item per question; got 2, 1 and none"):
        squad_v2_scores([["a"], []], ["a"])


@given(questions())
def test_abstain_in_a_metric_string_is_the_same_mapping(
    drawn: list[tuple[list[str], str, float]],
) -> None:
    samples = as_samples(drawn, with_probs=False)
    abstain = ["unanswerable", "I don't know"]
    spec = "exact_match(normalize=squad_v2, abstain=['unanswerable', \"I don't know\"])"
    report = evaluate_rag(samples, metrics=[spec, f"token_f1{spec[len('exact_match') :]}"])
    [exact_key, f1_key] = report.metrics
    ours = evaluate_squad_v2(samples, abstain=abstain)
    assert report.metrics[exact_key] == pytest.approx(ours["exact"])
    assert report.metrics[f1_key] == pytest.approx(ours["f1"])


def test_abstain_in_a_metric_string_reads_back_from_its_key() -> None:
    from ef.evaluation._engine.rag_measures import RagMeasure, parse_rag_metric

    [measure] = parse_rag_metric("token_f1(abstain=['unanswerable', \"I don't know\"])")
    assert isinstance(measure, RagMeasure)
    assert measure.key == "token_f1(abstain=['unanswerable',\"I don't know\"])"
    assert measure.kwargs["abstain"] == ["unanswerable", "I don't know"]
    assert [m.key for m in parse_rag_metric(measure.key)] == [measure.key]
    assert parse_rag_metric("token_f1(abstain=[])")[0].key == "token_f1"  # none is the default
    with pytest.raises(ValueError, match="parameter 'abstain' must be a list of strings"):
        parse_rag_metric("token_f1(abstain='unanswerable')")
    with pytest.raises(ValueError, match="the abstain phrase 'an' normalises to nothing"):
        parse_rag_metric("exact_match(normalize=squad, abstain=['an'])")


def test_an_abstention_is_the_empty_answer_of_each_mode_in_evaluate_rag() -> None:
    samples = [
        {"id": "a", "response": "Unanswerable.", "reference": ""},
        {"id": "b", "response": "Unanswerable.", "reference": "Paris"},
    ]
    for mode in ("unicode", "squad", "squad_v2"):
        spec = f"exact_match(normalize={mode}, abstain=['unanswerable'])"
        values = evaluate_rag(samples, metrics=[spec]).per_sample
        blank = evaluate_rag(
            [{**s, "response": ""} for s in samples], metrics=[f"exact_match(normalize={mode})"]
        ).per_sample
        assert list(values.values()) == list(blank.values()), mode
