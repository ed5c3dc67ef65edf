"""Every hook is documented for plugin authors and exercised by a test (datasette's meta-tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ef.evaluation import hookspecs

ROOT = Path(__file__).parents[2]
HOOKS = sorted(name for name in vars(hookspecs) if name.startswith("ef_evaluation_"))


def test_there_are_the_six_documented_hooks() -> None:
    assert HOOKS == [
        "ef_evaluation_claim_labelers",
        "ef_evaluation_formats",
        "ef_evaluation_fusion_methods",
        "ef_evaluation_metrics",
        "ef_evaluation_nugget_assigners",
        "ef_evaluation_retriever_adapters",
    ]


@pytest.mark.parametrize("hook", HOOKS)
def test_each_hook_is_in_the_plugin_guide_and_tested(hook: str) -> None:
    assert hook in (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    assert (getattr(hookspecs, hook).__doc__ or "").count("Example::") == 1
    tests = "".join(
        p.read_text(encoding="utf-8")
        for p in (ROOT / "tests").rglob("test_*.py")
        if p.name != Path(__file__).name
    )
    assert f"def {hook}(" in tests, f"no test implements {hook}"
