"""The nugget assigner ``ragas.nuggets``: AutoNuggetizer's assignment step, with your LLM.

For each sample, the LLM reads the query, the response and a window of the query's nuggets,
and labels each nugget ``support`` (the response captures it fully), ``partial_support``
(in part) or ``not_support`` (not at all), in one list, in order. That is the assignment
step of the AutoNuggetizer framework (Pradeep et al., 2024, arXiv:2411.09607) as castorini's
nuggetizer runs it: up to 10 nuggets per prompt (``batch_size``), a list of labels back.

Where nuggetizer retries a malformed answer and then labels the window ``not_support``, the
bridge refuses it: a :class:`MalformedAnswerError` that names the sample and the nugget (the
answer is not cached, so running again asks again). A sample whose response is empty or
absent gets ``not_support`` for every nugget without a call, as the lexical baseline gives.

Run it through ef: ``assign_nuggets(samples, "ragas.nuggets", llm=my_judge)``; see
:func:`assign_with_llm` for the options, and :func:`dry_run_nuggets` for the plan.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any, TextIO

from ef.evaluation import sample_id

from ._answers import AnswerNotRead, label_list
from ._asking import Asker, LLMUsage, MalformedAnswerError, asking
from .judged import LLMPlan

__all__ = ["NUGGET_ASSIGNER", "assign_with_llm", "dry_run_nuggets", "nugget_prompt"]

#: The assigner's name in ``assign_nuggets``.
NUGGET_ASSIGNER = "ragas.nuggets"

#: Each spelling the reader accepts (lower case, ``_`` for spaces) and its label.
_LABELS = {
    "support": "support",
    "supported": "support",
    "partial_support": "partial_support",
    "partially_support": "partial_support",
    "partially_supported": "partial_support",
    "not_support": "not_support",
    "not_supported": "not_support",
    "unsupported": "not_support",
}

_PROMPT = """\
You judge whether an answer to a search query captures each of {count} atomic facts \
("nuggets"). Label every nugget with one of these labels:
- support: the answer captures the nugget fully;
- partial_support: the answer captures only part of the nugget;
- not_support: the answer does not capture the nugget at all.
Judge by what the answer says, not by your own knowledge.

Search query: {query}

Answer: {response}

Nuggets:
{nuggets}

