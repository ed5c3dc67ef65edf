"""The judge the bridge hands to Ragas: your LLM behind the verdict cache and a ledger.

Every request a Ragas metric makes goes through :class:`Gate`: answered from the cache when
the same request (prompt, model id, sample, sampling arguments) was answered before; else
passed to your LLM and stored, counting the call and its tokens; or, in a dry run, recorded as
a planned call and stopped there, before anything reaches the LLM.

Ragas has two kinds of judge, and each gets its own thin wrapper class around one Gate:
``BaseRagasLLM`` (and a LangChain chat model, which Ragas wraps in one) and the
``InstructorBaseRagasLLM`` of ``ragas.llms.llm_factory``. The classes subclass Ragas' own, so
they are built on first use (:func:`judge_for`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from functools import cache
from typing import Any

import attrs

from ._ragas import ragas_module
from .cache import CachedAnswer, VerdictCache, verdict_key

__all__ = [
    "ANSWER_CHECK",
    "Gate",
    "Ledger",
    "PlannedCall",
    "Scoring",
    "estimate_tokens",
    "judge_for",
    "model_id_of",
]

#: The documented default token estimate: about four characters a token (OpenAI's rule of
#: thumb for English). tiktoken, which Ragas installs, downloads its encodings on first use,
#: so it is no default for an offline-safe bridge; pass its encoder as ``count_tokens``.
CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """The default token estimate of a text: ``ceil(len(text) / 4)``.

    >>> estimate_tokens(""), estimate_tokens("Paris"), estimate_tokens("abcdefgh")
    (0, 2, 2)
    """
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@attrs.frozen
class Scoring:
    """What is being scored when a request is made: set per (sample, metric) by the bridge."""

    sample_id: str
    metric: str
    #: The sample as the metric sees it (its required fields), part of the cache key.
    sample: Mapping[str, Any] | None


#: The (sample, metric) being scored in the current asyncio task; None outside one.
SCORING: ContextVar[Scoring | None] = ContextVar("ef_evaluation_ragas_scoring", default=None)

#: A check each new answer must pass before it is stored (it raises if not), set by the
#: bridge's labellers: an answer they cannot read is counted, never cached, so the next run
#: asks again instead of reading the same bad answer from the file forever.
ANSWER_CHECK: ContextVar[Callable[[str], object] | None] = ContextVar(
    "ef_evaluation_ragas_answer_check", default=None
)


@attrs.frozen
class PlannedCall:
    """A call a dry run found would be made: the first request of a (sample, metric) that the
    cache cannot answer, and its prompt's estimated tokens."""

    sample_id: str
    metric: str
    prompt_tokens: int


class Planned(BaseException):
    """Stops a metric at its first uncached request in a dry run.

    A BaseException, so that neither Ragas' retries nor a metric's ``except Exception``
    can swallow it.
    """


@attrs.define
class Ledger:
    """What the judge did in one evaluation: calls made, cache hits, tokens, planned calls."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    #: Calls whose tokens the LLM did not report, so they are ``count_tokens`` estimates.
    estimated_calls: int = 0
    planned: list[PlannedCall] = attrs.Factory(list)


def model_id_of(llm: Any) -> str | None:
    """The model name an LLM object carries, if any (``model_name``, ``model``, ...).

    A LangChain model inside Ragas' wrapper is looked at too.

    >>> class Judge: model_name = "gpt-4o-mini"
    >>> model_id_of(Judge()), model_id_of(object())
    ('gpt-4o-mini', None)
    """
    for obj in (llm, getattr(llm, "langchain_llm", None), getattr(llm, "llm", None)):
        for attribute in ("model_id", "model_name", "model"):
            value = getattr(obj, attribute, None) if obj is not None else None
            if isinstance(value, str) and value:
                return value
    return None


def _reported_usage(result: Any) -> tuple[int, int] | None:
    """(prompt, completion) tokens an LLMResult reports, in LangChain's forms; else None."""
    output = getattr(result, "llm_output", None) or {}
    for name in ("token_usage", "usage"):
        usage = output.get(name) if isinstance(output, Mapping) else None
        if isinstance(usage, Mapping):
            prompt = usage.get("prompt_tokens", usage.get("input_tokens"))
            completion = usage.get("completion_tokens", usage.get("output_tokens"))
            if isinstance(prompt, int) and isinstance(completion, int):
                return prompt, completion
    totals = [0, 0]
    found = False
    for row in getattr(result, "generations", None) or []:
        for generation in row:
            meta = getattr(getattr(generation, "message", None), "usage_metadata", None)
            if meta:
                found = True
                totals[0] += int(meta.get("input_tokens", 0))
                totals[1] += int(meta.get("output_tokens", 0))
    return (totals[0], totals[1]) if found else None


