"""The one check of a run and its qrels before anything is scored.

Every evaluation of a stored run goes through :func:`load_inputs` (``evaluate_run``,
``compare``, ``ef-eval evaluate``): it turns the accepted shapes into values and refuses the
inputs that would give a plausible number from misread data (DESIGN §6):

* a run or qrels of a shape we do not read (a list of tuples, a polars LazyFrame):
  ``TypeError`` listing the accepted shapes; a new input shape is added here, in
  :func:`check_run_shape` and :func:`load_qrels`;
* a pandas or polars DataFrame (or a Parquet file) whose columns cannot be told, or that
  holds a null, an id that is no str, a score that is no finite number or a doc twice for a
  query: ``DatasetFormatError`` naming the column and the row
  (:mod:`ef.evaluation._formats.frames` reads every table);
* a grade that is NaN, infinite, a bool or no number: ``ValueError`` naming query and doc;
* run and qrels swapped, told from their shape (:mod:`ef.evaluation._evaluate.swapped`):
  refused when the signals agree, an :class:`~ef.evaluation.InputWarning` when they are mixed;
* no judged query in the run (``Q1`` against ``1``): ``ValueError`` with a few ids of each
  side and the likely cause;
* fewer than half of the judged queries in the run: an :class:`~ef.evaluation.InputWarning`;
* doc ids that do not meet the qrels' (``cacm-1938`` against ``CACM-1938``): refused, or
  warned of, by :mod:`~ef.evaluation._evaluate.doc_ids` once these checks have passed.
"""

from __future__ import annotations

import itertools
import numbers
import os
import reprlib
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import attrs

from .._engine.id_forms import no_overlap_cause, shown_ids, with_cause
from .._finite import is_finite, plain_finite
from .._formats.files import format_for, read_qrels, read_run
from .._formats.frames import (
    is_table,
    lazy_frame_hint,
    qrels_of_table,
    value_type,
)
from .._formats.parquet import read_parquet_rows
from .._formats.sources import is_irds, is_url
from .._runs.ranked import RankedLists
from ..errors import ArgumentError, InputWarning, Keyword

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from .._runs.ranked import RankedRun
    from .._runs.table import RunTable
    from ..types import DataFrameLike, Qrels, RunInput

__all__ = [
    "QRELS_SHAPES",
    "RUN_SHAPES",
    "InputFiles",
    "check_overlap",
    "check_qrels",
    "check_run_shape",
    "load_inputs",
    "load_named_run",
    "load_qrels",
    "load_run",
    "no_overlap_cause",
    "run_value",
    "shown_ids",
]

RUN_SHAPES = (
    "{qid: {doc: score}}, {qid: [doc, ...]} (ranked), a RunTable, a pandas or polars "
    "DataFrame (q_id, doc_id, score columns), or the path of a run file"
)
QRELS_SHAPES = (
    "{qid: {doc: grade}}, a pandas or polars DataFrame (q_id, doc_id, score columns), or the "
    "path of a qrels file or BEIR directory"
)

#: The shapes of a run (or qrels) given as a table, which ``run_columns=`` (``qrels_columns=``)
#: applies to.
Columns = Sequence[str] | None


@attrs.frozen
class InputFiles:
    """How the run and the qrels are read: each one's format (of a path; ``None`` detects
    it) and columns (of a DataFrame or Parquet file; ``None`` finds them). The four keywords
    of evaluate_run and evaluate_shards, passed down as one value to every way a run is read.

    >>> InputFiles(run_format="trec").qrels_format is None
    True
    """

    run_format: str | None = None
    run_columns: Columns = None
    qrels_format: str | None = None
    qrels_columns: Columns = None


def _kind(value: object) -> str:
    return type(value).__name__


