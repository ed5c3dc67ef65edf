"""Helpers shared by the format tests: error-location checks, file listings, corpus readers."""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from ef.evaluation import DatasetFormatError, Document, Registry

#: The built-in formats only, whatever plugins are installed.
BUILTIN = Registry.load(autoload=False)


def error_at(
    path: Path,
    line_no: int | None,
    call: Callable[[], object],
    exc: type[Exception] | tuple[type[Exception], ...] = ValueError,
) -> str:
    """Run ``call``, expect ``exc``, and check its message names ``path`` (and ``line_no``)."""
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    where = f"{path}:{line_no}:" if line_no is not None else str(path)
    assert where in message, f"{where!r} not in {message!r}"
    return message


def format_error_at(path: Path, line_no: int | None, call: Callable[[], object]) -> str:
    """:func:`error_at` for a :class:`DatasetFormatError`."""
    return error_at(path, line_no, call, DatasetFormatError)


def listing(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (hidden temporary files too) with its bytes."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def write_gzip(path: Path, text: str) -> Path:
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


def read_corpus(format_name: str, path: Path) -> list[Document]:
    """All documents of a corpus file, through the format's own ``read_corpus``."""
    reader = BUILTIN.format(format_name).read_corpus
    assert reader is not None
    return list(reader(path))


def write_corpus(format_name: str, path: Path, documents: Iterable[Document]) -> None:
    writer = BUILTIN.format(format_name).write_corpus
    assert writer is not None
    writer(path, documents)
