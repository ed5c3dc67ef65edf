"""The sha256 of input files, taken while a reader reads them, for the manifest.

A reader that has a file's bytes at hand (the fast TREC reader maps the whole file) hashes
them as it reads and records the digest here; :func:`~ef.evaluation.engine.manifest.file_entry`
then need not read the file a second time. A digest is kept under the file's identity (device,
inode, size and modification time, as ``make`` would judge it), so a file changed since it
was read is hashed again, never described by a stale digest.

>>> import tempfile, pathlib, hashlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = pathlib.Path(tmp, "run.txt")
...     _ = path.write_bytes(b"q1 Q0 d1 1 2.5 bm25\\n")
...     with path.open("rb") as handle:
...         record(path, os.fstat(handle.fileno()), hashlib.sha256(b"q1 Q0 d1 1 2.5 bm25\\n"))
...     recorded(path)[0][:12], recorded(path)[1]
('c9f7e388ce61', 20)
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import hashlib

__all__ = ["record", "record_url", "recorded", "recorded_url"]

_K = TypeVar("_K")
_KEPT = 16  # the inputs of a few evaluations; a digest is 64 characters
_lock = threading.Lock()
_digests: OrderedDict[tuple[str, int, int, int, int], tuple[str, int]] = OrderedDict()
_urls: OrderedDict[str, tuple[str, int]] = OrderedDict()  # by URL: the bytes last read there


def _identity(path: Path, status: os.stat_result) -> tuple[str, int, int, int, int]:
    return (
        os.path.realpath(path),
        status.st_dev,
        status.st_ino,
        status.st_size,
        status.st_mtime_ns,
    )


def _keep(table: OrderedDict[_K, tuple[str, int]], key: _K, entry: tuple[str, int]) -> None:
    """``entry`` kept under ``key`` as the newest of ``table``, the oldest beyond
    :data:`_KEPT` dropped."""
    with _lock:
        table[key] = entry
        table.move_to_end(key)
        while len(table) > _KEPT:
            table.popitem(last=False)


def record(path: Path, status: os.stat_result, digest: hashlib._Hash) -> None:
    """Keep ``digest`` (of every byte of ``path``) for the file as ``status`` describes it:
    the ``os.fstat`` of the handle the bytes were read through."""
    _keep(_digests, _identity(path, status), (digest.hexdigest(), status.st_size))


def recorded(path: Path, status: os.stat_result | None = None) -> tuple[str, int] | None:
    """The sha256 (hex) and size recorded for ``path`` as it is now (or as ``status``, the
    ``os.fstat`` of a handle open on it, describes it), or None: a reader that finds them
    need not hash the file again."""
    try:
        key = _identity(path, path.stat() if status is None else status)
    except OSError:
        return None
    with _lock:
        return _digests.get(key)


def record_url(url: str, sha256: str, size: int) -> None:
    """Keep the sha256 (hex) and size of the bytes just read at ``url`` (a remote file has
    no identity to check later: the entry is that of the last read)."""
    _keep(_urls, url, (sha256, size))


def recorded_url(url: str) -> tuple[str, int] | None:
    """The sha256 (hex) and size of the bytes last read at ``url``, or None."""
    with _lock:
        return _urls.get(url)