def check_run_shape(run: object) -> None:
    """Refuse a run that is none of :data:`RUN_SHAPES`, with a ``TypeError`` that lists them.

    >>> check_run_shape([("q1", "d1", 0.5)])
    Traceback (most recent call last):
        ...
    TypeError: run is a list; expected {qid: {doc: score}}, {qid: [doc, ...]} (ranked), \
a RunTable, a pandas or polars DataFrame (q_id, doc_id, score columns), or the path of a run file
    """
    from .._runs.table import RunTable  # numpy, only once something is scored

    if isinstance(run, (RunTable, RankedLists, os.PathLike)) or is_table(run):
        return
    hint = lazy_frame_hint(run)
    if hint is not None:
        raise TypeError(f"run is {hint}; expected {RUN_SHAPES}")
    if isinstance(run, str):
        if "\n" in run or "\t" in run:  # the text of a run file, not its path
            raise TypeError(
                f"run is a str of {run.count(chr(10)) + 1} lines, not a path; expected "
                f"{RUN_SHAPES}: write the text to a file, or pass its path"
            )
        return
    if not isinstance(run, Mapping):
        raise TypeError(f"run is a {_kind(run)}; expected {RUN_SHAPES}")
    for query_id, ranked in run.items():
        if isinstance(ranked, (Mapping, list, tuple)):
            continue
        raise TypeError(
            f"run[{query_id!r}] is a {_kind(ranked)}; expected {{doc: score}} or "
            f"[doc, ...] for each query (the run: {RUN_SHAPES})"
        )


def _grade_error(query_id: object, doc_id: object, grade: object) -> str | None:
    if isinstance(grade, bool) or not isinstance(grade, numbers.Real):
        return "a grade is a number, e.g. 0, 1 or 2"
    if not is_finite(grade):  # NaN, an infinity, or an int past a float's range
        return "a grade is a finite number, e.g. 0, 1 or 2"
    return None


def _grades(qrels: Mapping[str, Mapping[str, object]]) -> Iterable[object]:
    return itertools.chain.from_iterable(judged.values() for judged in qrels.values())


def check_qrels(qrels: object) -> None:
    """Refuse qrels that are not ``{qid: {doc: grade}}`` (a ``TypeError``) or hold a grade
    that is no finite number (a ``ValueError`` naming the query and the doc).

    >>> check_qrels({"q1": {"d1": 1, "d3": float("inf")}})
    Traceback (most recent call last):
        ...
    ValueError: qrels['q1']['d3'] = inf: a grade is a finite number, e.g. 0, 1 or 2
    """
    if not isinstance(qrels, Mapping):
        hint = lazy_frame_hint(qrels)
        shown = hint if hint is not None else f"a {_kind(qrels)}"
        raise TypeError(f"qrels is {shown}; expected {QRELS_SHAPES}")
    # The usual qrels, dicts of plain numbers whose sum is finite, pass in C-level passes
    # over every grade; anything else is looked at query by query.
    if set(map(type, qrels.values())) == {dict} and plain_finite(list(_grades(qrels))):
        return
    _refuse_first_fault(qrels)


def _refuse_first_fault(qrels: Mapping[object, object]) -> None:
    """Refuse the first query, in order, that is no ``{doc: grade}`` mapping or holds a grade
    that is no finite number."""
    for query_id, judged in qrels.items():
        if not isinstance(judged, Mapping):
            raise TypeError(
                f"qrels[{query_id!r}] is a {_kind(judged)}; expected {{doc: grade}} for each "
                f"query (the qrels: {QRELS_SHAPES})"
            )
        if plain_finite(judged.values()):
            continue
        for doc_id, grade in judged.items():
            problem = _grade_error(query_id, doc_id, grade)
            if problem is not None:
                shown = reprlib.repr(grade)
                raise ValueError(f"qrels[{query_id!r}][{doc_id!r}] = {shown}: {problem}")


def _relevant(qrels: Qrels) -> list[str]:
    return [q for q, judged in qrels.items() if any(grade > 0 for grade in judged.values())]


def check_overlap(
    run: RankedRun, qrels: Qrels, averaging: str = "qrels", *, stacklevel: int = 4
) -> None:
    """Refuse a run that answers none of the judged queries; warn if it answers fewer than
    half of them (an :class:`~ef.evaluation.InputWarning`, from ``stacklevel`` frames up:
    by default the caller of the public function that called :func:`load_inputs`).

    Only queries with a relevant doc count: the others are skipped, so a run that shares
    only them would score 0 for every query; under ``averaging="run"`` they are scored (as
    trec_eval scores them), so there any judged query in common will do. Qrels with no
    relevant doc at all are left to the scoring rules (which skip every query and say so).
    """
    relevant = _relevant(qrels)
    if not relevant:
        return
    present = [q for q in relevant if q in run]
    shared = present or (averaging == "run" and any(q in qrels for q in run.query_ids))
    if not shared:
        raise ValueError(_no_overlap_message(list(run.query_ids), qrels, relevant))
    if 2 * len(present) < len(relevant):
        _warn_few_answered(run, relevant, len(present), averaging, stacklevel=stacklevel)


