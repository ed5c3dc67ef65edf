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
    from ._store import Record, Store, open_store
    from .dataset import Dataset, Document, StreamingCorpus
    from .engine.measures import Measure, parse_measure, parse_measures
    from .engine.retrieve import Retrieval, retrieve
    from .engine.ties import TieDiagnostic
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
    from .evaluate.agreement import rank_correlation, rbo
    from .evaluate.compare import compare
    from .evaluate.fuse import fuse
    from .evaluate.optimize_fusion import optimize_fusion
    from .evaluate.pipeline import evaluate_pipeline
    from .evaluate.pooling import merge_qrels, pool
    from .evaluate.rag import evaluate_rag, sample_id
    from .evaluate.ragas import as_ragas_dataset, from_ragas_dataset
    from .evaluate.retrieval import evaluate_retrieval
    from .evaluate.run import evaluate_run
    from .evaluate.shards import evaluate_shards
    from .formats.answers import read_answers, read_references
    from .formats.beir import _DEFAULT_QRELS_PATHS as _DEFAULT_QRELS_PATHS
    from .formats.beir import read_beir, write_beir
    from .formats.convert import convert
    from .formats.demo import demo_path
    from .formats.download import download_dataset
    from .formats.files import (
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
    from .fusion.normalize import max_norm, min_max_norm, rank_norm, sum_norm, zmuv_norm
    from .hookspecs import hookimpl
    from .interfaces import (
        DatasetFormat,
        FusionMethod,
        FusionParam,
        MetricParam,
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
    from .plugin_engine.loading import PluginInfo
    from .plugin_engine.registry import Registry, get_registry, list_plugins
    from .plugin_engine.view import RetrievalMetricsView
    from .presentation.catalogue import catalogue_entries, catalogue_markdown
    from .quality.saved import load_report, save_report
    from .render import Tabular
    from .render.plots import plot_differences, plot_distribution
    from .reports import (
        ComparisonReport,
        FusionOptimization,
        PairComparison,
        PipelineEvalReport,
        Pool,
        RagEvalReport,
        RetrievalEvalReport,
    )
    from .reports.agreement import RankCorrelation, RboReport
    from .reports.rendered import Rendered
    from .retrievers import BM25Retriever, DenseRetriever, load_retriever
    from .runs.order import TIE_POLICIES, ranking_of
    from .runs.table import RunTable
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
    **dict.fromkeys(("Dataset", "Document", "StreamingCorpus"), "dataset"),
    **dict.fromkeys(("Retrieval", "retrieve"), "engine.retrieve"),
    "TieDiagnostic": "engine.ties",
    "compare": "evaluate.compare",
    "fuse": "evaluate.fuse",
    "optimize_fusion": "evaluate.optimize_fusion",
    "evaluate_pipeline": "evaluate.pipeline",
    **dict.fromkeys(("merge_qrels", "pool"), "evaluate.pooling"),
    "evaluate_rag": "evaluate.rag",
    **dict.fromkeys(("as_ragas_dataset", "from_ragas_dataset"), "evaluate.ragas"),
    "evaluate_retrieval": "evaluate.retrieval",
    "evaluate_run": "evaluate.run",
    "evaluate_shards": "evaluate.shards",
    **dict.fromkeys(("read_answers", "read_references"), "formats.answers"),
    # _DEFAULT_QRELS_PATHS: the spec names it as read_beir()'s qrels search order.
    **dict.fromkeys(("_DEFAULT_QRELS_PATHS", "read_beir", "write_beir"), "formats.beir"),
    "convert": "formats.convert",
    "demo_path": "formats.demo",
    "download_dataset": "formats.download",
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
        "formats.files",
    ),
    "hookimpl": "hookspecs",
    **dict.fromkeys(
        (
            "DatasetFormat",
            "FusionMethod",
            "FusionParam",
            "MetricParam",
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
    "PluginInfo": "plugin_engine.loading",
    **dict.fromkeys(("Registry", "get_registry", "list_plugins"), "plugin_engine.registry"),
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
        "reports",
    ),
    **dict.fromkeys(("BM25Retriever", "DenseRetriever", "load_retriever"), "retrievers"),
    "RunTable": "runs.table",
    # Issue 27: the names the docs teach and the Ragas bridge imports, from modules that
    # are not public themselves.
    **dict.fromkeys(("Measure", "parse_measure", "parse_measures"), "engine.measures"),
    **dict.fromkeys(("TIE_POLICIES", "ranking_of"), "runs.order"),
    "MAX_ORDERS": "metrics.retrieval.orders",
    "sample_id": "evaluate.rag",
    **dict.fromkeys(("catalogue_entries", "catalogue_markdown"), "presentation.catalogue"),
    **dict.fromkeys(
        ("mlqa_normalize", "squad_normalize", "unicode_normalize"), "metrics.normalize"
    ),
    **dict.fromkeys(
        ("max_norm", "min_max_norm", "rank_norm", "sum_norm", "zmuv_norm"), "fusion.normalize"
    ),
    **dict.fromkeys(("plot_differences", "plot_distribution"), "render.plots"),
    "Tabular": "render",
    "Rendered": "reports.rendered",
    # Issue 30: agreement between orderings of systems, and between runs.
    **dict.fromkeys(("rank_correlation", "rbo"), "evaluate.agreement"),
    **dict.fromkeys(("RankCorrelation", "RboReport"), "reports.agreement"),
    # Issue 28: the store of evaluations.
    **dict.fromkeys(("Record", "Store", "open_store"), "_store"),
    **dict.fromkeys(("StoreError", "StoreSchemaError"), "errors"),
}


def _retrieval_metrics() -> object:
    from .plugin_engine.view import RetrievalMetricsView

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
    "FusionMethod",
    "FusionOptimization",
    "FusionParam",
    "GeneratorError",
    "InputWarning",
    "InvalidSampleError",
    "Measure",
    "MetricParam",
    "MissingDependencyError",
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
    "Synonym",
    "Tabular",
    "TieDiagnostic",
    "UnknownNameError",
    "__version__",
    "as_ragas_dataset",
    "average_precision",
    "catalogue_entries",
    "catalogue_markdown",
    "compare",
    "context_precision",
    "context_recall",
    "convert",
    "dcg_at_k",
    "demo_path",
    "download_dataset",
    "evaluate_pipeline",
    "evaluate_rag",
    "evaluate_retrieval",
    "evaluate_run",
    "evaluate_shards",
    "exact_match",
    "from_ragas_dataset",
    "fuse",
    "get_registry",
    "hookimpl",
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
    "write_beir",
    "write_dataset",
    "write_qrels",
    "write_queries",
    "write_run",
    "write_samples",
    "zmuv_norm",
]
