"""The names of :mod:`ef.evaluation._engine.syntax`, where measure strings are read, one module
per tool's vocabulary; kept so that ``from ef.evaluation._engine.measures import ...`` works.

trec_eval's and ranx's names load on first use: a measure in our syntax needs neither.

>>> [m.key for m in parse_measure("P.5,10")]
['precision@5', 'precision@10']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .syntax import describe_syntaxes, parse_measure, parse_measures, resolve_key
from .syntax.ours import (
    AVERAGING,
    DEFAULT_K_VALUES,
    DEFAULT_METRICS,
    MAX_CUTOFF,
    SPEC,
    Measure,
    Parameterised,
    canonical_params,
    check_k_values,
    check_metric_names,
    format_value,
    literal_params,
    param_problem,
    params_text,
    parse_cutoff,
    split_key,
)

if TYPE_CHECKING:
    from .syntax.ranx import RANX_NAMES, parse_ranx_measure
    from .syntax.trec_eval import (
        TREC_EVAL_CUTOFFS,
        TREC_EVAL_SETS,
        parse_trec_eval_measure,
        trec_eval_differences,
        trec_eval_printed,
        trec_eval_set,
    )

__all__ = [
    "AVERAGING",
    "DEFAULT_K_VALUES",
    "DEFAULT_METRICS",
    "MAX_CUTOFF",
    "RANX_NAMES",
    "SPEC",
    "TREC_EVAL_CUTOFFS",
    "TREC_EVAL_SETS",
    "Measure",
    "Parameterised",
    "canonical_params",
    "check_k_values",
    "check_metric_names",
    "describe_syntaxes",
    "format_value",
    "literal_params",
    "param_problem",
    "params_text",
    "parse_cutoff",
    "parse_measure",
    "parse_measures",
    "parse_ranx_measure",
    "parse_trec_eval_measure",
    "resolve_key",
    "split_key",
    "trec_eval_differences",
    "trec_eval_printed",
    "trec_eval_set",
]


#: The vocabularies read only for their own names (a measure in our syntax needs neither):
#: their names of ``__all__`` load on first use.
_VOCABULARIES = ("trec_eval", "ranx")


def __getattr__(name: str) -> Any:
    if name in __all__:
        import importlib

        for vocabulary in _VOCABULARIES:
            module = importlib.import_module(f".syntax.{vocabulary}", __package__)
            if hasattr(module, name):
                return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
