"""The layout holds: layers with one direction, one report assembly, a metric declared in one module.

docs/architecture.md describes the layers; these tests keep what it promises true.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest

from ef.evaluation import Registry, types
from ef.evaluation._engine.profiles import PROFILES
from ef.evaluation._runs.order import TIE_POLICIES

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "src" / "ef" / "evaluation"


def test_the_top_package_holds_at_most_ten_modules() -> None:
    # The old paths kept for one release, and _deprecated that makes them, go in the release
    # after next: they do not count.
    modules = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if path.name != "_deprecated.py"
        and not path.read_text(encoding="utf-8").startswith('"""Deprecated: ``ef.evaluation.')
    )
    assert len(modules) <= 10, modules


def test_the_cli_imports_no_numpy_and_no_polars() -> None:
    code = "import json, sys, ef.evaluation.cli; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    loaded = set(json.loads(out.stdout))
    assert not {"numpy", "polars", "pandas", "scipy"} & loaded


def _calls_of(name: str) -> list[str]:
    """Where ``name(...)`` is called in src, as ``path:line`` (docstring examples are text)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_a_retrieval_report_is_built_in_one_place() -> None:
    (call,) = _calls_of("RetrievalEvalReport")
    assert call.startswith("_evaluate/report.py:")


def test_a_pipeline_report_is_built_in_one_place() -> None:
    (call,) = _calls_of("PipelineEvalReport")
    assert call.startswith("_evaluate/report.py:")
    # and evaluate_pipeline is the one caller of that place, whichever stage scored
    assert [c.partition(":")[0] for c in _calls_of("pipeline_report")] == ["_evaluate/pipeline.py"]


def test_every_built_in_retrieval_metric_is_declared_in_one_module() -> None:
    # A metric's declaration and its reference function live in one module of
    # metrics/retrieval; a variant's batch and expected forms may be its parent's (gm_map's
    # are map's), and a metric without a closed tie-averaged form declares none (the
    # engine averages its batch form over the orders of the ties).
    registry = Registry.load(autoload=False)
    package = "ef.evaluation.metrics.retrieval."
    modules = [module for name, module in sorted(sys.modules.items()) if name.startswith(package)]
    for name, metric in registry.retrieval_metrics.items():
        if registry.provider(name).name != "builtin.retrieval_metrics":
            continue
        homes = [m.__name__ for m in modules if any(v is metric for v in vars(m).values())]
        assert homes == [metric.func.__module__], (name, homes)
        assert metric.batch is not None, name
        for form in (metric.batch, metric.expected):
            if form is not None:
                assert form.__module__.startswith(package), (name, form.__module__)


def test_metric_kernels_never_import_pluggy() -> None:
    for path in sorted((PACKAGE / "metrics").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n == "pluggy" or n.endswith("hookspecs") for n in names), path


def test_the_import_contracts_hold() -> None:
    # The lint environment runs the same check; here it runs wherever import-linter is.
    lint_imports = shutil.which("lint-imports")
    if lint_imports is None:
        pytest.skip("import-linter is not installed (tox -e lint runs it)")
    result = subprocess.run(
        [lint_imports], check=False, cwd=ROOT, capture_output=True, text=True, env=_env_with_src()
    )
    assert result.returncode == 0, result.stdout[-4000:]
    assert "0 broken" in result.stdout


def _env_with_src() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    return env


#: The scoring options' values, each list a TypeAlias of types.py: spelled nowhere else.
_NAMED_CHOICES = {
    name: frozenset(get_args(getattr(types, name)))
    for name in ("TiePolicy", "FusionTiePolicy", "Averaging", "CompareAveraging", "ProfileName")
}


def _string_lists(tree: ast.AST) -> Iterator[tuple[int, frozenset[object]]]:
    """Each ``Literal[...]`` and each tuple, list or set of str constants only, by line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", None) == "Literal":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts = node.elts
        else:
            continue
        if elts and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
            yield node.lineno, frozenset(e.value for e in elts)  # type: ignore[attr-defined]


def test_the_scoring_options_are_listed_once() -> None:
    # A click choice or a check takes typing.get_args(the alias), never a copy of its values.
    found: set[str] = set()  # a Literal's values are also a tuple: each place once
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "types.py":
            continue
        for line, values in _string_lists(ast.parse(path.read_text(encoding="utf-8"))):
            found.update(
                f"{path.relative_to(PACKAGE)}:{line} spells {name}"
                for name, named in _NAMED_CHOICES.items()
                if values == named
            )
    assert not found, sorted(found)
    # The tables keyed by them (each name's meaning, each profile) follow the alias.
    assert tuple(TIE_POLICIES) == get_args(types.TiePolicy)
    assert tuple(PROFILES) == get_args(types.ProfileName)


def test_the_default_measures_are_one_constant() -> None:
    import inspect

    from ef.evaluation import evaluate_pipeline, evaluate_rag, evaluate_retrieval, evaluate_run
    from ef.evaluation._engine.measures import DEFAULT_K_VALUES, DEFAULT_METRICS
    from ef.evaluation._evaluate.rag import DEFAULT_RAG_METRICS

    for function in (evaluate_run, evaluate_retrieval, evaluate_pipeline, evaluate_rag):
        parameters = inspect.signature(function).parameters
        assert parameters["k_values"].default is DEFAULT_K_VALUES, function
        metrics = parameters["metrics"].default
        assert metrics is (DEFAULT_RAG_METRICS if function is evaluate_rag else DEFAULT_METRICS)
