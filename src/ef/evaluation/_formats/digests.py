"""The sha256 of input files, taken while a reader reads them, for the manifest.

A reader that has a file's bytes at hand (the fast TREC reader maps the whole file) hashes
them as it reads and records the digest here, or records the bytes themselves
(:func:`record_bytes`: the numpy reader's, read whole into memory), hashed beside what follows
or when first asked; :func:`~ef.evaluation._engine.manifest.file_entry`
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

import contextlib
import contextvars
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import hashlib
    from collections.abc import Iterator

__all__ = [
    "HASHED_BESIDE_BYTES",
    "asked",
    "record",
    "record_bytes",
    "record_url",
    "recorded",
    "recorded_url",
    "unasked",
]

#: False within :func:`unasked`.
_ASKED: contextvars.ContextVar[bool] = contextvars.ContextVar("ef_digests_asked", default=True)


def asked() -> bool:
    """Whether the files read now are hashed for a manifest: True but within :func:`unasked`."""
    return _ASKED.get()


@contextlib.contextmanager
def unasked() -> Iterator[None]:
    """Within it, in this thread, the readers hash nothing and
    :func:`~ef.evaluation._engine.manifest.file_entry` gives a local file no sha256: for a
    command whose output shows no manifest (``ef-eval evaluate``'s tables), which would
    otherwise pay for OpenSSL's load and 2 ms a MB of sha256 it never prints.

    >>> with unasked():
    ...     asked()
    False
    >>> asked()
    True
    """
    token = _ASKED.set(False)
    try:
        yield
    finally:
        _ASKED.reset(token)


_K = TypeVar("_K")
_V = TypeVar("_V")
_KEPT = 16  # the inputs of a few evaluations; a digest is 64 characters
#: Bytes from which :func:`record_bytes` hashes on a thread at once (sha256 takes about 2 ms
#: a MB here, and hashlib releases the GIL): below, the bytes are kept and hashed only if a
#: manifest asks, so a small run's start does not load OpenSSL (5 ms) for nothing.
HASHED_BESIDE_BYTES = 1 << 20


class _Hashing:
    """The sha256 and size of bytes in memory: taken on a thread from ``beside`` on, else
    when first asked."""

    def __init__(self, data: bytes, *, beside: bool) -> None:
        self._data: bytes | None = data
        self._entry: tuple[str, int] | None = None
        self._thread: threading.Thread | None = None
        if beside:
            self._thread = threading.Thread(target=self._hash, name="ef-evaluation-sha256")
            self._thread.start()

    def _hash(self) -> None:
        import hashlib  # here: only bytes a manifest (may) describe are hashed

        data = self._data
        if data is not None:
            self._entry = (hashlib.sha256(data).hexdigest(), len(data))
            self._data = None  # the digest is all that is kept

    def result(self) -> tuple[str, int] | None:
        if self._thread is not None:
            self._thread.join()
        elif self._entry is None:
            self._hash()  # twice at worst, if two threads ask at once: the same digest
        return self._entry


_lock = threading.Lock()
_digests: OrderedDict[tuple[str, int, int, int, int], tuple[str, int] | _Hashing] = OrderedDict()
_urls: OrderedDict[str, tuple[str, int]] = OrderedDict()  # by URL: the bytes last read there


def _identity(path: Path, status: os.stat_result) -> tuple[str, int, int, int, int]:
    return (
        os.path.realpath(path),
        status.st_dev,
        status.st_ino,
        status.st_size,
        status.st_mtime_ns,
    )


def _keep(table: OrderedDict[_K, _V], key: _K, entry: _V) -> None:
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


def record_bytes(path: Path, status: os.stat_result, data: bytes) -> None:
    """Keep the digest of ``data``, every byte of ``path`` as ``status`` (the ``os.fstat`` of
    the handle they were read through) describes it: hashed on a thread at once from
    :data:`HASHED_BESIDE_BYTES`, else when :func:`recorded` first asks."""
    if len(data) != status.st_size:
        return  # not the file's bytes (it grew or shrank as it was read): hashed again
    hashing = _Hashing(data, beside=len(data) >= HASHED_BESIDE_BYTES)
    _keep(_digests, _identity(path, status), hashing)


def recorded(path: Path, status: os.stat_result | None = None) -> tuple[str, int] | None:
    """The sha256 (hex) and size recorded for ``path`` as it is now (or as ``status``, the
    ``os.fstat`` of a handle open on it, describes it), or None: a reader that finds them
    need not hash the file again."""
    try:
        key = _identity(path, path.stat() if status is None else status)
    except OSError:
        return None
    with _lock:
        entry = _digests.get(key)
    return entry.result() if isinstance(entry, _Hashing) else entry


def record_url(url: str, sha256: str, size: int) -> None:
    """Keep the sha256 (hex) and size of the bytes just read at ``url`` (a remote file has
    no identity to check later: the entry is that of the last read)."""
    _keep(_urls, url, (sha256, size))


def recorded_url(url: str) -> tuple[str, int] | None:
    """The sha256 (hex) and size of the bytes last read at ``url``, or None."""
    with _lock:
        return _urls.get(url)
