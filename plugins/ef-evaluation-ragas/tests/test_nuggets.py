"""The nugget assigner ragas.nuggets: the user's LLM (a fake), cached, counted, planned."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from ef_evaluation_ragas import LLMUsage, MalformedAnswerError, dry_run_nuggets
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import EvaluationError, assign_nuggets, evaluate_rag

from .fake_llm import FakeInstructorJudge, FakeJudge

NUGGETS = [
    {"text": "Paris is the capital", "importance": "vital"},  # in the answer: support
    {"text": "Seine floods often", "importance": "vital"},  # first word only: partial
    {"text": "Lyon is second", "importance": "okay"},  # absent: not_support
    {"text": "the Seine", "importance": "okay"},  # support
]
SAMPLES: list[dict[str, Any]] = [
    {"id": "n1", "user_input": "Tell me about Paris",
     "response": "Paris is the capital of France and lies on the Seine.", "nuggets": NUGGETS},
    {"id": "n2", "user_input": "Tell me about Paris", "response": "",
     "nuggets": [{"text": "Paris", "importance": "vital"}]},
    {"id": "n3", "user_input": "no nuggets", "response": "Paris."},
]  # fmt: skip
METRICS = ["nugget_all", "nugget_vital", "nugget_weighted"]


def labels(samples: list[dict[str, Any]]) -> list[list[str] | None]:
    return [[n["assignment"] for n in s["nuggets"]] if "nuggets" in s else None for s in samples]


def test_assign_nuggets_then_evaluate_rag_scores_the_judges_labels() -> None:
    judge, usage = FakeJudge(), LLMUsage()
    assigned = assign_nuggets(SAMPLES, "ragas.nuggets", llm=judge, usage=usage)
    assert labels(assigned) == [
        ["support", "partial_support", "not_support", "support"],
        ["not_support"],  # an empty response holds no nugget: no call made for it
        None,
    ]
    report = evaluate_rag(assigned, metrics=METRICS)
    # n1: all (1 + .5 + 0 + 1) / 4; vital (1 + .5) / 2; weighted (1 + .5 + 0 + .5) / 3.
    assert report.per_sample["nugget_all"] == (0.625, 0.0, None)
    assert report.per_sample["nugget_vital"] == (0.75, 0.0, None)
    assert report.per_sample["nugget_weighted"] == pytest.approx((2 / 3, 0.0, None))
    assert report.coverage == dict.fromkeys(METRICS, 2)
    # One window (4 nuggets <= 10) for n1; the fake's own counts are what usage reports.
    assert judge.calls == usage.calls == 1
    assert (usage.prompt_tokens, usage.completion_tokens) == (
        judge.prompt_tokens,
        judge.completion_tokens,
    )
    assert usage.cache_hits == 0
    assert usage.models == ["fake-judge"]
    assert SAMPLES[0]["nuggets"][0] == NUGGETS[0]
    assert "assignment" not in NUGGETS[0]


def test_a_second_identical_run_makes_no_call() -> None:
    first, second = FakeJudge(), FakeJudge()
    usage = LLMUsage()
    before = assign_nuggets(SAMPLES, "ragas.nuggets", llm=first, batch_size=3)
    after = assign_nuggets(SAMPLES, "ragas.nuggets", llm=second, batch_size=3, usage=usage)
    assert labels(after) == labels(before)
    assert first.calls == 2  # 4 nuggets in windows of 3
    assert second.calls == usage.calls == 0
    assert usage.cache_hits == 2
    assert usage.prompt_tokens == 0
    # Another model is another key: asked again.
    other = FakeJudge(model_name="other-judge")
    assign_nuggets(SAMPLES, "ragas.nuggets", llm=other, batch_size=3)
    assert other.calls == 2


def test_the_dry_run_calls_nothing_and_lists_every_call_to_make() -> None:
    judge, out = FakeJudge(), io.StringIO()
    plan = dry_run_nuggets(SAMPLES, llm=judge, batch_size=3, out=out)
    assert judge.calls == 0
    assert not judge.prompts
    assert [(c.sample_id, c.metric) for c in plan.calls] == [("n1", "ragas.nuggets")] * 2
    assert plan.prompt_tokens > 0
    assert "Calls to make: 2" in out.getvalue()
    assign_nuggets(SAMPLES, "ragas.nuggets", llm=judge, batch_size=3)
    assert judge.calls == len(plan.calls)  # the plan was exact
    again = dry_run_nuggets(SAMPLES, llm=judge, batch_size=3, out=io.StringIO())
    assert again.calls == ()
    assert again.cache_hits == 2


def test_a_malformed_answer_is_refused_naming_sample_and_nugget_and_not_cached() -> None:
    with pytest.raises(MalformedAnswerError, match=r"sample 'n1', nuggets 1-4 \(from 'Paris is"):
        assign_nuggets(SAMPLES, "ragas.nuggets", llm=FakeJudge(garbage=True))
    maybe = '["support", "maybe", "support", "support"]'
    wrong = FakeJudge(override=lambda prompt: maybe)
    with pytest.raises(MalformedAnswerError, match=r"nugget 2 \('Seine floods often'\)") as info:
        assign_nuggets(SAMPLES, "ragas.nuggets", llm=wrong)
    assert isinstance(info.value, EvaluationError)
    assert (info.value.sample_id, info.value.answer) == ("n1", maybe)
    short = FakeJudge(override=lambda prompt: '["support"]')
    with pytest.raises(MalformedAnswerError, match="1 labels for 4 items"):
        assign_nuggets(SAMPLES, "ragas.nuggets", llm=short)
    # None of the bad answers was stored: a good judge is asked again.
    good = FakeJudge()
    assign_nuggets(SAMPLES, "ragas.nuggets", llm=good)
    assert good.calls == 1


def test_the_instructor_judge_gives_the_same_labels_with_estimated_tokens() -> None:
    judge, usage = FakeInstructorJudge(), LLMUsage()
    assigned = assign_nuggets(SAMPLES, "ragas.nuggets", llm=judge, usage=usage)
    assert labels(assigned) == labels(assign_nuggets(SAMPLES, "ragas.nuggets", llm=FakeJudge()))
    assert usage.models == ["fake-instructor"]
    assert usage.calls == 1
    assert usage.tokens_estimated_calls == 1


def test_llm_is_required() -> None:
    with pytest.raises(EvaluationError, match=r"llm= is required.*never falls back to OpenAI"):
        assign_nuggets(SAMPLES, "ragas.nuggets")


def test_usage_has_the_manifest_shape_and_adds_up() -> None:
    usage = LLMUsage()
    for _ in range(2):
        assign_nuggets(SAMPLES, "ragas.nuggets", llm=FakeJudge(), usage=usage, cache=False)
    assert usage.calls == 2
    assert usage.cache is None
    assert set(usage.to_dict()) == {
        "models", "calls", "cache_hits", "prompt_tokens", "completion_tokens",
        "tokens_estimated_calls", "token_estimate", "cache",
    }  # fmt: skip


WORDS = st.sampled_from(["paris", "lyon", "seine", "capital", "france", "river"])


def rule(text: str, answer: str) -> str:
    """The fake's rule, restated as the oracle."""
    if text.lower() in answer.lower():
        return "support"
    return (
        "partial_support" if text.split(maxsplit=1)[0].lower() in answer.lower() else "not_support"
    )


