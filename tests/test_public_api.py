"""The facade: a deliberate list of public names, and an import that loads nothing heavy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import ef.evaluation
from ef.evaluation import MissingDependencyError, as_ragas_dataset

PUBLIC = [
    "Corpus", "DatasetFormat", "DatasetFormatError", "DuplicateNameError", "EvaluationError",
    "InvalidSampleError", "MissingDependencyError", "PluginError", "PluginInfo", "PluginLoadError",
    "Qrels", "Queries", "RETRIEVAL_METRICS", "RagEvalReport", "RagMetric", "RagSample", "Registry",
    "RetrievalEvalReport", "RetrievalMetric", "RetrieverAdapter", "RetrieverError",
    "UnknownNameError", "__version__", "as_ragas_dataset", "average_precision",
    "context_precision", "context_recall", "dcg_at_k", "evaluate_rag", "evaluate_retrieval",
    "exact_match", "from_ragas_dataset", "get_registry", "hookimpl", "list_plugins", "ndcg_at_k", "precision_at_k",
    "read_beir", "read_samples", "recall_at_k", "reciprocal_rank", "token_f1", "write_beir",
    "write_samples",
    # Issue 3: formats and stored runs.
    "Dataset", "Document", "Run", "RunInput", "StreamingCorpus", "convert", "evaluate_run",
    "read_dataset", "read_qrels", "read_queries", "read_run", "write_dataset", "write_qrels",
    "write_queries", "write_run",
    # Issue 4: the fast path.
    "RunTable",
    # Issue 6: dataset download.
    "DownloadError", "download_dataset",
    # Issue 6: the baseline retrievers and the demo dataset.
    "BM25Retriever", "DenseRetriever", "demo_path", "load_retriever",
    # Issue 6: running retrievers.
    "Retrieval", "retrieve",
    # Issue 7: comparing systems.
    "ComparisonReport", "PairComparison", "compare",
    # Issue 8: metric parameters and other tools' names.
    "MetricParam", "Synonym",
    # Issue 8: tie policies.
    "TieDiagnostic",
    # Issue 15: inputs that are probably a mistake.
    "InputWarning",
    # Issue 18: quality gates.
    "load_report", "save_report",
    # Issue 16: one report for retrieval and answers.
    "GeneratorError", "PipelineEvalReport", "evaluate_pipeline", "read_answers",
    "read_references",

    # Issue 17: fusion.
    "FusionMethod", "FusionOptimization", "FusionParam", "fuse", "optimize_fusion",
    # Issue 27: the sharded journey as its own function.
    "evaluate_shards",
    # Issue 27: the public line. What the docs teach and the Ragas bridge imports.
    "MAX_ORDERS", "Measure", "Rendered", "TIE_POLICIES", "Tabular", "catalogue_entries",
    "catalogue_markdown", "max_norm", "min_max_norm", "mlqa_normalize", "parse_measure",
    "parse_measures", "plot_differences", "plot_distribution", "rank_norm", "ranking_of",
    "sample_id", "squad_normalize", "sum_norm", "unicode_normalize", "zmuv_norm",
    # Issue 30: pools to judge.
    "Pool", "merge_qrels", "pool",
    # Issue 30: agreement between orderings of systems, and between runs.
    "RankCorrelation", "RboReport", "rank_correlation", "rbo",
    # Issue 28: experiments, their systems and the latency they report.
    "Experiment", "Latency", "System", "SystemResult",
    # Issue 28: the leaderboard site of recorded evaluations.
    "Record", "build_site",
    # Issue 30: diversity measures over subtopic qrels.
    "SubtopicQrels", "evaluate_diversity",
    # Issue 29: nugget evaluation and RAGChecker's claim metrics, from labels.
    "ClaimLabeler", "NuggetAssigner", "assign_nuggets", "evaluate_claims", "label_claims",
    "read_nuggets", "with_nuggets",
    # Issue 29: the official SQuAD v2.0 evaluation, all 13 outputs.
    "evaluate_squad_v2",
    # Issue 28: the store of evaluations.
    "Store", "StoreError", "StoreSchemaError", "open_store",
]  # fmt: skip


def test_the_public_names_change_only_on_purpose() -> None:
    assert sorted(ef.evaluation.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert hasattr(ef.evaluation, name), name


def test_ef_is_a_namespace_package() -> None:
    import ef

    assert getattr(ef, "__file__", None) is None


def test_import_loads_no_plugin_and_nothing_heavy() -> None:
    code = (
        "import json, sys; import ef.evaluation as ev; from ef.evaluation._plugin_engine import registry as _registry;"
        "print(json.dumps({'modules': sorted(sys.modules), 'loaded': _registry._default_for.cache_info().currsize}))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    state = json.loads(out.stdout)
    assert state["loaded"] == 0  # no default registry has been built
    heavy = {
        *("numpy", "polars", "pandas", "rich", "click"),
        *("ragas", "sentence_transformers", "torch", "bm25s"),
    }
    loaded = set(state["modules"])
    assert not heavy & loaded
    assert not [m for m in loaded if m.startswith("ef.evaluation._default_plugins")]


def test_hookimpl_is_the_pluggy_marker_of_our_project() -> None:
    assert ef.evaluation.hookimpl.project_name == "ef_evaluation"


@pytest.mark.skipif(
    __import__("importlib").util.find_spec("ef_evaluation_ragas") is not None,
    reason="the Ragas bridge is installed here",
)
def test_as_ragas_dataset_without_the_bridge_gives_the_install_command() -> None:
    with pytest.raises(
        ImportError, match=r"not on PyPI yet.*pip install \./plugins/ef-evaluation-ragas$"
    ) as info:
        as_ragas_dataset([{"user_input": "q", "response": "a"}])
    assert isinstance(info.value, MissingDependencyError)


def test_as_ragas_dataset_when_the_bridge_is_disabled(monkeypatch) -> None:
    monkeypatch.setenv("EF_EVALUATION_DISABLE_PLUGINS", "ragas")
    with pytest.raises(ImportError, match="EF_EVALUATION_DISABLE_PLUGINS disables"):
        as_ragas_dataset([])


def test_every_public_name_is_in_the_api_reference() -> None:
    from pathlib import Path

    reference = (Path(__file__).parents[1] / "docs" / "reference.md").read_text(encoding="utf-8")
    missing = [
        name
        for name in PUBLIC
        if name != "__version__" and f"ef.evaluation.{name}" not in reference
    ]
    assert not missing, f"add these to docs/reference.md: {missing}"


def test_all_is_the_lazy_table() -> None:
    # __all__ is written out for type checkers; the lazy table is where each name loads from.
    table = {n for n in ef.evaluation._LAZY if not n.startswith("_")}
    assert set(ef.evaluation.__all__) == table | {"RETRIEVAL_METRICS", "__version__"}
    assert set(ef.evaluation.__all__) <= set(dir(ef.evaluation))


def _modules_after(code: str) -> set[str]:
    probe = f"{code}; import json, sys; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return set(json.loads(out.stdout))


def test_the_import_loads_only_the_version() -> None:
    ours = {m for m in _modules_after("import ef.evaluation") if m.startswith("ef.")}
    assert ours == {"ef.evaluation", "ef.evaluation._version"}


@pytest.mark.parametrize(
    ("name", "absent"),
    [
        ("ndcg_at_k", ("numpy", "ef.evaluation._evaluate.fuse", "ef.evaluation._formats.beir")),
        ("read_beir", ("numpy", "ef.evaluation._evaluate.run", "ef.evaluation.metrics")),
        (
            "evaluate_run",
            ("numpy", "ef.evaluation._evaluate.compare", "ef.evaluation._evaluate.fuse"),
        ),
        ("InputWarning", ("attrs", "pluggy", "ef.evaluation.types")),
    ],
)
def test_a_name_loads_what_it_names(name: str, absent: tuple[str, ...]) -> None:
    loaded = _modules_after(f"from ef.evaluation import {name}")
    assert not [m for m in absent if m in loaded or any(k.startswith(m + ".") for k in loaded)]


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from ef.evaluation import *", namespace)
    assert set(ef.evaluation.__all__) - {"__version__"} <= set(namespace)
    assert namespace["evaluate_run"] is ef.evaluation.evaluate_run


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'evaluate_runs'"):
        ef.evaluation.evaluate_runs  # noqa: B018
