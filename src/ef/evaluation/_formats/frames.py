"""Runs and qrels held as tables: pandas or polars DataFrames, Parquet files, records.

A table holds one row per (query, doc) pair in three columns: the query id, the doc id and
the score (a run) or the grade (qrels). Which columns those are is named, or found among the
column sets other tools use (:data:`RUN_COLUMN_SETS`, :data:`QRELS_COLUMN_SETS`): ranx's
``q_id, doc_id, score`` first (its ``Run.from_df`` and ``Qrels.from_df`` defaults, for runs
and qrels alike), ir_measures' ``query_id, doc_id, score`` / ``relevance``, PyTerrier's
``qid, docno, score`` / ``label``. A table that holds the columns of two sets is refused as
ambiguous: name the columns.

Every value is checked, and a bad one is an error naming the column and the row (counted
from 0, as ``df.iloc`` counts): a missing column, a null, an id that is no ``str`` (a column
of ``int`` ids is read as their ``str``; one that mixes ``str`` and ``int`` ids is refused),
a score that is no finite number, a doc listed twice for a query. The rows of a query need
not be together; queries keep the order they first appear in, and a query's docs the order
of its rows (what ``tie_policy="input_order"`` ranks by).

>>> import pandas as pd
>>> frame = pd.DataFrame({"q_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d2", "d3"],
...                       "score": [0.5, 0.9, 1.0]})
>>> run_of_table(frame, where="the run")
{'q1': {'d1': 0.5, 'd2': 0.9}, 'q2': {'d3': 1.0}}
>>> qrels_of_table(frame.rename(columns={"q_id": "query_id", "score": "relevance"}).assign(
...     relevance=[1, 0, 2]), where="the qrels")
{'q1': {'d1': 1, 'd2': 0}, 'q2': {'d3': 2}}
>>> run_of_table(frame.assign(doc_id=["d1", "d1", "d3"]), where="the run")
Traceback (most recent call last):
    ...
ef.evaluation.DatasetFormatError: the run: rows 0 and 1 both have q_id='q1', doc_id='d1'; \
a doc is listed once per query
"""

from __future__ import annotations

import itertools
import numbers
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from .._finite import is_finite, plain_finite
from ..errors import DatasetFormatError, Keyword

if TYPE_CHECKING:
    from .trec.fast import RunColumns

__all__ = [
    "QRELS_COLUMN_SETS",
    "RUN_COLUMN_SETS",
    "frame_library",
    "is_table",
    "qrels_of_table",
    "run_columns_of_table",
    "run_of_table",
    "value_type",
]

Kind = Literal["run", "qrels"]

#: The column sets a run table may use, each ``(query, doc, score)``, in the order tried.
RUN_COLUMN_SETS: Mapping[str, tuple[str, str, str]] = {
    "ranx": ("q_id", "doc_id", "score"),
    "ir_measures": ("query_id", "doc_id", "score"),
    "pyterrier": ("qid", "docno", "score"),
}
#: The column sets a qrels table may use, each ``(query, doc, grade)``, in the order tried.
QRELS_COLUMN_SETS: Mapping[str, tuple[str, str, str]] = {
    "ranx": ("q_id", "doc_id", "score"),
    "ir_measures": ("query_id", "doc_id", "relevance"),
    "pyterrier": ("qid", "docno", "label"),
}

_LIBRARIES = ("pandas", "polars")


def frame_library(value: object) -> str | None:
    """``"pandas"`` or ``"polars"`` if ``value`` is a DataFrame of that library, else None
    (neither library is imported to tell).

    >>> frame_library({"q_id": ["q1"]}) is None
    True
    """
    kind = type(value)
    top = kind.__module__.partition(".")[0]
    if top in _LIBRARIES and kind.__name__ == "DataFrame":
        return top
    return None


def is_table(value: object) -> bool:
    """True for a pandas or polars DataFrame."""
    return frame_library(value) is not None


