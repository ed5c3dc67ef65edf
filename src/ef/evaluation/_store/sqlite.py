"""The SQLite backend: one file, the standard library's ``sqlite3``, in WAL mode.

WAL lets readers read while one process writes; writers take the file's write lock at the
start of their transaction (``BEGIN IMMEDIATE``) and wait for one another, up to
:data:`TIMEOUT` seconds, instead of failing. A writer killed mid-transaction leaves its
pages uncommitted in the log: the next opener rolls them back.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import StoreError
from .schema import Dialect
from .store import Cursor, Store

__all__ = ["TIMEOUT", "SQLiteStore"]

#: How long a writer waits for another's transaction to end, in seconds.
TIMEOUT = 60.0


class SQLiteStore(Store):
    """A store in the SQLite file ``path`` (made, with its folder, if absent)."""

    dialect = Dialect(key="INTEGER", real="REAL")  # an INTEGER PRIMARY KEY is the rowid

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.url = str(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit mode: the transactions are the explicit BEGIN ... COMMIT below.
            self._connection = sqlite3.connect(self.path, timeout=TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the store {self.url}: {error}", url=self.url) from error
        try:
            self._wal()
        except sqlite3.Error as error:
            self._connection.close()
            raise StoreError(f"cannot open the store {self.url}: {error}", url=self.url) from error
        self._migrated()

    def _wal(self) -> None:
        """Put the file in WAL mode (once for good: the mode is kept in the file)."""
        # Switching a new file to WAL takes an exclusive lock, and SQLite answers "database
        # is locked" at once, without waiting as the busy timeout does for a transaction,
        # when another process opening the same new file holds it. Ask again until then.
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                self._connection.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
            time.sleep(0.01)

    @contextlib.contextmanager
    def _transaction(self, *, write: bool = False, exclusive: bool = False) -> Iterator[Cursor]:
        # A transaction that writes starts IMMEDIATE: it waits for the write lock up front,
        # rather than failing when a read lock cannot be upgraded (SQLITE_BUSY). A read
        # sees one snapshot, and WAL lets it run beside a writer.
        cursor = self._connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE" if write or exclusive else "BEGIN")
        except sqlite3.Error as error:
            raise StoreError(f"cannot use the store {self.url}: {error}", url=self.url) from error
        try:
            yield cursor
        except BaseException:
            self._connection.rollback()
            raise
        else:
            try:
                cursor.execute("COMMIT")
            except sqlite3.Error as error:
                self._connection.rollback()
                raise StoreError(
                    f"cannot write to the store {self.url}: {error}", url=self.url
                ) from error
        finally:
            cursor.close()

    def close(self) -> None:
        self._connection.close()
