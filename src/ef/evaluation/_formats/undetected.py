"""Why no format recognised a file, where that can be told, and what to do instead.

"Cannot tell the format" reads like a bug when the file is empty, or is a CSV table (which
no run or qrels format reads): those get their own message, naming the file.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = pathlib.Path(tmp, "run.csv")
...     _ = path.write_text("q,doc,score\\nq1,d1,0.5\\n")
...     print(csv_columns(path))
CsvTable(columns=('q', 'doc', 'score'), header=True)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from ..errors import DatasetFormatError, FormatNotDetectedError, Keyword
from ._io import first_line, gzip_damage
from .frames import QRELS_COLUMN_SETS, RUN_COLUMN_SETS

__all__ = ["CsvTable", "cli_csv_hint", "csv_columns", "undetected_error"]

#: What a file read for each capability holds, for "expected ..." in a message.
_EXPECTED = {
    "read_run": "a run",
    "read_qrels": "qrels",
    "read_queries": "queries",
    "read_samples": "RAG samples",
    "read_dataset": "a dataset",
}
_SCAN = 1 << 16  # bytes read to tell a file of blank or comment lines from one of data


class CsvTable(NamedTuple):
    """The first line of a comma-separated file: its column names, or its first row's
    values when ``header`` is False."""

    columns: tuple[str, ...]
    header: bool


def undetected_error(path: Path, capability: str, able: Sequence[str]) -> Exception:
    """The error for ``path``, which no format of ``able`` recognises for ``capability``."""
    formats = ", ".join(able)
    expected = _EXPECTED.get(capability, capability.replace("_", " ").removeprefix("read "))
    if path.is_dir():
        return _undetected_folder(path, capability, formats)
    empty = _emptiness(path)
    if empty is not None:
        return DatasetFormatError(f"{path}: {empty}; expected {expected} ({formats})")
    table = csv_columns(path) if capability in ("read_run", "read_qrels") else None
    if table is not None and _is_pool(table):
        return FormatNotDetectedError(_pool_hint(path), path=path, capability=capability)
    if table is not None:
        kind = "run" if capability == "read_run" else "qrels"
        return FormatNotDetectedError(
            f"{path} looks like a CSV table ({_described(table)}), which no {kind} format "
            f"reads ({formats}); read it as a DataFrame and pass that: "
            f"{_api_hint(path, kind, table)}",
            path=path,
            capability=capability,
        )
    return FormatNotDetectedError(
        f"cannot tell the format of {path} to {capability.replace('_', ' ')}; name it with ",
        Keyword("format"),
        f" (one of: {formats})",
        path=path,
        capability=capability,
    )


def _undetected_folder(path: Path, capability: str, formats: str) -> FormatNotDetectedError:
    try:
        names = sorted(entry.name for entry in os.scandir(path))
    except OSError:
        names = []
    shown = ", ".join(names[:8]) + (f", ... ({len(names)} entries)" if len(names) > 8 else "")
    holds = f"which holds {shown}" if names else "which is empty"
    return FormatNotDetectedError(
        f"cannot tell the format of {path} to {capability.replace('_', ' ')}: the folder "
        f"{path.resolve()}, {holds}; name it with ",
        Keyword("format"),
        f" (one of: {formats})",
        path=path,
        capability=capability,
    )


def _emptiness(path: Path) -> str | None:
    """What makes ``path`` empty: no byte, no data once gunzipped, or blank or comment lines
    only; None for a file with data (or one that cannot be read: its reader will say why)."""
    try:
        if path.stat().st_size == 0:
            return "the file is empty (0 bytes)"
        with open(path, "rb") as raw:
            gzipped = raw.read(2) == b"\x1f\x8b"
        if gzipped:
            import gzip  # a gzip file's only
        with gzip.open(path, "rb") if gzipped else open(path, "rb") as handle:
            data = handle.read(_SCAN + 1)
    except OSError:
        return None
    except gzip_damage():  # a damaged gzip file: its reader will say so
        return None
    if not data:
        return "the file is empty (a gzip file of 0 bytes once decompressed)"
    return _no_data(data) if len(data) <= _SCAN else None


def _no_data(data: bytes) -> str | None:
    """Why the whole of a (short) file holds no data line, or None if it holds one."""
    lines = data.decode("utf-8", errors="replace").removeprefix("\ufeff").splitlines()
    if all(not line.strip() for line in lines):
        return f"the file holds no data: {len(lines)} blank lines"
    if all(not line.strip() or line.lstrip().startswith("#") for line in lines):
        return "the file holds no data: only comment lines (starting with '#')"
    return None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_columns(path: Path) -> CsvTable | None:
    """The first line of ``path`` if it is comma-separated (two fields or more, no tab), as a
    header when no field of it is a number; None for any other file."""
    line = first_line(path)
    if line is None or "," not in line or "\t" in line:
        return None
    import csv  # for a comma-separated line only

    with contextlib.suppress(csv.Error, StopIteration):
        fields = next(csv.reader([line]))
        if len(fields) >= 2:
            columns = tuple(field.strip() for field in fields)
            return CsvTable(columns, header=not any(_is_number(c) for c in columns))
    return None


def _described(table: CsvTable) -> str:
    if table.header:
        return f"columns {', '.join(table.columns)}"
    return f"no header line; its first row is {','.join(table.columns)}"


def _known_set(table: CsvTable, kind: str) -> tuple[str, str, str] | None:
    """The (query, doc, value) columns a table reader finds in this header by itself."""
    sets = RUN_COLUMN_SETS if kind == "run" else QRELS_COLUMN_SETS
    found = [cols for cols in sets.values() if set(cols) <= set(table.columns)]
    return found[0] if len(found) == 1 else None


def _columns(table: CsvTable, kind: str) -> tuple[tuple[str, str, str] | None, bool]:
    """The table's (query, doc, value) columns, if they can be told, and whether they must
    be named (``run_columns=``) since no table reader would find them by itself."""
    known = _known_set(table, kind)
    if known is not None:
        return known, False
    if len(table.columns) == 3:
        query, doc, value = table.columns
        return (query, doc, value), True
    return None, True


def _ranx(kind: str) -> tuple[str, str, str]:
    return RUN_COLUMN_SETS["ranx"] if kind == "run" else QRELS_COLUMN_SETS["ranx"]


def _api_hint(path: Path, kind: str, table: CsvTable) -> str:
    """``evaluate_run(polars.read_csv(...), ...)``: polars is a core dependency. Ids are
    read as str, or ``007`` would be the int 7 and match no id of the other side."""
    place = "qrels" if kind == "run" else "run"
    if not table.header:
        if len(table.columns) != 3:
            return (
                f"polars.read_csv({str(path)!r}, has_header=False, new_columns=[...]) naming "
                f"its columns, and evaluate_run(..., {kind}_columns=(query, doc, "
                f"{'score' if kind == 'run' else 'grade'}))"
            )
        query, doc, _ = names = _ranx(kind)
        read = (
            f"polars.read_csv({str(path)!r}, has_header=False, new_columns={list(names)!r}, "
            f"schema_overrides={{{query!r}: polars.String, {doc!r}: polars.String}})"
        )
        named = ""
    else:
        columns, must_name = _columns(table, kind)
        if columns is None:
            what = "score" if kind == "run" else "grade"
            read = f"polars.read_csv({str(path)!r})"
            pair = f"{read}, {place}" if kind == "run" else f"{place}, {read}"
            return (
                f"evaluate_run({pair}, {kind}_columns=(query, doc, {what})) naming its query, "
                f"doc and {what} columns among {', '.join(table.columns)} (read the id columns "
                "as str: schema_overrides=)"
            )
        query, doc, _ = columns
        read = (
            f"polars.read_csv({str(path)!r}, schema_overrides={{{query!r}: polars.String, "
            f"{doc!r}: polars.String}})"
        )
        named = f", {kind}_columns={columns!r}" if must_name else ""
    pair = f"{read}, {place}" if kind == "run" else f"{place}, {read}"
    return f"evaluate_run({pair}{named})"


def _polars_read(
    source: Path, table: CsvTable, kind: str, names: tuple[str, str, str]
) -> str | None:
    """The polars call that reads the CSV table at ``source`` with ranx's column ``names``,
    or None if its columns cannot be told."""
    query, doc, _ = names
    strings = f"schema_overrides={{{query!r}: pl.String, {doc!r}: pl.String}}"
    if not table.header and len(table.columns) == 3:
        read = f"pl.read_csv({str(source)!r}, has_header=False, new_columns={list(names)!r}, "
        return read + f"{strings})"
    if not table.header or (columns := _columns(table, kind)[0]) is None:
        return None
    rename = {old: new for old, new in zip(columns, names, strict=True) if old != new}
    overrides = f"schema_overrides={{{columns[0]!r}: pl.String, {columns[1]!r}: pl.String}}"
    read = f"pl.read_csv({str(source)!r}, {overrides})"
    if rename:
        read += f".rename({rename!r})"
    return read


def cli_csv_hint(path: object, capability: str) -> str | None:
    """For ``ef-eval``: how to turn the CSV table at ``path`` into a Parquet file it reads
    (ranx's column names, so no other option is needed), or None if ``path`` is no CSV table."""
    if capability not in ("read_run", "read_qrels") or not isinstance(path, (str, os.PathLike)):
        return None
    source = Path(path)
    table = csv_columns(source)
    if table is None:
        return None
    if _is_pool(table):
        return _pool_hint(source)
    kind = "run" if capability == "read_run" else "qrels"
    target = source.with_suffix(".parquet")
    names = _ranx(kind)
    read = _polars_read(source, table, kind, names)
    if read is None:
        return (
            f"{source} looks like a CSV table ({_described(table)}), which ef-eval does not "
            f"read; save it as Parquet with ranx's columns {', '.join(names)} (query, doc, "
            f"{'score' if kind == 'run' else 'grade'}) and pass that file"
        )
    return (
        f"{source} looks like a CSV table ({_described(table)}), which ef-eval does not "
        f'read; save it as Parquet and pass that: python -c "import polars as pl; '
        f'{read}.write_parquet({str(target)!r})", then give {target}'
    )


def _is_pool(table: CsvTable) -> bool:
    """True for the CSV form of a pool to judge (``ef-eval pool -o pool.csv``)."""
    from .pool import POOL_HEADER

    return tuple(column.lower() for column in table.columns) == POOL_HEADER


def _pool_hint(path: Path) -> str:
    return (
        f"{path} looks like a pool to judge (the CSV ef-eval pool writes), which is no qrels "
        "until its grades are filled in; then merge it into the qrels there were: "
        f"merge_qrels(qrels, {str(path)!r}) (ef.evaluation), and score with what it returns"
    )