@attrs.define
class Gate:
    """The cache, the ledger and the dry run, shared by the judges of one evaluation."""

    model_id: str
    cache: VerdictCache | None
    count_tokens: Callable[[str], int] = estimate_tokens
    dry_run: bool = False
    ledger: Ledger = attrs.Factory(Ledger)

    def key(self, prompt: str, **sampling: Any) -> str:
        scoring = SCORING.get()
        sample = scoring.sample if scoring is not None else None
        return verdict_key(prompt, self.model_id, sample, **sampling)

    def lookup(self, key: str, prompt: str) -> CachedAnswer | None:
        """The cached answer (a hit), or None; in a dry run, a miss is planned and stops."""
        answer = self.cache.get(key) if self.cache is not None else None
        if answer is not None:
            self.ledger.cache_hits += 1
            return answer
        if self.dry_run:
            scoring = SCORING.get()
            self.ledger.planned.append(
                PlannedCall(
                    scoring.sample_id if scoring else "?",
                    scoring.metric if scoring else "?",
                    self.count_tokens(prompt),
                )
            )
            raise Planned
        return None

    def made(self, key: str, prompt: str, texts: list[list[str]], usage: Any) -> None:
        """Count a call the LLM answered, and store its answer if it passes ANSWER_CHECK."""
        reported = usage if isinstance(usage, tuple) else _reported_usage(usage)
        if reported is None:
            self.ledger.estimated_calls += 1
            reported = (
                self.count_tokens(prompt),
                sum(self.count_tokens(text) for row in texts for text in row),
            )
        self.ledger.calls += 1
        self.ledger.prompt_tokens += reported[0]
        self.ledger.completion_tokens += reported[1]
        check = ANSWER_CHECK.get()
        if check is not None:
            for row in texts:
                for text in row:
                    check(text)
        if self.cache is not None:
            self.cache.put(key, self.model_id, CachedAnswer(texts, *reported))


def _texts(result: Any) -> list[list[str]]:
    return [[generation.text for generation in row] for row in result.generations]