def lazy_frame_hint(value: object) -> str | None:
    """What to do with a table that is not one yet (a polars LazyFrame), or None."""
    kind = type(value)
    if kind.__module__.partition(".")[0] == "polars" and kind.__name__ == "LazyFrame":
        return "a polars LazyFrame; collect() it first"
    return None


class _Columns:
    """The named columns of a table, as Python lists (pandas, polars, or a dict of lists)."""

    def __init__(self, table: Any, where: str) -> None:
        self.where = where
        self._table = table
        if isinstance(table, Mapping):
            self.names = [str(name) for name in table]
        else:
            self.names = [str(name) for name in table.columns]
        self._library = None if isinstance(table, Mapping) else frame_library(table)

    def values(self, name: str) -> list[Any]:
        """The column's values, with None for a null (pandas' NaN/NA/None, polars' null)."""
        if self._library is None:
            return list(self._table[name])
        column = self._table[name]
        values: list[Any] = column.to_list()
        nulls = column.isna() if self._library == "pandas" else column.is_null()
        if nulls.any():
            for i, null in enumerate(nulls.to_list()):
                if null:
                    values[i] = None
        return values


def _whose(tool: str) -> str:
    return f"{tool}'" if tool.endswith("s") else f"{tool}'s"


def _pick_columns(
    table: _Columns, kind: Kind, columns: Sequence[str] | None
) -> tuple[str, str, str]:
    what = "score" if kind == "run" else "grade"
    if columns is not None:
        return _named_columns(table, kind, columns, what)
    return _known_columns(table, kind, what)


def _named_columns(
    table: _Columns, kind: Kind, columns: Sequence[str], what: str
) -> tuple[str, str, str]:
    """The three columns the caller named, each checked to be in the table."""
    if isinstance(columns, str) or len(columns) != 3:
        raise ValueError(f"{kind}_columns names 3 columns, (query, doc, {what}); got {columns!r}")
    absent = [c for c in columns if c not in table.names]
    if absent:
        raise DatasetFormatError(
            f"{table.where}: no column {absent[0]!r} (",
            Keyword(f"{kind}_columns", tuple(columns)),
            f"); its columns: {', '.join(table.names)}",
        )
    query, doc, value = columns
    return str(query), str(doc), str(value)


def _known_columns(table: _Columns, kind: Kind, what: str) -> tuple[str, str, str]:
    """The three columns of the one known tool whose names the table holds."""
    sets = RUN_COLUMN_SETS if kind == "run" else QRELS_COLUMN_SETS
    found = {tool: cols for tool, cols in sets.items() if set(cols) <= set(table.names)}
    described = "; ".join(f"{_whose(tool)} {', '.join(cols)}" for tool, cols in sets.items())
    if not found:
        raise DatasetFormatError(
            f"{table.where}: cannot tell the query, doc and {what} columns among "
            f"{', '.join(table.names) or '(no columns)'}; expected {described}, or name them "
            "with ",
            _columns_keyword(kind, what),
        )
    if len(found) > 1:
        shown = " and ".join(f"{_whose(tool)} {', '.join(cols)}" for tool, cols in found.items())
        raise DatasetFormatError(
            f"{table.where}: its columns hold both {shown}; name the ones to read with ",
            _columns_keyword(kind, what),
        )
    return next(iter(found.values()))


def _columns_keyword(kind: str, what: str) -> Keyword:
    """``run_columns=(query, doc, score)``: the keyword that names a table's columns."""
    return Keyword(f"{kind}_columns", ("query", "doc", what), code=f"(query, doc, {what})")


def _bad(table: _Columns, column: str, row: int, problem: str) -> DatasetFormatError:
    return DatasetFormatError(f"{table.where}: column {column!r} row {row} {problem}")


def _ids(table: _Columns, column: str) -> list[str]:
    values: list[Any] = table.values(column)
    if set(map(type, values)) <= {str}:  # in C-level passes, as the empty ids below
        ids = values
    else:
        ids = [_id(table, column, row, value) for row, value in enumerate(values)]
    if not all(ids):
        raise _bad(table, column, ids.index(""), "is an empty id")
    if ids is not values:
        _refuse_mixed(table, column, values)
    return ids


