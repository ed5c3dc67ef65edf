"""trec_eval's names for ef's report keys, for output that reads like trec_eval's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.measures import parse_measure, split_key, trec_eval_printed
from ..errors import UnknownNameError

if TYPE_CHECKING:
    from ..plugin_engine.registry import Registry

__all__ = ["trec_eval_line", "trec_eval_name"]


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
        found = trec_eval_printed(measures[0])
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