Return a JSON list of exactly {count} labels, one per nugget, in the order of the nuggets \
(for example ["support", "not_support"]). Return only the list, no explanation."""


def nugget_prompt(query: str, response: str, nuggets: Sequence[str]) -> str:
    """The prompt that asks for the labels of one window of nuggets.

    >>> prompt = nugget_prompt("capital of France?", "Paris.", ["Paris", "on the Seine"])
    >>> print(prompt.split("Nuggets:\\n")[1].split("\\n\\n")[0])
    1. Paris
    2. on the Seine
    """
    listed = "\n".join(f"{i}. {text}" for i, text in enumerate(nuggets, 1))
    return _PROMPT.format(count=len(nuggets), query=query, response=response, nuggets=listed)


def _where(sample: Mapping[str, Any], index: int) -> str:
    name = sample.get("id")
    return f"sample {str(name)!r}" if name is not None else f"sample {index} (no id)"


async def _assign(
    asker: Asker, samples: Sequence[Mapping[str, Any]], batch_size: int
) -> list[list[str]]:
    async def window(index: int, start: int) -> list[str]:
        sample = samples[index]
        texts = [str(n["text"]) for n in sample["nuggets"]][start : start + batch_size]
        query, response = sample.get("user_input") or "", sample["response"]

        def refused(answer: str, exc: AnswerNotRead) -> MalformedAnswerError:
            bad = exc.index
            item = (
                f"nugget {start + bad + 1} ({texts[bad]!r})"
                if bad is not None
                else f"nuggets {start + 1}-{start + len(texts)} (from {texts[0]!r})"
            )
            return MalformedAnswerError(
                f"{NUGGET_ASSIGNER}: the judge's answer for {_where(sample, index)}, {item}, "
                f"is not a list of {len(texts)} labels (support, partial_support, "
                f"not_support): {exc}; it answered {answer!r:.300}",
                labeller=NUGGET_ASSIGNER,
                sample_id=sample_id(sample, index),
                item=item,
                answer=answer,
            )

        labels = await asker.ask(
            nugget_prompt(query, response, texts),
            sample_id=sample_id(sample, index),
            step=NUGGET_ASSIGNER,
            sample={"user_input": query, "response": response},
            field="labels",
            read=lambda answer: label_list(answer, _LABELS, len(texts)),
            refused=refused,
        )
        return labels or []

    jobs: list[Coroutine[Any, Any, list[str]]] = []
    shape: list[list[str] | None] = []
    for index, sample in enumerate(samples):
        count = len(sample.get("nuggets") or ())
        if not sample.get("response"):
            shape.append(["not_support"] * count)
            continue
        starts = range(0, count, batch_size)
        shape.append(None)
        jobs.extend(window(index, start) for start in starts)
    answers = iter(await asyncio.gather(*jobs))
    out = []
    for index, fixed in enumerate(shape):
        if fixed is not None:
            out.append(fixed)
            continue
        count = len(samples[index]["nuggets"])
        labels = []
        for _ in range(0, count, batch_size):
            labels.extend(next(answers))
        out.append(labels)
    return out


def _run(
    samples: Iterable[Mapping[str, Any]],
    dry_run: bool,
    out: TextIO | None,
    *,
    llm: Any,
    model_id: str | None,
    cache: str | os.PathLike[str] | bool,
    count_tokens: Callable[[str], int] | None,
    run_config: Any,
    batch_size: int,
    temperature: float,
    usage: LLMUsage | None,
) -> list[list[str]] | LLMPlan:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(
            f"{NUGGET_ASSIGNER}: batch_size must be a positive int, got {batch_size!r}"
        )
    chosen = list(samples)
    for index, sample in enumerate(chosen):
        nuggets = sample.get("nuggets")
        if not isinstance(nuggets, (list, tuple)) or not all(
            isinstance(n, Mapping) and isinstance(n.get("text"), str) for n in nuggets
        ):
            raise ValueError(
                f"{NUGGET_ASSIGNER}: {_where(sample, index)} has no list of nuggets "
                "({'text': ..., 'importance': ...}); assign_nuggets passes only those that do"
            )
    return asking(
        NUGGET_ASSIGNER,
        lambda asker: _assign(asker, chosen, batch_size),
        llm=llm,
        model_id=model_id,
        cache=cache,
        count_tokens=count_tokens,
        run_config=run_config,
        temperature=temperature,
        usage=usage,
        dry_run=dry_run,
        note="every request the cache cannot answer: the plan is exact",
        out=out,
    )


def assign_with_llm(
    samples: Iterable[Mapping[str, Any]],
    *,
    llm: Any = None,
    model_id: str | None = None,
    cache: str | os.PathLike[str] | bool = True,
    count_tokens: Callable[[str], int] | None = None,
    run_config: Any = None,
    batch_size: int = 10,
    temperature: float = 0.0,
    usage: LLMUsage | None = None,
    dry_run: bool = False,
) -> list[list[str]]:
    """Label each nugget of each sample with your LLM: the assigner ``ragas.nuggets``.

    Call it through ef, which writes the labels into copies of the samples:
    ``assign_nuggets(samples, "ragas.nuggets", llm=my_judge, usage=usage)``.

    Args:
        samples: samples that carry ``nuggets`` (``assign_nuggets`` passes only those); the
            prompt reads ``user_input``, ``response`` and each nugget's ``text``.
        llm: the judge, required: a ``ragas.llms.BaseRagasLLM``, the Instructor judge of
            ``ragas.llms.llm_factory``, or a LangChain chat model.
        model_id: the judge's model, part of every cache key; by default its ``model_name``
            or ``model``.
        cache: the verdict cache, as for ``evaluate_with_ragas``: ``True`` (the default
            file), a path, or ``False``.
        count_tokens: counts a text's tokens where the LLM reports none; default
            ``ceil(len(text) / 4)``.
        run_config: a ``ragas.RunConfig``: retries and timeouts of each call, and
            ``max_workers`` requests at once (default 16).
        batch_size: nuggets per prompt (nuggetizer's window, 10).
        temperature: the sampling temperature of each call (0.0, as nuggetizer's first try).
        usage: an :class:`LLMUsage` to which the calls, tokens and cache hits are added.
        dry_run: refused with a pointer to :func:`dry_run_nuggets`, which has the plan.

    Returns:
        per sample, one label per nugget, in order.

    Raises:
        MalformedAnswerError: an answer that is not one allowed label per nugget; the
            message names the sample and the nugget.
        ValueError: no ``llm``, or a judge of unknown model with the cache on.
    """
    if dry_run:
        raise ValueError(
            f"{NUGGET_ASSIGNER}: the call returns labelled samples, so it has no dry run; "
            "ef_evaluation_ragas.dry_run_nuggets(samples, llm=...) gives the plan, calling nothing"
        )
    result = _run(
        samples,
        False,
        None,
        llm=llm,
        model_id=model_id,
        cache=cache,
        count_tokens=count_tokens,
        run_config=run_config,
        batch_size=batch_size,
        temperature=temperature,
        usage=usage,
    )
    assert not isinstance(result, LLMPlan)
    return result


def dry_run_nuggets(
    samples: Iterable[Mapping[str, Any]],
    *,
    llm: Any,
    model_id: str | None = None,
    cache: str | os.PathLike[str] | bool = True,
    count_tokens: Callable[[str], int] | None = None,
    batch_size: int = 10,
    temperature: float = 0.0,
    out: TextIO | None = None,
) -> LLMPlan:
    """The calls ``assign_nuggets(samples, "ragas.nuggets", ...)`` would make, and their
    estimated prompt tokens, printed (to ``out``) and returned; no LLM is called.

    Every prompt of the assigner is known beforehand, so the plan is exact: one call per
    window of ``batch_size`` nuggets of a sample with a response, less those the cache
    answers. Samples without ``nuggets`` are passed over, as ``assign_nuggets`` does.
    """
    with_nuggets = [s for s in samples if s.get("nuggets") is not None]
    result = _run(
        with_nuggets,
        True,
        out,
        llm=llm,
        model_id=model_id,
        cache=cache,
        count_tokens=count_tokens,
        run_config=None,
        batch_size=batch_size,
        temperature=temperature,
        usage=None,
    )
    assert isinstance(result, LLMPlan)
    return result
