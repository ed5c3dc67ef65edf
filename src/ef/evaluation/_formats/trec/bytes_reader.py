"""The TREC run reader for small and mid-size files: numpy over the file's bytes, no polars.

Part of the TREC format, beside :mod:`~ef.evaluation._formats.trec.fast` (polars, for a file
of :data:`~ef.evaluation._formats.fast.SMALL_RUN_BYTES` or more, where starting polars
pays for itself): :func:`read_columns` picks one of the two by the file's size. This one
reads the file into memory and finds its fields with numpy, without a Python object per
line: the query ids, doc ids and scores become fixed-width byte columns (``S8``: a
doc id is its bytes, padded with NULs, which no id holds), and the scores are parsed from
theirs by numpy as ``float()`` parses them.

It reads only the plainest files: six fields a line, split by one space, LF line ends, no
blank line, no ``#``, no control byte, no Unicode space or byte-order mark, scores of the
characters ``0-9 . e E + -``, every query's lines together, no doc twice for a query.
Anything else is None, and the reference reader (:mod:`ef.evaluation._formats.trec.reader`) reads
the file, with its numbers and its errors naming the file and line.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     run = Path(tmp, "run.txt")
...     _ = run.write_bytes(b"q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.5 bm25\\nq2 Q0 d1 1 0.5 bm25\\n")
...     columns = read_trec_bytes(run)
...     tabbed = Path(tmp, "tabbed.txt")
...     _ = tabbed.write_bytes(b"q1\\tQ0\\td1\\t1\\t2.5\\tbm25\\n")
...     declined = read_trec_bytes(tabbed)
>>> columns.query_ids, columns.offsets.tolist(), columns.scores.tolist(), columns.docs.tolist()
(['q1', 'q2'], [0, 2, 3], [2.5, 1.5, 0.5], [b'd1', b'd2', b'd1'])
>>> declined is None
True
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from .. import digests
from .._io import gzip_damage, open_binary
from . import fast
from .decimals import parse_scores

if TYPE_CHECKING:
    import mmap

    import numpy as np
    import numpy.typing as npt

__all__ = [
    "PARALLEL_BYTES",
    "POLARS_AFTER_DECLINE_BYTES",
    "doc_hashes",
    "read_columns",
    "read_trec_bytes",
]

_LF, _SPACE = 10, 32
_MULTIPLIER = 0x9E3779B97F4A7C15  # a 64-bit odd constant: multiplying spreads the bits up


#: A file the numpy reader declines (a comment or blank line, a tab, ...) is polars' from
#: this size, as it was before the numpy reader: the reference reader takes about 2 us a
#: line, 0.1 s for 2 MB, what starting polars costs.
POLARS_AFTER_DECLINE_BYTES = 2 << 20

#: From this size, where two cores are free, a file's lines are parsed in two parts on two
#: threads. Prefixes of SciFact's BM25 run, best of 15, warm: 1 MB 4.0 ms in one part, 4.6
#: in two; 2 MB 7.0 and 6.2; 4 MB 12.6 and 9.5; the whole 16 MB 71 and 35. Below it, a
#: thread's start and the joined columns' copies cost about what the second core saves.
PARALLEL_BYTES = 2 << 20


def read_columns(path: Path, *, digest: bool = True) -> fast.RunColumns | None:
    """A TREC run's columns by the fast reader its size calls for: polars from
    :data:`~ef.evaluation._formats.fast.SMALL_RUN_BYTES` (gzipped: its text's estimated
    size), numpy below, and polars again from :data:`POLARS_AFTER_DECLINE_BYTES` where numpy's
    declines; None where they decline (the reference reader reads it). ``digest=False``:
    numpy's bytes are not hashed for a manifest (ef-trec-eval writes none)."""
    if fast.worth_starting_polars(path):
        return fast.read_trec_columns(path)
    columns = read_trec_bytes(path, digest=digest)
    if columns is None and fast.worth_starting_polars(path, POLARS_AFTER_DECLINE_BYTES):
        return fast.read_trec_columns(path)
    return columns


