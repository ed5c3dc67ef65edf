"""The public line: the user docs and the Ragas bridge name only the public modules.

The public modules are the facade, the plugin contract (hookspecs, interfaces), the testing
helpers, the compatibility layers, the quality gates, the CLI, the types, the errors, the
adapters and the documented metric modules. Everything else is an implementation module:
its names reach users through the facade, so it can move without breaking them.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]

#: Modules (and, where marked with ``.*``, their submodules) users may import.
PUBLIC_MODULES = (
    "ef.evaluation",
    "ef.evaluation.hookspecs",
    "ef.evaluation.interfaces",
    "ef.evaluation.testing.*",
    "ef.evaluation.compat.*",
    "ef.evaluation.quality.*",
    "ef.evaluation.cli",
    "ef.evaluation.types",
    "ef.evaluation.errors",
    "ef.evaluation.adapters",
    "ef.evaluation.metrics.retrieval.*",
)

# The user docs: README and docs/*.md; the changelog is history and keeps its old names.
USER_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
USER_DOCS.remove(ROOT / "docs" / "changelog.md")

BRIDGE = ROOT / "plugins" / "ef-evaluation-ragas" / "src"

_DOTTED = re.compile(r"ef\.evaluation(?:\.[A-Za-z_]\w*)*")
_COMMENT = re.compile(r"<!--.*?-->", re.S)  # a maintainer's note, never shown to readers


def _is_public_module(module: str) -> bool:
    for public in PUBLIC_MODULES:
        base = public.removesuffix(".*")
        if module == base or (public.endswith(".*") and module.startswith(base + ".")):
            return True
    return False


def _module_of(dotted: str) -> str:
    """The module part of ``ef.evaluation.x.y.Name``: its longest prefix that is a module."""
    parts = dotted.split(".")
    for end in range(len(parts), 1, -1):
        module = ".".join(parts[:end])
        try:
            if importlib.util.find_spec(module) is not None:
                return module
        except ModuleNotFoundError:  # a parent is no package: a name inside a module
            continue
    return "ef.evaluation"


def _private_names(text: str) -> set[str]:
    return {
        dotted
        for dotted in _DOTTED.findall(_COMMENT.sub("", text))
        if not _is_public_module(_module_of(dotted))
    }


def test_the_public_modules_import() -> None:
    for public in PUBLIC_MODULES:
        importlib.import_module(public.removesuffix(".*"))


def test_the_user_docs_name_only_public_modules() -> None:
    found = {
        f"{doc.relative_to(ROOT)}: {name}"
        for doc in USER_DOCS
        for name in _private_names(doc.read_text(encoding="utf-8"))
    }
    assert not found, (
        "the user docs name modules that are not public; use the facade's name (add it to "
        f"ef.evaluation's _LAZY and __all__) or a public module's: {sorted(found)}"
    )


def test_every_name_the_docs_take_from_a_public_module_exists() -> None:
    missing = []
    for doc in USER_DOCS:
        for dotted in set(_DOTTED.findall(_COMMENT.sub("", doc.read_text(encoding="utf-8")))):
            module = _module_of(dotted)
            rest = dotted.removeprefix(module).lstrip(".").split(".")
            if not rest[0]:
                continue
            if not hasattr(importlib.import_module(module), rest[0]):
                missing.append(f"{doc.relative_to(ROOT)}: {dotted}")
    assert not missing, missing


def _bridge_imports() -> set[str]:
    modules = set()
    for path in BRIDGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules.add(node.module)
            elif isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
    return {m for m in modules if m == "ef.evaluation" or m.startswith("ef.evaluation.")}


def test_the_ragas_bridge_imports_only_public_modules() -> None:
    # The bridge may be installed at another version than the core.
    imports = _bridge_imports()
    assert imports, "the bridge's sources moved: point BRIDGE at them"
    assert not [m for m in imports if not _is_public_module(m)], sorted(imports)


def test_the_check_sees_a_private_module() -> None:
    assert _private_names("see `ef.evaluation.engine.measures.parse_measure`") == {
        "ef.evaluation.engine.measures.parse_measure"
    }
    assert not _private_names("`ef.evaluation.compat.ranx.Qrels`, `ef.evaluation.evaluate_run`")
    assert not _private_names("<!-- python -m ef.evaluation.presentation.catalogue -->")
