"""Asking the user's LLM a labelling question, through the bridge's cached and counted judge.

The nugget assigner and the claim labeler send plain prompts, not Ragas metrics, but they go
through the same :class:`~ef_evaluation_ragas._judge.Gate` as ``evaluate_with_ragas``: the
verdict cache (keyed by prompt, model and sample), the ledger of calls and tokens, and the
dry run. An answer the labeller cannot read is counted but never cached, and is an error
(:class:`MalformedAnswerError`) naming the sample and the item.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable, Mapping
from functools import cache
from typing import Any, TextIO, TypeVar

import attrs

from ef.evaluation import PluginError

from ._answers import AnswerNotRead
from ._judge import (
    ANSWER_CHECK,
    CHARS_PER_TOKEN,
    SCORING,
    Gate,
    Ledger,
    Planned,
    Scoring,
    estimate_tokens,
    judge_for,
)
from ._ragas import quiet, ragas_module
from .cache import VerdictCache
from .judged import LLMPlan, _cache_of, _model_of

__all__ = ["Asker", "LLMUsage", "MalformedAnswerError", "asking"]

T = TypeVar("T")

#: How many requests are in flight at once, unless ``run_config.max_workers`` says otherwise
#: (Ragas' own default).
MAX_WORKERS = 16


class MalformedAnswerError(PluginError, ValueError):
    """The judge answered a labelling prompt in a form the bridge cannot read.

    Never turned into a default label. The answer was counted (it cost tokens) but not
    cached, so running again asks again. ``labeller`` is the assigner or labeler,
    ``sample_id`` the sample, ``item`` what was being labelled (nuggets, claims, a text),
    and ``answer`` the judge's text.
    """

    def __init__(self, message: str, *, labeller: str, sample_id: str, item: str, answer: str):
        super().__init__(message)
        self.labeller = labeller
        self.sample_id = sample_id
        self.item = item
        self.answer = answer


@attrs.define
class LLMUsage:
    """What the bridge's LLM labellers cost, filled in by each call given it as ``usage=``.

    One object can collect several calls (an assignment, then a claim labelling): the counts
    add up. :meth:`to_dict` has the shape of ``evaluate_with_ragas``'s ``manifest["llm"]``.

    >>> usage = LLMUsage()
    >>> usage.calls, usage.cache_hits, usage.to_dict()["models"]
    (0, 0, [])
    """

    models: list[str] = attrs.Factory(list)
    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    #: Calls whose tokens the LLM did not report, so they are ``count_tokens`` estimates.
    tokens_estimated_calls: int = 0
    token_estimate: str | None = None
    cache: str | None = None

    def add(self, ledger: Ledger, model: str, cache: VerdictCache | None, counted: str) -> None:
        """Add what one labelling run's ledger counted."""
        if model not in self.models:
            self.models.append(model)
        self.calls += ledger.calls
        self.cache_hits += ledger.cache_hits
        self.prompt_tokens += ledger.prompt_tokens
        self.completion_tokens += ledger.completion_tokens
        self.tokens_estimated_calls += ledger.estimated_calls
        self.token_estimate = counted
        self.cache = str(cache.path) if cache is not None else None

    def to_dict(self) -> dict[str, Any]:
        """The counts as ``evaluate_with_ragas`` puts them in ``manifest["llm"]``."""
        return {
            "models": list(self.models),
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tokens_estimated_calls": self.tokens_estimated_calls,
            "token_estimate": self.token_estimate,
            "cache": self.cache,
        }


@cache
def _schema(field: str) -> type:
    """The Pydantic answer an Instructor judge is asked for: ``{field: [str, ...]}``."""
    pydantic = ragas_module("pydantic")
    return pydantic.create_model(f"Ef{field.title()}Answer", **{field: (list[str], ...)})  # type: ignore[no-any-return]