@given(
    st.lists(st.lists(WORDS, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=12),
    st.lists(WORDS, min_size=1, max_size=6).map(" ".join),
    st.integers(1, 5),
)
def test_windows_keep_every_label_in_its_nuggets_order(
    texts: list[str], answer: str, batch_size: int
) -> None:
    judge = FakeJudge()
    sample = {
        "id": "h",
        "response": answer,
        "nuggets": [{"text": t, "importance": "okay"} for t in texts],
    }
    assigned = assign_nuggets(
        [sample], "ragas.nuggets", llm=judge, batch_size=batch_size, cache=False
    )
    assert labels(assigned) == [[rule(t, answer) for t in texts]]
    assert judge.calls == math.ceil(len(texts) / batch_size)


def test_a_langchain_chat_model_is_asked_through_ragas_wrapper() -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    chat = FakeListChatModel(responses=['```json\n["Support", "not supported"]\n```'])
    sample = {
        "id": "lc",
        "response": "Paris.",
        "nuggets": [
            {"text": "Paris", "importance": "vital"},
            {"text": "Rome", "importance": "okay"},
        ],
    }
    with pytest.raises(EvaluationError, match="pass model_id="):
        assign_nuggets([sample], "ragas.nuggets", llm=chat)
    usage = LLMUsage()
    for _ in range(2):
        (assigned,) = assign_nuggets(
            [sample], "ragas.nuggets", llm=chat, model_id="chat", usage=usage
        )
        assert [n["assignment"] for n in assigned["nuggets"]] == ["support", "not_support"]
    # The chat model reports no usage: the tokens of its one call are estimates.
    assert (usage.calls, usage.cache_hits, usage.tokens_estimated_calls) == (1, 1, 1)
    assert usage.models == ["chat"]


def test_dry_run_as_an_option_points_to_the_planner() -> None:
    judge = FakeJudge()
    with pytest.raises(EvaluationError, match=r"no dry run; ef_evaluation_ragas.dry_run_nuggets"):
        assign_nuggets(SAMPLES, "ragas.nuggets", llm=judge, dry_run=True)
    assert judge.calls == 0
