"""Plugin discovery: the built-ins, then the ``ef_evaluation`` entry points.

Our own loop over ``importlib_metadata.entry_points`` replaces pluggy's
``load_setuptools_entrypoints`` so that a broken plugin fails with an error naming the entry
point, the distribution and its version, and saying how to disable it.

Order (documented in docs/plugins.md):

1. the names in ``disable`` and in ``EF_EVALUATION_DISABLE_PLUGINS`` are blocked;
2. the built-in plugins of :data:`BUILTIN_PLUGINS` are imported and registered;
3. unless autoload is off (``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD=1``), the entry points of
   the group ``ef_evaluation`` are loaded and registered under their entry-point names: all
   of them, or only those the allow-list (``allow``, else ``EF_EVALUATION_PLUGINS``) names by
   entry-point or distribution name;
4. the in-process plugins (``plugins``) are registered under their names;
5. ``check_pending()`` rejects implementations of hooks that do not exist (a misspelt hook).

Precedence: autoload off loads no third-party plugin whatever the allow-list says; a blocked
name stays blocked even when the allow-list names it.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING

import attrs
import pluggy

from .. import hookspecs
from .._version import __version__
from ..errors import PluginError, PluginLoadError
from ..types import FrozenDict
from .metadata_scan import may_declare

if TYPE_CHECKING:
    import importlib_metadata

__all__ = [
    "BUILTIN_PLUGINS",
    "DISABLE_AUTOLOAD_ENV",
    "DISABLE_PLUGINS_ENV",
    "PLUGINS_ENV",
    "PluginInfo",
    "check_pending",
    "group_entry_points",
    "load_plugin_manager",
    "named_plugins",
    "new_plugin_manager",
    "plugin_environment",
    "register_in_process",
]

#: The built-in plugins, registered like third-party ones but imported by module path, so a
#: source checkout without installed metadata still has them (pytest's ``default_plugins``).
BUILTIN_PLUGINS: tuple[tuple[str, str], ...] = (
    ("builtin.retrieval_metrics", "ef.evaluation._default_plugins.retrieval_metrics"),
    ("builtin.rag_metrics", "ef.evaluation._default_plugins.rag_metrics"),
    ("builtin.formats", "ef.evaluation._default_plugins.formats"),
    ("builtin.adapters", "ef.evaluation._default_plugins.adapters"),
    ("builtin.fusion", "ef.evaluation._default_plugins.fusion"),
)

DISABLE_AUTOLOAD_ENV = "EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD"
DISABLE_PLUGINS_ENV = "EF_EVALUATION_DISABLE_PLUGINS"
#: The allow-list: when set, only the installed plugins it names load (empty: none).
PLUGINS_ENV = "EF_EVALUATION_PLUGINS"
#: Every variable that decides what a registry loads (the default registry's cache key).
PLUGIN_ENVS = (PLUGINS_ENV, DISABLE_PLUGINS_ENV, DISABLE_AUTOLOAD_ENV)

#: What ``plugins=`` accepts: plugin objects (names derived), or plugin name -> object.
InProcessPlugins = Iterable[object] | Mapping[str, object]

_BUILTIN_PREFIX = "builtin."
_FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


def _read_only(value: Mapping[str, tuple[str, ...]]) -> Mapping[str, tuple[str, ...]]:
    return FrozenDict(dict(value))


@attrs.frozen
class PluginInfo:
    """Where a plugin came from, and what it provides.

    >>> from ef.evaluation import list_plugins
    >>> info = next(p for p in list_plugins() if p.name == "builtin.retrieval_metrics")
    >>> info.distribution, info.builtin, info.provides["metric"][:5]
    ('ef-evaluation', True, ('binary_gain', 'bpref', 'dcg', 'err', 'f1'))
    """

    #: The plugin name: the entry-point name, or ``builtin.*`` for the built-ins.
    name: str
    #: The distribution that ships it (``None`` for a plugin registered by hand).
    distribution: str | None
    version: str | None
    #: ``name = module:attr`` as declared, or the module path of a built-in.
    entry_point: str
    builtin: bool
    #: Item kind (``metric``, ``format``, ``adapter``) to the names this plugin provides
    #: (read-only: a ``MappingProxyType``, the registry's one idiom for frozen mappings).
    provides: Mapping[str, tuple[str, ...]] = attrs.field(
        factory=dict, eq=False, converter=_read_only
    )

    def describe(self) -> str:
        """``'name' (distribution version)``, as error messages show a plugin."""
        if self.distribution is None:
            return repr(self.name)
        return f"{self.name!r} ({self.distribution} {self.version})"


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in _FALSE_WORDS


def _names(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


def env_list(name: str) -> set[str]:
    return _names(os.environ.get(name, ""))


def plugin_environment() -> tuple[tuple[str, str | None], ...]:
    """The ``EF_EVALUATION_*`` plugin variables as they are now (unset is ``None``)."""
    return tuple((name, os.environ.get(name)) for name in PLUGIN_ENVS)


def _normalized(name: str) -> str:
    # PEP 503: distribution names compare case-insensitively, runs of -_. as one '-'.
    return re.sub(r"[-_.]+", "-", name).lower()


def load_plugin_manager(
    *,
    autoload: bool | None = None,
    disable: Iterable[str] = (),
    allow: Iterable[str] | None = None,
    plugins: InProcessPlugins = (),
) -> tuple[pluggy.PluginManager, dict[str, PluginInfo]]:
    """Build a fresh plugin manager with the built-ins and the installed plugins.

    ``autoload=None`` reads ``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD``; ``disable`` adds to the
    names in ``EF_EVALUATION_DISABLE_PLUGINS``. ``allow=None`` reads ``EF_EVALUATION_PLUGINS``
    (unset: every installed plugin); otherwise only the entry points named there, by
    entry-point or distribution name, load. ``plugins`` are registered in process, beside
    them. Returns the manager and, per registered plugin name, where it came from.
    """
    pm = new_plugin_manager()
    blocked = env_list(DISABLE_PLUGINS_ENV) | set(disable)
    for name in blocked:
        pm.set_blocked(name)
    if autoload is None:
        autoload = not _env_flag(DISABLE_AUTOLOAD_ENV)
    if allow is None and os.environ.get(PLUGINS_ENV) is not None:
        allow = env_list(PLUGINS_ENV)

    infos: dict[str, PluginInfo] = {}
    _register_builtins(pm, infos, blocked)
    if autoload:
        _register_installed(pm, infos, blocked, allow)
    register_in_process(pm, _named(plugins), infos, blocked)
    check_pending(pm, infos)
    return pm, infos


def _register_builtins(
    pm: pluggy.PluginManager, infos: dict[str, PluginInfo], blocked: set[str]
) -> None:
    """Register the built-in plugins not ``blocked`` in ``pm``, recorded in ``infos``."""
    for name, module_path in BUILTIN_PLUGINS:
        if name in blocked:
            continue
        pm.register(importlib.import_module(module_path), name=name)
        infos[name] = PluginInfo(
            name=name,
            distribution="ef-evaluation",
            version=__version__,
            entry_point=module_path,
            builtin=True,
        )


def _register_installed(
    pm: pluggy.PluginManager,
    infos: dict[str, PluginInfo],
    blocked: set[str],
    allow: Iterable[str] | None,
) -> None:
    """Load and register the installed plugins (entry points) not ``blocked`` that ``allow``
    lets load, recorded in ``infos``."""
    entry_points = group_entry_points()
    wanted = _allowed(entry_points, allow)
    for ep in entry_points:
        if ep.name in blocked or not wanted(ep):
            continue
        info = _entry_point_info(ep)
        _check_plugin_name(info, infos)
        plugin = _load_entry_point(ep, info)
        try:
            pm.register(plugin, name=ep.name)
        # The same module registered under two names (ValueError), or plugin code run
        # while pluggy reads its attributes.
        except (Exception, SystemExit) as exc:
            raise PluginError(
                f"plugin {info.describe()} could not be registered: {_what(exc)}"
            ) from exc
        infos[ep.name] = info


def group_entry_points() -> list[importlib_metadata.EntryPoint]:
    """The installed entry points of the ``ef_evaluation`` group, as
    ``importlib_metadata.entry_points(group=...)`` gives them.

    Importing importlib-metadata and parsing every distribution's ``entry_points.txt`` costs
    several milliseconds of every command, and most installs have no plugin: where no
    distribution's file holds the group's section line (:func:`may_declare`), there is none,
    and importlib-metadata is not imported. ef-evaluation's own file names ``ef_evaluation``
    too, as its pytest plugin, not as a section.
    """
    if not may_declare(hookspecs.NAME):
        return []
    import importlib_metadata

    return list(importlib_metadata.entry_points(group=hookspecs.NAME))


def register_in_process(
    pm: pluggy.PluginManager,
    plugins: Iterable[tuple[str, object]],
    infos: dict[str, PluginInfo],
    blocked: Iterable[str] = (),
) -> None:
    """Register ``(name, plugin)`` pairs in ``pm`` and record them in ``infos``."""
    blocked = set(blocked)
    for name, plugin in plugins:
        if name in blocked:
            continue
        if name.startswith(_BUILTIN_PREFIX) or name in infos:
            why = (
                f"uses the reserved prefix {_BUILTIN_PREFIX!r}"
                if name.startswith(_BUILTIN_PREFIX)
                else f"has the name of the plugin {infos[name].describe()}"
            )
            raise PluginError(
                f"the in-process plugin {name!r} {why}; name it differently, e.g. "
                "plugins={'mine': plugin} or name='mine'."
            )
        try:
            pm.register(plugin, name=name)
        except ValueError as exc:  # the same object registered twice
            raise PluginError(f"plugin {name!r} could not be registered: {exc}") from exc
        infos[name] = PluginInfo(
            name=name,
            distribution=None,
            version=None,
            entry_point=f"in process: {_where(plugin)}",
            builtin=False,
        )


def check_pending(pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo]) -> None:
    """Reject implementations of hooks that do not exist, naming the plugin."""
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        name = pm.get_name(exc.plugin) or repr(exc.plugin)
        culprit = infos[name].describe() if name in infos else repr(name)
        raise PluginError(
            f"plugin {culprit} implements a hook that does not exist: {exc}. "
            f"The hooks are: {', '.join(_hook_names())}."
        ) from exc


def new_plugin_manager() -> pluggy.PluginManager:
    """An empty plugin manager with ef-evaluation's hook specifications."""
    pm = pluggy.PluginManager(hookspecs.NAME)
    pm.add_hookspecs(hookspecs)
    return pm


