"""evaluate_with_ragas(): LLM-judged Ragas metrics with the caller's own LLM, offline-safe,
cached and costed.

What it fixes in a plain ``ragas.evaluate``:

* ``llm`` is required. Ragas builds an OpenAI ``gpt-4o-mini`` client when a metric has no LLM
  (and OpenAI embeddings when it has no embeddings); here that is an error before any call.
* Exceptions surface (``raise_exceptions=True``) instead of turning into NaN scores.
* With ``on_error="skip"``, a sample Ragas could not score is a coverage gap (``None`` in
  ``per_sample``, not counted in ``coverage``), never a NaN inside a mean.
* Every answer of the LLM is cached (:mod:`ef_evaluation_ragas.cache`): the same evaluation
  run again makes no LLM call.
* ``dry_run=True`` prints the calls the run would make, and their estimated tokens, before
  any call; the report's manifest records the calls made, their tokens and the cache hits.
* Telemetry is off unless you turned it on (``RAGAS_DO_NOT_TRACK=true``).
"""

from __future__ import annotations

import math
import os
import platform
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Literal, TextIO, overload

import attrs

from ef.evaluation import RagEvalReport, sample_id

from ._judge import (
    CHARS_PER_TOKEN,
    SCORING,
    Gate,
    Ledger,
    Planned,
    PlannedCall,
    Scoring,
    estimate_tokens,
    judge_for,
    model_id_of,
)
from ._ragas import quiet, ragas_module
from .cache import VerdictCache, default_cache_path
from .dataset import as_ragas_dataset, from_ragas_dataset

__all__ = ["LLMPlan", "evaluate_with_ragas"]

_ON_ERROR = ("raise", "skip")


def _calls(calls: Iterable[PlannedCall]) -> tuple[PlannedCall, ...]:
    return tuple(calls)


@attrs.frozen
class LLMPlan:
    """What a dry run found: the calls an evaluation would make, before any is made.

    ``calls`` holds, for each (sample, metric) the cache cannot fully answer, the first
    request it would send and its prompt's estimated tokens. A metric that asks in steps
    (Faithfulness: statements, then verdicts) builds each later prompt from an earlier
    answer, so those later calls cannot be known beforehand: ``calls`` is a lower bound for
    them, and ``str(plan)`` says so.

    >>> plan = LLMPlan(model="judge-1", cache=None, calls=(PlannedCall("s1", "faithfulness", 412),),
    ...     cache_hits=3, token_estimate="ceil(chars / 4)")
    >>> plan.prompt_tokens, len(plan.calls)
    (412, 1)
    """

    model: str
    cache: str | None
    calls: tuple[PlannedCall, ...] = attrs.field(converter=_calls)
    cache_hits: int
    token_estimate: str
    #: What ``calls`` holds, for ``str(plan)``: each planner says how complete its list is.
    note: str = (
        "the first uncached request of each sample and metric; a metric that asks in steps "
        "makes more, built from the answers"
    )

    @property
    def prompt_tokens(self) -> int:
        """The estimated prompt tokens of all planned calls."""
        return sum(call.prompt_tokens for call in self.calls)

    def __str__(self) -> str:
        lines = [
            f"Dry run: no LLM was called. Judge model: {self.model}",
            f"Verdict cache: {self.cache or 'off'} ({self.cache_hits} answers found there)",
            f"Calls to make: {len(self.calls)} ({self.note})",
        ]
        if self.calls:
            width = max(len("sample"), *(len(call.sample_id) for call in self.calls))
            step = max(24, *(len(call.metric) for call in self.calls))
            lines.append(f"  {'sample':<{width}}  {'metric':<{step}} est. prompt tokens")
            lines.extend(
                f"  {call.sample_id:<{width}}  {call.metric:<{step}} {call.prompt_tokens}"
                for call in self.calls
            )
        lines.append(
            f"Estimated prompt tokens: {self.prompt_tokens} ({self.token_estimate}); the "
            "answers' tokens are known only once the calls are made"
        )
        return "\n".join(lines)


