"""A query-grouped TREC run read in batches of whole queries, so memory stays flat.

Every TREC tool writes a run grouped by query. :func:`iter_trec_batches` reads such a file a
block at a time, cuts each block before the query it ends in (that query
starts the next block), and gives the fast reader's columns
(:class:`~ef.evaluation._formats.trec.fast.RunColumns`) of each: the same parse and the same
checks, block by block, with the byte checks and the file's sha256 in a thread beside the
parse. Memory holds one block, whatever the size of the file.

Whatever the fast reader would leave to the reference reader stops the batches with
:class:`NotStreamable`, and so does a query whose lines are not together in the file; the
caller then reads the whole file, as it would have without batches.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import hashlib
import io
import mmap
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from .. import digests
from .._io import open_binary
from .fast import RunColumns, _Beside, _columns, _parse, hashed_data

__all__ = ["NotStreamable", "iter_trec_batches"]


class NotStreamable(Exception):
    """The run cannot be read in batches; ``grouped`` is False when the reason is that a
    query's lines are not together in the file."""

    def __init__(self, reason: str, *, grouped: bool = True) -> None:
        super().__init__(reason)
        self.grouped = grouped


def _trailing_query(block: bytes | mmap.mmap, begin: int, end: int) -> int:
    """Where the lines of the query that ``block[begin:end]`` ends in begin (``begin`` if
    that is all of it): the complete lines before hold whole queries."""
    stop = block.rfind(b"\n", begin, end) + 1  # past the last complete line
    if stop <= begin:
        return begin
    start = max(block.rfind(b"\n", begin, stop - 1) + 1, begin)
    space = block.find(b" ", start, stop)
    head = block[start : (space if space != -1 else stop - 1)] + b" "
    while start > begin:
        before = max(block.rfind(b"\n", begin, start - 1) + 1, begin)
        if block[before : before + len(head)] != head:
            break
        start = before
    return start


#: Bytes beside a block that a page fault in it may have mapped (Linux maps the cached pages
#: of the aligned ``fault_around_bytes`` window, 64 KiB by default, around a faulting one).
#: 1 MiB is 16 times that default, for a kernel tuned higher: letting go of pages that are
#: not mapped costs next to nothing, and those of the next block fault in again from the
#: page cache, without a read.
_FAULT_AROUND = 1 << 20


def _mapped_bodies(mapped: mmap.mmap, block_bytes: int) -> Iterator[bytes]:
    """The file's whole queries a block at a time, each block's pages let go once read."""
    position, size = 0, len(mapped)
    while position < size:
        end = min(position + block_bytes, size)
        cut = size if end == size else _trailing_query(mapped, position, end)
        while cut == position:  # one query longer than a block: take more
            end = min(end + block_bytes, size)
            cut = size if end == size else _trailing_query(mapped, position, end)
        body = mapped[position:cut]  # the one copy: polars parses bytes
        # Mapped pages count as this process's memory until let go (the page cache keeps
        # them). The block's pages go, with those the kernel mapped around a fault on either
        # side of it: left behind, they would add up block after block.
        if hasattr(mapped, "madvise"):  # not on Windows
            low = max(position - position % mmap.PAGESIZE - _FAULT_AROUND, 0)
            mapped.madvise(mmap.MADV_DONTNEED, low, min(end + _FAULT_AROUND, size) - low)
        position = cut
        yield body


def _read_bodies(handle: IO[bytes], block_bytes: int) -> Iterator[bytes]:
    """The same, read from a stream (a gzip file)."""
    carry = b""
    while True:
        try:
            chunk = handle.read(block_bytes)
        except (OSError, EOFError, zlib.error) as exc:  # a damaged gzip stream
            raise NotStreamable(str(exc)) from None
        block = carry + chunk if carry else chunk
        if not block:
            return
        cut = len(block) if not chunk else _trailing_query(block, 0, len(block))
        carry = block[cut:]
        if cut:  # else one query longer than a block: read on
            yield block[:cut]


