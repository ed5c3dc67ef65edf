"""trec_eval's names for ef's report keys, for output that reads like trec_eval's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.measures import format_value, parse_measure, split_key
from ..errors import UnknownNameError

if TYPE_CHECKING:
    from ..engine.measures import Measure
    from ..plugin_engine.registry import Registry

__all__ = ["trec_eval_line", "trec_eval_name"]


def _from_synonyms(measure: Measure) -> str | None:
    """The name trec_eval prints for ``measure``, from its metric's trec_eval synonyms.

    trec_eval's names carry cutoffs, nDCG's gains (``ndcg_1=3,2=9``) and RBP's ``p``
    (``rbp_p=0.8``), not its global switches (``-l``, ``-J``): a measure with other
    parameters has no trec_eval name.
    """
    given = dict(measure.params)
    for synonym in measure.metric.synonyms:
        if synonym.syntax != "trec_eval" or synonym.cutoff != (measure.k is not None):
            continue
        fixed = dict(synonym.params)
        if any(given.get(name) != value for name, value in fixed.items()):
            continue
        extra = {name: value for name, value in given.items() if name not in fixed}
        if measure.k is not None:
            return None if extra else f"{synonym.name}_{measure.k}"
        if not extra:
            return synonym.name
        if list(extra) == ["gains"]:
            pairs = ",".join(f"{format_value(g)}={format_value(v)}" for g, v in extra["gains"])
            return f"{synonym.name}_{pairs}"
        if list(extra) == ["p"]:
            return f"{synonym.name}_p={format_value(extra['p'])}"
    return None


def trec_eval_name(key: str, registry: Registry | None = None) -> str:
    """trec_eval's name for the report key ``key`` (``ndcg@10`` -> ``ndcg_cut_10``).

    A measure trec_eval has no name for keeps ours, with ``_`` for ``@``: ``mrr@10`` ->
    ``mrr_10``, ``precision(rel=2)@5`` -> ``precision(rel=2)_5`` (trec_eval's ``-l`` applies
    to every measure at once, so its names cannot say it).

    >>> trec_eval_name("precision@5"), trec_eval_name("map@1000"), trec_eval_name("mrr@10")
    ('P_5', 'map_cut_1000', 'mrr_10')
    >>> trec_eval_name("map@all"), trec_eval_name("rprec"), trec_eval_name("hole@10")
    ('map', 'Rprec', 'unj_10')
    """
    try:
        measures = parse_measure(key, registry=registry)
    except (UnknownNameError, ValueError):
        measures = []
    if len(measures) == 1:
        found = _from_synonyms(measures[0])
        if found is not None:
            return found
    name, k = split_key(key)
    if k is None:
        return key.replace("@", "_")
    return f"{name}_{k}"


def trec_eval_line(measure: str, query_id: str, value: float | int) -> str:
    """One line as trec_eval prints it: the name padded to 22, a tab, the query, a tab, the value.

    >>> trec_eval_line("P_5", "all", 0.26666)
    'P_5                   \\tall\\t0.2667'
    """
    shown = str(value) if isinstance(value, int) else f"{value:.4f}"
    return f"{measure:<22}\t{query_id}\t{shown}"