def _id(table: _Columns, column: str, row: int, value: Any) -> str:
    """The id a cell holds: a str as it is, an int as its str; anything else is refused."""
    if value is None:
        raise _bad(table, column, row, "is null; every row needs an id")
    if isinstance(value, str):
        return value
    if not isinstance(value, bool) and isinstance(value, numbers.Integral):
        return str(int(value))  # 1 is the id "1", as in a TREC file
    raise _bad(
        table,
        column,
        row,
        f"holds {value!r} (a {type(value).__name__}); an id is a str (or an int)",
    )


def _refuse_mixed(table: _Columns, column: str, values: Sequence[Any]) -> None:
    """Refuse a column of str ids and int ids alike: one query or doc spelt two ways
    (``1`` and ``'q1'``) would be split in two and score 0, with no word."""
    first_str = next((row for row, value in enumerate(values) if isinstance(value, str)), None)
    if first_str is None:
        return  # int ids only: each is read as its str, as in a TREC file
    first_int = next(row for row, value in enumerate(values) if not isinstance(value, str))
    raise DatasetFormatError(
        f"{table.where}: column {column!r} mixes str and int ids (row {first_str} holds "
        f"{values[first_str]!r}, row {first_int} holds {values[first_int]!r}, an int); "
        "one id spelt two ways would be two ids. Spell the ids alike, then make the column "
        f"str: pandas df[{column!r}] = df[{column!r}].astype(str), polars "
        f"df.with_columns(pl.col({column!r}).cast(pl.String))"
    )


def _numbers(table: _Columns, column: str, kind: Kind) -> list[float | int]:
    values = table.values(column)
    if plain_finite(values):  # the usual column, in C-level passes
        return values
    what = "score" if kind == "run" else "grade"
    for row, value in enumerate(values):
        if value is None:
            raise _bad(table, column, row, f"is null; every row needs a {what}")
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise _bad(
                table,
                column,
                row,
                f"holds {value!r} (a {type(value).__name__}); a {what} is a number",
            )
        if not is_finite(value):  # NaN, an infinity, an int too large for a float
            shown = reprlib.repr(value)
            raise _bad(table, column, row, f"holds {shown}; a {what} is a finite number")
    return values


def _grouped(
    table: _Columns, kind: Kind, columns: Sequence[str] | None
) -> tuple[dict[str, dict[str, int]], list[float | int]]:
    """Each query's docs with their row, queries in order of first appearance, and the
    values of every row; a doc listed twice for a query is an error naming both rows."""
    query_column, doc_column, value_column = _pick_columns(table, kind, columns)
    queries = _ids(table, query_column)
    docs = _ids(table, doc_column)
    values = _numbers(table, value_column, kind)
    blocks = _blocks(queries, docs)
    if blocks is not None:
        return blocks, values
    groups: dict[str, dict[str, int]] = {}
    for row, (query_id, doc_id) in enumerate(zip(queries, docs, strict=True)):
        rows = groups.setdefault(query_id, {})
        first = rows.setdefault(doc_id, row)
        if first != row:
            what = "listed" if kind == "run" else "judged"
            raise DatasetFormatError(
                f"{table.where}: rows {first} and {row} both have {query_column}={query_id!r}, "
                f"{doc_column}={doc_id!r}; a doc is {what} once per query"
            )
    return groups, values


def _blocks(queries: list[str], docs: list[str]) -> dict[str, dict[str, int]] | None:
    """Each query's docs with their row, in C-level passes, for the usual table: each
    query's rows together, no doc twice for a query. None for any other, which
    :func:`_grouped` reads row by row (merging a query's rows, naming a doc listed twice).

    >>> _blocks(["q1", "q1", "q2"], ["d1", "d2", "d1"])
    {'q1': {'d1': 0, 'd2': 1}, 'q2': {'d1': 2}}
    >>> _blocks(["q1", "q2", "q1"], ["d1", "d1", "d2"]), _blocks(["q1", "q1"], ["d1", "d1"])
    (None, None)
    """
    groups: dict[str, dict[str, int]] = {}
    start = 0
    for query_id, block in itertools.groupby(queries):
        stop = start + len(list(block))
        rows = dict(zip(docs[start:stop], range(start, stop), strict=True))
        if query_id in groups or len(rows) != stop - start:
            return None
        groups[query_id] = rows
        start = stop
    return groups


