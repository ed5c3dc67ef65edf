"""Plugin discovery: the built-ins, then the ``ef_evaluation`` entry points.

Our own loop over ``importlib_metadata.entry_points`` replaces pluggy's
``load_setuptools_entrypoints`` so that a broken plugin fails with an error naming the entry
point, the distribution and its version, and saying how to disable it.

Order (documented in docs/plugins.md):

1. the names in ``disable`` and in ``EF_EVALUATION_DISABLE_PLUGINS`` are blocked;
2. the built-in plugins of :data:`BUILTIN_PLUGINS` are imported and registered;
3. unless autoload is off (``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD=1``), every entry point of
   the group ``ef_evaluation`` is loaded and registered under its entry-point name;
4. ``check_pending()`` rejects implementations of hooks that do not exist (a misspelt hook).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable

import attrs
import importlib_metadata
import pluggy

from .. import hookspecs
from .._version import __version__
from ..errors import PluginError, PluginLoadError

__all__ = [
    "BUILTIN_PLUGINS",
    "DISABLE_AUTOLOAD_ENV",
    "DISABLE_PLUGINS_ENV",
    "PluginInfo",
    "load_plugin_manager",
]

#: The built-in plugins, registered like third-party ones but imported by module path, so a
#: source checkout without installed metadata still has them (pytest's ``default_plugins``).
BUILTIN_PLUGINS: tuple[tuple[str, str], ...] = (
    ("builtin.retrieval_metrics", "ef.evaluation.default_plugins.retrieval_metrics"),
    ("builtin.rag_metrics", "ef.evaluation.default_plugins.rag_metrics"),
    ("builtin.formats", "ef.evaluation.default_plugins.formats"),
    ("builtin.adapters", "ef.evaluation.default_plugins.adapters"),
)

DISABLE_AUTOLOAD_ENV = "EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD"
DISABLE_PLUGINS_ENV = "EF_EVALUATION_DISABLE_PLUGINS"

_BUILTIN_PREFIX = "builtin."
_FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


@attrs.frozen
class PluginInfo:
    """Where a plugin came from, and what it provides.

    >>> from ef.evaluation import list_plugins
    >>> info = next(p for p in list_plugins() if p.name == "builtin.retrieval_metrics")
    >>> info.distribution, info.builtin, info.provides["metric"][:5]
    ('ef-evaluation', True, ('bpref', 'err', 'f1', 'hole', 'infap'))
    """

    #: The plugin name: the entry-point name, or ``builtin.*`` for the built-ins.
    name: str
    #: The distribution that ships it (``None`` for a plugin registered by hand).
    distribution: str | None
    version: str | None
    #: ``name = module:attr`` as declared, or the module path of a built-in.
    entry_point: str
    builtin: bool
    #: Item kind (``metric``, ``format``, ``adapter``) to the names this plugin provides.
    provides: dict[str, tuple[str, ...]] = attrs.field(factory=dict, eq=False)

    def describe(self) -> str:
        """``'name' (distribution version)``, as error messages show a plugin."""
        if self.distribution is None:
            return repr(self.name)
        return f"{self.name!r} ({self.distribution} {self.version})"


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in _FALSE_WORDS


def _env_list(name: str) -> set[str]:
    return {part.strip() for part in os.environ.get(name, "").split(",") if part.strip()}


def load_plugin_manager(
    *, autoload: bool | None = None, disable: Iterable[str] = ()
) -> tuple[pluggy.PluginManager, dict[str, PluginInfo]]:
    """Build a fresh plugin manager with the built-ins and the installed plugins.

    ``autoload=None`` reads ``EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD``; ``disable`` adds to the
    names in ``EF_EVALUATION_DISABLE_PLUGINS``. Returns the manager and, per registered
    plugin name, where it came from.
    """
    pm = pluggy.PluginManager(hookspecs.NAME)
    pm.add_hookspecs(hookspecs)
    blocked = _env_list(DISABLE_PLUGINS_ENV) | set(disable)
    for name in blocked:
        pm.set_blocked(name)
    if autoload is None:
        autoload = not _env_flag(DISABLE_AUTOLOAD_ENV)

    infos: dict[str, PluginInfo] = {}
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
    if autoload:
        for ep in importlib_metadata.entry_points(group=hookspecs.NAME):
            if ep.name in blocked:
                continue
            info = _entry_point_info(ep)
            _check_plugin_name(info, infos)
            plugin = _load_entry_point(ep, info)
            try:
                pm.register(plugin, name=ep.name)
            except ValueError as exc:  # the same module registered under two names
                raise PluginError(
                    f"plugin {info.describe()} could not be registered: {exc}"
                ) from exc
            infos[ep.name] = info
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        name = pm.get_name(exc.plugin) or repr(exc.plugin)
        culprit = infos[name].describe() if name in infos else repr(name)
        raise PluginError(
            f"plugin {culprit} implements a hook that does not exist: {exc}. "
            f"The hooks are: {', '.join(_hook_names())}."
        ) from exc
    return pm, infos


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
    except Exception as exc:
        where = (
            f"distribution {info.distribution} {info.version}"
            if info.distribution
            else "an unknown distribution"
        )
        raise PluginLoadError(
            f"plugin {info.name!r} (entry point '{info.entry_point}' in group "
            f"{hookspecs.NAME!r}, from {where}) failed to import: "
            f"{type(exc).__name__}: {exc}. To skip it, set {DISABLE_PLUGINS_ENV}={info.name}"
            f" (or {DISABLE_AUTOLOAD_ENV}=1 to load no third-party plugin), or uninstall "
            f"{info.distribution or 'it'}."
        ) from exc
