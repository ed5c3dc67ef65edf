"""Parquet runs and qrels: one row per (query, doc) pair, as ir_datasets, TIREx and ranx keep them.

A Parquet file is recognised by its magic bytes (``PAR1`` at both ends) or, for a file to
write, by a name ending in ``.parquet``. Its columns are read by the rules of
:mod:`ef.evaluation._formats.frames`: ranx's ``q_id, doc_id, score`` (for runs and qrels
alike), ir_measures' ``query_id, doc_id, score`` / ``relevance`` or PyTerrier's ``qid,
docno, score`` / ``label``; a bad value is an error naming the file, the column and the row.
Files are written with ranx's columns (a run ranked by trec_eval's rule, a ranked list's
scores counting down, as the TREC writer does), plus ``tag`` when a run tag is given, through
a temporary file.

polars reads and writes them (``pip install "ef-evaluation[parquet]"``), imported only when
a Parquet file is read or written.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = pathlib.Path(tmp, "run.parquet")
...     write_parquet_run(path, {"q1": {"d1": 0.5, "d2": 0.9}})
...     looks_like_parquet(path), read_parquet_run(path)
(True, {'q1': {'d2': 0.9, 'd1': 0.5}})
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DatasetFormatError, MissingDependencyError
from ..interfaces import DatasetFormat
from ._io import atomic_binary_writer, check_input
from ._records import format_score, ranked_docs
from .frames import qrels_of_table, run_columns_of_table, run_of_table

if TYPE_CHECKING:
    from .trec.fast import RunColumns

__all__ = [
    "FORMAT",
    "looks_like_parquet",
    "read_parquet_qrels",
    "read_parquet_rows",
    "read_parquet_run",
    "read_parquet_run_columns",
    "read_parquet_table",
    "read_parquet_tags",
    "write_parquet_qrels",
    "write_parquet_run",
]

_MAGIC = b"PAR1"
_SUFFIXES = (".parquet", ".parq", ".pq")


def _polars() -> Any:
    try:
        import polars as pl
    except ImportError:
        raise MissingDependencyError(
            'reading and writing Parquet needs polars: pip install "ef-evaluation[parquet]"'
        ) from None
    return pl


def looks_like_parquet(path: Path) -> bool:
    """True for a file that starts and ends with Parquet's magic bytes, or a path not yet
    written whose name ends in ``.parquet`` (or ``.parq``, ``.pq``)."""
    if not path.exists():
        return path.name.lower().endswith(_SUFFIXES)
    if not path.is_file():
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(4)
            if head != _MAGIC:
                return False
            handle.seek(-4, 2)
            return handle.read(4) == _MAGIC
    except OSError:
        return False


def _id(kind: str, value: object) -> str:
    """``value`` if it is a non-empty str (a Parquet column holds spaces as they are)."""
    if isinstance(value, str) and value:
        return value
    raise DatasetFormatError(f"{kind} {value!r} cannot be written: ids are non-empty strings")


def read_parquet_table(path: Path) -> Any:
    """The file as a polars DataFrame; a file polars cannot read is an error naming it."""
    check_input(path)
    pl = _polars()
    try:
        return pl.read_parquet(path)
    except Exception as exc:  # polars' errors have no common base we can name
        raise DatasetFormatError(f"{path}: cannot read it as Parquet ({exc})") from None


def read_parquet_rows(path: Path, kind: str) -> Any:
    """The file's table, refused, naming the file, when it holds no row: an empty run or
    qrels file is an error, as the TREC readers make it (never a run that scores nothing).
    ``kind`` says what was expected (``"a run"``, ``"qrels"``)."""
    frame = read_parquet_table(path)
    if frame.height == 0:
        columns = ", ".join(frame.columns) or "none"
        raise DatasetFormatError(
            f"{path}: the file holds no rows (columns: {columns}); expected {kind}, one row "
            "per (query, doc) pair"
        )
    return frame


def read_parquet_run(path: Path) -> dict[str, dict[str, float]]:
    """A Parquet run, ``{query_id: {doc_id: score}}``; a file with no row is an error."""
    return run_of_table(read_parquet_rows(path, "a run"), where=str(path))


def read_parquet_run_columns(path: Path) -> RunColumns:
    """A Parquet run as the columns of a :class:`~ef.evaluation.RunTable` (same checks)."""
    return run_columns_of_table(read_parquet_rows(path, "a run"), where=str(path))


def read_parquet_tags(path: Path) -> list[str]:
    """The distinct values of a Parquet run's ``tag`` column, in order (none without one)."""
    frame = read_parquet_table(path)
    if "tag" not in frame.columns:
        return []
    tags: list[str] = frame.get_column("tag").drop_nulls().unique(maintain_order=True).to_list()
    return [str(tag) for tag in tags]


