"""The allow-list (EF_EVALUATION_PLUGINS), in-process plugins, and the default registry's cache."""

from __future__ import annotations

import sys
import types

import pytest

from ef.evaluation import (
    DuplicateNameError,
    PluginError,
    RagMetric,
    Registry,
    RetrievalMetric,
    evaluate_run,
    get_registry,
    hookimpl,
    list_plugins,
)

PLUGIN = """
from ef.evaluation import RetrievalMetric, hookimpl

@hookimpl
def ef_evaluation_metrics():
    return [RetrievalMetric(name="{metric}", func=lambda ranked, relevant, k: 1.0)]
"""


@pytest.fixture
def two_plugins(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-one", "1.0", {"one": "one_mod"}, {"one_mod": PLUGIN.format(metric="m_one")}
    )
    ef_make_dist(
        "ef-evaluation-two", "2.0", {"two": "two_mod"}, {"two_mod": PLUGIN.format(metric="m_two")}
    )


def third_party(registry: Registry) -> list[str]:
    return [p.name for p in registry.plugins if not p.builtin]


def builtins(registry: Registry) -> list[str]:
    return [p.name for p in registry.plugins if p.builtin]


def test_without_an_allow_list_every_installed_plugin_loads(two_plugins, monkeypatch) -> None:
    monkeypatch.delenv("EF_EVALUATION_PLUGINS", raising=False)
    assert {"one", "two"} <= set(third_party(Registry.load()))


@pytest.mark.parametrize("value", ["one", " one ,", "ef-evaluation-one", "EF_Evaluation.One"])
def test_the_allow_list_loads_exactly_the_named_plugins(two_plugins, monkeypatch, value) -> None:
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", value)
    registry = Registry.load()
    assert third_party(registry) == ["one"]
    assert "m_one" in registry.retrieval_metrics
    assert "m_two" not in registry.retrieval_metrics
    assert len(builtins(registry)) == 5  # the built-ins always load


def test_the_allow_list_takes_entry_point_and_distribution_names(two_plugins, monkeypatch) -> None:
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", "one,ef-evaluation-two")
    assert sorted(third_party(Registry.load())) == ["one", "two"]
    assert third_party(Registry.load(allow=["two"])) == ["two"]  # the argument wins


def test_an_empty_allow_list_loads_no_third_party_plugin(two_plugins, monkeypatch) -> None:
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", "")
    registry = Registry.load()
    assert third_party(registry) == []
    assert len(builtins(registry)) == 5


def test_an_allow_listed_name_that_is_not_installed_is_an_error(two_plugins, monkeypatch) -> None:
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", "one,three")
    with pytest.raises(PluginError) as info:
        Registry.load()
    message = str(info.value)
    assert "EF_EVALUATION_PLUGINS names 'three', which is not installed" in message
    assert "'one' (ef-evaluation-one 1.0)" in message
    assert "'two' (ef-evaluation-two 2.0)" in message


def test_the_disable_list_wins_over_the_allow_list(two_plugins, monkeypatch) -> None:
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", "one,two")
    monkeypatch.setenv("EF_EVALUATION_DISABLE_PLUGINS", "two,builtin.formats")
    registry = Registry.load()
    assert third_party(registry) == ["one"]
    assert "builtin.formats" not in builtins(registry)  # built-ins can still be blocked


