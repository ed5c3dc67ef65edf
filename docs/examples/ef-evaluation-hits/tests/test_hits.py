"""The example plugin's own tests, written with ef.evaluation.testing.

Run them with the plugin installed (``pip install -e .``, then ``pytest``).
"""

from __future__ import annotations

import importlib.metadata

import pytest

from ef.evaluation import DuplicateNameError, Registry, evaluate_rag, evaluate_run
from ef.evaluation.testing import check_retrieval_metric, registry_with

# The kit's fixture, imported (``pytest_plugins = ["ef.evaluation.testing.fixtures"]`` in the
# project's top-level conftest.py enables it for every test module instead).
from ef.evaluation.testing.fixtures import ef_make_dist  # noqa: F401

ef_evaluation_hits = pytest.importorskip(
    "ef_evaluation_hits", reason="install the plugin first: pip install -e ."
)


def test_the_functions() -> None:
    from ef.evaluation.testing import JudgedHits

    assert ef_evaluation_hits.hits_at_k(["x", "d1"], {"d1": 1}, 2) == 1.0
    assert ef_evaluation_hits.hits_at_k(["x", "d1"], {"d1": 1}, 1) == 0.0
    assert ef_evaluation_hits.hits_at_k(["x", "d1"], {"d1": 1}, None) == 1.0  # hits@all
    hits = JudgedHits.from_rankings([["x", "d1"], ["y"]], [{"d1": 1}, {"d2": 1}])
    assert ef_evaluation_hits.hits_batch(hits, 2).tolist() == [1.0, 0.0]
    assert ef_evaluation_hits.answer_length({"response": "Paris, France"}) == 2.0
    assert ef_evaluation_hits.answer_length({}) is None


def test_hits_conforms() -> None:
    # func on empty rankings, ties, unjudged docs, k=None; batch equal to func; values in [0, 1].
    registry = registry_with(ef_evaluation_hits, plugin="hits")
    check_retrieval_metric(registry.retrieval_metric("hits"), value_range=(0.0, 1.0))


def test_hits_values_through_an_evaluation() -> None:
    registry = registry_with(ef_evaluation_hits, plugin="hits")
    report = evaluate_run(
        {"q1": {"x": 2.0, "d1": 1.0}, "q2": {"y": 1.0}},
        {"q1": {"d1": 1}, "q2": {"d2": 1}},
        metrics=("hits@1", "hits@2", "hits@all"),
        registry=registry,
    )
    assert dict(report.metrics) == {"hits@1": 0.0, "hits@2": 0.5, "hits@all": 0.5}


def test_answer_length_skips_samples_without_a_response() -> None:
    registry = registry_with(ef_evaluation_hits, plugin="hits")
    report = evaluate_rag(
        [{"response": "a b c"}, {}], metrics=("answer_length",), registry=registry
    )
    assert (report.metrics["answer_length"], report.coverage["answer_length"]) == (3.0, 1)


def test_the_installed_entry_point_provides_both_metrics() -> None:
    dist = importlib.metadata.distribution("ef-evaluation-hits")
    registry = Registry.load(allow=["ef-evaluation-hits"])  # this plugin, no other
    info = registry.provider("hits")
    assert (info.name, info.distribution, info.version) == ("hits", dist.name, dist.version)
    assert info.provides == {"metric": ("answer_length", "hits")}


def test_a_clash_with_another_plugin_names_both(ef_make_dist) -> None:  # noqa: F811
    ef_make_dist(
        "ef-evaluation-other",
        "0.1",
        {"other": "other_hits"},
        {"other_hits": "from ef_evaluation_hits import ef_evaluation_metrics\n"},
    )
    with pytest.raises(DuplicateNameError, match=r"'hits' \(ef-evaluation-hits .*'other'"):
        Registry.load(allow=["hits", "other"])