def named_plugins(plugins: InProcessPlugins) -> list[tuple[str, object]]:
    """``(name, plugin)`` pairs: a mapping's own names, else a name derived from each."""
    return _named(plugins)


def _allowed(
    entry_points: list[importlib_metadata.EntryPoint], allow: Iterable[str] | None
) -> Callable[[importlib_metadata.EntryPoint], bool]:
    """Whether the allow-list lets an entry point load; an unknown name is an error."""
    if allow is None:
        return lambda ep: True
    names = {name.strip() for name in allow if name.strip()}
    by_dist = {_normalized(n) for n in names}

    def wanted(ep: importlib_metadata.EntryPoint) -> bool:
        return ep.name in names or _dist_name(ep) in by_dist

    _refuse_not_installed(names, entry_points)
    return wanted


def _dist_name(ep: importlib_metadata.EntryPoint) -> str | None:
    """The normalized name of the distribution that declares ``ep``; None for metadata
    without a name."""
    name = ep.dist.metadata["Name"] if ep.dist is not None else None
    return _normalized(name) if name else None


def _installed_names(entry_points: list[importlib_metadata.EntryPoint]) -> set[str]:
    """The names an allow-list may give: each entry point's, and its distribution's."""
    return {ep.name for ep in entry_points} | {
        name for ep in entry_points if (name := _dist_name(ep)) is not None
    }


