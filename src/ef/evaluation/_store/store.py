"""The store of evaluations: one class over any backend, its reads and its one write.

A backend (``sqlite``, ``postgresql``) gives a connection and its transactions; everything
else, the SQL included, is here and in :mod:`.schema`, written once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Protocol

import attrs

from ..errors import StoreSchemaError
from .reads import History, Leaderboard, Row, resolve_key
from .record import Record
from .schema import (
    COLUMNS,
    INSERT_METRIC,
    INSERT_RECORD,
    SCHEMA_VERSION,
    STEPS,
    Dialect,
    metric_rows,
    record_of,
    record_row,
)

__all__ = ["Cursor", "Store"]


class Cursor(Protocol):
    """What the store asks of a DB-API cursor."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


class Store:
    """Recorded evaluations: :meth:`record` writes one, :meth:`records`, :meth:`last`,
    :meth:`history` and :meth:`leaderboard` read them. Open one with
    :func:`~ef.evaluation.open_store`; close it with :meth:`close` or a ``with`` block.

    Every write is one transaction: a writer killed half-way leaves the store as it was,
    and two processes recording at once both keep their records.
    """

    #: The store's URL (a file path for SQLite), without a password.
    url: str
    dialect: Dialect

    # -- what a backend gives -------------------------------------------------------------

    def _transaction(
        self, *, write: bool = False, exclusive: bool = False
    ) -> contextlib.AbstractContextManager[Cursor]:
        """A cursor inside one transaction, committed when the block ends, rolled back when
        it raises; ``write`` for one that writes, ``exclusive`` for one that must run alone
        (a migration)."""
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        """``text`` with its ``?`` placeholders as the driver writes them."""
        return text

    def close(self) -> None:
        """Close the connection; the store is not used after."""
        raise NotImplementedError

    # -- the schema ---------------------------------------------------------------------------

    def _migrated(self) -> None:
        """:meth:`_migrate`, closing the connection if the store cannot be used."""
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    def _migrate(self) -> None:
        """Bring the store to :data:`SCHEMA_VERSION` (a new store from 0), in one exclusive
        transaction; refuse a newer one."""
        with self._transaction(exclusive=True) as cursor:
            version = self._version(cursor)
            if version > SCHEMA_VERSION:
                raise StoreSchemaError(url=self.url, found=version, supported=SCHEMA_VERSION)
            if version == SCHEMA_VERSION:
                return

            def execute(sql: str, parameters: Sequence[Any]) -> None:
                cursor.execute(self._sql(sql), parameters)

            def rows(sql: str, parameters: Sequence[Any]) -> list[Any]:
                cursor.execute(self._sql(sql), parameters)
                return cursor.fetchall()

            for step in range(version, SCHEMA_VERSION):
                STEPS[step](self.dialect, execute, rows)
            execute(
                "UPDATE ef_meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
            )

    def _version(self, cursor: Cursor) -> int:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS ef_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
        )
        cursor.execute("SELECT value FROM ef_meta WHERE key = 'schema_version'")
        found = cursor.fetchone()
        if found is None:
            cursor.execute("INSERT INTO ef_meta (key, value) VALUES ('schema_version', '0')")
            return 0
        return int(found[0])

    @property
    def schema_version(self) -> int:
        """The store's schema version: the newest this ef-evaluation knows, once opened."""
        with self._transaction() as cursor:
            cursor.execute("SELECT value FROM ef_meta WHERE key = 'schema_version'")
            return int(cursor.fetchone()[0])

    # -- the write ----------------------------------------------------------------------------

    def record(self, record: Record) -> Record:
        """Write ``record`` and return it with the ``id`` the store gave it (an ``id`` it
        had from another store is not kept). One transaction: all of it, or nothing."""
        if not isinstance(record, Record):
            raise TypeError(f"a store records a Record, got {type(record).__name__}")
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql(INSERT_RECORD), record_row(record))
            key = int(cursor.fetchone()[0])
            for row in metric_rows(key, record.report):
                cursor.execute(self._sql(INSERT_METRIC), row)
        return attrs.evolve(record, id=key)

    # -- the reads ----------------------------------------------------------------------------

    def records(self, *, dataset: str | None = None, system: str | None = None) -> list[Record]:
        """Every record, or those of ``dataset`` and/or ``system``, oldest first."""
        where, parameters = _filters(dataset=dataset, system=system)
        with self._transaction() as cursor:
            cursor.execute(
                self._sql(f"SELECT {COLUMNS} FROM ef_records{where} ORDER BY recorded_at, id"),
                parameters,
            )
            return [record_of(row) for row in cursor.fetchall()]

    def last(self, system: str, dataset: str) -> Record | None:
        """The last record of ``system`` on ``dataset``, or None if there is none."""
        with self._transaction() as cursor:
            cursor.execute(
                self._sql(
                    f"SELECT {COLUMNS} FROM ef_records WHERE system = ? AND dataset = ? "
                    "ORDER BY recorded_at DESC, id DESC LIMIT 1"
                ),
                (system, dataset),
            )
            row = cursor.fetchone()
        return None if row is None else record_of(row)

    def _rows(self, metric: str, dataset: str | None, system: str | None) -> tuple[str, list[Row]]:
        """The stored key of ``metric``, and its rows, oldest first."""
        where, parameters = _filters(dataset=dataset, system=system, prefix="r.")
        with self._transaction() as cursor:
            cursor.execute("SELECT DISTINCT metric FROM ef_metrics ORDER BY metric")
            key = resolve_key(metric, [name for (name,) in cursor.fetchall()])
            cursor.execute(
                self._sql(
                    "SELECT r.id, r.system, r.dataset, r.recorded_at, r.commit_sha, r.tags, "
                    "m.value FROM ef_records r JOIN ef_metrics m ON m.record_id = r.id "
                    f"WHERE m.metric = ?{where.replace(' WHERE', ' AND')} "
                    "ORDER BY r.recorded_at, r.id"
                ),
                (key, *parameters),
            )
            return key, [Row.of(row) for row in cursor.fetchall()]

    def history(
        self, metric: str, *, system: str | None = None, dataset: str | None = None
    ) -> History:
        """``metric`` of every record (of ``system``, on ``dataset``), oldest first; a
        report with ``tables()``, the outputs of every report, and ``to_pandas()``.

        ``metric`` is a report key (``"ndcg@10"``) or the same measure in another syntax
        (``"nDCG@10"``, ``"ndcg_cut.10"``).
        """
        key, rows = self._rows(metric, dataset, system)
        return History(metric=key, system=system, dataset=dataset, rows=rows)

    def leaderboard(self, dataset: str, metric: str) -> Leaderboard:
        """Each system's last recorded ``metric`` on ``dataset``, best first (a record that
        lacks the metric is passed over for the system's last one that has it)."""
        if not isinstance(dataset, str):
            raise TypeError(f"dataset must be a str, got {type(dataset).__name__}")
        key, rows = self._rows(metric, dataset, None)
        latest = {row.system: row for row in rows}  # oldest first: each system's last stays
        return Leaderboard.ranked(dataset=dataset, metric=key, rows=latest.values())

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url}>"


def _filters(prefix: str = "", **fields: str | None) -> tuple[str, tuple[str, ...]]:
    """`` WHERE a = ? AND b = ?`` for the fields given, and their values."""
    given = {name: value for name, value in fields.items() if value is not None}
    for name, value in given.items():
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if not given:
        return "", ()
    clause = " AND ".join(f"{prefix}{name} = ?" for name in given)
    return f" WHERE {clause}", tuple(given.values())
