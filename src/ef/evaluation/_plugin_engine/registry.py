"""The registry: an immutable snapshot of what the loaded plugins provide, and who provided it."""

from __future__ import annotations

import functools
import os
import reprlib
import sys
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import pluggy

from .. import interfaces
from ..errors import DuplicateNameError, PluginError, UnknownNameError
from ..hookspecs import hookimpl
from ..interfaces import DatasetFormat, RetrievalMetric
from ..types import FrozenDict
from .loading import (
    DISABLE_PLUGINS_ENV,
    InProcessPlugins,
    PluginInfo,
    check_pending,
    load_plugin_manager,
    named_plugins,
    new_plugin_manager,
    plugin_environment,
    register_in_process,
)

if TYPE_CHECKING:
    from ..interfaces import (
        ClaimLabeler,
        FusionMethod,
        NuggetAssigner,
        RagMetric,
        RetrieverAdapter,
    )

__all__ = ["Registry", "get_registry", "list_plugins"]

Item = TypeVar(
    "Item",
    "RetrievalMetric",
    "RagMetric",
    "DatasetFormat",
    "RetrieverAdapter",
    "FusionMethod",
    "NuggetAssigner",
    "ClaimLabeler",
)
T = TypeVar("T")


#: Each kind of item: its hook and the names of the classes (in :mod:`ef.evaluation.interfaces`)
#: its items are. A registry collects a kind when it is first asked for, so resolving a metric
#: imports no format, adapter or fusion module, and builds none of their classes.
_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "metric": ("ef_evaluation_metrics", ("RetrievalMetric", "RagMetric")),
    "format": ("ef_evaluation_formats", ("DatasetFormat",)),
    "adapter": ("ef_evaluation_retriever_adapters", ("RetrieverAdapter",)),
    "fusion": ("ef_evaluation_fusion_methods", ("FusionMethod",)),
    "nugget_assigner": ("ef_evaluation_nugget_assigners", ("NuggetAssigner",)),
    "claim_labeler": ("ef_evaluation_claim_labelers", ("ClaimLabeler",)),
}
#: The classes a registry's metrics are, by name: retrieval first (the one scoring asks for).
_METRIC_CLASSES = _KINDS["metric"][1]
_BUILTIN = "builtin."


@attrs.frozen
class _Collected:
    """One kind's items in hook-call order, who provided each, and what each plugin gave."""

    items: Mapping[str, Any]
    providers: Mapping[str, str]
    provides: Mapping[str, tuple[str, ...]]
    # Each class's sorted view, made on first use: a registry never changes, and scoring
    # asks for the retrieval metrics on every call.
    _views: dict[type, Mapping[str, Any]] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )

    def sorted_view(self, kind: type[Item]) -> Mapping[str, Item]:
        """Name to item, sorted by name, of the items that are ``kind``s (read-only)."""
        view = self._views.get(kind)
        if view is None:  # two threads may both build it: the same view
            items = sorted(self.items.items())
            view = self._views[kind] = FrozenDict(
                {name: item for name, item in items if isinstance(item, kind)}
            )
        return view


