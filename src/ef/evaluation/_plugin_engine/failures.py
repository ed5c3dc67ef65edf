"""What a plugin raises becomes a :class:`~ef.evaluation.PluginError` naming the plugin.

DESIGN §6: anything a plugin raises, ``SystemExit`` included, becomes a ``PluginError`` that
names the plugin, its distribution and version, the item (metric, format, adapter) and, where
there is one, the query or sample. ``KeyboardInterrupt`` is let through: Ctrl-C still stops.

Two kinds of exception are left as they are:

* our own documented errors (any :class:`~ef.evaluation.EvaluationError`, such as a
  ``DatasetFormatError`` naming the file and line): they already say what is wrong with the
  input, and a plugin may raise them on purpose;
* anything a built-in plugin raises: a built-in's error is ours, either a documented error
  for bad input or a bug that should surface as one, never blamed on a "plugin".
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..errors import EvaluationError, PluginError, UnknownNameError
from .loading import DISABLE_PLUGINS_ENV, PluginInfo
from .registry import Registry

__all__ = [
    "PLUGIN_FAILURES",
    "describe_item",
    "owner_of",
    "plugin_call",
    "plugin_failure",
    "provider_of",
]

#: What a plugin call may raise that is turned into a PluginError (never KeyboardInterrupt).
PLUGIN_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)


def provider_of(registry: Registry | None, kind: str, name: str) -> PluginInfo | None:
    """The plugin that provides the ``kind`` item ``name``, or ``None`` when it is unknown."""
    if registry is None:
        return None
    try:
        return registry.provider(name, kind)
    except UnknownNameError:
        return None


def owner_of(registry: Registry | None, kind: str, name: str) -> str:
    """``plugin 'p' (dist 1.0)``: how messages name the plugin of an item."""
    info = provider_of(registry, kind, name)
    return "an unknown plugin" if info is None else f"plugin {info.describe()}"


def describe_item(registry: Registry | None, kind: str, name: str) -> str:
    """``metric 'x' of plugin 'p' (dist 1.0)``: how messages name an item and its provider."""
    info = provider_of(registry, kind, name)
    if info is None:
        return f"{kind} {name!r} (from an unknown plugin)"
    return f"{kind} {name!r} of plugin {info.describe()}"


def plugin_failure(
    exc: BaseException,
    registry: Registry | None,
    kind: str,
    name: str,
    action: str,
    *,
    where: str = "",
) -> PluginError | None:
    """The ``PluginError`` to raise for ``exc``, or ``None`` to let ``exc`` through.

    ``action`` says what was called (``"its batch form"``, ``"read_run"``); ``where`` names
    the query, sample or file (``"query 'q1'"``).

    >>> from ef.evaluation import Registry
    >>> registry = Registry.load(autoload=False)
    >>> plugin_failure(RuntimeError("boom"), registry, "metric", "ndcg", "its batch form") is None
    True
    >>> str(plugin_failure(SystemExit(0), None, "metric", "mine", "its func", where="query 'q1'"))
    "metric 'mine' (from an unknown plugin) called sys.exit(0) in its func, on query 'q1'"
    """
    if isinstance(exc, EvaluationError):
        return None
    info = provider_of(registry, kind, name)
    if info is not None and info.builtin and not isinstance(exc, SystemExit):
        return None
    what = (
        f"called sys.exit({exc.code!r})"
        if isinstance(exc, SystemExit)
        else f"raised {type(exc).__name__}: {exc}"
    )
    text = f"{describe_item(registry, kind, name)} {what} in {action}"
    if where:
        text += f", on {where}"
    if info is not None and info.distribution is not None and not info.builtin:
        text += f". To skip the plugin, set {DISABLE_PLUGINS_ENV}={info.name}"
    return PluginError(text)


@contextlib.contextmanager
def plugin_call(
    registry: Registry | None, kind: str, name: str, action: str, where: str = ""
) -> Iterator[None]:
    """Run the block, turning what the item's plugin raises into a ``PluginError``.

    Put it around a whole batch call, not each query: it costs one ``try`` per block.

    >>> with plugin_call(None, "format", "mine", "read_run"):  # doctest: +ELLIPSIS
    ...     raise SystemExit(3)
    Traceback (most recent call last):
    ...
    ef.evaluation.PluginError: format 'mine' (from an unknown plugin) called sys.exit(3) in ...
    """
    try:
        yield
    except PLUGIN_FAILURES as exc:
        error = plugin_failure(exc, registry, kind, name, action, where=where)
        if error is None:
            raise
        raise error from exc