def _columns(table: Any, where: str) -> _Columns:
    if not (isinstance(table, Mapping) or is_table(table)):
        raise TypeError(f"{where} is a {type(table).__name__}; expected a DataFrame")
    return _Columns(table, where)


def run_of_table(
    table: Any, columns: Sequence[str] | None = None, *, where: str = "the run"
) -> dict[str, dict[str, float]]:
    """The run a table holds, ``{query_id: {doc_id: score}}`` (see the module's rules).

    ``table`` is a pandas or polars DataFrame, or a mapping of column names to lists;
    ``columns`` names the (query, doc, score) columns; ``where`` starts every error.
    """
    groups, values = _grouped(_columns(table, where), "run", columns)
    return {q: {d: float(values[row]) for d, row in docs.items()} for q, docs in groups.items()}


def run_columns_of_table(
    table: Any, columns: Sequence[str] | None = None, *, where: str = "the run"
) -> RunColumns:
    """The run a table holds, as the columns a :class:`~ef.evaluation.RunTable` is made of
    (the same checks as :func:`run_of_table`)."""
    import numpy as np  # only once a run is scored: import ef.evaluation stays light

    from .trec.fast import RunColumns

    groups, values = _grouped(_columns(table, where), "run", columns)
    docs: list[str] = []
    rows: list[int] = []
    offsets = [0]
    for ranked in groups.values():
        docs.extend(ranked)
        rows.extend(ranked.values())
        offsets.append(len(docs))
    scores = np.asarray([float(values[row]) for row in rows], dtype=np.float64)
    return RunColumns(list(groups), np.asarray(offsets, dtype=np.int64), scores, docs)


def qrels_of_table(
    table: Any, columns: Sequence[str] | None = None, *, where: str = "the qrels"
) -> dict[str, dict[str, float]]:
    """The judgements a table holds, ``{query_id: {doc_id: grade}}``: a whole-number grade
    is an ``int`` (as a qrels file gives it), another finite number a ``float``."""
    groups, values = _grouped(_columns(table, where), "qrels", columns)
    return {q: {d: _grade(values[row]) for d, row in docs.items()} for q, docs in groups.items()}


def value_type(table: Any, kind: Kind, columns: Sequence[str] | None = None) -> str | None:
    """``"int"`` or ``"float"``: the type of the score (``kind="run"``) or grade column of a
    DataFrame as it was built, before reading turns a whole float into an int; None if
    neither, or if the column cannot be told (reading it says why).

    >>> value_type({"q_id": ["q1"], "doc_id": ["d1"], "score": [2.0]}, "run")
    'float'
    """
    try:
        _, _, name = _pick_columns(_columns(table, "the table"), kind, columns)
    except (TypeError, ValueError):
        return None
    column = table[name]
    dtype = getattr(column, "dtype", None)
    if dtype is None:  # a dict of lists: the values' own types
        return _type_of_values(column)
    if frame_library(table) == "polars":
        return "int" if dtype.is_integer() else "float" if dtype.is_float() else None
    return {"i": "int", "u": "int", "f": "float"}.get(getattr(dtype, "kind", ""))


def _type_of_values(values: Iterable[Any]) -> str | None:
    """``"int"`` if every value is an int (not a bool), ``"float"`` if every one is a float."""
    found = {type(v) for v in values}
    if not found:
        return None
    if all(issubclass(t, numbers.Integral) for t in found) and bool not in found:
        return "int"
    return "float" if all(issubclass(t, float) for t in found) else None


def _grade(value: Any) -> Any:
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return int(number) if number.is_integer() else number
