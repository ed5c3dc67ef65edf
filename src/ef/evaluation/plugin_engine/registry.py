"""The registry: an immutable snapshot of what the loaded plugins provide, and who provided it."""

from __future__ import annotations

import difflib
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
import pluggy

from ..errors import DuplicateNameError, PluginError, UnknownNameError
from ..interfaces import DatasetFormat, RagMetric, RetrievalMetric, RetrieverAdapter
from .loading import DISABLE_PLUGINS_ENV, PluginInfo, load_plugin_manager

__all__ = ["Registry", "get_registry", "list_plugins"]

Item = TypeVar("Item", RetrievalMetric, RagMetric, DatasetFormat, RetrieverAdapter)


@attrs.frozen
class Registry:
    """What the loaded plugins provide: metrics, formats and retriever adapters.

    Build one with :meth:`load` (or use :func:`get_registry`, the cached default). Every item
    knows its provider (:meth:`provider`), which is how name clashes and listings name plugins.

    >>> registry = Registry.load(autoload=False)
    >>> sorted(registry.retrieval_metrics)[:8]
    ['bpref', 'err', 'f1', 'hole', 'infap', 'judged', 'map', 'mrr']
    >>> registry.provider("ndcg").name
    'builtin.retrieval_metrics'
    """

    plugins: tuple[PluginInfo, ...]
    _metrics: Mapping[str, RetrievalMetric | RagMetric]
    _formats: Mapping[str, DatasetFormat]
    #: In the order they are tried.
    adapters: tuple[RetrieverAdapter, ...]
    _providers: Mapping[tuple[str, str], str]

    @classmethod
    def load(cls, *, autoload: bool | None = None, disable: Iterable[str] = ()) -> Registry:
        """Load the built-ins and the installed plugins into a fresh registry.

        ``autoload=False`` loads only the built-ins; ``None`` honours
        ``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD``. ``disable`` blocks plugins by name, on top
        of ``EF_EVALUATION_DISABLE_PLUGINS``.
        """
        pm, infos = load_plugin_manager(autoload=autoload, disable=disable)
        return cls.from_plugin_manager(pm, infos)

    @classmethod
    def from_plugin_manager(
        cls, pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo] | None = None
    ) -> Registry:
        """Collect every hook implementation of ``pm``, one plugin at a time."""
        infos = dict(infos or {})
        collector = _Collector(pm, infos)
        metrics = collector.collect(
            "metric", pm.hook.ef_evaluation_metrics, (RetrievalMetric, RagMetric)
        )
        formats = collector.collect("format", pm.hook.ef_evaluation_formats, (DatasetFormat,))
        adapters = collector.collect(
            "adapter", pm.hook.ef_evaluation_retriever_adapters, (RetrieverAdapter,)
        )
        plugins = tuple(
            attrs.evolve(
                infos.get(name) or PluginInfo(name, None, None, name, builtin=False),
                provides={
                    kind: tuple(sorted(names))
                    for kind, names in collector.provides.get(name, {}).items()
                },
            )
            for name, plugin in pm.list_name_plugin()
            if plugin is not None  # a blocked name is listed with no plugin
        )
        return cls(
            plugins=plugins,
            metrics=MappingProxyType(metrics),
            formats=MappingProxyType(formats),
            adapters=tuple(adapters.values()),
            providers=MappingProxyType(collector.providers),
        )

    @property
    def retrieval_metrics(self) -> Mapping[str, RetrievalMetric]:
        """Name to :class:`RetrievalMetric`, sorted by name."""
        return _sorted_view(self._metrics, RetrievalMetric)

    @property
    def rag_metrics(self) -> Mapping[str, RagMetric]:
        """Name to :class:`RagMetric`, sorted by name."""
        return _sorted_view(self._metrics, RagMetric)

    @property
    def formats(self) -> Mapping[str, DatasetFormat]:
        """Name to :class:`DatasetFormat`, sorted by name."""
        return _sorted_view(self._formats, DatasetFormat)

    @property
    def formats_to_detect(self) -> tuple[DatasetFormat, ...]:
        """The formats in the order detection asks them: plugins' before the built-ins (the
        hook-call order), and the built-ins most specific first (BEIR, TREC, MS MARCO)."""
        return tuple(self._formats.values())

    def retrieval_metric(self, name: str) -> RetrievalMetric:
        """The retrieval metric called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("retrieval metric", name, self.retrieval_metrics)

    def rag_metric(self, name: str) -> RagMetric:
        """The RAG metric called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("RAG metric", name, self.rag_metrics)

    def format(self, name: str) -> DatasetFormat:
        """The dataset format called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("format", name, self.formats)

    def provider(self, name: str, kind: str = "metric") -> PluginInfo:
        """The plugin that provides the ``kind`` item called ``name``."""
        plugin = self._providers.get((kind, name))
        if plugin is None:
            raise UnknownNameError(f"no loaded plugin provides the {kind} {name!r}")
        return next(info for info in self.plugins if info.name == plugin)

    def _lookup(self, what: str, name: str, valid: Mapping[str, Item]) -> Item:
        if name in valid:
            return valid[name]
        other = self._metrics.get(name)
        if other is not None:
            message = f"{name!r} is a {other.kind} metric, not a {what}."
        else:
            message = f"unknown {what} {name!r}."
            close = difflib.get_close_matches(str(name), list(valid), n=3)
            if close:
                message = f"unknown {what} {name!r}; did you mean {' or '.join(map(repr, close))}?"
        names = ", ".join(valid) or "(none loaded)"
        raise UnknownNameError(f"{message} Valid {what}s: {names}.")


def _sorted_view(items: Mapping[str, Any], kind: type[Item]) -> Mapping[str, Item]:
    return MappingProxyType(
        {name: item for name, item in sorted(items.items()) if isinstance(item, kind)}
    )


class _Collector:
    """Calls each hook implementation on its own, so every item keeps its provenance."""

    def __init__(self, pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo]) -> None:
        self._infos = infos
        self.providers: dict[tuple[str, str], str] = {}
        self.provides: dict[str, dict[str, tuple[str, ...]]] = {}

    def _describe(self, plugin: str) -> str:
        info = self._infos.get(plugin)
        return info.describe() if info else repr(plugin)

    def _clash(self, kind: str, name: str, *plugins: str) -> DuplicateNameError:
        # Built-ins first in the message, and never suggested for blocking.
        ordered = sorted(plugins, key=lambda p: not p.startswith("builtin."))
        blockable = [p for p in ordered if not p.startswith("builtin.")]
        hint = " or ".join(f"{DISABLE_PLUGINS_ENV}={p}" for p in blockable)
        return DuplicateNameError(
            f"{kind} {name!r} is provided by two plugins: "
            f"{self._describe(ordered[0])} and {self._describe(ordered[1])}. Uninstall one"
            + (f", or block it with {hint}." if hint else ".")
        )

    def collect(
        self, kind: str, hook: pluggy.HookCaller, types: tuple[type, ...]
    ) -> dict[str, Any]:
        items: dict[str, Any] = {}
        # get_hookimpls() lists in reverse call order; pluggy calls the last one first
        # (tryfirst last, trylast first), and so do we.
        for impl in reversed(hook.get_hookimpls()):
            for item in self._call(impl, hook.name, types):
                key = (kind, item.name)
                if key in self.providers:
                    raise self._clash(kind, item.name, self.providers[key], impl.plugin_name)
                self.providers[key] = impl.plugin_name
                items[item.name] = item
                provided: dict[str, tuple[str, ...]] = self.provides.setdefault(
                    impl.plugin_name, {}
                )
                provided[kind] = (*provided.get(kind, ()), item.name)
        return items

    def _call(
        self, impl: pluggy.HookImpl, hook_name: str, types: tuple[type, ...]
    ) -> Iterator[Any]:
        plugin = self._describe(impl.plugin_name)
        try:
            # The hooks take no arguments (pluggy rejects impls that ask for unknown ones).
            result = impl.function()
        except Exception as exc:
            raise PluginError(
                f"plugin {plugin} raised in {hook_name}(): {type(exc).__name__}: {exc}"
            ) from exc
        for item in _as_list(result, types):
            if not isinstance(item, types):
                expected = " or ".join(t.__name__ for t in types)
                raise PluginError(
                    f"plugin {plugin} returned {item!r} from {hook_name}(); expected "
                    f"{expected} objects (from ef.evaluation)."
                )
            yield item


def _as_list(result: object, types: tuple[type, ...]) -> Sequence[Any]:
    # One object or an iterable of them, as hatch's ClassRegister accepts.
    if result is None:
        return []
    if isinstance(result, types) or not isinstance(result, Iterable):
        return [result]
    return list(result)


_default: Registry | None = None
_default_lock = threading.Lock()


def get_registry() -> Registry:
    """The default registry, loaded on first use and then reused.

    ``import ef.evaluation`` loads no plugin; the first evaluation (or this call) does.
    """
    global _default  # noqa: PLW0603 - a cached default, replaceable for tests via reset
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = Registry.load()
    return _default


def _reset_default_registry() -> None:
    """Forget the default registry, so the next use loads the plugins again (for tests)."""
    global _default  # noqa: PLW0603
    with _default_lock:
        _default = None


def list_plugins() -> list[PluginInfo]:
    """The loaded plugins, with their distribution, version and what each provides.

    >>> [p.name for p in list_plugins() if p.builtin]
    ['builtin.retrieval_metrics', 'builtin.rag_metrics', 'builtin.formats', 'builtin.adapters']
    """
    return list(get_registry().plugins)


def registry_or_default(registry: Registry | None) -> Registry:
    return get_registry() if registry is None else registry
