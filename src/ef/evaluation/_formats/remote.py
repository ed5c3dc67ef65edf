"""Run and qrels files at fsspec URLs (``s3://``, ``gs://``, ``memory://``, ``file://``): told
apart from local paths, globbed (runs), and copied to a local file where they are read.

A reader reads local files only: :func:`local_copy` streams the remote bytes into a
temporary file of the same base name (so detection by suffix, ``.gz`` included, still
works), hashing them on the way, and deletes it afterwards. fsspec is optional
(``pip install "ef-evaluation[remote]"``); each protocol's own package too (``s3fs`` for
``s3://``, ``gcsfs`` for ``gs://``). A local path never goes through fsspec.

Which strings are URLs is :mod:`.sources`' to say (``is_url``), so that a local file's
reading never loads this module.

>>> import fsspec
>>> with fsspec.open("memory://docs/run.trec.gz", "wb") as out:
...     _ = out.write(b"not gzip, but named so")
>>> with local_copy("memory://docs/run.trec.gz") as copy:
...     copy.path.name, copy.path.read_bytes() == b"not gzip, but named so", copy.bytes
('run.trec.gz', True, 22)
>>> copy.path.exists()  # deleted once read
False
>>> expand_url_glob("memory://docs/*.gz")
['memory:///docs/run.trec.gz']
"""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from ..errors import (
    ArgumentError,
    DatasetFormatError,
    EvaluationError,
    FormatNotDetectedError,
    MissingDependencyError,
    UnknownNameError,
)
from . import digests

__all__ = [
    "LocalCopy",
    "check_url",
    "expand_url_glob",
    "local_copy",
    "named_as",
]

_BLOCK = 1 << 20
_INSTALL = 'pip install "ef-evaluation[remote]"'


def _fsspec(url: str) -> Any:
    try:
        import fsspec
    except ImportError:
        raise MissingDependencyError(
            f"{url}: reading a file at a URL needs fsspec: {_INSTALL}"
        ) from None
    return fsspec


def check_url(url: str) -> None:
    """Refuse ``url`` before anything is read if fsspec, or its protocol's package, is
    missing, or fsspec knows no such protocol."""
    fsspec = _fsspec(url)
    for protocol in url.partition("://")[0].split("::"):
        try:
            fsspec.get_filesystem_class(protocol)
        except ImportError as exc:  # fsspec knows it, and names the package it needs
            raise MissingDependencyError(f"{url}: {exc}") from None
        except ValueError as exc:
            raise ValueError(f"{url}: {exc} (fsspec reads no such URL)") from None


def _filesystem(url: str) -> tuple[Any, str]:
    check_url(url)
    fs, path = _fsspec(url).core.url_to_fs(url)
    return fs, str(path)


def expand_url_glob(pattern: str) -> list[str]:
    """The files the URL glob ``pattern`` matches (``**`` too), in sorted order, each a URL
    with the pattern's protocol; directories are left out."""
    fs, path = _filesystem(pattern)
    found = fs.glob(path, detail=True)
    prefix = pattern.partition("://")[0] + "://"
    return [prefix + name for name in sorted(found) if found[name].get("type") != "directory"]


@attrs.frozen
class LocalCopy:
    """A remote file's bytes in the local file ``path``, with their sha256 (hex) and count."""

    path: Path
    sha256: str
    bytes: int


@contextlib.contextmanager
def local_copy(url: str, kind: str = "run") -> Iterator[LocalCopy]:
    """The file at ``url`` copied to a temporary local file of its base name, deleted when
    the block ends (whether or not it raised); the bytes' sha256 is recorded for the URL's
    manifest entry (:mod:`~ef.evaluation._formats.digests`). A missing file is a
    ``FileNotFoundError`` naming the URL; a folder, an ``IsADirectoryError`` saying a
    ``kind`` file was due."""
    import hashlib  # here: OpenSSL's load is 5 ms of a start that may fetch nothing
    import tempfile

    fs, path = _filesystem(url)
    name = posixpath.basename(path.rstrip("/")) or kind
    with tempfile.TemporaryDirectory(prefix="ef-evaluation-") as folder:
        target = Path(folder, name)
        digest, size = hashlib.sha256(), 0
        try:
            source = fs.open(path, "rb")
        except IsADirectoryError:
            raise IsADirectoryError(f"{url}: is a directory, not a {kind} file") from None
        except FileNotFoundError:
            raise FileNotFoundError(f"{url}: no such file") from None
        with source, target.open("wb") as out:
            for block in iter(lambda: source.read(_BLOCK), b""):
                digest.update(block)
                out.write(block)
                size += len(block)
        # Kept for the copy (a reader does not hash it again) and for the URL (the manifest's
        # file_entry of the URL is these bytes').
        digests.record(target, target.stat(), digest)
        digests.record_url(url, digest.hexdigest(), size)
        yield LocalCopy(target, digest.hexdigest(), size)


@contextlib.contextmanager
def named_as(url: str, local: Path) -> Iterator[None]:
    """A reader's error about the local copy of ``url`` names the URL instead."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        text, where = str(exc), str(local)
        if where not in text:
            raise
        renamed: Exception
        # A message in parts keeps its keyword fields: only its text names the copy.
        given = exc.parts if isinstance(exc, EvaluationError) else (text,)
        parts = [p.replace(where, url) if isinstance(p, str) else p for p in given]
        if isinstance(exc, FormatNotDetectedError):
            renamed = FormatNotDetectedError(*parts, path=url, capability=exc.capability)
        elif type(exc) in _MESSAGE_ONLY:
            renamed = type(exc)(*parts)
        else:
            raise
        raise renamed.with_traceback(exc.__traceback__) from None


#: Errors made of a message alone, which :func:`named_as` can make again with the URL in it.
_MESSAGE_ONLY = (ArgumentError, DatasetFormatError, UnknownNameError, ValueError, TypeError)