def read_trec_bytes(
    path: Path, *, digest: bool = True, parts: int | None = None
) -> fast.RunColumns | None:
    """The columns of a plain 6-column TREC run read with numpy (see the module), or None
    for a file the reference reader must read: a missing, damaged or empty file too. The
    digest of a file read as it is stored (not gunzipped) is recorded for the manifest,
    unless ``digest`` is False or no digest is asked for (:func:`~ef.evaluation._formats.
    digests.unasked`). ``parts``: as :func:`columns_of` parses the bytes."""
    data: bytes | mmap.mmap
    try:
        with open_binary(path) as handle:
            if not isinstance(handle, io.BufferedReader):  # gzip: the bytes are not the file's
                data = handle.read()
            elif digest and digests.asked():
                data = handle.read()
                digests.record_bytes(path, os.fstat(handle.fileno()), data)
            else:
                data = _mapped(handle)
    except (OSError, ValueError):  # the reference reader says what
        return None
    except gzip_damage():  # damaged gzip data
        return None
    try:
        if not data or data.find(b"#") != -1:  # comments, and '#' lines of a run line's shape
            return None
        return columns_of(data, parts=parts)
    finally:
        if not isinstance(data, bytes):
            with contextlib.suppress(BufferError):  # a view in a traceback: closed when freed
                data.close()


def _mapped(handle: io.BufferedReader) -> bytes | mmap.mmap:
    """The bytes of the plain file open as ``handle`` as a read-only memory map: not copied
    into fresh memory (2 ms, not 12, for SciFact's 16 MB). Not for a digest, hashed after
    the read, when the mapped file may have changed; the columns read from it are copies."""
    import mmap

    if os.fstat(handle.fileno()).st_size == 0:
        return b""  # mmap refuses an empty file
    return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def columns_of(data: bytes | mmap.mmap, *, parts: int | None = None) -> fast.RunColumns | None:
    """The run's columns from a file's bytes, or None (see the module). The lines are parsed
    in ``parts`` parts, each on a thread of its own (None: two from :data:`PARALLEL_BYTES`
    where two cores are free, else one); the columns are the same either way.

    >>> columns_of(b"q1 Q0 d1 1 1e2 t").scores.tolist(), columns_of(b"q1 Q0 d1 1 nan t")
    ([100.0], None)
    >>> columns_of(b"q1 Q0 d1 1 2 t\\nq1 Q0 d2 2 1 t\\nq2 Q0 d1 1 3 t", parts=3).offsets.tolist()
    [0, 2, 3]
    """
    import numpy as np

    view = np.frombuffer(data, dtype=np.uint8)
    if parts is None:
        parts = 2 if view.size >= PARALLEL_BYTES and _free_cores() >= 2 else 1
    parsed = _parsed(view, _line_parts(data, parts))
    if parsed is None:
        return None
    queries, docs, scores = parsed
    begins = np.flatnonzero(np.r_[True, queries[1:] != queries[:-1]])
    query_ids = [q.decode() for q in queries[begins].tolist()]
    if len(set(query_ids)) != len(query_ids):
        return None  # a query's lines are not together: the reference reader merges them
    offsets = np.r_[begins, docs.size].astype(np.int64)
    hashes = doc_hashes(docs)
    if fast._repeats_a_doc(offsets, hashes, docs):
        return None  # the reference reader names the line
    return fast.RunColumns(query_ids, offsets, scores, docs, hashes)


