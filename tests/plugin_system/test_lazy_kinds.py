"""The built-ins load per kind: a registry collects a kind the first time it is asked for."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ef.evaluation import DuplicateNameError, FusionMethod, Registry, hookimpl


def _loaded_after(code: str) -> set[str]:
    probe = f"{code}; import json, sys; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return {m for m in json.loads(out.stdout) if m.startswith("ef.evaluation.")}


def _under(loaded: set[str], *packages: str) -> list[str]:
    return sorted(m for m in loaded if m.startswith(tuple(f"ef.evaluation.{p}." for p in packages)))


def test_resolving_a_metric_imports_no_format_fusion_or_adapter() -> None:
    loaded = _loaded_after(
        "from ef.evaluation import get_registry; get_registry().retrieval_metric('ndcg')"
    )
    assert "ef.evaluation.metrics.retrieval.ndcg" in loaded
    assert _under(loaded, "formats", "fusion", "adapters") == []


def test_a_format_imports_no_metric_fusion_or_adapter() -> None:
    loaded = _loaded_after("from ef.evaluation import get_registry; get_registry().format('trec')")
    assert "ef.evaluation._formats.trec" in loaded
    assert _under(loaded, "metrics", "fusion", "adapters") == []


def test_building_the_registry_imports_no_item() -> None:
    loaded = _loaded_after("from ef.evaluation import get_registry; get_registry()")
    assert _under(loaded, "metrics", "formats", "fusion", "adapters") == []


def test_plugins_lists_every_kind_of_a_lazy_registry() -> None:
    registry = Registry.load(autoload=False)
    provides = {info.name: info.provides for info in registry.plugins}
    assert "ndcg" in provides["builtin.retrieval_metrics"]["metric"]
    assert "trec" in provides["builtin.formats"]["format"]
    assert "rrf" in provides["builtin.fusion"]["fusion"]
    assert "callable" in provides["builtin.adapters"]["adapter"]
    assert registry.provider("rrf", "fusion").provides == provides["builtin.fusion"]


def test_a_kind_a_plugin_provides_is_collected_where_the_registry_is_built() -> None:
    # The clash between the plugin's "rrf" and the built-in one is found by load(), not at
    # the first fusion: a plugin's errors surface where they did before.
    class Plugin:
        @hookimpl
        def ef_evaluation_fusion_methods(self) -> list[FusionMethod]:
            return [FusionMethod(name="rrf", func=lambda rankings: {})]

    with pytest.raises(DuplicateNameError, match="fusion 'rrf' is provided by two plugins"):
        Registry.load(autoload=False, plugins={"mine": Plugin()})


def test_an_unknown_plugin_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no plugin 'nope' is loaded"):
        Registry.load(autoload=False).plugin_info("nope")