def _refuse_not_installed(
    names: set[str], entry_points: list[importlib_metadata.EntryPoint]
) -> None:
    """Refuse allow-list ``names`` that are neither an entry point's nor its distribution's."""
    known = _installed_names(entry_points)
    unknown = sorted(n for n in names if n not in known and _normalized(n) not in known)
    if unknown:
        installed = ", ".join(sorted(f"{_entry_point_info(ep).describe()}" for ep in entry_points))
        raise PluginError(
            f"{PLUGINS_ENV} names {', '.join(map(repr, unknown))}, which "
            f"{'is' if len(unknown) == 1 else 'are'} not installed (neither an entry-point "
            f"name of the group {hookspecs.NAME!r} nor a distribution that declares one). "
            f"Installed plugins: {installed or '(none)'}."
        )


def _named(plugins: InProcessPlugins) -> list[tuple[str, object]]:
    """``(name, plugin)`` pairs: a mapping's own names, else a name derived from each."""
    if isinstance(plugins, Mapping):
        return [(str(name), plugin) for name, plugin in plugins.items()]
    named: list[tuple[str, object]] = []
    for plugin in plugins:
        name = _derived_name(plugin)
        if any(name == other for other, _ in named):
            raise PluginError(
                f"two in-process plugins would both be named {name!r}; pass them as a "
                "mapping {name: plugin} to name them"
            )
        named.append((name, plugin))
    return named


