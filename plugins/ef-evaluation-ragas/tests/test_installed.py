"""The plugin is found through its entry point, and nothing imports Ragas before it is used."""

from __future__ import annotations

import json
import subprocess
import sys

from ef.evaluation import Registry, list_plugins


def test_the_plugin_is_registered_through_its_entry_point() -> None:
    info = next(p for p in list_plugins() if p.name == "ragas")
    assert info.distribution == "ef-evaluation-ragas"
    assert info.entry_point == "ragas = ef_evaluation_ragas"
    assert not info.builtin
    assert len(info.provides["metric"]) == 10
    assert all(name.startswith("ragas.") for name in info.provides["metric"])


def test_it_can_be_disabled_by_name() -> None:
    registry = Registry.load(disable=["ragas"])
    assert not [name for name in registry.rag_metrics if name.startswith("ragas.")]


def test_loading_the_plugin_does_not_import_ragas() -> None:
    code = (
        "import json, sys; import ef_evaluation_ragas; from ef.evaluation import Registry;"
        "r = Registry.load(); names = sorted(r.rag_metrics);"
        "print(json.dumps({'ragas': 'ragas' in sys.modules, 'names': names}))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    state = json.loads(out.stdout)
    assert state["ragas"] is False
    assert "ragas.bleu" in state["names"]