@attrs.frozen(eq=False)
class Registry:
    """What the loaded plugins provide: metrics, formats, retriever adapters and fusion methods.

    Build one with :meth:`load` (or use :func:`get_registry`, the cached default). Every item
    knows its provider (:meth:`provider`), which is how name clashes and listings name plugins.
    A registry never changes: :meth:`with_plugins` and :meth:`with_metrics` return a new one.
    All its mappings are read-only ``FrozenDict`` mappings.

    The plugins are fixed when it is built; each kind of item is collected from them the first
    time it is asked for (the built-ins import their modules then), except that a kind which
    an installed or in-process plugin provides is collected at once, so that its errors and
    name clashes surface where the registry is built.

    >>> registry = Registry.load(autoload=False)
    >>> sorted(registry.retrieval_metrics)[:8]
    ['binary_gain', 'bpref', 'dcg', 'err', 'f1', 'gm_bpref', 'gm_map', 'hole']
    >>> registry.provider("ndcg").name
    'builtin.retrieval_metrics'
    """

    _manager: pluggy.PluginManager = attrs.field(repr=False)
    #: Where each registered plugin came from (without ``provides``: see :attr:`plugins`).
    _infos: Mapping[str, PluginInfo]
    #: The registered plugin objects by name, so that with_plugins() can add to them.
    _objects: tuple[tuple[str, object], ...] = attrs.field(default=(), repr=False)
    _collected: dict[str, _Collected] = attrs.field(factory=dict, init=False, repr=False)
    _lock: threading.Lock = attrs.field(factory=threading.Lock, init=False, repr=False)
    #: derived(): data computed from this registry by other modules, built once.
    _derived: dict[Hashable, Any] = attrs.field(factory=dict, init=False, repr=False)

    @classmethod
    def load(
        cls,
        *,
        autoload: bool | None = None,
        disable: Iterable[str] = (),
        allow: Iterable[str] | None = None,
        plugins: InProcessPlugins = (),
    ) -> Registry:
        """Load the built-ins and the installed plugins into a fresh registry.

        ``autoload=False`` loads only the built-ins; ``None`` honours
        ``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD``. ``disable`` blocks plugins by name, on top
        of ``EF_EVALUATION_DISABLE_PLUGINS``. ``allow`` loads only the installed plugins it
        names (entry-point or distribution names; ``None`` reads ``EF_EVALUATION_PLUGINS``).
        ``plugins`` registers plugin objects in process (modules, classes or instances with
        ``@hookimpl`` functions), named by a mapping's keys or after the object.

        >>> from ef.evaluation import RetrievalMetric, hookimpl
        >>> class Mine:
        ...     @hookimpl
        ...     def ef_evaluation_metrics(self):
        ...         return RetrievalMetric(name="first", func=lambda ranked, rel, k: 1.0)
        >>> registry = Registry.load(autoload=False, plugins={"mine": Mine()})
        >>> registry.provider("first").name, registry.provider("first").entry_point[:11]
        ('mine', 'in process:')
        """
        pm, infos = load_plugin_manager(
            autoload=autoload, disable=disable, allow=allow, plugins=plugins
        )
        return cls.from_plugin_manager(pm, infos)

    def with_plugins(self, *plugins: object, name: str | None = None) -> Registry:
        """A new registry: this one's plugins and ``plugins``, registered in process.

        ``name`` names a single plugin (else a name is derived from it, as in :meth:`load`).
        A name clash with this registry's items raises ``DuplicateNameError``.
        """
        if name is not None and len(plugins) != 1:
            raise ValueError("with_plugins(name=...) names one plugin; pass a single plugin")
        added = [(name, plugins[0])] if name is not None else named_plugins(plugins)
        infos = dict(self._infos)
        pm = new_plugin_manager()
        for plugin_name, plugin in self._objects:
            pm.register(plugin, name=plugin_name)
        register_in_process(pm, added, infos)
        check_pending(pm, infos)
        return type(self).from_plugin_manager(pm, infos)

    def with_metrics(self, *metrics: RetrievalMetric | RagMetric, name: str = "local") -> Registry:
        """A new registry: this one's plugins and a plugin ``name`` that provides ``metrics``.

        The quick way to score a metric that is not packaged (a notebook, a test), in the
        spirit of ``ir_measures.define``.

        >>> from ef.evaluation import RetrievalMetric
        >>> first = RetrievalMetric(name="first", func=lambda ranked, rel, k: 1.0)
        >>> registry = Registry.load(autoload=False).with_metrics(first)
        >>> registry.provider("first").name, "first" in registry.retrieval_metrics
        ('local', True)
        """
        return self.with_plugins(_MetricsPlugin(metrics), name=name)

    def derived(self, key: Hashable, build: Callable[[Registry], T]) -> T:
        """``build(self)``, computed once per registry and ``key``, then reused.

        For data other modules derive from a registry (the measure-name index): a registry
        never changes, so what is derived from it never goes stale.

        >>> registry = Registry.load(autoload=False)
        >>> registry.derived("count", lambda r: len(r.retrieval_metrics)) == len(
        ...     registry.retrieval_metrics)
        True
        """
        try:
            return self._derived[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        return self._derived.setdefault(key, build(self))  # type: ignore[no-any-return]

    @classmethod
    def from_plugin_manager(
        cls, pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo] | None = None
    ) -> Registry:
        """A registry of ``pm``'s plugins, which it collects one plugin at a time."""
        # A blocked name is listed with no plugin.
        listed = [(name, plugin) for name, plugin in pm.list_name_plugin() if plugin is not None]
        registry = cls(manager=pm, infos=FrozenDict(dict(infos or {})), objects=tuple(listed))
        for kind, (hook, _) in _KINDS.items():
            impls = getattr(pm.hook, hook).get_hookimpls()
            if any(not impl.plugin_name.startswith(_BUILTIN) for impl in impls):
                registry._kind(kind)
        return registry

    def _kind(self, kind: str, provides: str | None = None) -> _Collected:
        """The items of ``kind``, collected on first use (once, whichever thread asks); with
        ``provides`` (a class's name), only from the plugins that provide that class (a
        built-in's ``PROVIDES`` says which; any other plugin is asked)."""
        key = _key(kind, provides)
        collected = self._collected.get(key)
        if collected is not None:
            return collected
        with self._lock:
            if key not in self._collected:
                hook, names = _KINDS[kind]
                caller = getattr(self._manager.hook, hook)
                impls = [
                    impl
                    for impl in caller.get_hookimpls()
                    if provides is None or provides in getattr(impl.plugin, "PROVIDES", (provides,))
                ]
                # Built-ins say what they provide: where only they are called for one class,
                # the kind's other classes are not built (attrs compiles each one's methods).
                told = all(hasattr(impl.plugin, "PROVIDES") for impl in impls)
                wanted = (provides,) if provides is not None and told else names
                types = tuple(getattr(interfaces, name) for name in wanted)
                collector = _Collector(self._infos)
                self._collected[key] = collector.collect(kind, caller, types, impls, names)
            return self._collected[key]

    @property
    def plugins(self) -> tuple[PluginInfo, ...]:
        """Every loaded plugin, in registration order, with what it provides (this collects
        every kind)."""
        kinds = {kind: self._kind(kind) for kind in _KINDS}
        return tuple(
            attrs.evolve(
                self.plugin_info(name),
                provides={
                    kind: tuple(sorted(collected.provides[name]))
                    for kind, collected in kinds.items()
                    if name in collected.provides
                },
            )
            for name, _ in self._objects
        )

    def plugin_info(self, name: str) -> PluginInfo:
        """Where the plugin called ``name`` came from (its ``provides`` left empty: see
        :attr:`plugins`); ``UnknownNameError`` if no such plugin is loaded.

        >>> Registry.load(autoload=False).plugin_info("builtin.formats").distribution
        'ef-evaluation'
        """
        info = self._infos.get(name)
        if info is not None:
            return info
        if any(name == listed for listed, _ in self._objects):  # registered with no record
            return PluginInfo(name, None, None, name, builtin=False)
        raise UnknownNameError(f"no plugin {name!r} is loaded")

    @property
    def _metrics(self) -> Mapping[str, RetrievalMetric | RagMetric]:
        return self._kind("metric").items

    def _metrics_of(self, cls: str) -> _Collected:
        """The metrics of the class named ``cls``. Where only the built-ins provide metrics,
        only the built-in plugins that provide ``cls`` are called (their ``PROVIDES``):
        resolving a retrieval metric loads no RAG metric module, nor the other way round.
        Where a plugin provides metrics, every kind was collected as the registry was built,
        name clashes checked: its metrics of ``cls`` are those."""
        whole = self._collected.get("metric")
        return whole if whole is not None else self._kind("metric", provides=cls)

    @property
    def retrieval_metrics(self) -> Mapping[str, RetrievalMetric]:
        """Name to :class:`RetrievalMetric`, sorted by name."""
        return self._metrics_of("RetrievalMetric").sorted_view(RetrievalMetric)

    @property
    def rag_metrics(self) -> Mapping[str, RagMetric]:
        """Name to :class:`RagMetric`, sorted by name."""
        return self._metrics_of("RagMetric").sorted_view(interfaces.RagMetric)

    @property
    def formats(self) -> Mapping[str, DatasetFormat]:
        """Name to :class:`DatasetFormat`, sorted by name."""
        return self._kind("format").sorted_view(DatasetFormat)

    @property
    def formats_to_detect(self) -> tuple[DatasetFormat, ...]:
        """The formats in the order detection asks them: plugins' before the built-ins (the
        hook-call order), and the built-ins most specific first (BEIR, TREC, MS MARCO)."""
        return tuple(self._kind("format").items.values())

    @property
    def adapters(self) -> tuple[RetrieverAdapter, ...]:
        """The retriever adapters, in the order they are tried."""
        return tuple(self._kind("adapter").items.values())

    @property
    def fusion_methods(self) -> Mapping[str, FusionMethod]:
        """Name to :class:`FusionMethod`, sorted by name.

        >>> sorted(Registry.load(autoload=False).fusion_methods)[:8]
        ['anz', 'bayesfuse', 'bordafuse', 'condorcet', 'gmnz', 'isr', 'log_isr', 'logn_isr']
        """
        return self._kind("fusion").sorted_view(interfaces.FusionMethod)

    @property
    def nugget_assigners(self) -> Mapping[str, NuggetAssigner]:
        """Name to :class:`NuggetAssigner`, sorted by name.

        >>> list(Registry.load(autoload=False).nugget_assigners)
        ['lexical']
        """
        return self._kind("nugget_assigner").sorted_view(interfaces.NuggetAssigner)

    @property
    def claim_labelers(self) -> Mapping[str, ClaimLabeler]:
        """Name to :class:`ClaimLabeler`, sorted by name (the built-ins provide none)."""
        return self._kind("claim_labeler").sorted_view(interfaces.ClaimLabeler)

    def nugget_assigner(self, name: str) -> NuggetAssigner:
        """The nugget assigner called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("nugget assigner", name, self.nugget_assigners)

    def claim_labeler(self, name: str) -> ClaimLabeler:
        """The claim labeler called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("claim labeler", name, self.claim_labelers)

    def retrieval_metric(self, name: str) -> RetrievalMetric:
        """The retrieval metric called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("retrieval metric", name, self.retrieval_metrics)

    def rag_metric(self, name: str) -> RagMetric:
        """The RAG metric called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("RAG metric", name, self.rag_metrics)

    def format(self, name: str) -> DatasetFormat:
        """The dataset format called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("format", name, self.formats)

    def fusion_method(self, name: str) -> FusionMethod:
        """The fusion method called ``name``; ``UnknownNameError`` lists the valid ones."""
        return self._lookup("fusion method", name, self.fusion_methods)

    def provider(self, name: str, kind: str = "metric") -> PluginInfo:
        """The plugin that provides the ``kind`` item called ``name``, with everything it
        provides (which collects every kind: ``provider_name()`` does not)."""
        plugin = self.provider_name(name, kind)
        return next(info for info in self.plugins if info.name == plugin)

    def provider_name(self, name: str, kind: str = "metric") -> str:
        """The name of the plugin that provides the ``kind`` item called ``name``
        (:meth:`plugin_info` says where it came from).

        >>> Registry.load(autoload=False).provider_name("trec", "format")
        'builtin.formats'
        """
        if kind == "metric":  # the class already collected first: another's modules stay
            classes = sorted(_METRIC_CLASSES, key=self._not_collected)
            found = (self._metrics_of(cls).providers.get(name) for cls in classes)
            plugin = next((p for p in found if p is not None), None)
        else:
            plugin = self._kind(kind).providers.get(name) if kind in _KINDS else None
        if plugin is None:
            raise UnknownNameError(f"no loaded plugin provides the {kind} {name!r}")
        return plugin

    def _not_collected(self, cls: str) -> bool:
        return _key("metric", cls) not in self._collected

    def _lookup(self, what: str, name: str, valid: Mapping[str, Item]) -> Item:
        if name in valid:
            return valid[name]
        other = self._metrics.get(name)
        if other is not None:
            message = f"{name!r} is a {other.kind} metric, not a {what}."
        else:
            message = f"unknown {what} {name!r}."
            import difflib  # here: a misspelt name only

            close = difflib.get_close_matches(str(name), list(valid), n=3)
            if close:
                message = f"unknown {what} {name!r}; did you mean {' or '.join(map(repr, close))}?"
        names = ", ".join(valid) or "(none loaded)"
        raise UnknownNameError(f"{message} Valid {what}s: {names}.")


def _key(kind: str, provides: str | None) -> str:
    """Where the items of ``kind`` (of the class named ``provides`` only, if given) are kept."""
    return kind if provides is None else f"{kind}:{provides}"


def _way_out(kind: str, local: list[str], hint: str) -> str:
    """What to do about two plugins that provide one name: rename the ``kind`` of the last
    in-process plugin of ``local``, else uninstall one; or block one as ``hint`` says."""
    if local:
        way_out = f"Rename the {kind} of the in-process plugin {local[-1]!r}"
        return way_out + (f", or block {hint}." if hint else ".")
    return "Uninstall one" + (f", or block it with {hint}." if hint else ".")


class _Collector:
    """Calls each hook implementation on its own, so every item keeps its provenance."""

    def __init__(self, infos: Mapping[str, PluginInfo]) -> None:
        self._infos = infos

    def _describe(self, plugin: str) -> str:
        info = self._infos.get(plugin)
        return info.describe() if info else repr(plugin)

    def _clash(self, kind: str, name: str, *plugins: str) -> DuplicateNameError:
        # Built-ins first in the message, and never suggested for blocking.
        ordered = sorted(plugins, key=lambda p: not p.startswith("builtin."))
        # Only an installed plugin can be blocked by the variable (not a built-in, not one
        # registered in process).
        blockable = [p for p in ordered if not p.startswith("builtin.") and not self._in_process(p)]
        hint = " or ".join(f"{DISABLE_PLUGINS_ENV}={p}" for p in blockable)
        local = [p for p in ordered if self._in_process(p)]
        return DuplicateNameError(
            f"{kind} {name!r} is provided by two plugins: "
            f"{self._describe(ordered[0])} and {self._describe(ordered[1])}. "
            f"{_way_out(kind, local, hint)}"
        )

    def _in_process(self, plugin: str) -> bool:
        """Whether ``plugin`` was registered in process (no distribution installed it)."""
        return plugin in self._infos and self._infos[plugin].distribution is None

    def collect(
        self,
        kind: str,
        hook: pluggy.HookCaller,
        types: tuple[type, ...],
        impls: Sequence[pluggy.HookImpl],
        expected: Sequence[str],
    ) -> _Collected:
        """The items of ``kind`` from ``impls``, implementations of ``hook``: each one of
        ``types`` (an error names the classes ``expected`` of the kind)."""
        items: dict[str, Any] = {}
        providers: dict[str, str] = {}
        provides: dict[str, tuple[str, ...]] = {}
        # get_hookimpls() lists in reverse call order; pluggy calls the last one first
        # (tryfirst last, trylast first), and so do we.
        for impl in reversed(impls):
            for item in self._call(impl, hook.name, types, expected):
                if item.name in providers:
                    raise self._clash(kind, item.name, providers[item.name], impl.plugin_name)
                providers[item.name] = impl.plugin_name
                items[item.name] = item
                provides[impl.plugin_name] = (*provides.get(impl.plugin_name, ()), item.name)
        return _Collected(FrozenDict(items), FrozenDict(providers), FrozenDict(provides))

    def _call(
        self,
        impl: pluggy.HookImpl,
        hook_name: str,
        types: tuple[type, ...],
        expected: Sequence[str],
    ) -> Iterator[Any]:
        plugin = self._describe(impl.plugin_name)
        try:
            # The hooks take no arguments (pluggy rejects impls that ask for unknown ones).
            # A generator's code runs when it is listed: inside the try too.
            items = _as_list(impl.function(), types)
        except (Exception, SystemExit) as exc:  # a plugin cannot end the process
            what = (
                f"called sys.exit({exc.code!r}) in {hook_name}()"
                if isinstance(exc, SystemExit)
                else f"raised in {hook_name}(): {type(exc).__name__}: {exc}"
            )
            raise PluginError(f"plugin {plugin} {what}") from exc
        for item in items:
            if not isinstance(item, types):
                raise PluginError(
                    f"plugin {plugin} returned {item!r} from {hook_name}(); expected "
                    f"{' or '.join(expected)} objects (from ef.evaluation)."
                )
            yield item


def _as_list(result: object, types: tuple[type, ...]) -> Sequence[Any]:
    # One object or an iterable of them, as hatch's ClassRegister accepts.
    if result is None:
        return []
    if isinstance(result, types) or not isinstance(result, Iterable):
        return [result]
    return list(result)


class _MetricsPlugin:
    """The plugin of :meth:`Registry.with_metrics`: it provides the metrics it was given."""

    def __init__(self, metrics: Sequence[RetrievalMetric | RagMetric]) -> None:
        self.metrics = list(metrics)

    def __repr__(self) -> str:
        return f"<metrics {', '.join(m.name for m in self.metrics)}>"

    @hookimpl
    def ef_evaluation_metrics(self) -> list[RetrievalMetric | RagMetric]:
        return list(self.metrics)


def get_registry() -> Registry:
    """The default registry of the current environment, loaded on first use, then reused.

    ``import ef.evaluation`` loads no plugin; the first evaluation (or this call) does. The
    registry is cached per environment: what decides what it loads (the
    ``EF_EVALUATION_PLUGINS``, ``EF_EVALUATION_DISABLE_PLUGINS`` and
    ``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD`` variables, and ``sys.path`` with the modification
    time of each of its directories, where the installed distributions are found) is its key,
    so a change to any of them, such as a distribution installed in a ``sys.path`` directory,
    loads a fresh one. (Registries built by hand, ``Registry.load()``, are not cached.)
    """
    return _default_for(plugin_environment(), _path_state())


def _path_state() -> tuple[tuple[str, int | None], ...]:
    """Each ``sys.path`` entry and its modification time: adding a ``.dist-info`` directory to
    one changes it (importlib's own finders invalidate their caches the same way)."""
    state = []
    for entry in sys.path:
        try:
            mtime: int | None = os.stat(entry or ".").st_mtime_ns
        except (OSError, TypeError, ValueError):
            mtime = None
        state.append((entry, mtime))
    return tuple(state)


@functools.lru_cache(maxsize=8)
def _default_for(
    environment: tuple[tuple[str, str | None], ...], path: tuple[tuple[str, int | None], ...]
) -> Registry:
    # The arguments are the cache key only: Registry.load() reads them from the process.
    return Registry.load()


def list_plugins() -> list[PluginInfo]:
    """The loaded plugins, with their distribution, version and what each provides.

    >>> [p.name for p in list_plugins() if p.builtin]
    ['builtin.retrieval_metrics', 'builtin.rag_metrics', 'builtin.formats', 'builtin.adapters', \
'builtin.fusion']
    """
    return list(get_registry().plugins)


def registry_or_default(registry: Registry | None) -> Registry:
    """``registry``, or the default one for None; anything else is refused, naming
    ``registry=`` (a name such as ``"default"`` would fail later as a bare AttributeError).

    >>> registry_or_default(None) is get_registry()
    True
    >>> registry_or_default("default")
    Traceback (most recent call last):
        ...
    TypeError: registry= takes a Registry (get_registry(), or Registry.load() for a fresh \
one) or None for the default, got a str: 'default'
    """
    if registry is None:
        return get_registry()
    if not isinstance(registry, Registry):
        raise TypeError(
            "registry= takes a Registry (get_registry(), or Registry.load() for a fresh one) "
            f"or None for the default, got a {type(registry).__name__}: {reprlib.repr(registry)}"
        )
    return registry
