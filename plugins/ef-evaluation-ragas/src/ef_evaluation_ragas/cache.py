"""The verdict cache: each LLM answer a Ragas metric got, in one local SQLite file.

An answer is stored under the sha256 of the request that produced it: the prompt text, the
model id, the sample as the metric saw it, and the sampling arguments (``n``, ``temperature``,
``stop``). The same request again is answered from the file, with no LLM call. The file is
SQLite (the standard library's :mod:`sqlite3`) in WAL mode, so a reader never sees half a
write and several processes can share it; each answer is written in its own transaction.

Where it lives: the ``path`` given, else ``$EF_EVALUATION_RAGAS_CACHE``, else
``$XDG_CACHE_HOME/ef-evaluation/ragas-verdicts.sqlite3`` (``~/.cache/...`` without
``XDG_CACHE_HOME``). The report's manifest shows the path used. Delete the file to forget
every verdict.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

__all__ = ["CACHE_ENV", "CachedAnswer", "VerdictCache", "default_cache_path", "verdict_key"]

#: The environment variable that moves the default cache file.
CACHE_ENV = "EF_EVALUATION_RAGAS_CACHE"
_FILE_NAME = "ragas-verdicts.sqlite3"
#: Bumped when the meaning of a key or a row changes: old rows are then never read.
_SCHEMA = 1


def default_cache_path() -> Path:
    """The cache file used when none is given: ``$EF_EVALUATION_RAGAS_CACHE``, else the
    user's cache directory.

    >>> import os
    >>> os.environ["EF_EVALUATION_RAGAS_CACHE"] = "/tmp/verdicts.sqlite3"
    >>> str(default_cache_path())
    '/tmp/verdicts.sqlite3'
    >>> del os.environ["EF_EVALUATION_RAGAS_CACHE"]
    """
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ef-evaluation" / _FILE_NAME


def verdict_key(
    prompt: str,
    model: str,
    sample: Mapping[str, Any] | None,
    *,
    n: int = 1,
    temperature: float | None = None,
    stop: Sequence[str] | None = None,
) -> str:
    """The sha256 (hex) a request is cached under.

    The sample is hashed as canonical JSON (sorted keys), so key order does not matter; every
    other argument is part of the key, so a different model or temperature is another entry.

    >>> a = verdict_key("Is it Paris?", "judge-1", {"response": "Paris", "user_input": "q"})
    >>> a == verdict_key("Is it Paris?", "judge-1", {"user_input": "q", "response": "Paris"})
    True
    >>> a == verdict_key("Is it Paris?", "judge-2", {"response": "Paris", "user_input": "q"})
    False
    """
    request = {
        "schema": _SCHEMA,
        "prompt": prompt,
        "model": model,
        "sample": sample,
        "n": n,
        "temperature": temperature,
        "stop": list(stop) if stop is not None else None,
    }
    text = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _rows(rows: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(row) for row in rows)


@attrs.frozen
class CachedAnswer:
    """An LLM answer as stored: the texts of its generations (one list per prompt sent) and
    the tokens the call took when it was made."""

    generations: tuple[tuple[str, ...], ...] = attrs.field(converter=_rows)
    prompt_tokens: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    completion_tokens: int = attrs.field(default=0, validator=attrs.validators.ge(0))


class VerdictCache:
    """A SQLite file of :class:`CachedAnswer` by :func:`verdict_key`.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     cache = VerdictCache(pathlib.Path(tmp, "v.sqlite3"))
    ...     cache.put("k1", "judge-1", CachedAnswer([['{"verdict": 1}']], 12, 3))
    ...     again = VerdictCache(cache.path)  # another process would see the same
    ...     found = again.get("k1"), again.get("k2"), len(again)
    ...     cache.close(); again.close()
    >>> found[0].generations, found[0].prompt_tokens, found[1], found[2]
    ((('{"verdict": 1}',),), 12, None, 1)
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Ragas may score on a worker thread; one connection, guarded by a lock.
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS verdicts ("
                " key TEXT PRIMARY KEY, model TEXT NOT NULL, generations TEXT NOT NULL,"
                " prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
                " created REAL NOT NULL)"
            )

    def get(self, key: str) -> CachedAnswer | None:
        """The answer stored under ``key``, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT generations, prompt_tokens, completion_tokens FROM verdicts WHERE key = ?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        return CachedAnswer(json.loads(row[0]), row[1], row[2])

    def put(self, key: str, model: str, answer: CachedAnswer) -> None:
        """Store ``answer`` under ``key``, in one transaction (a crash leaves no half row)."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key,
                    model,
                    json.dumps([list(g) for g in answer.generations], ensure_ascii=False),
                    answer.prompt_tokens,
                    answer.completion_tokens,
                    time.time(),
                ),
            )

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM verdicts").fetchone()
        return int(count)

    def close(self) -> None:
        """Close the file; the cache is not usable after."""
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"VerdictCache({str(self.path)!r})"
