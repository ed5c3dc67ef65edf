"""pytest fixtures for plugin tests.

Enable them in a test suite's top-level ``conftest.py`` (or a test module) with
``pytest_plugins = ["ef.evaluation.testing.fixtures"]``.

``ef_make_dist(name, version, entry_points, modules)`` installs a throwaway plugin
distribution (:func:`ef.evaluation.testing.make_dist`) in the test's ``tmp_path``; the
directory leaves ``sys.path`` and the modules leave ``sys.modules`` after the test.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from .dists import make_dist

__all__ = ["MakeDist", "ef_make_dist"]

MakeDist = Callable[..., Path]


@pytest.fixture
def ef_make_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDist]:
    """Install a fake distribution: real ``.dist-info`` metadata on ``sys.path``.

    ``ef_make_dist("ef-evaluation-foo", "0.2.0", {"foo": "foo_mod"}, {"foo_mod": "code"})``
    writes ``foo_mod.py`` and ``ef_evaluation_foo-0.2.0.dist-info`` with the entry points, so
    discovery goes through importlib-metadata exactly as for a pip-installed plugin. The
    default registry (``get_registry()``) sees it too: it is cached per state of ``sys.path``.
    After the test, the directory leaves ``sys.path`` and the modules ``sys.modules``.
    """
    site = tmp_path / "ef-site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    written: list[str] = []

    def make(
        name: str,
        version: str,
        entry_points: Mapping[str, str],
        modules: Mapping[str, str] | None = None,
    ) -> Path:
        for module in modules or {}:
            monkeypatch.delitem(sys.modules, module, raising=False)
            written.append(module)
        return make_dist(site, name, version, entry_points, modules)

    yield make
    for module in written:
        sys.modules.pop(module, None)
