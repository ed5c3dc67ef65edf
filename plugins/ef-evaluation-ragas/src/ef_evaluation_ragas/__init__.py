"""ef-evaluation-ragas: the Ragas bridge for ef-evaluation.

Registered as the plugin ``ragas`` (entry-point group ``ef_evaluation``), it provides:

* Ragas' deterministic metrics as ef RAG metrics, usable by name in ``evaluate_rag(metrics=...)``
  and ``ef-eval rag -m``: ``ragas.exact_match``, ``ragas.string_presence``,
  ``ragas.string_similarity``, ``ragas.bleu``, ``ragas.rouge_l``, ``ragas.chrf``,
  ``ragas.context_recall``, ``ragas.context_precision``, ``ragas.id_context_recall`` and
  ``ragas.id_context_precision``;
* :func:`as_ragas_dataset` / :func:`from_ragas_dataset`, the lossless conversion between
  RagSamples and a ``ragas.EvaluationDataset`` (``ef.evaluation.as_ragas_dataset`` calls it);
* :func:`evaluate_with_ragas`, which runs LLM-judged Ragas metrics with *your* LLM, never a
  default OpenAI one, and reports failures as coverage gaps instead of NaN in a mean.

Importing this module does not import Ragas (about 2 s and 200 MB): that happens on first use.
Before it does, ``RAGAS_DO_NOT_TRACK`` is set to ``true`` unless you set it yourself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ef.evaluation import RagEvalReport, RagMetric, hookimpl

__all__ = ["as_ragas_dataset", "evaluate_with_ragas", "from_ragas_dataset"]

__version__ = "0.1.0.dev0"


@hookimpl
def ef_evaluation_metrics() -> list[RagMetric]:
    from .metrics import ragas_metrics

    return ragas_metrics()


def as_ragas_dataset(samples: Iterable[Mapping[str, Any]]) -> Any:
    """RagSamples -> ``ragas.EvaluationDataset``, keeping non-Ragas keys (ids) on our side.

    See :func:`ef_evaluation_ragas.dataset.as_ragas_dataset`.
    """
    from .dataset import as_ragas_dataset as convert

    return convert(samples)


def from_ragas_dataset(dataset: Any) -> list[dict[str, Any]]:
    """``ragas.EvaluationDataset`` -> RagSample dicts, restoring the keys Ragas cannot hold.

    See :func:`ef_evaluation_ragas.dataset.from_ragas_dataset`.
    """
    from .dataset import from_ragas_dataset as convert

    return convert(dataset)


def evaluate_with_ragas(
    samples: Iterable[Mapping[str, Any]],
    metrics: Sequence[Any],
    *,
    llm: Any,
    embeddings: Any = None,
    on_error: str = "raise",
    run_config: Any = None,
) -> RagEvalReport:
    """Run LLM-judged Ragas metrics with your own LLM. See :mod:`ef_evaluation_ragas.judged`."""
    from .judged import evaluate_with_ragas as run

    return run(
        samples, metrics, llm=llm, embeddings=embeddings, on_error=on_error, run_config=run_config
    )
