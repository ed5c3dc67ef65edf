"""The fast reader of TREC run files: polars, where it reads exactly as the reference reader.

Part of the TREC format: :func:`~ef.evaluation.formats.files.read_run_columns` asks it for a
file the ``trec`` format claims, and falls back to the reference reader
(:mod:`ef.evaluation.formats.trec`) whenever polars might split a line differently, so the
numbers and the errors are the reference reader's. polars is a dependency, imported here
when a run is read; without it (an install without dependencies) every file goes to the
reference reader.
"""

from __future__ import annotations

import io
import mmap
import re
import zlib
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ._io import open_binary

__all__ = ["RunColumns", "read_trec_columns"]

Ints = npt.NDArray[np.int64]


@attrs.frozen(eq=False)
class RunColumns:
    """A run as plain columns: query ids in file order, each query's row offsets, the
    scores, the doc ids (a polars Series) and their 64-bit hashes."""

    query_ids: list[str]
    offsets: Ints
    scores: npt.NDArray[np.float64]
    docs: Any
    hashes: npt.NDArray[np.uint64]


# A byte-order mark (the reference reader takes one at the very start only, and refuses one
# elsewhere in an id) and the Unicode spaces that str.lstrip() strips, so that a line holding
# one may be blank or a comment to the reference reader and data to polars.
# In a file with non-ASCII bytes, the scan's maximum byte cannot show a DEL: look for it here.
_DOUBTFUL = re.compile(
    rb"\x7f|\xef\xbb\xbf|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]"
    rb"|\xe2\x81\x9f|\xe3\x80\x80"
)
_CHUNK = 1 << 22  # bytes per numpy pass: 4 MB keeps the temporaries small


@attrs.frozen
class _Source:
    """What polars should read, and what the bytes say about the lines."""

    data: Path | bytes  # the path itself, or the gunzipped bytes
    has_hash: bool  # a "#" somewhere: comment lines must be looked for
    spaces: int  # how many spaces the file holds


@attrs.frozen
class _Bytes:
    """What one pass over the bytes finds."""

    spaces: int
    doubtful: bool  # a control byte other than LF (tab, CR, VT, FF, NUL...), or DEL
    non_ascii: bool
    empty_field: bool  # a space beside a space or a line end, or at either end of the file


def _scan(data: bytes | mmap.mmap) -> _Bytes:
    view = np.frombuffer(data, dtype=np.uint8)
    spaces = 0
    doubtful = non_ascii = empty_field = False
    try:
        for i in range(0, view.size, _CHUNK):
            chunk = view[i : i + _CHUNK + 1]  # one byte more: a pair across chunks is seen
            low = chunk <= 32  # a space, a LF, or a control byte
            own = low[:_CHUNK]
            in_chunk = int(np.count_nonzero(own))
            chunk_spaces = int(np.count_nonzero(chunk[:_CHUNK] == 32))
            newlines = int(np.count_nonzero(chunk[:_CHUNK] == 10))
            spaces += chunk_spaces
            doubtful = doubtful or in_chunk != chunk_spaces + newlines
            top = int(chunk.max(initial=0))
            doubtful = doubtful or top == 127
            non_ascii = non_ascii or top >= 128
            pairs = low[1:] & low[:-1]
            if not empty_field and pairs.any():
                # Two LFs are a blank line, which is fine; a space in the pair is not.
                sums = chunk[1:][pairs].astype(np.int64) + chunk[:-1][pairs]
                empty_field = bool(np.any(sums != 20))
        return _Bytes(spaces, doubtful, non_ascii, empty_field)
    finally:
        del view  # an mmap cannot close while a view of it lives


def _polars_source(path: Path) -> _Source | None:
    """What polars should read, or None if polars must not read it.

    Files with bytes that polars would split or keep differently from the reference reader
    (a tab, CR, VT, FF or another control character, a byte-order mark, a Unicode space) are
    left to it, and so are damaged gzip files: it names the file and the problem.
    """
    try:
        with open_binary(path) as handle:
            gzipped = not isinstance(handle, io.BufferedReader)
            if gzipped:
                data: bytes | mmap.mmap = handle.read()
            else:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, EOFError, ValueError, zlib.error):  # missing, damaged, or empty (mmap)
        return None
    try:
        counted = _scan(data)
        if counted.doubtful or (counted.non_ascii and _DOUBTFUL.search(data) is not None):
            return None
        has_hash = data.find(b"#") != -1
        if not has_hash and (counted.empty_field or data[:1] == b" " or data[-1:] == b" "):
            return None
        return _Source(bytes(data) if gzipped else path, has_hash, counted.spaces)
    finally:
        if isinstance(data, mmap.mmap):
            data.close()