def iter_trec_batches(path: Path, block_bytes: int) -> Iterator[RunColumns]:
    """The columns of each batch of whole queries of the TREC run ``path``, in file order,
    read ``block_bytes`` at a time.

    Raises :class:`NotStreamable` (possibly after some batches) where the batches could
    differ from the whole file read at once. Once every batch is read, the file's sha256 is
    recorded for the manifest (:mod:`~ef.evaluation._formats.digests`), unless it was already:
    the batches hold every byte of the file, in order, and are hashed as they are parsed.
    """
    try:
        import polars as pl
    except ImportError:
        raise NotStreamable("polars is not installed") from None
    try:
        handle = open_binary(path)
    except OSError as exc:  # the reference reader names the problem
        raise NotStreamable(str(exc)) from None
    with contextlib.ExitStack() as stack:
        stack.enter_context(handle)
        status, digest = None, None
        if isinstance(handle, io.BufferedReader):  # gzip: the manifest hashes the file
            status = os.fstat(handle.fileno())
            # Not known already (a remote copy's), and asked for.
            if digests.asked() and digests.recorded(path, status) is None:
                digest = hashlib.sha256()
            try:
                mapped = stack.enter_context(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
            except ValueError:  # an empty file: the reference reader says so
                raise NotStreamable(f"{path} is empty") from None
            bodies = _mapped_bodies(mapped, block_bytes)
        else:
            bodies = _read_bodies(handle, block_bytes)
        # One batch ahead: the next block is read and parsed on a worker while the caller
        # scores this one (polars, numpy and hashlib release the GIL). Batches run one after
        # another, so the digest takes the blocks in order and ``seen`` is up to date.
        seen = _Seen()
        worker = stack.enter_context(cf.ThreadPoolExecutor(1, thread_name_prefix="ef-batch"))

        def next_batch() -> RunColumns | None:
            body = next(bodies, None)
            return None if body is None else _batch(pl, body, digest, seen)

        ahead = [worker.submit(next_batch)]  # the batch in the works (a list: the exit sees it)
        stack.callback(lambda: _settle(ahead[0]))  # the map stays open until it is done
        while (columns := ahead[0].result()) is not None:
            seen.add(columns.query_ids)
            ahead[0] = worker.submit(next_batch)
            yield columns
        if status is not None and digest is not None:
            digests.record(path, status, digest)


class _Seen:
    """The queries of the blocks read so far, by their ``hash()``: 8 bytes a query, sorted
    (a set of 200,000 ids would take 8 MB more, kept to the end). A new hash equal to one
    seen is taken for the same query: at worst (a clash of 64-bit hashes, about one chance
    in 10**9 for 200,000 queries) the whole file is read at once, with the same numbers, and
    the warning that says so wrongly calls the query's lines not together."""

    def __init__(self) -> None:
        self._hashes = np.empty(0, dtype=np.int64)

    def _of(self, query_ids: list[str]) -> npt.NDArray[np.int64]:
        return np.fromiter(map(hash, query_ids), dtype=np.int64, count=len(query_ids))

    def any_of(self, query_ids: list[str]) -> bool:
        """Is one of ``query_ids`` among the queries seen?"""
        hashes = self._of(query_ids)
        at = np.searchsorted(self._hashes, hashes).clip(max=max(self._hashes.size - 1, 0))
        return bool(self._hashes.size and np.any(self._hashes[at] == hashes))

    def add(self, query_ids: list[str]) -> None:
        # Two sorted runs: a stable sort merges them in one pass.
        merged = np.concatenate([self._hashes, np.sort(self._of(query_ids))])
        self._hashes = np.sort(merged, kind="stable")


def _settle(future: cf.Future[Any]) -> None:
    """Wait for ``future``, whatever it gives: on the way out, it must not outlive the map."""
    with contextlib.suppress(BaseException):
        future.result()


def _batch(pl: Any, body: bytes, digest: hashlib._Hash | None, seen: _Seen) -> RunColumns:
    """The columns of ``body`` (whole lines), hashed into ``digest`` beside the parse;
    NotStreamable where the fast reader would decline, or where a query of ``seen`` (the
    queries of the blocks before) comes again."""
    has_hash = body.find(b"#") != -1
    if has_hash and hashed_data(body):
        raise NotStreamable("a '#' line with a run line's shape: the reference reader looks")
    checks = _Beside(body, has_hash, digest)
    checks.start()
    try:
        frame = _parse(pl, body, has_hash)
    finally:
        spaces = checks.result()
    columns = None if frame is None or spaces is None else _columns(pl, frame, has_hash, spaces)
    if columns is not None and not seen.any_of(columns.query_ids):
        return columns
    if frame is not None:
        _refuse_scattered_query(frame, seen)
    raise NotStreamable("a block the fast reader leaves to the reference reader")


def _refuse_scattered_query(frame: Any, seen: _Seen) -> None:
    """NotStreamable if the lines of a query of ``frame`` are apart, in this block or across
    blocks (a query of ``seen`` comes again)."""
    queries = frame.get_column("q").drop_nulls()
    starts = queries.gather(queries.ne_missing(queries.shift(1)).arg_true()).to_list()
    before: set[str] = set()
    for query in starts:
        if seen.any_of([query]) or query in before:
            message = f"the lines of query {query!r} are not together in the file"
            raise NotStreamable(message, grouped=False)
        before.add(query)
