"""The store of evaluations: recorded reports over time, across systems and datasets.

:func:`open_store` opens one by URL: a SQLite file (the default, in the platform's data
folder; :mod:`.location`) or a PostgreSQL database a team shares. :class:`Store` writes
:class:`Record` values and reads them back, as records, as a metric's history and as a
dataset's leaderboard.

>>> import pathlib, tempfile
>>> from datetime import datetime, timezone
>>> from ef.evaluation import evaluate_run
>>> report = evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, metrics=["ndcg@10"])
>>> with open_store(pathlib.Path(tempfile.mkdtemp()) / "store.sqlite") as store:
...     written = store.record(Record(system="bm25", dataset="demo", report=report,
...                                   recorded_at=datetime.now(timezone.utc)))
...     store.last("bm25", "demo") == written
True
"""

from __future__ import annotations

import os

from .location import ENVIRONMENT, default_path, store_url, where
from .reads import History, Leaderboard, Row
from .record import Record
from .schema import SCHEMA_VERSION
from .store import Store

__all__ = [
    "ENVIRONMENT",
    "SCHEMA_VERSION",
    "History",
    "Leaderboard",
    "Record",
    "Row",
    "Store",
    "default_path",
    "open_store",
]


def open_store(url: str | os.PathLike[str] | None = None) -> Store:
    """The store at ``url``: ``sqlite:///path/to/store.sqlite`` or a file path (SQLite),
    or ``postgresql://user@host/database``. ``None`` is ``EF_EVALUATION_STORE`` if set, else
    the default file (see :doc:`/experiments`). A new store is made; an older one is migrated.

    Raises:
        StoreSchemaError: for a store written by a newer ef-evaluation.
        StoreError: if the store cannot be opened.
        MissingDependencyError: for a PostgreSQL URL without psycopg installed.
        ValueError: for a URL of another scheme.
    """
    kind, target = where(store_url(url))
    if kind == "postgresql":
        from .postgresql import PostgreSQLStore

        return PostgreSQLStore(target)
    from .sqlite import SQLiteStore

    return SQLiteStore(target)
