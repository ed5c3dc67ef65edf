"""Registries for tests: the built-ins plus a test's own metrics or plugins."""

from __future__ import annotations

from .._plugin_engine.registry import Registry
from ..interfaces import RagMetric, RetrievalMetric

__all__ = ["registry_with"]


def registry_with(*plugins_or_metrics: object, plugin: str = "test") -> Registry:
    """The built-in plugins and ``plugins_or_metrics``, without the installed entry points.

    The metrics (``RetrievalMetric`` or ``RagMetric``) come from one plugin named ``plugin``;
    every other argument is a plugin object (a module, class or instance with ``@hookimpl``
    functions), registered under its own derived name, or under ``plugin`` when it is the
    only argument.

    >>> from ef.evaluation import RetrievalMetric
    >>> registry = registry_with(RetrievalMetric(name="first", func=lambda r, q, k: 1.0))
    >>> registry.provider("first").name, registry.provider("ndcg").name
    ('test', 'builtin.retrieval_metrics')
    """
    metrics = [m for m in plugins_or_metrics if isinstance(m, (RetrievalMetric, RagMetric))]
    others = [p for p in plugins_or_metrics if not isinstance(p, (RetrievalMetric, RagMetric))]
    registry = Registry.load(autoload=False, disable=())
    if metrics:
        registry = registry.with_metrics(*metrics, name=plugin)
    if len(others) == 1 and not metrics:
        return registry.with_plugins(others[0], name=plugin)
    return registry.with_plugins(*others) if others else registry
