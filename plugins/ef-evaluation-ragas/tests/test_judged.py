"""evaluate_with_ragas: LLM-judged metrics with a deterministic fake judge, no key, no network."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from ef_evaluation_ragas import evaluate_with_ragas
from ragas.run_config import RunConfig

from .fake_llm import FakeJudge

#: Ragas retries a failing judge up to 10 times with backoff; a failure test needs one try.
ONE_TRY = RunConfig(max_retries=1, max_wait=0)

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from ragas.metrics import AnswerRelevancy, AspectCritic, ExactMatch, Faithfulness

SAMPLES: list[dict[str, Any]] = [
    {"id": "good", "user_input": "Capital of France?", "response": "Paris is the capital of France.",
     "retrieved_contexts": ["Paris is the capital of France. It is large."]},
    {"id": "half", "user_input": "Capital of France?",
     "response": "Paris is the capital of France. Paris has ten million cats.",
     "retrieved_contexts": ["Paris is the capital of France."]},
    {"id": "bad", "user_input": "Capital of France?", "response": "Lyon.",
     "retrieved_contexts": ["Paris is the capital of France."]},
]  # fmt: skip


def critic() -> Any:
    return AspectCritic(name="names_paris", definition="Does the response name Paris?")


def test_aspect_critic_and_faithfulness_with_your_own_llm() -> None:
    judge = FakeJudge()
    report = evaluate_with_ragas(SAMPLES, [critic(), Faithfulness()], llm=judge)
    assert report.sample_ids == ("good", "half", "bad")
    assert report.per_sample["names_paris"] == (1.0, 1.0, 0.0)
    assert report.per_sample["faithfulness"] == pytest.approx((1.0, 0.5, 0.0))
    assert report.coverage == {"names_paris": 3, "faithfulness": 3}
    assert report.metrics["faithfulness"] == pytest.approx(0.5)
    assert judge.prompts, "the judge was never asked"


def test_llm_is_required_and_never_defaults_to_openai() -> None:
    with pytest.raises(ValueError, match=r"llm is required.*never falls back to OpenAI"):
        evaluate_with_ragas(SAMPLES, [Faithfulness()], llm=None)


def test_a_metric_needing_embeddings_is_refused_without_them() -> None:
    with pytest.raises(ValueError, match="'answer_relevancy' needs embeddings; pass embeddings="):
        evaluate_with_ragas(SAMPLES, [AnswerRelevancy()], llm=FakeJudge())


def test_exceptions_surface_instead_of_nan() -> None:
    with pytest.raises(ConnectionRefusedError, match="judge is down"):
        evaluate_with_ragas(
            SAMPLES, [critic()], llm=FakeJudge(fail_with=ConnectionRefusedError("judge is down")),
            run_config=ONE_TRY,
        )  # fmt: skip


@pytest.mark.parametrize(
    "judge",
    [FakeJudge(fail_with=TimeoutError("slow")), FakeJudge(garbage=True)],
    ids=["raises", "garbage"],
)
def test_skip_turns_failures_into_coverage_gaps(judge: FakeJudge) -> None:
    report = evaluate_with_ragas(
        SAMPLES, [critic()], llm=judge, on_error="skip", run_config=ONE_TRY
    )
    assert report.per_sample["names_paris"] == (None, None, None)
    assert report.coverage["names_paris"] == 0
    assert report.metrics["names_paris"] is None
    assert not any(isinstance(v, float) and math.isnan(v) for v in report.metrics.values())


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="on_error must be one of"):
        evaluate_with_ragas(SAMPLES, [critic()], llm=FakeJudge(), on_error="ignore")
    with pytest.raises(ValueError, match="metrics is empty"):
        evaluate_with_ragas(SAMPLES, [], llm=FakeJudge())
    with pytest.raises(TypeError, match="not a Ragas metric object"):
        evaluate_with_ragas(SAMPLES, ["faithfulness"], llm=FakeJudge())
    with pytest.raises(ValueError, match="samples is empty"):
        evaluate_with_ragas([], [ExactMatch()], llm=FakeJudge())
