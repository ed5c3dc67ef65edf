"""A query-grouped TREC run read in batches of whole queries, so memory stays flat.

Every TREC tool writes a run grouped by query. :func:`iter_trec_batches` reads such a file a
block at a time, cuts each block before the query it ends in (that query
starts the next block), and gives the fast reader's columns
(:class:`~ef.evaluation.formats.trec_fast.RunColumns`) of each: the same parse and the same
checks, block by block, with the byte checks and the file's sha256 in a thread beside the
parse. Memory holds one block, whatever the size of the file.

Whatever the fast reader would leave to the reference reader stops the batches with
:class:`NotStreamable`, and so does a query whose lines are not together in the file; the
caller then reads the whole file, as it would have without batches.
"""

from __future__ import annotations

import hashlib
import io
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import digests
from ._io import open_binary
from .trec_fast import RunColumns, _Beside, _columns, _parse

__all__ = ["NotStreamable", "iter_trec_batches"]


class NotStreamable(Exception):
    """The run cannot be read in batches; ``grouped`` is False when the reason is that a
    query's lines are not together in the file."""

    def __init__(self, reason: str, *, grouped: bool = True) -> None:
        super().__init__(reason)
        self.grouped = grouped


def _trailing_query(block: bytes) -> int:
    """Where the lines of the query that ``block`` ends in begin (0 if that is the whole
    block): the block's complete lines before it hold whole queries."""
    end = block.rfind(b"\n") + 1  # past the last complete line; what follows is cut off
    if end == 0:
        return 0
    start = block.rfind(b"\n", 0, end - 1) + 1
    space = block.find(b" ", start, end)
    head = block[start : (space if space != -1 else end - 1)] + b" "
    while start > 0:
        before = block.rfind(b"\n", 0, start - 1) + 1
        if not block.startswith(head, before):
            break
        start = before
    return start


def iter_trec_batches(path: Path, block_bytes: int) -> Iterator[RunColumns]:
    """The columns of each batch of whole queries of the TREC run ``path``, in file order,
    read ``block_bytes`` at a time.

    Raises :class:`NotStreamable` (possibly after some batches) where the batches could
    differ from the whole file read at once. Once every batch is read, the file's sha256 is
    recorded for the manifest (:mod:`~ef.evaluation.formats.digests`).
    """
    try:
        import polars as pl
    except ImportError:
        raise NotStreamable("polars is not installed") from None

    try:
        handle = open_binary(path)
    except OSError as exc:  # the reference reader names the problem
        raise NotStreamable(str(exc)) from None
    with handle:
        plain = isinstance(handle, io.BufferedReader)  # gzip: the manifest hashes the file
        status = os.fstat(handle.fileno()) if plain else None
        digest = hashlib.sha256() if plain else None
        seen: set[str] = set()
        carry = b""
        while True:
            try:
                chunk = handle.read(block_bytes)
            except (OSError, EOFError, zlib.error) as exc:  # a damaged gzip stream
                raise NotStreamable(str(exc)) from None
            block = carry + chunk if carry else chunk
            if not block:
                break
            cut = len(block) if not chunk else _trailing_query(block)
            if cut == 0:  # one query longer than a block: read on
                if digest is not None:
                    digest.update(chunk)
                carry = block
                continue
            body, carry = block[:cut], block[cut:]
            columns = _batch(pl, body, (chunk, digest), seen)
            seen.update(columns.query_ids)
            yield columns
        if status is not None and digest is not None:
            digests.record(path, status, digest)


def _batch(
    pl: Any, body: bytes, hashing: tuple[bytes, hashlib._Hash | None], seen: set[str]
) -> RunColumns:
    """The columns of ``body`` (whole lines), hashing the bytes just read (``hashing``:
    them and the digest) beside the parse; NotStreamable where the fast reader would
    decline, or where a query of ``seen`` (the queries of the blocks before) comes again."""
    has_hash = body.find(b"#") != -1
    checks = _Beside(body, has_hash, hashing[1], hashed=hashing[0])
    checks.start()
    try:
        frame = _parse(pl, body, has_hash)
    finally:
        spaces = checks.result()
    columns = None if frame is None or spaces is None else _columns(pl, frame, has_hash, spaces)
    if columns is not None and seen.isdisjoint(columns.query_ids):
        return columns
    if frame is not None:  # the lines of a query apart, in this block or across blocks?
        queries = frame.get_column("q").drop_nulls()
        starts = queries.gather(queries.ne_missing(queries.shift(1)).arg_true()).to_list()
        before: set[str] = set()
        for query in starts:
            if query in seen or query in before:
                message = f"the lines of query {query!r} are not together in the file"
                raise NotStreamable(message, grouped=False)
            before.add(query)
    raise NotStreamable("a block the fast reader leaves to the reference reader")