def test_autoload_off_wins_over_the_allow_list(two_plugins, monkeypatch) -> None:
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", "one")
    monkeypatch.setenv("EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert third_party(Registry.load()) == []
    assert third_party(Registry.load(autoload=False, allow=["nothing_checked"])) == []


def test_the_default_registry_follows_the_environment(two_plugins, monkeypatch) -> None:
    assert {"one", "two"} <= {p.name for p in list_plugins()}
    first = get_registry()
    assert get_registry() is first  # cached
    monkeypatch.setenv("EF_EVALUATION_PLUGINS", "two")
    assert third_party(get_registry()) == ["two"]
    monkeypatch.setenv("EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD", "yes")
    assert third_party(get_registry()) == []
    monkeypatch.delenv("EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD")
    monkeypatch.delenv("EF_EVALUATION_PLUGINS")
    assert get_registry() is first  # the same environment, the same registry


def test_a_distribution_put_on_sys_path_is_seen_by_the_default_registry(ef_make_dist) -> None:
    assert "m_new" not in get_registry().retrieval_metrics
    ef_make_dist(
        "ef-evaluation-new", "1.0", {"new": "new_mod"}, {"new_mod": PLUGIN.format(metric="m_new")}
    )
    assert "m_new" in get_registry().retrieval_metrics


# In-process plugins


class Counting:
    """A plugin object: an instance with a hook implementation."""

    @hookimpl
    def ef_evaluation_metrics(self):
        return [RetrievalMetric(name="count_rel", func=lambda ranked, rel, k: float(len(rel)))]


def test_in_process_plugins_are_registered_beside_the_builtins() -> None:
    module = types.ModuleType("my_metrics")
    module.ef_evaluation_metrics = hookimpl(  # type: ignore[attr-defined]
        lambda: RagMetric(name="always_one", func=lambda s: 1.0)
    )
    registry = Registry.load(autoload=False, plugins=[module, Counting()])
    assert registry.provider("always_one").name == "my_metrics"
    info = registry.provider("count_rel")
    assert info.name == "tests.plugin_system.test_selection.Counting"
    assert (info.distribution, info.builtin) == (None, False)
    assert info.entry_point.startswith("in process: <tests.plugin_system.test_selection.Counting")
    named = Registry.load(autoload=False, plugins={"counting": Counting()})
    assert named.provider("count_rel").name == "counting"


def test_with_metrics_returns_a_new_registry_and_scores_the_metric() -> None:
    base = Registry.load(autoload=False)
    metric = RetrievalMetric(name="count_rel", func=lambda ranked, rel, k: float(len(rel)))
    registry = base.with_metrics(metric)
    assert "count_rel" not in base.retrieval_metrics  # registries never change
    assert registry.provider("count_rel").name == "local"
    report = evaluate_run(
        {"q1": {"d1": 1.0}}, {"q1": {"d1": 1, "d2": 1}}, metrics=("count_rel@1",), registry=registry
    )
    assert report.metrics == {"count_rel@1": 2.0}
    module = types.ModuleType("my_rag")
    module.ef_evaluation_metrics = hookimpl(  # type: ignore[attr-defined]
        lambda: RagMetric(name="always_one", func=lambda s: 1.0)
    )
    more = registry.with_plugins(module)
    assert [p.name for p in more.plugins][-2:] == ["local", "my_rag"]
    assert (more.provider("count_rel").name, more.provider("always_one").name) == (
        "local",
        "my_rag",
    )
    assert "always_one" not in registry.rag_metrics


def test_an_in_process_name_clash_names_both_plugins() -> None:
    clash = RetrievalMetric(name="ndcg", func=lambda ranked, rel, k: 0.0)
    with pytest.raises(DuplicateNameError) as info:
        Registry.load(autoload=False).with_metrics(clash, name="mine")
    message = str(info.value)
    assert (
        "metric 'ndcg' is provided by two plugins: 'builtin.retrieval_metrics' (ef-evaluation "
        in message
    )
    assert "and 'mine'" in message
    assert "Rename the metric of the in-process plugin 'mine'" in message
    with pytest.raises(
        DuplicateNameError, match=r"'count_rel' is provided by two plugins: '[ab]' and '[ab]'"
    ):
        Registry.load(autoload=False, plugins={"a": Counting(), "b": Counting()})


def test_an_in_process_plugin_cannot_take_a_loaded_or_reserved_name(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-one", "1.0", {"one": "one_mod2"}, {"one_mod2": PLUGIN.format(metric="m_one")}
    )
    with pytest.raises(
        PluginError,
        match=r"in-process plugin 'one' has the name of the plugin 'one' \(ef-evaluation-one 1.0\)",
    ):
        Registry.load(plugins={"one": Counting()})
    with pytest.raises(
        PluginError, match=r"in-process plugin 'builtin.x' uses the reserved prefix"
    ):
        Registry.load(autoload=False, plugins={"builtin.x": Counting()})
    with pytest.raises(PluginError, match=r"two in-process plugins would both be named"):
        Registry.load(autoload=False, plugins=[Counting(), Counting()])


def test_a_misspelt_hook_of_an_in_process_plugin_is_an_error() -> None:
    class Typo:
        @hookimpl
        def ef_evaluation_metric(self):
            return []

    with pytest.raises(PluginError, match=r"plugin 'typo' implements a hook that does not exist"):
        Registry.load(autoload=False, plugins={"typo": Typo()})
    with pytest.raises(PluginError, match=r"plugin 'typo' implements a hook that does not exist"):
        Registry.load(autoload=False).with_plugins(Typo(), name="typo")


def test_the_disable_list_blocks_in_process_plugins_too() -> None:
    registry = Registry.load(autoload=False, disable=["counting"], plugins={"counting": Counting()})
    assert "count_rel" not in registry.retrieval_metrics


def test_derived_data_is_built_once_per_registry() -> None:
    registry = Registry.load(autoload=False)
    calls = []

    def build(r: Registry) -> int:
        calls.append(r)
        return len(r.retrieval_metrics)

    assert registry.derived("n", build) == registry.derived("n", build)
    assert calls == [registry]
    other = registry.with_metrics(RetrievalMetric(name="zz", func=lambda ranked, rel, k: 0.0))
    assert other.derived("n", build) == registry.derived("n", build) + 1
    assert "zz" not in sys.modules  # nothing imported by name
