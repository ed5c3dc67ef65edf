"""The PostgreSQL backend: a team's shared store, through ``psycopg`` 3.

``psycopg`` is imported when a ``postgresql://`` URL is opened, never otherwise (``pip
install "ef-evaluation[postgresql]"``). Each write is a transaction; migrations run under a
transaction-scoped advisory lock, so two processes opening a new database at once build
the schema once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..errors import MissingDependencyError, StoreError
from .location import shown
from .schema import Dialect
from .store import Cursor, Store

__all__ = ["PostgreSQLStore"]

# pg_advisory_xact_lock's key for the schema: any fixed number ("ef" in ASCII).
_SCHEMA_LOCK = 0x6566


class PostgreSQLStore(Store):
    """A store in the PostgreSQL database at ``url`` (a libpq connection URI)."""

    dialect = Dialect(key="BIGINT GENERATED ALWAYS AS IDENTITY", real="DOUBLE PRECISION")

    def __init__(self, url: str) -> None:
        self.url = shown(url)
        try:
            import psycopg
        except ImportError as error:
            raise MissingDependencyError(
                f"a PostgreSQL store ({self.url}) needs psycopg: "
                'pip install "ef-evaluation[postgresql]"'
            ) from error
        self._psycopg: Any = psycopg
        try:
            # autocommit: each transaction() block is the one transaction, committed at its end
            self._connection = psycopg.connect(url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(
                f"cannot open the store {self.url}: {' '.join(str(error).split())}",
                url=self.url,
            ) from error
        self._migrated()

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s")

    @contextlib.contextmanager
    def _transaction(self, *, write: bool = False, exclusive: bool = False) -> Iterator[Cursor]:
        try:
            with self._connection.transaction(), self._connection.cursor() as cursor:
                if exclusive:
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                yield cursor
        except self._psycopg.Error as error:
            raise StoreError(
                f"the store {self.url}: {' '.join(str(error).split())}", url=self.url
            ) from error

    def close(self) -> None:
        self._connection.close()
