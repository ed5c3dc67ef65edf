"""The fast reader of large TREC run files: polars, where it reads exactly as the reference
reader (:mod:`~ef.evaluation._formats.trec.bytes_reader` reads the smaller ones, with numpy).

Part of the TREC format: :func:`~ef.evaluation._formats.files.read_run_columns` asks it for a
file the ``trec`` format claims, and falls back to the reference reader
(:mod:`ef.evaluation._formats.trec.reader`) whenever polars might split a line differently, so the
numbers and the errors are the reference reader's. polars is a dependency, imported here
when a run is read; without it (an install without dependencies) every file goes to the
reference reader.
"""

from __future__ import annotations

import io
import mmap
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from .. import digests
from .._io import gzip_damage, open_binary

if TYPE_CHECKING:
    import hashlib

__all__ = [
    "SMALL_RUN_BYTES",
    "RunColumns",
    "hashed_data",
    "read_trec_columns",
    "worth_starting_polars",
]

Ints = npt.NDArray[np.int64]


@attrs.frozen(eq=False)
class RunColumns:
    """A run as plain columns: query ids in file order, each query's row offsets, the
    scores, the doc ids (a polars Series with their 64-bit hashes, a numpy byte column with
    theirs, :mod:`.bytes_reader`, or a list of str with no hashes: a table's,
    :mod:`ef.evaluation._formats.frames`)."""

    query_ids: list[str]
    offsets: Ints
    scores: npt.NDArray[np.float64]
    docs: Any
    hashes: npt.NDArray[np.uint64] | None = None


# A byte-order mark (the reference reader takes one at the very start only, and refuses one
# elsewhere in an id) and the Unicode spaces that str.lstrip() strips, so that a line holding
# one may be blank or a comment to the reference reader and data to polars.
# In a file with non-ASCII bytes, the scan's maximum byte cannot show a DEL: look for it here.
_DOUBTFUL = re.compile(
    rb"\x7f|\xef\xbb\xbf|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]"
    rb"|\xe2\x81\x9f|\xe3\x80\x80"
)
_CHUNK = 1 << 22  # bytes per numpy pass: 4 MB keeps the temporaries small

#: Below this size, a run file is read by the numpy reader (:mod:`.bytes_reader`), and by
#: the reference reader where that one declines; from it, by polars. Starting polars costs
#: about 0.1 s and 60 MB; the numpy reader holds about 2.2 times the file's bytes. Measured
#: on SciFact's BM25 run copied 1, 2 and 4 times (16, 35 and 69 MB; imports and read in a
#: fresh process, medians of 5 alternating rounds, on a shared 2-core VM): numpy 0.21, 0.34
#: and 0.58 s against polars 0.28, 0.33 and 0.40 s, peak RSS 68, 108 and 183 MB against
#: 128, 163 and 214 MB: the two cross at about 32 MB. docs/benchmarks.md has the table.
SMALL_RUN_BYTES = 32 << 20
#: A gzipped run's text is about this many times its size on disk.
_GZIP_RATIO = 4


@attrs.frozen
class _Bytes:
    """What one pass over the bytes finds."""

    spaces: int
    doubtful: bool  # a control byte other than LF (tab, CR, VT, FF, NUL...), or DEL
    non_ascii: bool
    empty_field: bool  # a space beside a space or a line end, or at either end of the file


def _scan(data: bytes | mmap.mmap, digest: hashlib._Hash | None = None) -> _Bytes:
    """One pass over the bytes, 4 MB at a time, each chunk hashed into ``digest`` too; a
    mapped file's pages are let go as the pass leaves them (polars maps the file itself)."""
    view = np.frombuffer(data, dtype=np.uint8)
    release = isinstance(data, mmap.mmap) and hasattr(data, "madvise")  # not on Windows
    spaces = 0
    doubtful = non_ascii = empty_field = False
    try:
        for i in range(0, view.size, _CHUNK):
            chunk = view[i : i + _CHUNK + 1]  # one byte more: a pair across chunks is seen
            if digest is not None:
                digest.update(chunk[:_CHUNK].data)
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
            if release:
                data.madvise(mmap.MADV_DONTNEED, i, min(_CHUNK, view.size - i))  # type: ignore[union-attr]
        return _Bytes(spaces, doubtful, non_ascii, empty_field)
    finally:
        del view  # an mmap cannot close while a view of it lives


