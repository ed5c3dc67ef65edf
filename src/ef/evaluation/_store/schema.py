"""The store's one schema, its versions, and a record as a row and back: shared by every
backend, which adds only its connection, its placeholders and its column types.

Two tables hold the evaluations. ``ef_records``: a row per record, its report as the JSON of
``RetrievalEvalReport.to_dict()`` (the metrics and their parameters, the per-query values,
the manifest with the run and qrels digests), and beside it what reads select on: system,
dataset, time (ISO 8601 in UTC, so that text order is time order), commit, tags (a JSON
list) and the two digests. ``ef_metrics``: a row per record and metric, its mean, what
``history`` and ``leaderboard`` read without parsing any report. ``ef_meta`` holds
``schema_version``.

A store is built by its migrations, one step a version, each in the one transaction that
also sets the version: version 1 made the records table, version 2 added the digests and
the metrics table (filled from each record's report). A new store runs them all, so every
step runs in every test. A store of a newer version than :data:`SCHEMA_VERSION` is refused.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

import attrs

from .._reports.retrieval import RetrievalEvalReport
from .record import Record

__all__ = [
    "COLUMNS",
    "INSERT_METRIC",
    "INSERT_RECORD",
    "SCHEMA_VERSION",
    "STEPS",
    "Dialect",
    "digests",
    "metric_rows",
    "record_of",
    "record_row",
    "report_json",
    "row_fields",
]

#: The schema this ef-evaluation writes, and the newest it reads.
SCHEMA_VERSION = 2


@attrs.frozen
class Dialect:
    """What differs between the backends' SQL: the key column's type, the float type."""

    key: str  # an integer key the database numbers itself
    real: str


#: The columns of a record, in the order :func:`record_of` reads them.
COLUMNS = "id, system, dataset, recorded_at, commit_sha, tags, report"

INSERT_RECORD = (
    "INSERT INTO ef_records (system, dataset, recorded_at, commit_sha, tags, report, "
    "run_sha256, qrels_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
INSERT_METRIC = "INSERT INTO ef_metrics (record_id, metric, value) VALUES (?, ?, ?)"


Execute = Callable[[str, Sequence[Any]], None]
Rows = Callable[[str, Sequence[Any]], Iterable[Sequence[Any]]]


def _step_1(dialect: Dialect, execute: Execute, _rows: Rows) -> None:
    execute(
        f"CREATE TABLE ef_records (id {dialect.key} PRIMARY KEY, system TEXT NOT NULL, "
        "dataset TEXT NOT NULL, recorded_at TEXT NOT NULL, commit_sha TEXT, "
        "tags TEXT NOT NULL, report TEXT NOT NULL)",
        (),
    )
    execute("CREATE INDEX ef_records_by_time ON ef_records (dataset, system, recorded_at)", ())


def _step_2(dialect: Dialect, execute: Execute, rows: Rows) -> None:
    execute("ALTER TABLE ef_records ADD COLUMN run_sha256 TEXT", ())
    execute("ALTER TABLE ef_records ADD COLUMN qrels_sha256 TEXT", ())
    execute(
        "CREATE TABLE ef_metrics (record_id INTEGER NOT NULL REFERENCES ef_records (id), "
        f"metric TEXT NOT NULL, value {dialect.real}, PRIMARY KEY (record_id, metric))",
        (),
    )
    execute("CREATE INDEX ef_metrics_by_metric ON ef_metrics (metric, record_id)", ())
    for key, text in rows("SELECT id, report FROM ef_records ORDER BY id", ()):
        report = RetrievalEvalReport.from_dict(json.loads(text))
        run, qrels = digests(report)
        execute(
            "UPDATE ef_records SET run_sha256 = ?, qrels_sha256 = ? WHERE id = ?",
            (run, qrels, key),
        )
        for row in metric_rows(key, report):
            execute(INSERT_METRIC, row)


#: ``STEPS[v]`` takes a store of version ``v`` to ``v + 1``.
STEPS: dict[int, Callable[[Dialect, Execute, Rows], None]] = {0: _step_1, 1: _step_2}


def _plain(value: Any) -> Any:
    """JSON has no NaN: null, which the report reads back as NaN; an infinity as the
    string the report reads back."""
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, Mapping):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(inner) for inner in value]
    return value


def report_json(report: RetrievalEvalReport) -> str:
    """The report as the store keeps it: the JSON of its ``to_dict()``."""
    return json.dumps(_plain(report.to_dict()), separators=(",", ":"), allow_nan=False)


def digests(report: RetrievalEvalReport) -> tuple[str | None, str | None]:
    """The sha256 of the run and of the qrels in the report's manifest (None for one given
    in memory; a sharded run is its shards' digests joined)."""
    inputs = report.manifest.get("inputs") or {}

    def one(entry: Any) -> str | None:
        if isinstance(entry, Mapping):
            return entry.get("sha256")
        if isinstance(entry, (list, tuple)) and entry:
            found = [one(part) for part in entry]
            return ",".join(found) if all(found) else None  # type: ignore[arg-type]
        return None

    return one(inputs.get("run")), one(inputs.get("qrels"))


def metric_rows(key: int, report: RetrievalEvalReport) -> list[tuple[int, str, float | None]]:
    """The rows of ``ef_metrics`` for a record: each mean, None for NaN."""
    return [
        (key, metric, None if value is None or math.isnan(value) else float(value))
        for metric, value in report.metrics.items()
    ]


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def record_row(record: Record) -> tuple[Any, ...]:
    """The values of :data:`INSERT_RECORD` for ``record``."""
    run, qrels = digests(record.report)
    return (
        record.system,
        record.dataset,
        _utc(record.recorded_at),
        record.commit,
        json.dumps(list(record.tags)),
        report_json(record.report),
        run,
        qrels,
    )


def row_fields(row: Sequence[Any]) -> tuple[dict[str, Any], Any]:
    """What a record's row begins with (id, system, dataset, time, commit, tags) as keyword
    arguments, and the column after them: the report of :data:`COLUMNS`, or the value a read
    selects.

    >>> fields, last = row_fields((7, "bm25", "scifact", "2026-12-02T00:00:00", None, '["a"]', 0.5))
    >>> fields["id"], fields["recorded_at"].year, fields["tags"], last
    (7, 2026, ['a'], 0.5)
    """
    key, system, dataset, recorded_at, commit, tags, last = row
    fields = {
        "id": int(key),
        "system": system,
        "dataset": dataset,
        "recorded_at": datetime.fromisoformat(recorded_at),
        "commit": commit,
        "tags": json.loads(tags),
    }
    return fields, last


def record_of(row: Sequence[Any]) -> Record:
    """The record of a row of :data:`COLUMNS`."""
    fields, report = row_fields(row)
    return Record(**fields, report=RetrievalEvalReport.from_dict(json.loads(report)))