def _result_key(metric: Any) -> str:
    # Ragas keys a ModeMetric's column as "name(mode=...)"; keep its own key.
    mode = getattr(metric, "mode", None)
    ragas = ragas_module("ragas.metrics.base")
    return f"{metric.name}(mode={mode})" if isinstance(metric, ragas.ModeMetric) else metric.name


def _check_metrics(metrics: Sequence[Any], embeddings: Any) -> list[Any]:
    base = ragas_module("ragas.metrics.base")
    chosen = list(metrics)
    if not chosen:
        raise ValueError("metrics is empty; pass Ragas metric objects, e.g. [Faithfulness()]")
    for metric in chosen:
        if not isinstance(metric, base.Metric):
            raise TypeError(
                f"{metric!r} is not a Ragas metric object that ragas.evaluate() accepts; use "
                "the classes of ragas.metrics (e.g. Faithfulness()), not ragas.metrics.collections"
            )
        if (
            isinstance(metric, base.MetricWithEmbeddings)
            and metric.embeddings is None
            and embeddings is None
        ):
            raise ValueError(
                f"Ragas metric {metric.name!r} needs embeddings; pass embeddings= (Ragas would "
                "otherwise create OpenAI embeddings)"
            )
    return chosen


def _cache_of(cache: str | os.PathLike[str] | bool) -> VerdictCache | None:
    if cache is False:
        return None
    return VerdictCache(default_cache_path() if cache is True else cache)


def _model_of(llm: Any, given: str | None, cached: bool, whose: str) -> str:
    model = given or model_id_of(llm)
    if model is None and cached:
        raise ValueError(
            f"cannot tell the model of {whose} ({type(llm).__name__}): pass model_id= (cached "
            "verdicts are keyed by it, so one model's verdicts never answer for another), or "
            "cache=False"
        )
    return model or type(llm).__name__


def _scored_in_context(metric: Any, score: Callable[..., Any], ids: Mapping[int, str]) -> Any:
    """``metric.single_turn_ascore`` that tells the judge which sample and metric it serves."""
    narrow = getattr(metric, "_only_required_columns_single_turn", None)

    async def single_turn_ascore(sample: Any, *args: Any, **kwargs: Any) -> Any:
        seen = narrow(sample) if narrow is not None else sample
        token = SCORING.set(Scoring(ids.get(id(sample), "?"), metric.name, seen.to_dict()))
        try:
            return await score(sample, *args, **kwargs)
        finally:
            SCORING.reset(token)

    return single_turn_ascore


@contextmanager
def _judged(
    metrics: Sequence[Any],
    llm: Any,
    model_id: str | None,
    gate: Gate,
    ids: Mapping[int, str],
) -> Iterator[list[str]]:
    """Each LLM metric judged through ``gate`` (its own LLM, or ``llm``), and put back after.

    Yields the model id of each judge, in order, for the manifest.
    """
    base = ragas_module("ragas.metrics.base")
    saved: list[tuple[Any, Any]] = []
    models: dict[str, None] = {}
    try:
        for metric in metrics:
            if not isinstance(metric, base.MetricWithLLM):
                continue
            own = metric.llm
            model = _model_of(
                own if own is not None else llm,
                None if own is not None else model_id,
                gate.cache is not None,
                f"the LLM of metric {metric.name!r}" if own is not None else "llm",
            )
            models[model] = None
            saved.append((metric, own))
            metric.llm = judge_for(
                own if own is not None else llm, attrs.evolve(gate, model_id=model)
            )
            metric.single_turn_ascore = _scored_in_context(metric, metric.single_turn_ascore, ids)
        yield list(models)
    finally:
        for metric, own in saved:
            metric.llm = own
            vars(metric).pop("single_turn_ascore", None)


