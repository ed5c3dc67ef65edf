"""A deterministic judge that satisfies Ragas' LLM interface (``BaseRagasLLM``), for tests.

It answers Ragas' Pydantic prompts by rule, reading the prompt's final input:

* AspectCritic ("Criteria Definition"): verdict 1 if the response mentions ``Paris``;
* Faithfulness, step 1 (statement generation): one statement per sentence of the answer;
* Faithfulness, step 2 (NLI): verdict 1 for a statement that appears word for word in the
  context, 0 otherwise;
* the bridge's nugget assigner: ``support`` for a nugget whose text appears in the answer
  (case-insensitive), ``partial_support`` for one whose first word does, else
  ``not_support``, as a JSON list;
* the claim labeler's extraction: one claim per sentence (split after each ``.``);
* the claim labeler's check: ``Entailment`` for a claim that appears word for word in the
  reference (its final ``.`` dropped), ``Contradiction`` for one that starts with ``Not``,
  else ``Neutral``.

``fail_with`` makes every call raise; ``garbage`` makes every answer unparseable;
``override(prompt)``, when it returns a text, answers instead of the rules.

It counts what it is asked: ``calls`` (one per request answered), and the tokens of the
prompts and answers, counted as whitespace-separated words, which it reports the way
LangChain's OpenAI models do (``llm_output["token_usage"]``), unless ``report_usage`` is off.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.outputs import Generation, LLMResult
from ragas.llms.base import BaseRagasLLM, InstructorBaseRagasLLM

_INPUT = "Now perform the same with the following input"


def _between(prompt: str, start: str, end: str) -> str:
    return prompt.split(start, 1)[1].split(end, 1)[0]


def _listed(block: str) -> list[str]:
    return [line.split(". ", 1)[1] for line in block.splitlines()]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=\.)\s+", text) if s.strip()]


def _bridge_answer(prompt: str) -> str | None:
    """The answer to a prompt of the bridge's labellers, or None for another prompt."""
    if prompt.startswith("You judge whether an answer to a search query captures"):
        answer = _between(prompt, "\n\nAnswer: ", "\n\nNuggets:\n").lower()
        labels = []
        for nugget in _listed(_between(prompt, "\n\nNuggets:\n", "\n\nReturn ")):
            text = nugget.lower()
            labels.append(
                "support"
                if text in answer
                else "partial_support"
                if text.split()[0] in answer
                else "not_support"
            )
        return json.dumps(labels)
    if prompt.startswith("List the claims a text makes"):
        return json.dumps(_sentences(_between(prompt, "\n\nText: ", "\n\nReturn a JSON")))
    if prompt.startswith("Check whether a reference entails"):
        reference = _between(prompt, "\n\nReference: ", "\n\nClaims:\n")
        claims = _listed(_between(prompt, "\n\nClaims:\n", "\n\nReturn "))
        return json.dumps(
            [
                "Entailment"
                if claim.rstrip(".") in reference
                else "Contradiction"
                if claim.startswith("Not")
                else "Neutral"
                for claim in claims
            ]
        )
    return None


@dataclass
class FakeJudge(BaseRagasLLM):
    fail_with: Exception | None = None
    garbage: bool = False
    prompts: list[str] = field(default_factory=list)
    model_name: str = "fake-judge"
    report_usage: bool = True
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    override: Callable[[str], str | None] | None = None

    def _answer(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.fail_with is not None:
            raise self.fail_with
        overridden = self.override(prompt) if self.override is not None else None
        if overridden is not None:
            return overridden
        if self.garbage:
            return "I am not JSON"
        bridge = _bridge_answer(prompt)
        if bridge is not None:
            return bridge
        data = json.loads(prompt.split(_INPUT, 1)[1].split("input: ", 1)[1].rsplit("Output:", 1)[0])
        if "Criteria Definition" in prompt:
            verdict = int("Paris" in json.dumps(data.get("response", "")))
            return json.dumps({"reason": "rule", "verdict": verdict})
        if "Break down each sentence" in prompt:
            sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", data["answer"]) if s.strip()]
            return json.dumps({"statements": sentences})
        if "judge the faithfulness" in prompt:
            context = data["context"]
            return json.dumps(
                {
                    "statements": [
                        {"statement": s, "reason": "rule", "verdict": int(s.rstrip(".") in context)}
                        for s in data["statements"]
                    ]
                }
            )
        raise AssertionError(f"FakeJudge has no rule for this prompt: {prompt[:200]!r}")

    def _result(self, prompt: Any, n: int) -> LLMResult:
        text = self._answer(prompt.to_string())
        self.calls += 1
        usage = {
            "prompt_tokens": len(prompt.to_string().split()),
            "completion_tokens": n * len(text.split()),
        }
        self.prompt_tokens += usage["prompt_tokens"]
        self.completion_tokens += usage["completion_tokens"]
        return LLMResult(
            generations=[[Generation(text=text) for _ in range(n)]],
            llm_output={"token_usage": usage} if self.report_usage else None,
        )

    def generate_text(
        self,
        prompt: Any,
        n: int = 1,
        temperature: float = 0.01,
        stop: Any = None,
        callbacks: Any = None,
    ) -> LLMResult:
        return self._result(prompt, n)

    async def agenerate_text(
        self,
        prompt: Any,
        n: int = 1,
        temperature: float | None = 0.01,
        stop: Any = None,
        callbacks: Any = None,
    ) -> LLMResult:
        return self._result(prompt, n)

    def is_finished(self, response: LLMResult) -> bool:
        return True


@dataclass
class FakeInstructorJudge(InstructorBaseRagasLLM):
    """The same rules behind Ragas' other judge interface, that of ``llm_factory``: a
    prompt and a response model in, a parsed answer out (no token usage reported)."""

    rules: FakeJudge = field(default_factory=FakeJudge)
    model: str = "fake-instructor"
    is_async: bool = True

    def generate(self, prompt: str, response_model: Any) -> Any:
        value = json.loads(self.rules._answer(prompt))
        if isinstance(value, list):  # the bridge's labellers: a model of one list field
            (name,) = response_model.model_fields
            value = {name: value}
        return response_model.model_validate(value)

    async def agenerate(self, prompt: str, response_model: Any) -> Any:
        return self.generate(prompt, response_model)