def _free_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _line_parts(data: bytes | mmap.mmap, parts: int) -> list[tuple[int, int]]:
    """``data`` cut into at most ``parts`` spans of whole lines (the last may lack its LF),
    of about one size each, none empty.

    >>> _line_parts(b"a\\nbb\\nc\\n", 2), _line_parts(b"one line", 2)
    ([(0, 5), (5, 7)], [(0, 8)])
    """
    cuts = [0]
    for i in range(1, parts):
        end = data.find(b"\n", max(cuts[-1], i * len(data) // parts))
        if end == -1:
            break
        cuts.append(end + 1)
    cuts.append(len(data))
    return [(start, stop) for start, stop in itertools.pairwise(cuts) if stop > start]


#: A run's query, doc and score columns.
_Columns: TypeAlias = tuple[
    "npt.NDArray[np.bytes_]", "npt.NDArray[np.bytes_]", "npt.NDArray[np.float64]"
]


def _parsed(view: npt.NDArray[np.uint8], spans: list[tuple[int, int]]) -> _Columns | None:
    """The query, doc and score columns of the lines of ``spans``, each span parsed on a
    thread of its own but the first (numpy lets go of the GIL in its passes over the
    bytes), then joined in order; None if any span is declined."""
    import numpy as np

    if len(spans) == 1:
        return _columns(view[spans[0][0] : spans[0][1]])
    results: list[_Columns | BaseException | None] = [None] * len(spans)

    def parse(i: int) -> None:
        try:
            results[i] = _columns(view[spans[i][0] : spans[i][1]])
        except BaseException as exc:  # raised again in the caller's thread
            results[i] = exc

    threads = [threading.Thread(target=parse, args=(i,)) for i in range(1, len(spans))]
    for thread in threads:
        thread.start()
    parse(0)
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    parsed = [result for result in results if isinstance(result, tuple)]
    if len(parsed) < len(spans):
        return None
    queries, docs, scores = zip(*parsed, strict=True)
    # Byte columns of other widths join at the widest, NUL-padded as a whole-file parse pads.
    return np.concatenate(queries), np.concatenate(docs), np.concatenate(scores)


def _columns(view: npt.NDArray[np.uint8]) -> _Columns | None:
    """The query, doc and score columns of whole lines' bytes, or None (see the module)."""
    import numpy as np

    fields = _fields(view)
    if fields is None:
        return None
    n = fields.shape[0]
    starts = np.empty(n, dtype=np.int32)
    starts[0], starts[1:] = 0, fields[:-1, 5] + 1
    queries = _fixed(view, starts, fields[:, 0])
    docs = _fixed(view, fields[:, 1] + 1, fields[:, 2])
    scores = _scores(view, fields[:, 3] + 1, fields[:, 4])
    if queries is None or docs is None or scores is None:
        return None
    return queries, docs, scores


def _fields(view: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32] | None:
    """Where each line's six fields end (a space, or the LF or file's end for the last),
    a row a line; None unless every line is six fields of at least one byte each, split by
    one space, with a LF line end, and the bytes are free of control bytes, DEL, and (in
    UTF-8) of Unicode spaces and byte-order marks."""
    import numpy as np

    top = int(view.max())
    if top == 127 or (top >= 128 and not _plain_text(view)):
        return None
    ends = _separators(view)  # each field's end: a space or LF, or the file's end
    if ends.size % 6:
        return None
    kinds = view[np.minimum(ends, view.size - 1)]
    if view[-1] != _LF:
        kinds[-1] = _LF  # the last line's end is the file's
    kinds = kinds.reshape(-1, 6)
    # Five spaces then a LF, no separator beside another, none first. A tab, CR or other
    # control byte is declined here too.
    if (
        ends[0] == 0
        or not np.all(kinds[:, :5] == _SPACE)
        or not np.all(kinds[:, 5] == _LF)
        or np.any(np.diff(ends) < 2)
    ):
        return None
    return ends.reshape(-1, 6)


def _plain_text(data: npt.NDArray[np.uint8]) -> bool:
    """True for UTF-8 without a byte-order mark or Unicode space (the reference reader
    refuses one in an id, or splits a line on it)."""
    buffer = data.data  # the array's bytes, not copied
    try:
        str(buffer, "utf-8")
    except UnicodeDecodeError:
        return False
    return fast._DOUBTFUL.search(buffer) is None


def _separators(view: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """Where the bytes up to a space are (spaces, LFs, control bytes), 4 MB at a time (the
    comparison's temporaries small), and the file's end if it does not end with a LF."""
    import numpy as np

    chunk = 1 << 22
    # As int32 (this reader's files are far below 2 GB): half the memory of int64.
    parts = [
        (np.flatnonzero(view[i : i + chunk] <= _SPACE) + i).astype(np.int32)
        for i in range(0, view.size, chunk)
    ]
    if view[-1] != _LF:
        parts.append(np.array([view.size], dtype=np.int32))
    return np.concatenate(parts)


def _fixed(
    view: npt.NDArray[np.uint8], starts: npt.NDArray[np.int32], ends: npt.NDArray[np.int32]
) -> npt.NDArray[np.bytes_] | None:
    """The fields ``view[starts[i]:ends[i]]`` as one fixed-width byte column (NUL-padded);
    None if that column would be larger than the file (a few very long ids)."""
    import numpy as np

    lengths = ends - starts
    width = int(lengths.max())
    if width * starts.size > view.size:
        return None
    # Every window of ``width`` bytes, as a view: one ``S{width}`` item a byte position, so
    # that the fields are copied out as items (twice as fast as rows of a 2-D window view).
    windows = np.ndarray((view.size - width + 1,), dtype=f"S{width}", buffer=view, strides=(1,))
    last = windows.size - 1
    column: npt.NDArray[np.bytes_] = windows[np.minimum(starts, last)]
    out = column.view(np.uint8).reshape(column.size, width)  # the same bytes, a row a field
    late = np.flatnonzero(starts > last)  # fields in the file's last ``width`` bytes
    for i in late.tolist():
        out[i] = 0
        out[i, : lengths[i]] = view[starts[i] : ends[i]]
    # NULs past each field's end. The mask is made a column at a time (a row of it per byte
    # position, across all fields), then used transposed: a third of the time of comparing
    # along each field's few bytes.
    out *= (np.arange(width, dtype=lengths.dtype)[:, None] < lengths).T
    return column


def _scores(
    view: npt.NDArray[np.uint8], starts: npt.NDArray[np.int32], ends: npt.NDArray[np.int32]
) -> npt.NDArray[np.float64] | None:
    """The scores, parsed as the reference reader parses them, or None if one is not a
    finite plain decimal number. Within the characters ``0-9 . e E + -``, float()'s grammar
    (:func:`~ef.evaluation._formats.trec.decimals.parse_scores`) is the reference reader's."""
    import numpy as np

    texts = _fixed(view, starts, ends)
    if texts is None:
        return None
    scores = parse_scores(texts)
    if scores is None or not np.all(np.isfinite(scores)):  # "1e", "1e999"
        return None
    return scores


def doc_hashes(docs: npt.NDArray[np.bytes_]) -> npt.NDArray[np.uint64]:
    """A 64-bit hash of each id of a fixed-width byte column, its upper bits well spread
    (equal ids, equal hashes; :func:`~ef.evaluation._formats.fast._repeats_a_doc` and the
    run table compare the ids themselves where two hashes are equal).

    >>> import numpy as np
    >>> h = doc_hashes(np.array([b"d1", b"d2", b"d1"]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1])
    (True, False)
    """
    import numpy as np

    width = docs.dtype.itemsize
    padded = -(-width // 8) * 8
    if padded != width:
        docs = docs.astype(f"S{padded}")
    words = docs.view("<u8").reshape(docs.size, padded // 8)
    multiplier = np.uint64(_MULTIPLIER)
    hashes = np.full(docs.size, np.uint64(width), dtype=np.uint64)
    for column in range(words.shape[1]):
        hashes ^= words[:, column]
        hashes *= multiplier
        hashes ^= hashes >> np.uint64(29)
    hashes *= multiplier
    return hashes
