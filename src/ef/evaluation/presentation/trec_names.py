"""trec_eval's names for ef's report keys, and trec_eval's output, byte for byte."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..engine.measures import parse_measure, split_key, trec_eval_printed
from ..engine.trec_vocabulary import TREC_MEASURES
from ..errors import UnknownNameError

if TYPE_CHECKING:
    from ..engine.trec_eval import TrecEvalResult
    from ..plugin_engine.registry import Registry

__all__ = ["SUMMARY_ONLY", "c_float", "trec_eval_line", "trec_eval_lines", "trec_eval_name"]

#: trec_eval's measures that it prints in the summary (``all``) only, never per query.
SUMMARY_ONLY = frozenset(m.name for m in TREC_MEASURES if m.metric and not m.per_query)


def trec_eval_name(key: str, registry: Registry | None = None) -> str:
    """trec_eval's name for the report key ``key`` (``ndcg@10`` -> ``ndcg_cut_10``).

    A measure trec_eval has no name for keeps ours, with ``_`` for ``@``: ``mrr@10`` ->
    ``mrr_10``, ``precision(rel=2)@5`` -> ``precision(rel=2)_5`` (trec_eval's ``-l`` applies
    to every measure at once, so its names cannot say it).

    >>> trec_eval_name("precision@5"), trec_eval_name("map@1000"), trec_eval_name("mrr@10")
    ('P_5', 'map_cut_1000', 'mrr_10')
    >>> trec_eval_name("map@all"), trec_eval_name("rprec"), trec_eval_name("hole@10")
    ('map', 'Rprec', 'unj_10')
    >>> trec_eval_name("iprec_at_recall(recall=0.5)"), trec_eval_name("iprec_at_recall")
    ('iprec_at_recall_0.50', 'iprec_at_recall_0.00')
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


def c_float(value: float) -> str:
    """``value`` as C's ``printf("%6.4f")`` prints it (glibc): a NaN keeps its sign, ``-nan``
    for the 0 / 0 of trec_eval's C code, ``nan`` for one read from a file.

    >>> c_float(0.26666), c_float(12.5), c_float(-float("nan")), c_float(-0.0)
    ('0.2667', '12.5000', '  -nan', '-0.0000')
    """
    if math.isnan(value):
        return "  -nan" if math.copysign(1.0, value) < 0 else "   nan"
    return f"{value:6.4f}"


def _shown(kind: str, value: object, zscored: bool) -> str:
    if kind == "string":
        return f"'{value}'"
    if kind == "runid":
        return str(value)
    if kind in ("long", "num_q") and not zscored:
        return str(int(value))  # type: ignore[call-overload]  # a count
    return c_float(value)  # type: ignore[arg-type]  # a float


def _texts(kind: str, values: list[Any], zscored: bool) -> list[str]:
    """A column's values as printed, one per query (as :func:`_shown`, in one pass)."""
    if kind != "float" and (kind != "long" or not zscored):
        return [_shown(kind, v, zscored) for v in values]
    texts = [f"{v:6.4f}" for v in values]
    for i, text in enumerate(texts):
        if text.endswith("nan"):  # a NaN: its sign, as glibc prints it
            texts[i] = c_float(values[i])
    return texts


def _label(kind: str, name: str, zscored: bool) -> str:
    """The name column: padded to 22, after a ``Z`` for a z-score (``-Z``)."""
    z = "Z" if zscored and kind not in ("string", "runid") else ""
    return f"{z}{name:<22}\t"


def trec_eval_lines(result: TrecEvalResult) -> Iterator[str]:
    """What trec_eval prints for ``result``, line by line (each with its newline): with
    ``-q``, every query's rows in query order, then the summary rows (``all``) unless ``-n``.

    >>> from ef.evaluation import RunTable
    >>> from ef.evaluation.engine.trec_eval import Options, trec_eval_result
    >>> run = RunTable.from_dict({"q1": {"d1": 2.0, "d2": 1.0}})
    >>> result = trec_eval_result(run, {"q1": {"d2": 1}}, ["P.2", "num_q"], Options(per_query=True),
    ...                           runid="r")
    >>> for line in trec_eval_lines(result):
    ...     print(repr(line))
    'P_2                   \\tq1\\t0.5000\\n'
    'num_q                 \\tall\\t1\\n'
    'P_2                   \\tall\\t0.5000\\n'
    """
    cols, z = result.columns, result.zscored
    if result.opts.per_query:
        shown = [
            (_label(col.kind, col.name, z), _texts(col.kind, _listed(values), z))
            for col, values in zip(cols, result.values, strict=True)
            if col.per_query
        ]
        for i, query_id in enumerate(result.query_ids):
            yield "".join(f"{name}{query_id}\t{texts[i]}\n" for name, texts in shown)
    if result.opts.summary:
        for col, value in zip(cols, result.summary, strict=True):
            if value is not None:
                yield f"{_label(col.kind, col.name, z)}all\t{_shown(col.kind, value, z)}\n"


def _listed(values: Any) -> list[Any]:
    """A column's values as a list (an array's, or relstring's list as it is)."""
    return list(values.tolist() if hasattr(values, "tolist") else values)