@attrs.define
class Asker:
    """The user's LLM behind the gate, asked one prompt at a time (concurrently)."""

    labeller: str
    judge: Any
    gate: Gate
    temperature: float
    max_workers: int
    instructor: bool
    _slots: asyncio.Semaphore | None = None

    async def ask(
        self,
        prompt: str,
        *,
        sample_id: str,
        step: str,
        sample: Mapping[str, Any],
        field: str,
        read: Callable[[str], T],
        refused: Callable[[str, AnswerNotRead], MalformedAnswerError],
    ) -> T | None:
        """The answer to ``prompt``, as ``read`` reads it; None when a dry run planned it.

        ``sample`` (what the prompt reads of the sample) is part of the cache key; ``step``
        names the request in a dry run's plan. An answer ``read`` refuses is the error
        ``refused`` builds, whether it came from the LLM (then it is not cached) or the file.
        """

        def check(text: str) -> None:
            try:
                read(text)
            except AnswerNotRead as exc:
                raise refused(text, exc) from None

        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_workers)
        async with self._slots:
            scoring = SCORING.set(Scoring(sample_id, step, dict(sample)))
            checking = ANSWER_CHECK.set(check)
            try:
                text = await self._text(prompt, field)
            except Planned:
                return None
            finally:
                ANSWER_CHECK.reset(checking)
                SCORING.reset(scoring)
        try:
            return read(text)
        except AnswerNotRead as exc:
            raise refused(text, exc) from None

    async def _text(self, prompt: str, field: str) -> str:
        if self.instructor:
            schema = _schema(field)
            if getattr(self.judge, "is_async", False):
                result = await self.judge.agenerate(prompt, schema)
            else:
                result = self.judge.generate(prompt, schema)
            return str(result.model_dump_json())
        value = ragas_module("langchain_core.prompt_values").StringPromptValue(text=prompt)
        result = await self.judge.generate(value, n=1, temperature=self.temperature)
        return str(result.generations[0][0].text)


def asking(
    labeller: str,
    work: Callable[[Asker], Awaitable[T]],
    *,
    llm: Any,
    model_id: str | None,
    cache: str | os.PathLike[str] | bool,
    count_tokens: Callable[[str], int] | None,
    run_config: Any,
    temperature: float,
    usage: LLMUsage | None,
    dry_run: bool,
    note: str,
    out: TextIO | None,
) -> T | LLMPlan:
    """Run ``work`` with an :class:`Asker` for ``llm``; add its counts to ``usage``.

    With ``dry_run``, print and return the :class:`LLMPlan` of the requests the cache could
    not answer (``note`` says how complete it is) instead of ``work``'s result.
    """
    if llm is None:
        raise ValueError(
            f"{labeller}: llm= is required: pass your own judge (a ragas BaseRagasLLM, the "
            "Instructor judge of ragas.llms.llm_factory, or a LangChain chat model); the "
            "bridge never falls back to OpenAI"
        )
    if usage is not None and not isinstance(usage, LLMUsage):
        raise TypeError(f"{labeller}: usage= takes an LLMUsage(), got {type(usage).__name__}")
    verdicts = _cache_of(cache)
    try:
        model = _model_of(llm, model_id, verdicts is not None, "llm")
        counted = "count_tokens" if count_tokens is not None else f"ceil(chars / {CHARS_PER_TOKEN})"
        gate = Gate(
            model_id=model,
            cache=verdicts,
            count_tokens=count_tokens or estimate_tokens,
            dry_run=dry_run,
        )
        with quiet():  # Ragas 0.4 deprecates its LangChain wrapper, still what wraps a chat model
            judge = judge_for(llm, gate)
        if run_config is not None and hasattr(judge, "set_run_config"):
            judge.set_run_config(run_config)
        asker = Asker(
            labeller=labeller,
            judge=judge,
            gate=gate,
            temperature=temperature,
            # A dry run plans in order, one request at a time, so the plan reads in order.
            max_workers=1 if dry_run else getattr(run_config, "max_workers", MAX_WORKERS),
            instructor=isinstance(llm, ragas_module("ragas.llms.base").InstructorBaseRagasLLM),
        )

        async def main() -> T:
            return await work(asker)

        try:
            result: T = ragas_module("ragas.async_utils").run(main)
        finally:
            if usage is not None:
                usage.add(gate.ledger, model, verdicts, counted)
        if not dry_run:
            return result
        plan = LLMPlan(
            model=model,
            cache=str(verdicts.path) if verdicts is not None else None,
            calls=gate.ledger.planned,
            cache_hits=gate.ledger.cache_hits,
            token_estimate=counted,
            note=note,
        )
        print(plan, file=out or sys.stdout)
        return plan
    finally:
        if verdicts is not None:
            verdicts.close()
