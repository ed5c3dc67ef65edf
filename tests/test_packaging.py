"""The packaging promises: the console script, no unresolvable ragas extra, the bridge's entry
point."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")

ROOT = Path(__file__).parents[1]


def load(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        data: dict[str, Any] = tomllib.load(handle)
    return data


def test_core_declares_the_cli_and_no_unresolvable_ragas_extra() -> None:
    project = load(ROOT / "pyproject.toml")["project"]
    assert project["scripts"] == {
        "ef-eval": "ef.evaluation.cli:main",
        "ef-trec-eval": "ef.evaluation.cli:trec_eval_main",
    }
    # No extra for the Ragas bridge until it is published: pip could not resolve it.
    assert "ragas" not in project["optional-dependencies"]
    assert {"attrs>=23.2", "pluggy>=1.5", "importlib-metadata>=6.0", "numpy>=1.24"} <= set(
        project["dependencies"]
    )
    assert not (ROOT / "src" / "ef" / "__init__.py").exists()  # ef is a namespace package


def test_the_fast_reader_is_in_the_default_install() -> None:
    # polars reads large TREC runs; the old "fast" extra stays, empty, so that
    # `pip install "ef-evaluation[fast]"` keeps working.
    project = load(ROOT / "pyproject.toml")["project"]
    assert "polars>=1.0" in project["dependencies"]
    assert project["optional-dependencies"]["fast"] == []


def test_the_bridge_is_the_plugin_ragas_of_its_own_distribution() -> None:
    project = load(ROOT / "plugins" / "ef-evaluation-ragas" / "pyproject.toml")["project"]
    assert project["name"] == "ef-evaluation-ragas"
    assert project["entry-points"]["ef_evaluation"] == {"ragas": "ef_evaluation_ragas"}
    requirements = " ".join(project["dependencies"])
    for needed in (
        "ef-evaluation",
        "ragas==0.4.3",
        "langchain-community>=0.4.1,<0.4.2",
        "instructor>=1.17,<1.18",
        "rapidfuzz",
        "sacrebleu",
        "rouge-score",
    ):
        assert needed in requirements, needed


def test_the_text_extra_brings_the_overlap_libraries_and_the_tests_use_them() -> None:
    extras = load(ROOT / "pyproject.toml")["project"]["optional-dependencies"]
    assert extras["text"] == ["sacrebleu>=2.3", "rouge-score>=0.1.2"]
    assert set(extras["text"]) <= set(extras["test"])


def test_the_remote_extra_brings_fsspec_and_the_tests_use_it() -> None:
    extras = load(ROOT / "pyproject.toml")["project"]["optional-dependencies"]
    assert extras["remote"] == ["fsspec>=2023.1"]
    assert set(extras["remote"]) <= set(extras["test"])  # memory:// and file:// runs, light
