"""ir_measures' measure syntax: ``nDCG@10``, ``P(rel=2)@5``, ``AP(judged_only=True)``,
``RBP(p=0.8)``, each name read through the synonyms the registry's metrics declare.

>>> from ef.evaluation._engine.syntax import parse_measure
>>> [m.key for m in parse_measure("P(rel=2)@5")], [m.key for m in parse_measure("AP")]
(['precision(rel=2)@5'], ['map@all'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric
from .ours import Measure, canonical_params, literal_params, parse_cutoff

if TYPE_CHECKING:
    from .index import NameIndex

__all__ = ["ir_measures_measure", "is_ir_measures_name"]


def is_ir_measures_name(match: re.Match[str], name: str, index: NameIndex) -> bool:
    """Whether ``name`` is ir_measures'. A bare name that is trec_eval's too is trec_eval's:
    ``P`` is every cutoff."""
    bare = match["params"] is None and match["k"] is None
    return name in index.ir_measures and not (bare and name in index.trec_eval)


def ir_measures_measure(
    spec: str,
    match: re.Match[str],
    name: str,
    *,
    index: NameIndex,
    metrics: Mapping[str, RetrievalMetric],
) -> Measure:
    """The measure of ir_measures' syntax, ``Name(params)@k``, through its synonym."""
    given = literal_params(spec, match["params"]) if match["params"] is not None else []
    found = index.synonym("ir_measures", name, dict(given))
    if found is None:
        raise ValueError(f"{spec!r}: ir_measures' {name} needs other parameters here")
    metric_name, synonym = found
    given = [(n, v) for n, v in given if n not in dict(synonym.selects)]
    metric = metrics[metric_name]
    cutoff = parse_cutoff(spec, match["k"])
    if cutoff is not None and not synonym.cutoff:
        raise ValueError(
            f"{spec!r}: ir_measures' {name} takes no cutoff; write "
            f"{metric_name}@{cutoff} for the ranking cut at {cutoff}"
        )
    k = cutoff if isinstance(cutoff, int) else None
    params = [*synonym.params, *given]
    return Measure(metric, k, canonical_params(spec, metric, params))
