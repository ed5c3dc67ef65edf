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
  default OpenAI one, and reports failures as coverage gaps instead of NaN in a mean. Every
  LLM answer is cached in a local SQLite file (:class:`VerdictCache`), so the same run again
  makes no call; ``dry_run=True`` prints the calls and their estimated tokens before any is
  made (an :class:`LLMPlan`); the report's manifest counts calls, tokens and cache hits;
* the nugget assigner ``ragas.nuggets`` (AutoNuggetizer's assignment step) and the claim
  labeler ``ragas.claims`` (RAGChecker's extraction and checking), which ask *your* LLM
  when ef's ``assign_nuggets`` / ``label_claims`` name them, through the same cache;
  ``usage=LLMUsage()`` collects their calls, tokens and cache hits, and
  :func:`dry_run_nuggets` / :func:`dry_run_claims` print their plan before any call.

Importing this module does not import Ragas (about 2 s and 200 MB): that happens on first use.
Before it does, ``RAGAS_DO_NOT_TRACK`` is set to ``true`` unless you set it yourself.
"""

from __future__ import annotations

from ef.evaluation import ClaimLabeler, NuggetAssigner, RagMetric, hookimpl

# None of these modules imports Ragas at import time; each does on first use.
from ._asking import LLMUsage, MalformedAnswerError
from .cache import VerdictCache, default_cache_path
from .claims import CLAIM_LABELER, dry_run_claims, label_with_llm
from .dataset import as_ragas_dataset, from_ragas_dataset
from .judged import LLMPlan, evaluate_with_ragas
from .metrics import ragas_metrics
from .nuggets import NUGGET_ASSIGNER, assign_with_llm, dry_run_nuggets

__all__ = [
    "LLMPlan",
    "LLMUsage",
    "MalformedAnswerError",
    "VerdictCache",
    "as_ragas_dataset",
    "assign_with_llm",
    "default_cache_path",
    "dry_run_claims",
    "dry_run_nuggets",
    "evaluate_with_ragas",
    "from_ragas_dataset",
    "label_with_llm",
]

__version__ = "0.1.0.dev0"


@hookimpl
def ef_evaluation_metrics() -> list[RagMetric]:
    return ragas_metrics()


@hookimpl
def ef_evaluation_nugget_assigners() -> list[NuggetAssigner]:
    return [NuggetAssigner(name=NUGGET_ASSIGNER, assign=assign_with_llm)]


@hookimpl
def ef_evaluation_claim_labelers() -> list[ClaimLabeler]:
    return [ClaimLabeler(name=CLAIM_LABELER, label=label_with_llm)]
