"""ef.evaluation: measuring retrieval and RAG quality.

Retrieval evaluation is BEIR-shaped: :func:`evaluate_retrieval` runs a retriever over the
judged queries of a (corpus, queries, qrels) triple and reports NDCG@10 and friends, with the
numbers of trec_eval. RAG evaluation is Ragas-shaped: :func:`evaluate_rag` scores
:class:`RagSample` dicts with deterministic lexical metrics and never calls an LLM;
:func:`as_ragas_dataset` hands the same samples to Ragas for the LLM-judged ones.

Metrics, dataset formats, retriever adapters and fusion methods are pluggy plugins, found
through the ``ef_evaluation`` entry-point group; the built-ins register through the same hooks.
Importing this module loads no plugin: the first evaluation does.

Example: score a retriever against a tiny BEIR-shaped triple.

>>> qrels = {'q1': {'d1': 1.0, 'd2': 1.0}, 'q2': {'d3': 1.0}}
>>> queries = {'q1': 'first query', 'q2': 'second query'}
>>> rankings = {'first query': ['d1', 'd9', 'd2'], 'second query': ['d9', 'd3']}
>>> def retriever(query, *, limit=10):
...     return rankings[query][:limit]
>>> report = evaluate_retrieval(retriever, qrels, queries, k_values=(1, 3))
>>> report.metrics['recall@3']
1.0
>>> round(report.primary_at(1), 3)        # NDCG@1, averaged over the two queries
0.5
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._version import __version__ as __version__

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time each name loads on first use
    from ._dataset import Dataset, Document, StreamingCorpus
    from ._engine._timing import Latency
    from ._engine.measures import Measure, parse_measure, parse_measures
    from ._engine.retrieve import Retrieval, retrieve
    from ._engine.ties import TieDiagnostic
    from ._evaluate._diversity import evaluate_diversity
    from ._evaluate._experiment import Experiment, System, SystemResult
    from ._evaluate._labels import assign_nuggets, evaluate_claims, label_claims, with_nuggets
    from ._evaluate.agreement import rank_correlation, rbo
    from ._evaluate.compare import compare
    from ._evaluate.fuse import fuse
    from ._evaluate.optimize_fusion import optimize_fusion
    from ._evaluate.pipeline import evaluate_pipeline
    from ._evaluate.pooling import merge_qrels, pool
    from ._evaluate.rag import evaluate_rag, sample_id
    from ._evaluate.ragas import as_ragas_dataset, from_ragas_dataset
    from ._evaluate.retrieval import evaluate_retrieval
    from ._evaluate.run import evaluate_run
    from ._evaluate.shards import evaluate_shards
    from ._evaluate.squad_v2 import evaluate_squad_v2
    from ._formats._nuggets import read_nuggets
    from ._formats.answers import read_answers, read_references
    from ._formats.beir import _DEFAULT_QRELS_PATHS as _DEFAULT_QRELS_PATHS
    from ._formats.beir import read_beir, write_beir
    from ._formats.convert import convert
    from ._formats.demo import demo_path
    from ._formats.download import download_dataset
    from ._formats.files import (
        read_dataset,
        read_qrels,
        read_queries,
        read_run,
        read_samples,
        write_dataset,
        write_qrels,
        write_queries,
        write_run,
        write_samples,
    )
    from ._formats.trec._subtopics import SubtopicQrels
    from ._fusion.normalize import max_norm, min_max_norm, rank_norm, sum_norm, zmuv_norm
    from ._plugin_engine.loading import PluginInfo
    from ._plugin_engine.registry import Registry, get_registry, list_plugins
    from ._plugin_engine.view import RetrievalMetricsView
    from ._presentation.catalogue import catalogue_entries, catalogue_markdown
    from ._render import Tabular
    from ._render.plots import plot_differences, plot_distribution
    from ._reports import (
        ComparisonReport,
        FusionOptimization,
        PairComparison,
        PipelineEvalReport,
        Pool,
        RagEvalReport,
        RetrievalEvalReport,
    )
    from ._reports.agreement import RankCorrelation, RboReport
    from ._reports.rendered import Rendered
    from ._retrievers import BM25Retriever, DenseRetriever, load_retriever
    from ._runs.order import TIE_POLICIES, ranking_of
    from ._runs.table import RunTable
    from ._site import build_site
    from ._store import Record, Store, open_store
    from .errors import (
        DatasetFormatError,
        DownloadError,
        DuplicateNameError,
        EvaluationError,
        GeneratorError,
        InputWarning,
        InvalidSampleError,
        MissingDependencyError,
        PluginError,
        PluginLoadError,
        RetrieverError,
        StoreError,
        StoreSchemaError,
        UnknownNameError,
    )
    from .hookspecs import hookimpl
    from .interfaces import (
        ClaimLabeler,
        DatasetFormat,
        FusionMethod,
        FusionParam,
        MetricParam,
        NuggetAssigner,
        RagMetric,
        RetrievalMetric,
        RetrieverAdapter,
        Synonym,
    )
    from .metrics.lexical import context_precision, context_recall, exact_match, token_f1
    from .metrics.normalize import mlqa_normalize, squad_normalize, unicode_normalize
    from .metrics.retrieval import (
        average_precision,
        dcg_at_k,
        ndcg_at_k,
        precision_at_k,
        recall_at_k,
        reciprocal_rank,
    )
    from .metrics.retrieval.orders import MAX_ORDERS
    from .quality.saved import load_report, save_report
    from .types import Corpus, Qrels, Queries, RagSample, Run, RunInput

    #: The retrieval metrics evaluate_retrieval() can compute (see :data:`RETRIEVAL_METRICS`).
    RETRIEVAL_METRICS: RetrievalMetricsView

#: Where each public name lives: ``import ef.evaluation`` imports none of these modules, and
#: the first use of a name imports its module alone (PEP 562), so ``from ef.evaluation import
#: evaluate_run`` loads the run path and not fusion, compare or the retrievers. This table is
#: the one list of the facade's names: ``__all__`` and ``dir()`` are made from it.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        (
            "DatasetFormatError",
            "DownloadError",
            "DuplicateNameError",
            "EvaluationError",
            "GeneratorError",
            "InputWarning",
            "InvalidSampleError",
            "MissingDependencyError",
            "PluginError",
            "PluginLoadError",
            "RetrieverError",
            "UnknownNameError",
        ),
        "errors",
    ),
    **dict.fromkeys(("Corpus", "Qrels", "Queries", "RagSample", "Run", "RunInput"), "types"),
    **dict.fromkeys(("Dataset", "Document", "StreamingCorpus"), "_dataset"),
    **dict.fromkeys(("Retrieval", "retrieve"), "_engine.retrieve"),
    "TieDiagnostic": "_engine.ties",
    "build_site": "_site",
    "compare": "_evaluate.compare",
    "fuse": "_evaluate.fuse",
    "optimize_fusion": "_evaluate.optimize_fusion",
    "evaluate_pipeline": "_evaluate.pipeline",
    **dict.fromkeys(("merge_qrels", "pool"), "_evaluate.pooling"),
    "evaluate_rag": "_evaluate.rag",
    **dict.fromkeys(("as_ragas_dataset", "from_ragas_dataset"), "_evaluate.ragas"),
    "evaluate_retrieval": "_evaluate.retrieval",
    "evaluate_run": "_evaluate.run",
    "evaluate_squad_v2": "_evaluate.squad_v2",
    "evaluate_diversity": "_evaluate._diversity",
    "SubtopicQrels": "_formats.trec._subtopics",
    "evaluate_shards": "_evaluate.shards",
    **dict.fromkeys(("read_answers", "read_references"), "_formats.answers"),
    # _DEFAULT_QRELS_PATHS: the spec names it as read_beir()'s qrels search order.
    **dict.fromkeys(("_DEFAULT_QRELS_PATHS", "read_beir", "write_beir"), "_formats.beir"),
    "convert": "_formats.convert",
    "demo_path": "_formats.demo",
    "download_dataset": "_formats.download",
    **dict.fromkeys(
        (
            "read_dataset",
            "read_qrels",
            "read_queries",
            "read_run",
            "read_samples",
            "write_dataset",
            "write_qrels",
            "write_queries",
            "write_run",
            "write_samples",
        ),
        "_formats.files",
    ),
    "hookimpl": "hookspecs",
    **dict.fromkeys(
        (
            "ClaimLabeler",
            "DatasetFormat",
            "FusionMethod",
            "FusionParam",
            "MetricParam",
            "NuggetAssigner",
            "RagMetric",
            "RetrievalMetric",
            "RetrieverAdapter",
            "Synonym",
        ),
        "interfaces",
    ),
    **dict.fromkeys(
        ("context_precision", "context_recall", "exact_match", "token_f1"), "metrics.lexical"
    ),
    **dict.fromkeys(
        (
            "average_precision",
            "dcg_at_k",
            "ndcg_at_k",
            "precision_at_k",
            "recall_at_k",
            "reciprocal_rank",
        ),
        "metrics.retrieval",
    ),
    "PluginInfo": "_plugin_engine.loading",
    **dict.fromkeys(("Registry", "get_registry", "list_plugins"), "_plugin_engine.registry"),
    **dict.fromkeys(("load_report", "save_report"), "quality.saved"),
    **dict.fromkeys(
        (
            "ComparisonReport",
            "FusionOptimization",
            "PairComparison",
            "PipelineEvalReport",
            "Pool",
            "RagEvalReport",
            "RetrievalEvalReport",
        ),
        "_reports",
    ),
    **dict.fromkeys(("BM25Retriever", "DenseRetriever", "load_retriever"), "_retrievers"),
    "RunTable": "_runs.table",
    # Issue 27: the names the docs teach and the Ragas bridge imports, from modules that
    # are not public themselves.
    **dict.fromkeys(("Measure", "parse_measure", "parse_measures"), "_engine.measures"),
    **dict.fromkeys(("TIE_POLICIES", "ranking_of"), "_runs.order"),
    "MAX_ORDERS": "metrics.retrieval.orders",
    "sample_id": "_evaluate.rag",
    **dict.fromkeys(("catalogue_entries", "catalogue_markdown"), "_presentation.catalogue"),
    **dict.fromkeys(
        ("mlqa_normalize", "squad_normalize", "unicode_normalize"), "metrics.normalize"
    ),
    **dict.fromkeys(
        ("max_norm", "min_max_norm", "rank_norm", "sum_norm", "zmuv_norm"), "_fusion.normalize"
    ),
    **dict.fromkeys(("plot_differences", "plot_distribution"), "_render.plots"),
    "Tabular": "_render",
    "Rendered": "_reports.rendered",
    # Issue 30: agreement between orderings of systems, and between runs.
    # Issue 28: the store of evaluations.
    **dict.fromkeys(("Record", "Store", "open_store"), "_store"),
    **dict.fromkeys(("StoreError", "StoreSchemaError"), "errors"),
    **dict.fromkeys(("rank_correlation", "rbo"), "_evaluate.agreement"),
    **dict.fromkeys(("RankCorrelation", "RboReport"), "_reports.agreement"),
    # Issue 28: experiments, their systems and the latency they report.
    **dict.fromkeys(("Experiment", "System", "SystemResult"), "_evaluate._experiment"),
    "Latency": "_engine._timing",
    # Issue 29: nugget evaluation and RAGChecker's claim metrics, from labels.
    **dict.fromkeys(
        ("assign_nuggets", "evaluate_claims", "label_claims", "with_nuggets"), "_evaluate._labels"
    ),
    "read_nuggets": "_formats._nuggets",
}


def _retrieval_metrics() -> object:
    from ._plugin_engine.view import RetrievalMetricsView

    # The retrieval metrics evaluate_retrieval() can compute, each keyed by the short name
    # used in the ``metrics=`` argument and in report keys: the built-ins (map, mrr, ndcg,
    # precision, recall, and the rest of docs/metrics.md) and every plugin's. A read-only
    # mapping; it loads the plugins on first access, not here.
    return RetrievalMetricsView()


def __getattr__(name: str) -> object:
    if name == "RETRIEVAL_METRICS":
        value = _retrieval_metrics()
    elif name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # the next use is a plain global
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


# Written out, not made from _LAZY: type checkers read a literal list for `import *`;
# tests/test_public_api.py checks that the two agree.
__all__ = [
    "MAX_ORDERS",
    "RETRIEVAL_METRICS",
    "TIE_POLICIES",
    "BM25Retriever",
    "ClaimLabeler",
    "ComparisonReport",
    "Corpus",
    "Dataset",
    "DatasetFormat",
    "DatasetFormatError",
    "DenseRetriever",
    "Document",
    "DownloadError",
    "DuplicateNameError",
    "EvaluationError",
    "Experiment",
    "FusionMethod",
    "FusionOptimization",
    "FusionParam",
    "GeneratorError",
    "InputWarning",
    "InvalidSampleError",
    "Latency",
    "Measure",
    "MetricParam",
    "MissingDependencyError",
    "NuggetAssigner",
    "PairComparison",
    "PipelineEvalReport",
    "PluginError",
    "PluginInfo",
    "PluginLoadError",
    "Pool",
    "Qrels",
    "Queries",
    "RagEvalReport",
    "RagMetric",
    "RagSample",
    "RankCorrelation",
    "RboReport",
    "Record",
    "Registry",
    "Rendered",
    "Retrieval",
    "RetrievalEvalReport",
    "RetrievalMetric",
    "RetrieverAdapter",
    "RetrieverError",
    "Run",
    "RunInput",
    "RunTable",
    "Store",
    "StoreError",
    "StoreSchemaError",
    "StreamingCorpus",
    "SubtopicQrels",
    "Synonym",
    "System",
    "SystemResult",
    "Tabular",
    "TieDiagnostic",
    "UnknownNameError",
    "__version__",
    "as_ragas_dataset",
    "assign_nuggets",
    "average_precision",
    "build_site",
    "catalogue_entries",
    "catalogue_markdown",
    "compare",
    "context_precision",
    "context_recall",
    "convert",
    "dcg_at_k",
    "demo_path",
    "download_dataset",
    "evaluate_claims",
    "evaluate_diversity",
    "evaluate_pipeline",
    "evaluate_rag",
    "evaluate_retrieval",
    "evaluate_run",
    "evaluate_shards",
    "evaluate_squad_v2",
    "exact_match",
    "from_ragas_dataset",
    "fuse",
    "get_registry",
    "hookimpl",
    "label_claims",
    "list_plugins",
    "load_report",
    "load_retriever",
    "max_norm",
    "merge_qrels",
    "min_max_norm",
    "mlqa_normalize",
    "ndcg_at_k",
    "open_store",
    "optimize_fusion",
    "parse_measure",
    "parse_measures",
    "plot_differences",
    "plot_distribution",
    "pool",
    "precision_at_k",
    "rank_correlation",
    "rank_norm",
    "ranking_of",
    "rbo",
    "read_answers",
    "read_beir",
    "read_dataset",
    "read_nuggets",
    "read_qrels",
    "read_queries",
    "read_references",
    "read_run",
    "read_samples",
    "recall_at_k",
    "reciprocal_rank",
    "retrieve",
    "sample_id",
    "save_report",
    "squad_normalize",
    "sum_norm",
    "token_f1",
    "unicode_normalize",
    "with_nuggets",
    "write_beir",
    "write_dataset",
    "write_qrels",
    "write_queries",
    "write_run",
    "write_samples",
    "zmuv_norm",
]