def read_parquet_qrels(path: Path) -> dict[str, dict[str, float]]:
    """Parquet qrels, ``{query_id: {doc_id: grade}}``; a file with no row is an error."""
    return qrels_of_table(read_parquet_rows(path, "qrels"), where=str(path))


def _write(path: Path, columns: Mapping[str, list[Any]], schema: Mapping[str, Any]) -> None:
    pl = _polars()
    frame = pl.DataFrame(dict(columns), schema=dict(schema))
    with atomic_binary_writer(path) as out:
        frame.write_parquet(out)


def _columns(rows: Iterable[tuple[str, str, float]]) -> tuple[list[str], list[str], list[float]]:
    """The ``q_id``, ``doc_id`` and ``score`` columns of ``rows``."""
    queries: list[str] = []
    docs: list[str] = []
    values: list[float] = []
    for query_id, doc_id, value in rows:
        queries.append(query_id)
        docs.append(doc_id)
        values.append(value)
    return queries, docs, values


def _run_rows(
    run: Mapping[str, Mapping[str, float] | Iterable[str]],
) -> Iterator[tuple[str, str, float]]:
    for query_id, ranked in run.items():
        qid = _id("query id", query_id)
        ordered = ranked_docs(query_id, ranked)
        given = ranked if isinstance(ranked, Mapping) else None
        for rank, doc_id in enumerate(ordered):
            doc = _id("doc id", doc_id)
            # a finite number: ranked_docs checked it
            score = float(given[doc_id]) if given is not None else float(len(ordered) - rank)
            yield qid, doc, score


def _qrels_rows(qrels: Mapping[str, Mapping[str, float]]) -> Iterator[tuple[str, str, float]]:
    for query_id, judged in qrels.items():
        qid = _id("query id", query_id)
        for doc_id, grade in judged.items():
            if isinstance(grade, bool) or not isinstance(grade, (int, float)):
                raise DatasetFormatError(
                    f"qrels[{query_id!r}][{doc_id!r}] = {grade!r}: a grade is a finite number"
                )
            format_score(query_id, doc_id, grade)  # finite
            yield qid, _id("doc id", doc_id), grade


def write_parquet_run(
    path: Path, run: Mapping[str, Mapping[str, float] | Iterable[str]], tag: str | None = None
) -> None:
    """Write a run as Parquet (``q_id, doc_id, score``, and ``tag`` if given), atomically."""
    pl = _polars()
    queries, docs, scores = _columns(_run_rows(run))
    columns: dict[str, list[Any]] = {"q_id": queries, "doc_id": docs, "score": scores}
    schema: dict[str, Any] = {"q_id": pl.String, "doc_id": pl.String, "score": pl.Float64}
    if tag is not None:
        columns["tag"] = [_id("run tag", tag)] * len(queries)
        schema["tag"] = pl.String
    _write(path, columns, schema)


def write_parquet_qrels(path: Path, qrels: Mapping[str, Mapping[str, float]]) -> None:
    """Write qrels as Parquet (``q_id, doc_id, score``), atomically: whole grades as
    integers, fractional ones as floats (then every grade is a float)."""
    pl = _polars()
    queries, docs, grades = _columns(_qrels_rows(qrels))
    whole = all(float(g).is_integer() for g in grades)
    kind = pl.Int64 if whole else pl.Float64
    values: list[Any] = [int(g) for g in grades] if whole else [float(g) for g in grades]
    _write(
        path,
        {"q_id": queries, "doc_id": docs, "score": values},
        {"q_id": pl.String, "doc_id": pl.String, "score": kind},
    )


#: The format's declaration, which ``_default_plugins/formats.py`` registers.
FORMAT = DatasetFormat(
    name="parquet",
    read_qrels=read_parquet_qrels,
    write_qrels=write_parquet_qrels,
    read_run=read_parquet_run,
    read_run_columns=read_parquet_run_columns,
    write_run=write_parquet_run,
    detect=looks_like_parquet,
    description=(
        "Parquet runs and qrels: q_id, doc_id, score columns (ranx's), or "
        "ir_measures' or PyTerrier's."
    ),
)