def _warn_few_answered(
    run: RankedRun, relevant: Sequence[str], answered: int, averaging: str, *, stacklevel: int
) -> None:
    """Warn that the run answers only ``answered`` of the ``relevant`` queries, saying what
    becomes of the missing ones under ``averaging``."""
    missing = [q for q in relevant if q not in run]
    fate = (
        ("score 0",)
        if averaging == "qrels"
        else ("are not scored (", Keyword("averaging", averaging), ")")
    )
    warnings.warn(
        InputWarning(
            f"the run answers only {answered} of the {len(relevant)} judged queries "
            f"(with a relevant doc); the {len(missing)} missing ones, e.g. "
            f"{shown_ids(missing)}, ",
            *fate,
            ": is it the run of these qrels?",
        ),
        stacklevel=stacklevel + 1,
    )


def _no_overlap_message(run_ids: Sequence[object], qrels: Qrels, relevant: Sequence[str]) -> str:
    judged = f"qrels has {len(relevant)} judged queries {shown_ids(relevant)}"
    if not run_ids:
        return f"no query can be scored: the run is empty ({judged})"
    if any(q in qrels for q in run_ids):
        head = f"none of the {len(relevant)} queries with a relevant doc in qrels is in the run"
    else:
        head = "no query in common between the run and qrels"
    message = (
        f"no query can be scored, {head}: the run has {len(run_ids)} queries "
        f"{shown_ids(run_ids)}, {judged}"
    )
    cause = no_overlap_cause(run_ids, relevant, ("run", "qrels"))
    return with_cause(message, cause) + ". Nothing was scored: is it a run of another collection?"


def _is_parquet(value: object, format: str | None, registry: Registry) -> bool:
    """True if ``value`` is the path of a Parquet file (named so by ``format``, or detected)."""
    if not isinstance(value, (str, os.PathLike)):
        return False
    if format is not None:
        return format == "parquet"
    path = Path(value)
    fmt = registry.formats.get("parquet")
    return fmt is not None and fmt.detect is not None and path.is_file() and fmt.detect(path)


def _table_of(
    value: object, what: str, format: str | None, columns: Columns, registry: Registry
) -> object:
    """``value`` as a table if ``columns`` names a table's columns: a DataFrame as it is, a
    Parquet file read; anything else is an error (the columns would name nothing)."""
    if is_table(value) or columns is None:
        return value
    if _is_parquet(value, format, registry):
        kind = "a run" if what == "run" else what
        return read_parquet_rows(Path(value), kind)  # type: ignore[arg-type]  # a path: checked
    if isinstance(value, (str, os.PathLike)):
        named = (
            format or format_for(Path(value), None, f"read_{what}", registry, must_exist=True).name
        )
        problem = f"{value} is a {named} file"
    else:
        problem = f"the {what} is a {_kind(value)}"
    raise ArgumentError(
        Keyword(f"{what}_columns"),
        f" names the columns of a DataFrame or a Parquet file; {problem}",
    )


def tabular(value: object, format: str | None, registry: Registry) -> bool:
    """True for a run or qrels held as a table (a DataFrame, a Parquet file): its readers
    cannot tell a run from qrels, since ranx's columns are the same for both."""
    return is_table(value) or _is_parquet(value, format, registry)


def load_inputs(
    run: RunInput | RunTable | RankedRun | DataFrameLike | str | os.PathLike[str],
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    registry: Registry,
    files: InputFiles = InputFiles(),  # frozen: one value serves every call
    *,
    check_swapped: bool = True,
    averaging: str = "qrels",
    stacklevel: int = 4,
) -> tuple[RankedRun, Qrels]:
    """The run as a run value and the judgements, once every check above has passed
    (``averaging`` decides which queries count as shared, see :func:`check_overlap`, and
    ``stacklevel`` where its warning points).

    ``files`` gives the formats of paths and the (query, doc, score or grade) columns of
    a DataFrame or Parquet file; ``None`` finds them (:mod:`ef.evaluation._formats.frames`).
    """
    run_format, run_columns = files.run_format, files.run_columns
    qrels_format, qrels_columns = files.qrels_format, files.qrels_columns
    check_run_shape(run)
    judged = load_qrels(qrels, registry, qrels_format, columns=qrels_columns)
    table = run_value(run, registry, run_format, columns=run_columns)
    if check_swapped:  # swapped.py loads where a check applies: never for two files of lines
        if isinstance(run, Mapping):
            from .swapped import check_not_swapped

            check_not_swapped(run, judged, stacklevel=stacklevel)
        elif tabular(run, run_format, registry) or tabular(qrels, qrels_format, registry):
            from .swapped import check_not_swapped

            # Files of lines are told apart by their readers. Two DataFrames keep the types
            # of their value columns, which reading loses (2.0 as a grade reads as 2).
            types = None
            if is_table(run) and is_table(qrels):
                types = (
                    value_type(run, "run", run_columns),
                    value_type(qrels, "qrels", qrels_columns),
                )
            check_not_swapped(table, judged, types=types, stacklevel=stacklevel)
        elif not isinstance(qrels, (str, os.PathLike)):
            from .swapped import check_not_swapped

            check_not_swapped(run, judged, stacklevel=stacklevel)
    check_overlap(table, judged, averaging, stacklevel=stacklevel)
    return table, judged


