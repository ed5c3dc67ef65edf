"""ranx's metric strings, ``name[@k][-l<level>]`` (``map@100-l2``, ``ndcg_burges@10``), and
its metric names (:data:`RANX_NAMES`); loaded only by the ranx shim and by
:func:`~ef.evaluation._engine.syntax.resolve_key`.

>>> parse_ranx_measure("map@100-l2").key
'map(rel=2)@100'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...errors import UnknownNameError
from .ours import Measure

if TYPE_CHECKING:
    from ..._plugin_engine.registry import Registry

__all__ = ["RANX_NAMES", "parse_ranx_measure"]


#: ranx's metric names (``ranx.metrics.metric_switch``) and ours; None: not implemented here.
RANX_NAMES: Mapping[str, str | None] = {
    "hits": None,
    "hit_rate": "success",
    "precision": "precision",
    "recall": "recall",
    "f1": "f1",
    "r-precision": "rprec",
    "mrr": "mrr",
    "map": "map",
    "dcg": "dcg",
    "dcg_burges": "dcg(dcg='exp-log2')",
    "ndcg": "ndcg",
    "ndcg_burges": "ndcg(dcg='exp-log2')",
    "bpref": "bpref",
    "rbp": None,  # its gain is the raw grade: neither of ours (1, or the grade over the top one)
}


_RANX = re.compile(r"^(?P<name>[a-z][a-z0-9_-]*?)(?:(?P<sep>[.@])(?P<k>\d+))?(?:-l(?P<rel>\d+))?$")


def parse_ranx_measure(metric: str, *, registry: Registry | None = None) -> Measure:
    """The measure ranx's metric string names: ``name[@k][-l<level>]``. A name without
    ``@k`` is the whole ranking (ranx's ``k=0``), and ``-l2`` is the relevance level
    (``rel=2``; ranx's default level 1 is ours). ranx's ``rbp`` (its gains are the raw
    grades) and ``hits`` have no measure here.

    >>> [parse_ranx_measure(m).key for m in ("ndcg@10", "map@100-l2", "mrr", "r-precision")]
    ['ndcg@10', 'map(rel=2)@100', 'mrr@all', 'rprec']
    >>> parse_ranx_measure("ndcg_burges@5").key, parse_ranx_measure("hit_rate@5").key
    ("ndcg(dcg='exp-log2')@5", 'success@5')
    >>> parse_ranx_measure("dcg@10").key, parse_ranx_measure("dcg_burges-l2").key
    ('dcg@10', "dcg(dcg='exp-log2',rel=2)@all")
    >>> parse_ranx_measure("hits@10")
    Traceback (most recent call last):
        ...
    ef.evaluation.UnknownNameError: ranx's 'hits' is not implemented in ef-evaluation; \
ranx's metrics here: hit_rate, precision, recall, f1, r-precision, mrr, map, dcg, \
dcg_burges, ndcg, ndcg_burges, bpref
    """
    from . import parse_measure

    match = _RANX.match(metric.strip()) if isinstance(metric, str) else None
    ours = _ranx_ours(metric, match)
    assert match is not None  # _ranx_ours refuses a string that is no ranx metric
    if match["sep"] == ".":
        raise ValueError(
            f"{metric!r}: ranx writes the cutoff after '@', e.g. {match['name']}@{match['k']}"
        )
    (measure,) = parse_measure(_ranx_spec(ours, match, registry), registry=registry)
    return measure


def _ranx_ours(metric: str, match: re.Match[str] | None) -> str:
    """Our metric string for ranx's name; an error for a name ranx has that is not ours."""
    name = str(match["name"]) if match else ""
    known = ", ".join(n for n, ours in RANX_NAMES.items() if ours is not None)
    if match is None or name not in RANX_NAMES:
        raise UnknownNameError(
            f"{metric!r} is no ranx metric (name[@k][-l<level>], e.g. ndcg@10 or map@100-l2); "
            f"ranx's metrics here: {known}"
        )
    ours = RANX_NAMES[name]
    if ours is None:
        why = (
            " (its gain is the raw grade; ef-evaluation's rbp(p=...) gains 1, or with "
            "graded=True the grade over the query's highest)"
            if name == "rbp"
            else ""
        )
        raise UnknownNameError(
            f"ranx's {name!r} is not implemented in ef-evaluation{why}; ranx's metrics here: "
            f"{known}"
        )
    return ours


def _ranx_spec(ours: str, match: re.Match[str], registry: Registry | None) -> str:
    """Our measure string for ranx's: its parameters and relevance level in brackets, its
    cutoff, or ``@all`` (ranx's ``k=0``) for a metric that takes cutoffs."""
    from ..._plugin_engine.registry import registry_or_default

    params = []
    if match["rel"] is not None and int(match["rel"]) != 1:
        params.append(f"rel={int(match['rel'])}")
    base, _, given = ours.partition("(")
    inside = [given.rstrip(")")] if given else []
    spec = base + (f"({','.join([*inside, *params])})" if inside or params else "")
    metric_def = registry_or_default(registry).retrieval_metric(base)
    if match["k"] is not None:
        spec += f"@{match['k']}"
    elif metric_def.cutoff:
        spec += "@all"
    return spec