def _derived_name(plugin: object) -> str:
    """A module's name; a class's or a function's qualified name; else its class's name."""
    if isinstance(plugin, ModuleType):
        return plugin.__name__
    name = getattr(plugin, "__qualname__", None) or type(plugin).__qualname__
    module = getattr(plugin, "__module__", None) or type(plugin).__module__
    return f"{module}.{name}" if module not in (None, "builtins") else str(name)


def _where(plugin: object) -> str:
    if isinstance(plugin, ModuleType):
        return plugin.__name__
    return _derived_name(plugin) if isinstance(plugin, type) else repr(plugin)


def _hook_names() -> list[str]:
    return sorted(n for n in vars(hookspecs) if n.startswith(f"{hookspecs.NAME}_"))


def _entry_point_info(ep: importlib_metadata.EntryPoint) -> PluginInfo:
    dist = ep.dist
    return PluginInfo(
        name=ep.name,
        distribution=dist.metadata["Name"] if dist is not None else None,
        version=dist.version if dist is not None else None,
        entry_point=f"{ep.name} = {ep.value}",
        builtin=False,
    )


def _check_plugin_name(info: PluginInfo, registered: dict[str, PluginInfo]) -> None:
    if info.name.startswith(_BUILTIN_PREFIX):
        raise PluginError(
            f"plugin {info.describe()} uses the reserved prefix {_BUILTIN_PREFIX!r} in its "
            f"entry-point name; rename the entry point in the [project.entry-points."
            f"{hookspecs.NAME}] table of its pyproject.toml."
        )
    if info.name in registered:
        raise PluginError(
            f"two installed distributions declare the plugin {info.name!r}: "
            f"{registered[info.name].describe()} and {info.describe()}. Uninstall one, or set "
            f"{DISABLE_PLUGINS_ENV}={info.name} to load neither."
        )


def _load_entry_point(ep: importlib_metadata.EntryPoint, info: PluginInfo) -> object:
    try:
        return ep.load()
    except (Exception, SystemExit) as exc:  # a plugin cannot end the process; Ctrl-C can
        where = (
            f"distribution {info.distribution} {info.version}"
            if info.distribution
            else "an unknown distribution"
        )
        raise PluginLoadError(
            f"plugin {info.name!r} (entry point '{info.entry_point}' in group "
            f"{hookspecs.NAME!r}, from {where}) failed to import: "
            f"{_what(exc)}. To skip it, set {DISABLE_PLUGINS_ENV}={info.name}"
            f" (or {DISABLE_AUTOLOAD_ENV}=1 to load no third-party plugin), or uninstall "
            f"{info.distribution or 'it'}."
        ) from exc


def _what(exc: BaseException) -> str:
    """What went wrong, for a message: the exception, or the sys.exit() call."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    return f"{type(exc).__name__}: {exc}"
