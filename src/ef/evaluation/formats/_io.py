"""Shared file plumbing: numbered lines with precise errors, and atomic writes."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

from ..errors import DatasetFormatError

__all__ = ["atomic_writer", "format_error", "json_lines", "numbered_lines", "read_text"]


def format_error(
    path: Path, line_no: int, problem: str, line: str | None = None
) -> DatasetFormatError:
    """``path:line: problem`` (and the offending text, shortened), as compilers print it."""
    message = f"{path}:{line_no}: {problem}"
    if line is not None:
        shown = line if len(line) <= 80 else line[:77] + "..."
        message += f" (line: {shown!r})"
    return DatasetFormatError(message)


def _open_binary(path: Path) -> IO[bytes]:
    # gzip is transparent: chosen by the magic number, not the name.
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return cast("IO[bytes]", gzip.open(path, "rb"))
    return open(path, "rb")  # the caller closes it


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` for each non-blank line of a UTF-8 (optionally gzipped) file.

    Decoding is per line, so a bad byte is reported with its line number; a UTF-8 byte-order
    mark and CRLF line ends are accepted. Raises ``FileNotFoundError`` naming ``path``.
    """
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    with _open_binary(path) as handle:
        for line_no, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise format_error(
                    path, line_no, f"not valid UTF-8 (byte {exc.start + 1} of the line)"
                ) from None
            if line_no == 1:
                text = text.removeprefix("\ufeff")
            text = text.rstrip("\r\n")
            if text.strip():
                yield line_no, text


def json_lines(path: Path) -> Iterator[tuple[int, str, Any]]:
    """``(line number, text, parsed value)`` for each non-blank line of a JSONL file."""
    for line_no, line in numbered_lines(path):
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            problem = f"invalid JSON ({exc.msg} at column {exc.colno})"
            raise format_error(path, line_no, problem, line) from None
        yield line_no, line, value


def read_text(path: Path) -> str:
    """The whole text of a UTF-8 (optionally gzipped) file, CRLF and BOM handled like
    :func:`numbered_lines`, for parsers such as ``csv`` whose records may span lines."""
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    parts = []
    with _open_binary(path) as handle:
        for line_no, raw in enumerate(handle, start=1):
            try:
                parts.append(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise format_error(
                    path, line_no, f"not valid UTF-8 (byte {exc.start + 1} of the line)"
                ) from None
    return "".join(parts).removeprefix("\ufeff")


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[IO[str]]:
    """Write ``path`` through a temporary file in the same directory, renamed on success.

    On any error the temporary file is removed and ``path`` is left as it was.
    """
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed or removed below
        "w", encoding="utf-8", newline="\n", dir=path.parent, prefix=f".{path.name}.", delete=False
    )
    try:
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise
