"""The claim labeler ragas.claims: RAGChecker's procedure with the user's LLM (a fake)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from ef_evaluation_ragas import LLMUsage, MalformedAnswerError, dry_run_claims

from ef.evaluation import EvaluationError, evaluate_claims, label_claims

from .fake_llm import FakeJudge

E, N, C = "Entailment", "Neutral", "Contradiction"

SAMPLES: list[dict[str, Any]] = [
    {"id": "c1", "user_input": "Tell me about Paris",
     "response": "Paris is the capital of France. Paris has ten million cats.",
     "reference": "Paris is the capital of France. Paris lies on the Seine.",
     "retrieved_contexts": ["Paris is the capital of France.",
                            "Paris lies on the Seine. Paris has ten million cats."]},
    # No reference: only the response's claims against the contexts.
    {"id": "c2", "user_input": "Tell me about Paris", "response": "Lyon.",
     "retrieved_contexts": ["Paris is the capital of France."]},
    # No contexts: only the two texts against each other.
    {"id": "c3", "user_input": "Tell me about Paris", "response": "Not Paris.",
     "reference": "Paris."},
]  # fmt: skip


def test_label_claims_then_evaluate_claims_scores_the_judges_labels() -> None:
    judge, usage = FakeJudge(), LLMUsage()
    labelled = label_claims(SAMPLES, "ragas.claims", llm=judge, usage=usage)
    assert [s["claims"] for s in labelled] == [
        {
            "response_claims": ["Paris is the capital of France.", "Paris has ten million cats."],
            "reference_claims": ["Paris is the capital of France.", "Paris lies on the Seine."],
            "answer2response": [E, N],
            "response2answer": [E, N],
            "retrieved2response": [[E, N], [N, E]],
            "retrieved2answer": [[E, N], [N, E]],
        },
        {"response_claims": ["Lyon."], "retrieved2response": [[N]]},
        {
            "response_claims": ["Not Paris."],
            "reference_claims": ["Paris."],
            "answer2response": [C],
            "response2answer": [E],
        },
    ]
    report = evaluate_claims(labelled)
    # c1 by hand: r1 correct and in c1; r2 not correct, in c2, which is relevant (it holds
    # g2); g1 and g2 each in a context, g1 alone found by the response.
    assert report.per_sample["claims.precision"] == (0.5, None, 0.0)
    assert report.per_sample["claims.recall"] == (0.5, None, 1.0)
    assert report.per_sample["claims.f1"] == (0.5, None, 0.0)
    assert report.per_sample["claims.claim_recall"] == (1.0, None, None)
    assert report.per_sample["claims.context_precision"] == (1.0, None, None)
    assert report.per_sample["claims.context_utilization"] == (0.5, None, None)
    assert report.per_sample["claims.noise_sensitivity_in_relevant"] == (0.5, None, None)
    assert report.per_sample["claims.noise_sensitivity_in_irrelevant"] == (0.0, None, None)
    assert report.per_sample["claims.hallucination"] == (0.0, None, None)
    assert report.per_sample["claims.self_knowledge"] == (0.0, None, None)
    assert report.per_sample["claims.faithfulness"] == (1.0, 0.0, None)
    # c1: 2 extractions, 1 + 1 text checks, 2 + 2 context checks; c2: 1 + 1; c3: 2 + 1 + 1.
    assert judge.calls == usage.calls == 14
    assert usage.prompt_tokens == judge.prompt_tokens > 0


def test_a_second_identical_run_makes_no_call() -> None:
    first, second, usage = FakeJudge(), FakeJudge(), LLMUsage()
    before = label_claims(SAMPLES, "ragas.claims", llm=first)
    after = label_claims(SAMPLES, "ragas.claims", llm=second, usage=usage)
    assert after == before
    assert second.calls == usage.calls == 0
    assert usage.cache_hits == first.calls == 14


def test_claims_are_checked_in_batches_in_order() -> None:
    response = " ".join(f"Claim {i}." for i in range(7))
    sample = {"id": "b", "response": response, "reference": "Claim 1. Claim 5. Claim 6."}
    judge = FakeJudge()
    (labelled,) = label_claims([sample], "ragas.claims", llm=judge, batch_size=3)
    assert labelled["claims"]["answer2response"] == [N, E, N, N, N, E, E]
    # 2 extractions; 7 response claims in 3 prompts; 3 reference claims in 1.
    assert judge.calls == 2 + 3 + 1


def test_the_dry_run_calls_nothing() -> None:
    judge, out = FakeJudge(), io.StringIO()
    plan = dry_run_claims(SAMPLES, llm=judge, out=out)
    assert judge.calls == 0
    assert not judge.prompts
    # Nothing cached: the extractions alone can be planned, the checks need their answers.
    assert [(c.sample_id, c.metric) for c in plan.calls] == [
        ("c1", "ragas.claims: extract response"),
        ("c1", "ragas.claims: extract reference"),
        ("c2", "ragas.claims: extract response"),
        ("c3", "ragas.claims: extract response"),
        ("c3", "ragas.claims: extract reference"),
    ]
    assert "checks built from its answer" in out.getvalue()
    # With the extractions cached (another run's), the checks are planned too, exactly.
    label_claims(SAMPLES, "ragas.claims", llm=FakeJudge(), cache=False)
    label_claims([{**s, "retrieved_contexts": None} for s in SAMPLES[:1]], "ragas.claims",
                 llm=FakeJudge())  # fmt: skip
    plan = dry_run_claims(SAMPLES[:1], llm=judge, out=io.StringIO())
    assert judge.calls == 0
    # c1: answer2response and response2answer are cached; its 4 context checks are not.
    assert [c.metric for c in plan.calls] == [
        "ragas.claims: retrieved2response, context 1",
        "ragas.claims: retrieved2response, context 2",
        "ragas.claims: retrieved2answer, context 1",
        "ragas.claims: retrieved2answer, context 2",
    ]
    label_claims(SAMPLES[:1], "ragas.claims", llm=judge)
    assert judge.calls == len(plan.calls)


def test_a_malformed_answer_is_refused_naming_sample_check_and_claim() -> None:
    def short(prompt: str) -> str | None:
        # One label where two claims were asked, for c1's gold answer against its response.
        return (
            '["Entailment"]'
            if "Reference: Paris is the capital of France. Paris has" in prompt
            else None
        )

    with pytest.raises(
        MalformedAnswerError,
        match=r"sample 'c1', response2answer, claims 1-2 \(from 'Paris is the capital",
    ):
        label_claims(SAMPLES, "ragas.claims", llm=FakeJudge(override=short))

    def odd(prompt: str) -> str | None:
        return (
            '["Entailment", "Perhaps"]'
            if "Reference: Paris is the capital of France.\n" in prompt
            else None
        )

    # The good answers of the failed run above were kept: turn the cache off to ask again.
    with pytest.raises(MalformedAnswerError, match=r"context 1, claim 2 \('Paris has ten"):
        label_claims(SAMPLES[:1], "ragas.claims", llm=FakeJudge(override=odd), cache=False)
    with pytest.raises(MalformedAnswerError, match=r"sample 'c2', the claims of its response"):
        label_claims(SAMPLES[1:2], "ragas.claims", llm=FakeJudge(garbage=True), cache=False)


def test_dry_run_as_an_option_points_to_the_planner() -> None:
    judge = FakeJudge()
    with pytest.raises(EvaluationError, match=r"no dry run; ef_evaluation_ragas.dry_run_claims"):
        label_claims(SAMPLES, "ragas.claims", llm=judge, dry_run=True)
    assert judge.calls == 0
