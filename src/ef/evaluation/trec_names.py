"""trec_eval's names for ef's report keys, for output that reads like trec_eval's."""

from __future__ import annotations

from .scoring import split_key

__all__ = ["trec_eval_line", "trec_eval_name"]

# trec_eval's measure for an ef metric at a cutoff; the others print as "<name>_<k>".
_TREC_EVAL = {
    "ndcg": "ndcg_cut_{k}",
    "precision": "P_{k}",
    "recall": "recall_{k}",
    "map": "map_cut_{k}",
}


def trec_eval_name(key: str) -> str:
    """trec_eval's name for the report key ``key`` (``ndcg@10`` -> ``ndcg_cut_10``).

    Metrics trec_eval has no cut-off form of keep their name: ``mrr@10`` -> ``mrr_10``.

    >>> trec_eval_name("precision@5"), trec_eval_name("map@1000"), trec_eval_name("mrr@10")
    ('P_5', 'map_cut_1000', 'mrr_10')
    """
    name, k = split_key(key)
    if k is None:
        return name
    return _TREC_EVAL.get(name, f"{name}_{{k}}").format(k=k)


def trec_eval_line(measure: str, query_id: str, value: float | int) -> str:
    """One line as trec_eval prints it: the name padded to 22, a tab, the query, a tab, the value.

    >>> trec_eval_line("P_5", "all", 0.26666)
    'P_5                   \\tall\\t0.2667'
    """
    shown = str(value) if isinstance(value, int) else f"{value:.4f}"
    return f"{measure:<22}\t{query_id}\t{shown}"