def _plan(dataset: Any, metrics: Sequence[Any], run_config: Any, on_error: str) -> None:
    """Score every (sample, metric) with the dry-run judge: each stops at its first uncached
    request, which the gate records."""
    ragas = ragas_module()
    base = ragas_module("ragas.metrics.base")
    chosen = [metric for metric in metrics if isinstance(metric, base.MetricWithLLM)]
    for metric in chosen:
        metric.init(run_config or ragas.RunConfig())

    async def plan() -> None:
        for sample in dataset.samples:
            for metric in chosen:
                try:
                    await metric.single_turn_ascore(sample)
                except Planned:
                    pass
                except Exception:
                    if on_error == "raise":
                        raise

    with quiet():
        ragas_module("ragas.async_utils").run(plan)


def _manifest(
    metrics: Sequence[Any],
    models: list[str],
    ledger: Ledger,
    cache: VerdictCache | None,
    count: str,
) -> dict[str, Any]:
    from ef.evaluation import __version__ as ef_version

    from . import __version__ as bridge_version

    return {
        "ef_evaluation": ef_version,
        "python": platform.python_version(),
        "ragas": ragas_module().__version__,
        "plugins": [
            {"name": "ragas", "distribution": "ef-evaluation-ragas", "version": bridge_version}
        ],
        "metrics": [
            {"key": _result_key(m), "name": m.name, "class": type(m).__name__} for m in metrics
        ],
        "averaging": "scored_samples",
        "llm": {
            "models": models,
            "calls": ledger.calls,
            "cache_hits": ledger.cache_hits,
            "prompt_tokens": ledger.prompt_tokens,
            "completion_tokens": ledger.completion_tokens,
            "tokens_estimated_calls": ledger.estimated_calls,
            "token_estimate": count,
            "cache": str(cache.path) if cache is not None else None,
        },
    }


@overload
def evaluate_with_ragas(
    samples: Iterable[Mapping[str, Any]],
    metrics: Sequence[Any],
    *,
    llm: Any,
    embeddings: Any = ...,
    on_error: str = ...,
    run_config: Any = ...,
    model_id: str | None = ...,
    cache: str | os.PathLike[str] | bool = ...,
    count_tokens: Callable[[str], int] | None = ...,
    dry_run: Literal[False] = ...,
    out: TextIO | None = ...,
) -> RagEvalReport: ...


@overload
def evaluate_with_ragas(
    samples: Iterable[Mapping[str, Any]],
    metrics: Sequence[Any],
    *,
    llm: Any,
    embeddings: Any = ...,
    on_error: str = ...,
    run_config: Any = ...,
    model_id: str | None = ...,
    cache: str | os.PathLike[str] | bool = ...,
    count_tokens: Callable[[str], int] | None = ...,
    dry_run: Literal[True],
    out: TextIO | None = ...,
) -> LLMPlan: ...


