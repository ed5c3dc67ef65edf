"""docs/plugins.md shows the example distribution whole, as it is on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
GUIDE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "docs" / "examples" / "ef-evaluation-hits"


@pytest.mark.parametrize(
    ("path", "lang"),
    [("pyproject.toml", "toml"), ("src/ef_evaluation_hits/__init__.py", "python")],
)
def test_the_guide_shows_each_file_of_the_example_whole(path: str, lang: str) -> None:
    text = (EXAMPLE / path).read_text(encoding="utf-8")
    assert f"`docs/examples/ef-evaluation-hits/{path}`" in GUIDE
    assert f"```{lang}\n{text}```\n" in GUIDE


def test_the_guide_documents_every_field_of_judged_hits() -> None:
    import attrs

    from ef.evaluation.interfaces import JudgedHits

    for field in attrs.fields(JudgedHits):
        assert f"| `{field.name}` |" in GUIDE, field.name


def test_the_guide_documents_the_switches_and_the_kit() -> None:
    for needle in (
        "EF_EVALUATION_PLUGINS",
        "EF_EVALUATION_DISABLE_PLUGINS",
        "EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD",
        "with_metrics",
        "with_plugins",
        "check_retrieval_metric",
        "registry_with",
        "ef_make_dist",
        "MAX_ORDERS",
        "profile=",
        "k=None",
    ):
        assert needle in GUIDE, needle


def test_the_guide_prints_the_built_ins_as_list_plugins_does() -> None:
    """The printed output of the list_plugins example, its built-in lines: as they are now
    (the line of the example plugin, installed, follows them)."""
    from ef.evaluation import list_plugins

    from ..test_docs_examples import DOCS, python_blocks

    [printed] = [
        shown
        for code, shown in python_blocks(DOCS / "plugins.md")
        if "for plugin in list_plugins():" in code
    ]
    assert printed is not None, "the guide shows what the example prints"
    shown = [line for line in printed.splitlines() if line.startswith("builtin.")]
    now = [f"{p.name} {p.distribution} {p.provides}" for p in list_plugins() if p.builtin]
    assert shown == now
    assert printed.splitlines()[len(now)].startswith("hits ef-evaluation-hits {'metric': ")
