"""The example plugin of docs/plugins.md, installed for real with pip and used by name.

pip builds the wheel offline with the hatchling of this environment (``--no-build-isolation
--no-index --no-deps``) into a private target directory; a fresh interpreter with that
directory on its path then finds the plugin through its entry point, as a user's would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).parents[1] / "docs" / "examples" / "ef-evaluation-hits"

SCRIPT = textwrap.dedent(
    """
    import json
    from ef.evaluation import RETRIEVAL_METRICS, evaluate_rag, evaluate_retrieval, list_plugins

    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    queries = {"q1": "one", "q2": "two"}
    runs = {"one": ["x", "d1"], "two": ["x", "y"]}
    report = evaluate_retrieval(lambda q, *, limit: runs[q][:limit], qrels, queries,
                                k_values=(1, 2), metrics=("ndcg", "hits"))
    rag = evaluate_rag([{"response": "Paris, France"}, {}], metrics=("answer_length",))
    plugin = next(p for p in list_plugins() if p.name == "hits")
    print(json.dumps({
        "metrics": dict(report.metrics),
        "answer_length": rag.metrics["answer_length"],
        "coverage": rag.coverage["answer_length"],
        "hits_function": RETRIEVAL_METRICS["hits"].__module__,
        "plugin": [plugin.distribution, plugin.version, plugin.entry_point],
    }))
    """
)


@pytest.fixture(scope="module")
def installed_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling", reason="hatchling (a test dependency) builds the example")
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index",
         "--no-deps", "--target", str(target), str(EXAMPLE)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert list(target.glob("ef_evaluation_hits-1.0.0.dist-info/entry_points.txt"))
    return target


def env_with(site: Path) -> dict[str, str]:
    """The environment of a fresh interpreter that finds the plugins installed in ``site``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    env.pop("EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD", None)
    env.pop("EF_EVALUATION_DISABLE_PLUGINS", None)
    env.pop("EF_EVALUATION_PLUGINS", None)
    return env


def run_with(site: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], check=True, capture_output=True, text=True,
        env=env_with(site),
    )  # fmt: skip
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_example_plugin_is_found_through_its_entry_point(installed_example: Path) -> None:
    result = run_with(installed_example)
    assert result["metrics"] == {
        "ndcg@1": 0.0,
        "ndcg@2": pytest.approx(0.5 * (1 / 1.584962500721156)),
        "hits@1": 0.0,
        "hits@2": 0.5,
    }
    assert result["answer_length"] == 2.0
    assert result["coverage"] == 1
    assert result["hits_function"] == "ef_evaluation_hits"
    assert result["plugin"] == ["ef-evaluation-hits", "1.0.0", "hits = ef_evaluation_hits"]


def test_without_the_plugin_hits_is_an_unknown_metric(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], check=False, capture_output=True, text=True, env=env
    )
    assert out.returncode == 1
    assert "unknown retrieval metric 'hits'" in out.stderr


def test_the_example_plugins_own_tests_pass(installed_example: Path, tmp_path: Path) -> None:
    # The plugin's tests/ (written with ef.evaluation.testing), run as its author runs them:
    # its own pytest configuration, with the plugin installed.
    env = env_with(installed_example)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(tmp_path / "hypothesis")  # not in docs/examples
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
         str(EXAMPLE / "pyproject.toml"), "--rootdir", str(EXAMPLE), str(EXAMPLE / "tests")],
        check=False, capture_output=True, text=True, env=env, cwd=EXAMPLE,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 passed" in out.stdout, out.stdout
    assert "skipped" not in out.stdout, out.stdout


def test_the_guides_use_of_the_installed_example_prints_what_the_guide_shows(
    installed_example: Path,
) -> None:
    """docs/plugins.md's block that uses the installed example by name, run in a fresh
    interpreter that finds it through its entry point, prints the guide's output."""
    from .test_docs_examples import DOCS, python_blocks

    [(code, printed)] = [
        (code, expected)
        for code, expected in python_blocks(DOCS / "plugins.md")
        if 'metrics=("ndcg", "hits")' in code
    ]
    assert printed is not None, "the guide shows what the example prints"
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True,
        env=env_with(installed_example),
    )  # fmt: skip
    assert out.stdout == printed