def _spaces_if_plain(
    data: bytes | mmap.mmap, has_hash: bool, digest: hashlib._Hash | None = None
) -> int | None:
    """How many spaces the bytes hold, or None if polars might split or keep some line
    differently from the reference reader: a tab, CR, VT, FF or another control character,
    a byte-order mark, a Unicode space, or (with no comment line to excuse it) an empty field.
    Every byte is hashed into ``digest`` on the way.
    """
    counted = _scan(data, digest)
    if counted.doubtful or (counted.non_ascii and _DOUBTFUL.search(data) is not None):
        return None
    if not has_hash and (counted.empty_field or data[:1] == b" " or data[-1:] == b" "):
        return None
    return counted.spaces


class _Beside(threading.Thread):
    """The byte checks and the sha256 of the file, on the core polars' parse leaves free
    (numpy and hashlib release the GIL over large buffers, polars while it parses)."""

    def __init__(
        self, data: bytes | mmap.mmap, has_hash: bool, digest: hashlib._Hash | None
    ) -> None:
        super().__init__(name="ef-trec-checks", daemon=True)
        self.data, self.has_hash, self.digest = data, has_hash, digest
        self.spaces: int | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.spaces = _spaces_if_plain(self.data, self.has_hash, self.digest)
        except BaseException as exc:  # raised again in the reading thread, by result()
            self.error = exc

    def result(self) -> int | None:
        self.join()
        if self.error is not None:
            raise self.error
        return self.spaces


def _mapped(path: Path) -> tuple[bytes | mmap.mmap, os.stat_result | None] | None:
    """The bytes of ``path`` (mapped, or gunzipped into memory) and, for a file read as it
    is on disk, its status; None for what polars must not read: the reference reader names
    a missing, damaged or empty file and says what is wrong."""
    try:
        with open_binary(path) as handle:
            if not isinstance(handle, io.BufferedReader):  # gzip: the manifest hashes the file
                return handle.read(), None
            status = os.fstat(handle.fileno())
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), status
    except (OSError, ValueError):  # missing, damaged, or empty (mmap)
        return None
    except gzip_damage():  # damaged gzip data
        return None


def worth_starting_polars(path: Path, threshold: int | None = None) -> bool:
    """True if ``path`` is large enough that polars reads it faster than numpy's reader,
    starting polars included (:data:`SMALL_RUN_BYTES`, or ``threshold`` bytes of text).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     run = Path(tmp, "run.txt")
    ...     _ = run.write_text("q1 Q0 d1 1 2.5 bm25\\n")
    ...     worth_starting_polars(run)
    False
    """
    try:
        size = path.stat().st_size
    except OSError:
        return True  # the reader says what is wrong with it
    if path.suffix == ".gz":
        size *= _GZIP_RATIO
    return size >= (SMALL_RUN_BYTES if threshold is None else threshold)


def hashed_data(data: bytes | mmap.mmap) -> bool:
    """True if a line of ``data`` that starts with ``#`` may have a run line's shape
    (``#5 Q0 d1 1 0.9 t``): polars would drop it as a comment without a word, where the
    reference reader warns of it (or, for trec_eval 9.0.8, reads it). Comment lines are
    few: each is looked at alone.

    >>> hashed_data(b"# a note\\nq1 Q0 d1 1 0.9 t\\n")
    False
    >>> hashed_data(b"q1 Q0 d1 1 0.9 t\\n#5 Q0 d2 1 0.9 t")
    True
    """
    from .._records import is_run_shape, split_fields

    for start in _comment_starts(data):
        end = data.find(b"\n", start)
        end = len(data) if end == -1 else end
        line = bytes(data[start:end]).decode("utf-8", "replace")
        if line.lstrip().startswith("#") and is_run_shape(split_fields(line)):
            return True
    return False


def _comment_starts(data: bytes | mmap.mmap) -> Iterator[int]:
    """Where each line that starts with ``#``, or with spaces and ``#``, starts (lines that
    start with a space are few: a run has none)."""
    if data[:1] in (b"#", b" "):
        yield 0  # looked at, whatever it is
    for lead in (b"\n#", b"\n "):
        found = data.find(lead)
        while found != -1:
            yield found + 1
            found = data.find(lead, found + 1)