def load_run(
    run: RunInput | RunTable | RankedRun | DataFrameLike | str | os.PathLike[str],
    registry: Registry,
    format: str | None = None,
    *,
    columns: Columns = None,
) -> RankedRun:
    """The run as a run value: read from a path (``format`` or detected), or built from a
    mapping (ranked lists are kept as they are, with no table to build) or a DataFrame
    (``columns`` names its query, doc and score columns). A run of another shape is a
    ``TypeError``."""
    check_run_shape(run)
    return run_value(run, registry, format, columns=columns)


def load_named_run(
    label: str,
    run: RunInput | RunTable | RankedRun | DataFrameLike | str | os.PathLike[str],
    registry: Registry,
    format: str | None = None,
) -> RankedRun:
    """:func:`load_run` for one of several runs (``fuse``, ``pool``): an error about a run
    held in memory starts with ``label``, the run's name there (a path's reader names its
    file already, and a mapping's message says "run", not which)."""
    try:
        return load_run(run, registry, format)
    except (TypeError, ValueError) as exc:
        if isinstance(run, (str, os.PathLike)) or type(exc) not in (TypeError, ValueError):
            raise
        raise type(exc)(f"{label}: {exc}") from exc


def load_qrels(
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    registry: Registry,
    format: str | None = None,
    *,
    columns: Columns = None,
) -> Qrels:
    """The judgements, read if ``qrels`` is a path (``format`` or detected; the reader
    checks them), made of a DataFrame (``columns`` names its query, doc and grade columns),
    checked if a mapping. A path may be an fsspec URL (``s3://bucket/qrels.txt``): its file is
    copied to a local one and read as that, its sha256 kept for the manifest."""
    if is_url(qrels):  # local_copy refuses first a URL that fsspec cannot read
        from .._formats.remote import local_copy, named_as

        with local_copy(qrels, "qrels") as copy, named_as(qrels, copy.path):
            return load_qrels(copy.path, registry, format, columns=columns)
    if is_irds(qrels):  # an ir_datasets id (formats.irds)
        return read_qrels(qrels, format, registry=registry)
    source = _table_of(qrels, "qrels", format, columns, registry)
    if is_table(source):
        where = "the qrels DataFrame" if source is qrels else str(qrels)
        return qrels_of_table(source, columns, where=where)
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(Path(qrels), format, registry=registry)
    check_qrels(qrels)
    return cast("Qrels", qrels)


def run_value(
    run: RunInput | RunTable | RankedRun | DataFrameLike | str | os.PathLike[str],
    registry: Registry,
    format: str | None,
    *,
    columns: Columns = None,
) -> RankedRun:
    from .._runs.table import RunTable

    if is_table(run):
        return RunTable.from_frame(run, columns=columns)
    if columns is not None and _is_parquet(run, format, registry):
        return RunTable.from_parquet(run, columns=columns)  # type: ignore[arg-type]  # a path
    _table_of(run, "run", format, columns, registry)  # columns= of any other run: refused
    if is_irds(run):  # an ir_datasets id's scoreddocs (formats.irds), not a file
        run = read_run(run, format, registry=registry)
    elif isinstance(run, (str, os.PathLike)):
        return RunTable.read(Path(run), format, registry=registry)
    if isinstance(run, (RunTable, RankedLists)):
        return run
    mapping = cast("Mapping[str, object]", run)
    if all(isinstance(r, (list, tuple)) for r in mapping.values()):
        return RankedLists(cast("Mapping[str, Sequence[str]]", run))
    return RunTable.from_dict(cast("RunInput", run))