def read_trec_columns(path: Path) -> RunColumns | None:  # noqa: PLR0911 - one per doubt
    """The columns of a 6-column TREC run read with polars, or None where polars might
    read it differently from the reference reader (which then reads it)."""
    try:
        import polars as pl
    except ImportError:
        return None
    source = _polars_source(path)
    if source is None:
        return None
    names = ["q", "q0", "d", "rank", "score", "tag"]
    # Without comment lines, and with no empty field (a doubled, leading or trailing space:
    # refused above), every line's spaces are its fields less one, and polars refuses a line
    # of more than six; so a short line shows in the count of spaces (checked below) and the
    # tag column need not be read: that saves a fifth of the parse.
    columns = [0, 2, 4, 5] if source.has_hash else [0, 2, 4]
    try:
        frame = pl.read_csv(
            source.data,
            separator=" ",
            has_header=False,
            comment_prefix="#" if source.has_hash else None,
            quote_char=None,
            # Strict: a line with more fields than the first (a doubled or leading space, or
            # extra columns) is an error, and one with fewer has nulls at its end.
            truncate_ragged_lines=False,
            new_columns=names,
            columns=columns,
            # Categorical query ids: a code per row makes finding each query's lines cheap.
            schema_overrides={"q": pl.Categorical, "d": pl.String, "score": pl.Float64},
        )
    except Exception:  # any parse failure: the reference reader reports it
        return None
    if any(frame.null_count().row(0)):
        frame = frame.filter(~pl.all_horizontal(pl.all().is_null()))  # blank lines are fine
        if any(frame.null_count().row(0)):
            return None  # a short line
    if frame.height == 0 or (not source.has_hash and source.spaces != 5 * frame.height):
        return None  # empty, or some line has other than 6 fields
    scores = frame.get_column("score").to_numpy()
    if not np.all(np.isfinite(scores)):
        return None
    queries = frame.get_column("q")
    docs = frame.get_column("d")
    codes = queries.to_physical().to_numpy()
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    query_ids: list[str] = queries.gather(starts).cast(pl.String).to_list()
    if len(set(query_ids)) != len(query_ids):
        return None  # a query's lines are not together: rare, and the reference reader is exact
    offsets = np.r_[starts, frame.height].astype(np.int64)
    hashes = np.asarray(docs.hash(seed=0).to_numpy(), dtype=np.uint64)
    if _repeats_a_doc(offsets, hashes, docs):
        return None  # the reference reader names the line
    return RunColumns(query_ids, offsets, scores, docs, hashes)


def _repeats_a_doc(offsets: Ints, hashes: npt.NDArray[np.uint64], docs: Any) -> bool:
    """True if some query lists a doc twice.

    Each query's doc hashes (32 bits of them) are sorted, all queries of one length at once as
    the rows of a matrix: many small sorts, much cheaper than one over the whole run. Only a
    query with two equal hashes has its doc ids compared.
    """
    short = (hashes >> np.uint64(32)).astype(np.uint32)
    lengths = np.diff(offsets)
    for length in np.unique(lengths).tolist():
        if length < 2:
            continue
        which = np.flatnonzero(lengths == length)
        if which.size == lengths.size:  # one length: the rows are the whole column, in order
            block = short.reshape(-1, length)
        else:
            block = short[offsets[which][:, None] + np.arange(length, dtype=np.int64)]
        block.sort(axis=1)
        clash = np.any(block[:, 1:] == block[:, :-1], axis=1)
        for i in which[clash].tolist():
            seen = docs.slice(int(offsets[i]), int(offsets[i + 1] - offsets[i])).to_list()
            if len(set(seen)) != len(seen):
                return True
    return False
