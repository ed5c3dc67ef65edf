"""ef.evaluation.testing: light to import, make_dist, the fixture, registry_with, re-exports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import ef.evaluation.testing as kit
from ef.evaluation import Registry, RetrievalMetric, get_registry, hookimpl
from ef.evaluation.testing import make_dist, registry_with


def test_importing_the_kit_loads_neither_numpy_nor_pytest() -> None:
    code = (
        "import json, sys; import ef.evaluation.testing; import ef.evaluation.interfaces;"
        "print(json.dumps(sorted(m for m in ('numpy', 'pytest', 'hypothesis') if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert json.loads(out.stdout) == []


def test_judged_hits_is_reexported_where_plugin_authors_look() -> None:
    from ef.evaluation import interfaces
    from ef.evaluation._hits import JudgedHits

    assert kit.JudgedHits is JudgedHits
    assert interfaces.JudgedHits is JudgedHits
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        interfaces.Nope  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        kit.Nope  # noqa: B018


PLUGIN = """
from ef.evaluation import RetrievalMetric, hookimpl

@hookimpl
def ef_evaluation_metrics():
    return RetrievalMetric(name="{name}", func=lambda ranked, relevant, k: 0.25)
"""


def test_make_dist_installs_a_plugin_that_discovery_finds(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # make_dist puts the site first
    monkeypatch.delitem(sys.modules, "plain_mod", raising=False)
    info = make_dist(
        tmp_path / "site",
        "ef-evaluation-plain",
        "0.3",
        {"plain": "plain_mod"},
        {"plain_mod": PLUGIN.format(name="plain_metric")},
    )
    assert info.name == "ef_evaluation_plain-0.3.dist-info"
    assert (info / "entry_points.txt").read_text() == "[ef_evaluation]\nplain = plain_mod\n"
    assert sys.path[0] == str(tmp_path / "site")
    registry = Registry.load()
    assert registry.provider("plain_metric").distribution == "ef-evaluation-plain"
    assert "plain_metric" in get_registry().retrieval_metrics
    sys.modules.pop("plain_mod", None)


def test_the_fixture_undoes_itself(ef_make_dist) -> None:
    info = ef_make_dist(
        "ef-evaluation-fix",
        "1.0",
        {"fix": "fix_mod"},
        {"fix_mod": PLUGIN.format(name="fix_metric")},
    )
    assert str(info.parent) in sys.path
    assert Registry.load().provider("fix_metric").name == "fix"


def test_after_the_fixture_the_plugin_is_gone() -> None:
    assert "fix_metric" not in get_registry().retrieval_metrics
    assert "fix_mod" not in sys.modules


def test_registry_with_metrics_and_plugins() -> None:
    first = RetrievalMetric(name="first", func=lambda ranked, rel, k: 1.0)
    registry = registry_with(first)
    assert registry.provider("first").name == "test"
    assert {p.name for p in registry.plugins if p.builtin} == {
        "builtin.retrieval_metrics", "builtin.rag_metrics", "builtin.formats", "builtin.adapters",
        "builtin.fusion",
    }  # fmt: skip
    assert not [p for p in registry.plugins if not p.builtin and p.name != "test"]

    class Plugin:
        @hookimpl
        def ef_evaluation_metrics(self):
            return [RetrievalMetric(name="second", func=lambda ranked, rel, k: 0.0)]

    both = registry_with(first, Plugin(), plugin="mine")
    assert both.provider("first").name == "mine"
    assert both.provider("second").name.endswith("Plugin")
    assert registry_with(Plugin(), plugin="solo").provider("second").name == "solo"
    assert (
        registry_with().retrieval_metrics.keys()
        == Registry.load(autoload=False).retrieval_metrics.keys()
    )
