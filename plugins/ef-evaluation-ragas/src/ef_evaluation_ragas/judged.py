"""evaluate_with_ragas(): LLM-judged Ragas metrics with the caller's own LLM, offline-safe.

What it fixes in a plain ``ragas.evaluate``:

* ``llm`` is required. Ragas builds an OpenAI ``gpt-4o-mini`` client when a metric has no LLM
  (and OpenAI embeddings when it has no embeddings); here that is an error before any call.
* Exceptions surface (``raise_exceptions=True``) instead of turning into NaN scores.
* With ``on_error="skip"``, a sample Ragas could not score is a coverage gap (``None`` in
  ``per_sample``, not counted in ``coverage``), never a NaN inside a mean.
* Telemetry is off unless you turned it on (``RAGAS_DO_NOT_TRACK=true``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ef.evaluation import RagEvalReport, sample_id

from ._ragas import quiet, ragas_module
from .dataset import as_ragas_dataset, from_ragas_dataset

__all__ = ["evaluate_with_ragas"]

_ON_ERROR = ("raise", "skip")


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


def evaluate_with_ragas(
    samples: Iterable[Mapping[str, Any]],
    metrics: Sequence[Any],
    *,
    llm: Any,
    embeddings: Any = None,
    on_error: str = "raise",
    run_config: Any = None,
) -> RagEvalReport:
    """Run LLM-judged Ragas metrics over RagSamples with your own LLM.

    Args:
        samples: RagSamples (or mappings of the same shape); an ``id`` key names a sample.
        metrics: Ragas metric objects from ``ragas.metrics`` (``Faithfulness()``,
            ``AspectCritic(name=..., definition=...)``, ...).
        llm: the judge: a ``ragas.llms.BaseRagasLLM`` or a LangChain chat model. Required:
            there is no default, so nothing ever falls back to OpenAI.
        embeddings: for metrics that need embeddings (answer relevancy, ...).
        on_error: ``"raise"`` (default) lets the first exception of a metric surface;
            ``"skip"`` records a failed sample as a coverage gap instead.
        run_config: a ``ragas.RunConfig`` (timeouts, retries, workers); ``None`` is Ragas'
            default, which retries a failing call up to 10 times with backoff of up to 60 s.

    Returns:
        a :class:`~ef.evaluation.RagEvalReport` keyed by Ragas' result names; ``coverage``
        counts the samples each metric actually scored, and means ignore the rest.

    Raises:
        ValueError: no ``llm``, no metrics, an unknown ``on_error``, or a metric that needs
            embeddings without ``embeddings``.
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
    ragas = ragas_module()
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
    rows = from_ragas_dataset(dataset)
    per_sample = {
        key: [_number(scores.get(key)) for scores in result.scores]
        for key in (_result_key(metric) for metric in chosen)
    }
    return RagEvalReport.from_values(per_sample, [sample_id(row, i) for i, row in enumerate(rows)])


def _number(value: Any) -> float | None:
    """A Ragas score as a float, or None for a sample it could not score (NaN, None)."""
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else number
