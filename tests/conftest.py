"""Shared fixtures: the shared data folder, fresh registries, and fake plugin distributions."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from ef.evaluation import Registry
from ef.evaluation.plugin_engine.registry import _reset_default_registry

# No test may depend on timing: no per-example deadline. On CI, the same examples every run.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Haystack's usage telemetry stays off (it would only send from pipelines; tests stay offline).
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")

#: ../shared beside the checkout (CI lays it there), or EF_EVALUATION_SHARED.
SHARED = Path(os.environ.get("EF_EVALUATION_SHARED", Path(__file__).parents[2] / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or a skip naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared data folder is not beside this checkout")
    return path


@pytest.fixture
def builtin_registry() -> Registry:
    """The built-in plugins only: what a test sees does not depend on what is installed."""
    return Registry.load(autoload=False)


@pytest.fixture(autouse=True)
def _fresh_default_registry() -> Iterator[None]:
    # Tests that install plugins or set env vars must not leak a cached default registry.
    _reset_default_registry()
    yield
    _reset_default_registry()


MakeDist = Callable[..., Path]


@pytest.fixture
def make_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MakeDist:
    """Install a fake distribution: real ``.dist-info`` metadata on ``sys.path``.

    ``make_dist("ef-evaluation-foo", "0.2.0", {"foo": "foo_mod"}, {"foo_mod": "code"})``
    writes ``foo_mod.py`` and ``ef_evaluation_foo-0.2.0.dist-info`` with the entry points, so
    discovery goes through importlib-metadata exactly as for a pip-installed plugin.
    """
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))

    def make(
        name: str, version: str, entry_points: dict[str, str], modules: dict[str, str]
    ) -> Path:
        for module, code in modules.items():
            (site / f"{module}.py").write_text(textwrap.dedent(code))
            monkeypatch.delitem(__import__("sys").modules, module, raising=False)
        info = site / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        lines = "".join(f"{ep} = {target}\n" for ep, target in entry_points.items())
        (info / "entry_points.txt").write_text(f"[ef_evaluation]\n{lines}")
        return info

    return make
