"""trec_eval's names for ef's report keys, and trec_eval's output, byte for byte."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .._engine.measures import parse_measure, split_key, trec_eval_printed
from .._engine.trec_vocabulary import TREC_MEASURES
from ..errors import UnknownNameError

if TYPE_CHECKING:
    from .._engine.trec_eval import Column, TrecEvalResult
    from .._plugin_engine.registry import Registry

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


def _is_float(kind: str, zscored: bool) -> bool:
    """Whether a column of this kind prints its values as ``%6.4f``."""
    return kind == "float" or (kind == "long" and zscored)


def _column_texts(columns: list[tuple[str, Any]], zscored: bool) -> list[list[str]]:
    """Each column's values as printed, each with its newline (as :func:`_shown`); the
    floats of every column formatted in one go (:func:`_float_texts`), as numpy is fast
    on one long array, slow on many short ones."""
    import numpy as np

    texts: list[list[str]] = [
        [] if _is_float(kind, zscored) else [f"{_shown(kind, v, zscored)}\n" for v in _listed(vals)]
        for kind, vals in columns
    ]
    floats = [i for i, (kind, _) in enumerate(columns) if _is_float(kind, zscored)]
    if floats:
        arrays = [np.asarray(columns[i][1], dtype=np.float64) for i in floats]
        every = _float_texts(np.concatenate(arrays))
        start = 0
        for i, array in zip(floats, arrays, strict=True):
            texts[i] = every[start : start + array.size]
            start += array.size
    return texts


def _float_texts(values: Any) -> list[str]:
    """``"%6.4f\\n"`` of each value, as glibc prints it.

    A value in [0, 10) (nearly every measure's) is v * 10000 rounded to an integer, its
    digits laid out by numpy: the product is within 1e-11 of the exact one, so where it is
    not within 1e-7 of a half, its nearest integer is the exact value's, the digits printf
    prints. Any other value (near a half, negative, 10 or more, a NaN) is :func:`c_float`'s:
    Python's ``%6.4f`` rounds the exact value as glibc does.

    >>> _float_texts([0.26666, 0.00005, 0.99995, 12.5, -0.0, float("nan"), 1 / 3])
    ['0.2667\\n', '0.0001\\n', '1.0000\\n', '12.5000\\n', '-0.0000\\n', '   nan\\n', '0.3333\\n']
    """
    import numpy as np

    array = np.asarray(values, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # a NaN or a huge value: not plain
        scaled = array * 10000.0
        rounded = np.rint(scaled)
        plain = (
            (array >= 0.0)
            & ~np.signbit(array)
            & (rounded < 100000.0)
            & (np.abs(np.abs(scaled - np.floor(scaled)) - 0.5) > 1e-7)
        )
    digits = np.where(plain, rounded, 0.0).astype(np.int64)
    chars = np.empty((array.size, 7), dtype=np.uint8)
    chars[:, 0] = 48 + digits // 10000
    chars[:, 1] = 46  # "."
    for place, power in enumerate((1000, 100, 10, 1), start=2):
        chars[:, place] = 48 + digits // power % 10
    chars[:, 6] = 10  # the newline
    texts = chars.tobytes().decode("ascii").splitlines(keepends=True)
    for i in np.flatnonzero(~plain).tolist():
        texts[i] = f"{c_float(float(array[i]))}\n"
    return texts


def _label(kind: str, name: str, zscored: bool) -> str:
    """The name column: padded to 22, after a ``Z`` for a z-score (``-Z``)."""
    z = "Z" if zscored and kind not in ("string", "runid") else ""
    return f"{z}{name:<22}\t"


#: Lines of per-query output joined into one string, written at once (a few MB).
_LINES_PER_PIECE = 1 << 16


def trec_eval_lines(result: TrecEvalResult) -> Iterator[str]:
    """What trec_eval prints for ``result``, in pieces of whole lines (each with its
    newline), tens of thousands of lines each: with ``-q``, every query's rows in query
    order, then the summary rows (``all``) unless ``-n``. Each column's values are
    formatted at once, and a piece is one join of them.

    >>> from ef.evaluation import RunTable
    >>> from ef.evaluation._engine.trec_eval import Options, trec_eval_result
    >>> run = RunTable.from_dict({"q1": {"d1": 2.0, "d2": 1.0}})
    >>> result = trec_eval_result(run, {"q1": {"d2": 1}}, ["P.2", "num_q"], Options(per_query=True),
    ...                           runid="r")
    >>> for line in "".join(trec_eval_lines(result)).splitlines(keepends=True):
    ...     print(repr(line))
    'P_2                   \\tq1\\t0.5000\\n'
    'num_q                 \\tall\\t1\\n'
    'P_2                   \\tall\\t0.5000\\n'
    """
    cols, z = result.columns, result.zscored
    shown = [(col, vals) for col, vals in zip(cols, result.values, strict=True) if col.per_query]
    if result.opts.per_query and shown:
        yield from _per_query_pieces(result.query_ids, shown, z)
    if result.opts.summary:
        yield "".join(
            f"{_label(col.kind, col.name, z)}all\t{_shown(col.kind, value, z)}\n"
            for col, value in zip(cols, result.summary, strict=True)
            if value is not None
        )


def _per_query_pieces(
    ids: tuple[str, ...], shown: list[tuple[Column, Any]], z: bool
) -> Iterator[str]:
    """The per-query rows of the ``shown`` columns, every query's in query order, in pieces
    of whole lines."""
    labels = [_label(col.kind, col.name, z) for col, _ in shown]
    step = max(1, _LINES_PER_PIECE // len(shown))
    for start in range(0, len(ids), step):
        stop = min(len(ids), start + step)
        prefixes = [f"{query_id}\t" for query_id in ids[start:stop]]
        texts = _column_texts([(col.kind, v[start:stop]) for col, v in shown], z)
        lines = [
            list(map(str.__add__, [label + prefix for prefix in prefixes], column))
            for label, column in zip(labels, texts, strict=True)
        ]
        yield "".join(itertools.chain.from_iterable(zip(*lines, strict=True)))  # by query


def _listed(values: Any) -> list[Any]:
    """A column's values as a list (an array's, or relstring's list as it is)."""
    return list(values.tolist() if hasattr(values, "tolist") else values)