def read_trec_columns(path: Path) -> RunColumns | None:
    """The columns of a 6-column TREC run read with polars, or None where polars might
    read it differently from the reference reader (which then reads it)."""
    try:
        import polars as pl
    except ImportError:
        return None
    mapped = _mapped(path)
    if mapped is None:
        return None
    data, status = mapped
    has_hash = data.find(b"#") != -1  # comment lines must be looked for
    if has_hash and hashed_data(data):
        _unmap(data)
        return None
    frame, spaces = _parse_checked(pl, path, data, status, has_hash)
    if frame is None or spaces is None:
        return None
    return _columns(pl, frame, has_hash, spaces)


def _unmap(data: bytes | mmap.mmap) -> None:
    if isinstance(data, mmap.mmap):
        data.close()


def _parse_checked(
    pl: Any, path: Path, data: bytes | mmap.mmap, status: os.stat_result | None, has_hash: bool
) -> tuple[Any, int | None]:
    """The frame :func:`_parse` makes of ``data`` (the file ``path``) and the count of its
    spaces, from the byte checks run beside it; ``data`` closed after. The file's digest is
    recorded on the way."""
    # Not hashed where the digest is known already (a remote file's copy, hashed as copied).
    hashed = status is not None and digests.asked() and digests.recorded(path, status) is None
    import hashlib  # here: the numpy reader's runs need no digest

    checks = _Beside(data, has_hash, hashlib.sha256() if hashed else None)
    checks.start()
    try:
        # The whole file at once: query ids as a categorical, for memory (below).
        source = path if status is not None else bytes(data)
        frame = _parse(pl, source, has_hash, categorical=True)
        spaces = checks.result()
    finally:
        checks.join()  # the thread reads the map: it must end before the map closes
        _unmap(data)
    if status is not None and checks.digest is not None:
        digests.record(path, status, checks.digest)  # the manifest's, with no second pass
    return frame, spaces


def _parse(pl: Any, source: Path | bytes, has_hash: bool, *, categorical: bool = False) -> Any:
    """The frame of query ids, doc ids and scores (and tags, if the file has a ``#``), or
    None where polars cannot parse it. Query ids are a ``categorical`` (4 bytes a line, where
    the whole file is held at once) or strings (faster to read: a batch's lines are few)."""
    names = ["q", "q0", "d", "rank", "score", "tag"]
    # Without comment lines, and with no empty field (a doubled, leading or trailing space:
    # refused by the byte checks), every line's spaces are its fields less one, and polars
    # refuses a line of more than six; so a short line shows in the count of spaces (checked
    # in _columns) and the tag column need not be read: that saves a fifth of the parse.
    columns = [0, 2, 4, 5] if has_hash else [0, 2, 4]
    try:
        return pl.read_csv(
            source,
            separator=" ",
            has_header=False,
            comment_prefix="#" if has_hash else None,
            quote_char=None,
            # Strict: a line with more fields than the first (a doubled or leading space, or
            # extra columns) is an error, and one with fewer has nulls at its end.
            truncate_ragged_lines=False,
            new_columns=names,
            columns=columns,
            schema_overrides={
                "q": pl.Categorical if categorical else pl.String,
                "d": pl.String,
                "score": pl.Float64,
            },
        )
    except Exception:  # any parse failure: the reference reader reports it
        return None


def _columns(pl: Any, frame: Any, has_hash: bool, spaces: int) -> RunColumns | None:
    """The run's columns, or None if a line or a query is one the reference reader should
    see (a short line, a bad score, a query split in two, a doc listed twice)."""
    if any(frame.null_count().row(0)):
        frame = frame.filter(~pl.all_horizontal(pl.all().is_null()))  # blank lines are fine
        if any(frame.null_count().row(0)):
            return None  # a short line
    if frame.height == 0 or (not has_hash and spaces != 5 * frame.height):
        return None  # empty, or some line has other than 6 fields
    scores = frame.get_column("score").to_numpy()
    if not np.all(np.isfinite(scores)):
        return None
    queries = frame.get_column("q")
    docs = frame.get_column("d")
    if queries.dtype == pl.Categorical:  # a code per line: compared as integers
        codes = queries.to_physical().to_numpy()
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    else:  # each id compared with the one before
        starts = queries.ne_missing(queries.shift(1)).arg_true().to_numpy()
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
    for length in sorted(set(lengths.tolist())):  # not np.unique: it imports numpy.ma
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
            start, stop = int(offsets[i]), int(offsets[i + 1])
            if isinstance(docs, np.ndarray):  # a byte column (formats.trec.bytes_reader)
                seen = docs[start:stop].tolist()
            else:  # a polars Series
                seen = docs.slice(start, stop - start).to_list()
            if len(set(seen)) != len(seen):
                return True
    return False