def evaluate_with_ragas(
    samples: Iterable[Mapping[str, Any]],
    metrics: Sequence[Any],
    *,
    llm: Any,
    embeddings: Any = None,
    on_error: str = "raise",
    run_config: Any = None,
    model_id: str | None = None,
    cache: str | os.PathLike[str] | bool = True,
    count_tokens: Callable[[str], int] | None = None,
    dry_run: bool = False,
    out: TextIO | None = None,
) -> RagEvalReport | LLMPlan:
    """Run LLM-judged Ragas metrics over RagSamples with your own LLM, cached and costed.

    Args:
        samples: RagSamples (or mappings of the same shape); an ``id`` key names a sample.
        metrics: Ragas metric objects from ``ragas.metrics`` (``Faithfulness()``,
            ``AspectCritic(name=..., definition=...)``, ...).
        llm: the judge: a ``ragas.llms.BaseRagasLLM``, the Instructor judge of
            ``ragas.llms.llm_factory``, or a LangChain chat model. Required: there is no
            default, so nothing ever falls back to OpenAI. A metric that has its own ``llm``
            keeps it (cached and counted the same way).
        embeddings: for metrics that need embeddings (answer relevancy, ...).
        on_error: ``"raise"`` (default) lets the first exception of a metric surface;
            ``"skip"`` records a failed sample as a coverage gap instead.
        run_config: a ``ragas.RunConfig`` (timeouts, retries, workers); ``None`` is Ragas'
            default, which retries a failing call up to 10 times with backoff of up to 60 s.
        model_id: the judge's model, part of every cache key; by default the LLM's own
            ``model_name`` / ``model``. Required with the cache on when the LLM has none.
        cache: where the verdicts are cached: ``True`` (default) for
            ``$EF_EVALUATION_RAGAS_CACHE``, else ``~/.cache/ef-evaluation/ragas-verdicts.sqlite3``;
            a path for that file; ``False`` for no cache.
        count_tokens: counts a text's tokens, for the dry run's estimates and for calls whose
            LLM reports no usage; default ``ceil(len(text) / 4)``. tiktoken's is exact for
            OpenAI models: ``lambda t: len(tiktoken.encoding_for_model("gpt-4o").encode(t))``.
        dry_run: print the calls the run would make (the first uncached request of each
            sample and metric) and their estimated tokens, make none, and return the
            :class:`LLMPlan`.
        out: where the dry run prints; default ``sys.stdout``.

    Returns:
        a :class:`~ef.evaluation.RagEvalReport` keyed by Ragas' result names; ``coverage``
        counts the samples each metric actually scored, and means ignore the rest. Its
        ``manifest["llm"]`` holds the calls made, their tokens, the cache hits and the cache
        file. With ``dry_run=True``, the :class:`LLMPlan` instead.

    Raises:
        ValueError: no ``llm``, no metrics, an unknown ``on_error``, a metric that needs
            embeddings without ``embeddings``, or a judge of unknown model with the cache on.
        TypeError: an object that is not a Ragas metric.
    """
    if llm is None:
        raise ValueError(
            "llm is required: pass your own judge (a ragas BaseRagasLLM or a LangChain chat "
            "model); evaluate_with_ragas never falls back to OpenAI"
        )
    if on_error not in _ON_ERROR:
        raise ValueError(f"on_error must be one of {_ON_ERROR}, got {on_error!r}")
    chosen = _check_metrics(metrics, embeddings)
    dataset = as_ragas_dataset(samples)
    if len(dataset) == 0:
        raise ValueError("samples is empty; evaluate_with_ragas needs at least one sample")
    rows = from_ragas_dataset(dataset)
    ids = [sample_id(row, i) for i, row in enumerate(rows)]
    by_sample = {id(sample): name for sample, name in zip(dataset.samples, ids, strict=True)}
    counted = "count_tokens" if count_tokens is not None else f"ceil(chars / {CHARS_PER_TOKEN})"
    verdicts = _cache_of(cache)
    gate = Gate(
        model_id="",
        cache=verdicts,
        count_tokens=count_tokens or estimate_tokens,
        dry_run=dry_run,
    )
    ragas = ragas_module()
    try:
        with _judged(chosen, llm, model_id, gate, by_sample) as models:
            if dry_run:
                _plan(dataset, chosen, run_config, on_error)
                plan = LLMPlan(
                    model=", ".join(models) or "-",
                    cache=str(verdicts.path) if verdicts is not None else None,
                    calls=gate.ledger.planned,
                    cache_hits=gate.ledger.cache_hits,
                    token_estimate=counted,
                )
                print(plan, file=out or sys.stdout)
                return plan
            with quiet():
                result = ragas.evaluate(
                    dataset,
                    metrics=chosen,
                    llm=llm,
                    embeddings=embeddings,
                    raise_exceptions=on_error == "raise",
                    run_config=run_config,
                    show_progress=False,
                )
    finally:
        if verdicts is not None:
            verdicts.close()
    per_sample = {
        key: [_number(scores.get(key)) for scores in result.scores]
        for key in (_result_key(metric) for metric in chosen)
    }
    report = RagEvalReport.from_values(per_sample, ids)
    return attrs.evolve(report, manifest=_manifest(chosen, models, gate.ledger, verdicts, counted))


def _number(value: Any) -> float | None:
    """A Ragas score as a float, or None for a sample it could not score (NaN, None)."""
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else number
