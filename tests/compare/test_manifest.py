"""Every report carries a reproducibility manifest: versions, plugins, parameters, policies,
and the sha256 of its input files."""

from __future__ import annotations

import hashlib
import json
import platform
from pathlib import Path

import pytest

from ef.evaluation import (
    RagEvalReport,
    Registry,
    RetrievalEvalReport,
    __version__,
    demo_path,
    evaluate_rag,
    evaluate_retrieval,
    evaluate_run,
    read_samples,
)
from ef.evaluation._engine.manifest import file_entry

DEMO = demo_path()
DEMO_RUN = Path(__file__).parents[2] / "examples" / "run.overlap.trec"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_evaluate_run_records_versions_metrics_policies_and_file_hashes(builtin_registry) -> None:
    report = evaluate_run(
        DEMO_RUN, DEMO, metrics=("ndcg@10", "recall"), k_values=(5,), registry=builtin_registry
    )
    manifest = report.to_dict()["manifest"]
    assert manifest["ef_evaluation"] == __version__
    assert manifest["python"] == platform.python_version()
    assert manifest["plugins"] == [
        {
            "name": "builtin.retrieval_metrics",
            "distribution": "ef-evaluation",
            "version": __version__,
        }
    ]
    ndcg_params = {"gains": None, "dcg": "log2", "judged_only": False, "rel": None}
    assert manifest["metrics"] == [
        {
            "key": "ndcg@10",
            "name": "ndcg",
            "k": 10,
            "params": ndcg_params,
            "plugin": "builtin.retrieval_metrics",
        },
        {
            "key": "recall@5",
            "name": "recall",
            "k": 5,
            "params": {"rel": None, "judged_only": False},
            "plugin": "builtin.retrieval_metrics",
        },
    ]
    assert manifest["tie_policy"] == "trec_eval"
    assert manifest["averaging"] == "qrels"
    qrels_file = DEMO / "qrels" / "test.tsv"  # what the BEIR directory's qrels are
    assert manifest["inputs"] == {
        "run": {
            "path": str(DEMO_RUN),
            "sha256": sha256(DEMO_RUN),
            "bytes": DEMO_RUN.stat().st_size,
        },
        "qrels": {
            "path": str(qrels_file),
            "sha256": sha256(qrels_file),
            "bytes": qrels_file.stat().st_size,
        },
    }
    assert json.loads(json.dumps(report.to_dict()))["manifest"] == manifest


def test_in_memory_inputs_have_no_hash_and_intersection_is_recorded(builtin_registry) -> None:
    report = evaluate_run(
        {"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, averaging="intersection", registry=builtin_registry
    )
    assert report.manifest["inputs"] == {}
    assert report.manifest["averaging"] == "intersection"


def test_evaluate_retrieval_records_the_input_order_tie_policy(builtin_registry) -> None:
    report = evaluate_retrieval(
        lambda query, *, limit: ["d1"], {"q": {"d1": 1}}, {"q": "x"}, k_values=(1,),
        metrics=("mrr",), registry=builtin_registry,
    )  # fmt: skip
    assert report.manifest["tie_policy"] == "input_order"
    assert report.manifest["metrics"][0]["key"] == "mrr@1"


def test_evaluate_rag_records_its_metrics_and_plugins(builtin_registry) -> None:
    report = evaluate_rag(
        [{"response": "a", "reference": "a"}], metrics=("exact_match",), registry=builtin_registry
    )
    assert report.to_dict()["manifest"]["metrics"] == [
        {
            "key": "exact_match",
            "name": "exact_match",
            "k": None,
            "params": {"normalize": "unicode", "lang": None, "abstain": None},  # defaults too
            "plugin": "builtin.rag_metrics",
        }
    ]
    assert report.manifest["averaging"] == "scored_samples"
    assert report.to_dict()["manifest"]["plugins"][0]["name"] == "builtin.rag_metrics"


def test_a_plugin_metric_names_its_distribution_and_version(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-hits",
        "2.3.1",
        {"hits": "hits_plugin"},
        {
            "hits_plugin": """
                from ef.evaluation import RetrievalMetric, hookimpl

                def hits(ranked, relevant, k):
                    return float(any(relevant.get(d, 0) > 0 for d in ranked[:k]))

                @hookimpl
                def ef_evaluation_metrics():
                    return [RetrievalMetric("hits", hits)]
            """
        },
    )
    report = evaluate_run(
        {"q1": ["d1"]}, {"q1": {"d1": 1}}, metrics=("hits@3",), registry=Registry.load()
    )
    assert report.manifest["plugins"] == (
        {"name": "hits", "distribution": "ef-evaluation-hits", "version": "2.3.1"},
    )
    assert report.manifest["metrics"][0]["plugin"] == "hits"


def test_the_manifest_is_frozen_round_trips_and_does_not_decide_equality(builtin_registry) -> None:
    report = evaluate_run(DEMO_RUN, DEMO, metrics=("ndcg@10",), registry=builtin_registry)
    with pytest.raises(TypeError, match="read-only"):
        report.manifest["python"] = "2.7"  # type: ignore[index]
    again = RetrievalEvalReport(**{**report.to_dict(), "k_values": tuple(report.k_values)})
    assert again.manifest == report.manifest
    assert again == report
    assert hash(again) == hash(report)
    bare = RetrievalEvalReport(report.metrics, report.per_query, report.n_queries, report.k_values,
                               skipped=report.skipped, missing=report.missing)  # fmt: skip
    assert bare == report
    assert bare.to_dict()["manifest"] == {}
    assert RagEvalReport({"m": 1.0}, {"m": 1}, 1).to_dict()["manifest"] == {}


def test_a_samples_path_records_its_hash_and_a_directory_without_qrels(tmp_path: Path) -> None:
    report = evaluate_rag(DEMO / "rag_samples.jsonl", metrics=("token_f1",))
    assert report.manifest["inputs"]["samples"]["sha256"] == sha256(DEMO / "rag_samples.jsonl")
    assert report.n_samples == len(read_samples(DEMO / "rag_samples.jsonl"))
    assert file_entry(tmp_path) == {"path": str(tmp_path), "sha256": None, "bytes": None}
