"""The run cache of an experiment: a folder of JSON files, one per computed run.

A run is filed under a key made of what decides it: the system's name, its declared version,
the retrieval depth and the digest of the queries it was sent. A file holds its key's parts,
the rankings, the failures, the latency measured when it was computed, the time it was
written and the sha256 of all that; a file whose parts do not match, or that does not parse
(a write cut short, an edit), is a miss and is computed again, never read as a run. Files
are written to a temporary file in the folder and renamed over the old one (``os.replace``),
so a reader sees a whole file or none.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import attrs

from .._engine._timing import Latency

__all__ = ["CachedRun", "RunCache", "digest_of"]

#: The layout of a cache file; a file of another layout is a miss.
CACHE_FORMAT = 1
_ENTRY = re.compile(r"^[0-9a-f]{64}\.json$")
_TEMPORARY = ".ef-run-"


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def digest_of(value: object) -> str:
    """The sha256 of a JSON value, its keys sorted: the same for equal values.

    >>> digest_of({"q1": "a", "q2": "b"}) == digest_of({"q2": "b", "q1": "a"})
    True
    """
    return hashlib.sha256(_canonical(value)).hexdigest()


@attrs.frozen
class CachedRun:
    """A run read from (or written to) the cache."""

    rankings: Mapping[str, tuple[str, ...]]
    failures: Mapping[str, str]
    latency: Latency | None
    #: When the run was computed, in UTC (ISO 8601).
    written: str


def _read_run(data: Mapping[str, Any]) -> CachedRun:
    rankings = data["rankings"]
    failures = data["failures"]
    if not _is_rankings(rankings):
        raise ValueError("rankings is not {query: [doc, ...]}")
    if not _is_failures(failures):
        raise ValueError("failures is not {query: message}")
    latency = None if data["latency"] is None else Latency.from_dict(data["latency"])
    written = data["written"]
    if not isinstance(written, str):
        raise ValueError("written is not a time")
    return CachedRun(
        {q: tuple(docs) for q, docs in rankings.items()}, dict(failures), latency, written
    )


def _is_rankings(value: object) -> bool:
    """Whether a file's ``rankings`` are ``{query: [doc, ...]}``, as JSON reads them."""
    return isinstance(value, dict) and all(
        isinstance(docs, list) and all(isinstance(d, str) for d in docs) for docs in value.values()
    )


def _is_failures(value: object) -> bool:
    """Whether a file's ``failures`` are ``{query: message}``."""
    return isinstance(value, dict) and all(isinstance(m, str) for m in value.values())


@attrs.frozen
class RunCache:
    """The cache folder of an experiment's runs.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     cache = RunCache(tmp)
    ...     key = cache.key(name="bm25", version="1", limit=10, queries="ab12")
    ...     miss = cache.get(key)
    ...     _ = cache.put(key, {"q1": ("d1",)}, {}, None)
    ...     hit = cache.get(key)
    ...     cleared = cache.clear()
    >>> miss, hit.rankings["q1"], cleared
    (None, ('d1',), 1)
    """

    directory: Path = attrs.field(converter=Path)

    def key(self, *, name: str, version: str, limit: int, queries: str) -> dict[str, Any]:
        """The parts a run is filed under: the system, its version, the depth and the digest
        of the queries."""
        return {
            "format": CACHE_FORMAT,
            "name": name,
            "version": version,
            "limit": limit,
            "queries": queries,
        }

    def path(self, key: Mapping[str, Any]) -> Path:
        """The file of ``key``."""
        return self.directory / f"{digest_of(dict(key))}.json"

    def get(self, key: Mapping[str, Any]) -> CachedRun | None:
        """The run filed under ``key``, or None: absent, unreadable, or not of this key."""
        try:
            data = json.loads(self.path(key).read_bytes())
            if not isinstance(data, dict) or data.get("key") != dict(key):
                return None
            body = {name: value for name, value in data.items() if name != "sha256"}
            if data.get("sha256") != digest_of(body):
                return None  # cut short and completed by hand, or edited: not ours to trust
            return _read_run(body)
        except (OSError, ValueError, TypeError, KeyError):
            return None  # FileNotFoundError, a partial file's JSONDecodeError, a bad field

    def put(
        self,
        key: Mapping[str, Any],
        rankings: Mapping[str, Sequence[str]],
        failures: Mapping[str, str],
        latency: Latency | None,
    ) -> CachedRun:
        """File a run under ``key``: written whole to a temporary file, then renamed."""
        written = datetime.now(timezone.utc).isoformat(timespec="seconds")
        body = {
            "key": dict(key),
            "written": written,
            "rankings": {q: list(docs) for q, docs in rankings.items()},
            "failures": dict(failures),
            "latency": None if latency is None else latency.to_dict(),
        }
        data = {**body, "sha256": digest_of(body)}
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.path(key)
        handle, temporary = tempfile.mkstemp(prefix=_TEMPORARY, suffix=".tmp", dir=self.directory)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_canonical(data))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        return CachedRun(
            {q: tuple(docs) for q, docs in rankings.items()}, dict(failures), latency, written
        )

    def clear(self) -> int:
        """Remove every run this cache filed (and temporary files a killed write left); other
        files in the folder stay. The number of runs removed."""
        if not self.directory.is_dir():
            return 0
        removed = 0
        for path in self.directory.iterdir():
            if _ENTRY.match(path.name):
                path.unlink(missing_ok=True)
                removed += 1
            elif path.name.startswith(_TEMPORARY) and path.name.endswith(".tmp"):
                path.unlink(missing_ok=True)
        return removed
