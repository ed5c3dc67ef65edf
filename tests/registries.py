"""A registry of the built-in retrieval metrics plus a test's own, without entry points."""

from __future__ import annotations

import pluggy

from ef.evaluation import Registry, RetrievalMetric, hookimpl, hookspecs


def registry_with(*metrics: RetrievalMetric, plugin: str = "test") -> Registry:
    """The built-in retrieval metrics and ``metrics``, the latter from a plugin ``plugin``."""
    from ef.evaluation.default_plugins import retrieval_metrics

    class Plugin:
        @hookimpl
        def ef_evaluation_metrics(self) -> list[RetrievalMetric]:
            return list(metrics)

    pm = pluggy.PluginManager(hookspecs.NAME)
    pm.add_hookspecs(hookspecs)
    pm.register(retrieval_metrics, name="builtin.retrieval_metrics")
    pm.register(Plugin(), name=plugin)
    return Registry.from_plugin_manager(pm)
