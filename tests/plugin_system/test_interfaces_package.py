"""``ef.evaluation.interfaces`` builds the values of the RAG, adapter and fusion plugins on
first use: every name stays where plugin authors import it from, and importing the module
(or scoring a run) builds none of their classes."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import ef.evaluation
from ef.evaluation import interfaces

_LATER = {
    "ef.evaluation.interfaces._rag": ("RagMetric", "NuggetAssigner", "ClaimLabeler"),
    "ef.evaluation.interfaces._adapters": ("RetrieverAdapter",),
    "ef.evaluation.interfaces._fusion": ("FusionMethod", "FusionParam"),
}


def _in_a_fresh_interpreter(code: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_importing_the_module_builds_none_of_the_other_kinds() -> None:
    seen = _in_a_fresh_interpreter(
        "import json, sys\n"
        "import ef.evaluation.interfaces as interfaces\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('ef.evaluation.interfaces.'))\n"
        "listed = dir(interfaces)\n"
        "interfaces.FusionMethod\n"
        "after = sorted(m for m in sys.modules if m.startswith('ef.evaluation.interfaces.'))\n"
        "print(json.dumps({'loaded': loaded, 'listed': listed, 'after': after}))\n"
    )
    assert seen["loaded"] == []
    # dir() lists every public name before it is loaded, as the facade's does.
    listed = seen["listed"]
    assert isinstance(listed, list)
    assert set(interfaces.__all__) <= set(listed)
    # A name loads its module alone.
    assert seen["after"] == ["ef.evaluation.interfaces._fusion"]


@pytest.mark.parametrize(
    ("module", "name"), [(module, name) for module, names in _LATER.items() for name in names]
)
def test_each_value_keeps_its_import_paths(module: str, name: str) -> None:
    value = getattr(interfaces, name)
    assert value.__module__ == module
    assert value is getattr(ef.evaluation, name) is getattr(sys.modules[module], name)
    assert name in interfaces.__all__


def test_the_lazy_table_lists_what_each_module_exports() -> None:
    # _ELSEWHERE names the module of each lazy name without importing it: it must list every
    # name each module exports, and no other.
    from ef.evaluation.interfaces import _ELSEWHERE

    for module in _LATER:
        exported = importlib.import_module(module).__all__
        listed = {name for name, where in _ELSEWHERE.items() if module.endswith(where)}
        assert listed == set(exported), module


def test_star_import_gives_every_name() -> None:
    namespace: dict[str, object] = {}
    exec("from ef.evaluation.interfaces import *", namespace)
    assert set(interfaces.__all__) <= set(namespace)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"module 'ef\.evaluation\.interfaces' has no attr"):
        interfaces.RetrievalMetrix  # noqa: B018