@cache
def _ragas_judge_class() -> type:
    """``EfJudge``, a ``BaseRagasLLM`` around another (Ragas' LangChain wrapper, say)."""
    base = ragas_module("ragas.llms.base")
    outputs = ragas_module("langchain_core.outputs")

    class EfJudge(base.BaseRagasLLM):  # type: ignore[misc, name-defined]
        def __init__(self, inner: Any, gate: Gate) -> None:
            # Not the dataclass __init__: every field is the inner judge's.
            self.inner = inner
            self.gate = gate
            self.run_config = inner.run_config
            self.multiple_completion_supported = inner.multiple_completion_supported
            self.cache = None  # Ragas' own cache field; ours is the gate's

        def _hit(self, answer: CachedAnswer) -> Any:
            return outputs.LLMResult(
                generations=[
                    [outputs.Generation(text=t) for t in row] for row in answer.generations
                ]
            )

        async def generate(
            self,
            prompt: Any,
            n: int = 1,
            temperature: float | None = 0.01,
            stop: list[str] | None = None,
            callbacks: Any = None,
        ) -> Any:
            # The inner generate keeps Ragas' retries and its is_finished check: only a
            # finished answer is counted once and stored.
            text = prompt.to_string()
            key = self.gate.key(text, n=n, temperature=temperature, stop=stop)
            answer = self.gate.lookup(key, text)
            if answer is not None:
                return self._hit(answer)
            result = await self.inner.generate(
                prompt, n=n, temperature=temperature, stop=stop, callbacks=callbacks
            )
            self.gate.made(key, text, _texts(result), result)
            return result

        async def agenerate_text(
            self,
            prompt: Any,
            n: int = 1,
            temperature: float | None = 0.01,
            stop: list[str] | None = None,
            callbacks: Any = None,
        ) -> Any:
            text = prompt.to_string()
            key = self.gate.key(text, n=n, temperature=temperature, stop=stop)
            answer = self.gate.lookup(key, text)
            if answer is not None:
                return self._hit(answer)
            result = await self.inner.agenerate_text(
                prompt, n=n, temperature=temperature, stop=stop, callbacks=callbacks
            )
            self.gate.made(key, text, _texts(result), result)
            return result

        def generate_text(
            self,
            prompt: Any,
            n: int = 1,
            temperature: float = 0.01,
            stop: list[str] | None = None,
            callbacks: Any = None,
        ) -> Any:
            text = prompt.to_string()
            key = self.gate.key(text, n=n, temperature=temperature, stop=stop)
            answer = self.gate.lookup(key, text)
            if answer is not None:
                return self._hit(answer)
            result = self.inner.generate_text(
                prompt, n=n, temperature=temperature, stop=stop, callbacks=callbacks
            )
            self.gate.made(key, text, _texts(result), result)
            return result

        def is_finished(self, response: Any) -> bool:
            return bool(self.inner.is_finished(response))

        def set_run_config(self, run_config: Any) -> None:
            self.run_config = run_config
            self.inner.set_run_config(run_config)

        def __repr__(self) -> str:
            return f"EfJudge({self.inner!r}, model={self.gate.model_id!r})"

    EfJudge.__module__ = __name__
    return EfJudge


@cache
def _instructor_judge_class() -> type:
    """``EfInstructorJudge``, around the ``InstructorBaseRagasLLM`` of ``llm_factory``."""
    base = ragas_module("ragas.llms.base")

    class EfInstructorJudge(base.InstructorBaseRagasLLM):  # type: ignore[misc, name-defined]
        def __init__(self, inner: Any, gate: Gate) -> None:
            self.inner = inner
            self.gate = gate
            self.is_async = getattr(inner, "is_async", False)  # Ragas' prompts read it

        def _key(self, prompt: str, response_model: Any) -> str:
            # The answer's schema is part of the request an Instructor judge sends.
            return self.gate.key(f"{prompt}\n[response_model: {response_model.__qualname__}]")

        def generate(self, prompt: str, response_model: Any) -> Any:
            key = self._key(prompt, response_model)
            answer = self.gate.lookup(key, prompt)
            if answer is not None:
                return response_model.model_validate_json(answer.generations[0][0])
            result = self.inner.generate(prompt, response_model)
            self.gate.made(key, prompt, [[result.model_dump_json()]], None)
            return result

        async def agenerate(self, prompt: str, response_model: Any) -> Any:
            key = self._key(prompt, response_model)
            answer = self.gate.lookup(key, prompt)
            if answer is not None:
                return response_model.model_validate_json(answer.generations[0][0])
            result = await self.inner.agenerate(prompt, response_model)
            self.gate.made(key, prompt, [[result.model_dump_json()]], None)
            return result

        def __repr__(self) -> str:
            return f"EfInstructorJudge({self.inner!r}, model={self.gate.model_id!r})"

    EfInstructorJudge.__module__ = __name__
    return EfInstructorJudge


def judge_for(llm: Any, gate: Gate) -> Any:
    """``llm`` (a ``BaseRagasLLM``, an Instructor judge or a LangChain model) behind ``gate``."""
    base = ragas_module("ragas.llms.base")
    if isinstance(llm, base.InstructorBaseRagasLLM):
        return _instructor_judge_class()(llm, gate)
    if not isinstance(llm, base.BaseRagasLLM):
        # What ragas.evaluate does with a LangChain model; anything else fails there.
        llm = base.LangchainLLMWrapper(llm)
    return _ragas_judge_class()(llm, gate)
