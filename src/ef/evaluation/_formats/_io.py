"""Shared file plumbing: numbered lines with precise errors, and atomic writes."""

from __future__ import annotations

import contextlib
import errno
import io
import math
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, NoReturn, TypeVar, cast

from .._progress import read_position
from ..errors import DatasetFormatError

T = TypeVar("T")

__all__ = [
    "atomic_binary_writer",
    "atomic_writer",
    "caller_stacklevel",
    "check_input",
    "files_by_split",
    "first_line",
    "format_error",
    "gzip_damage",
    "json_lines",
    "load_json",
    "numbered_lines",
    "once_each",
    "open_binary",
    "parse_json",
    "read_text",
    "remove_stale_temporaries",
    "staged_path",
]


def format_error(
    path: Path, line_no: int, problem: str, line: str | None = None
) -> DatasetFormatError:
    """``path:line: problem`` (and the offending text, shortened), as compilers print it."""
    message = f"{path}:{line_no}: {problem}"
    if line is not None:
        shown = line if len(line) <= 80 else line[:77] + "..."
        message += f" (line: {shown!r})"
    return DatasetFormatError(message)


_NOT_REGULAR = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_OS_ERROR_CLASS: dict[int, type[OSError]] = {
    errno.EACCES: PermissionError,
    errno.EPERM: PermissionError,
    errno.EISDIR: IsADirectoryError,
    errno.ENOENT: FileNotFoundError,
    errno.ENOTDIR: NotADirectoryError,
}


def _os_error(number: int | None, message: str) -> OSError:
    """An OSError of the class ``number`` maps to, whose text is ``message`` alone (no
    ``[Errno 28]``), with ``errno`` kept for callers that test it."""
    error = _OS_ERROR_CLASS.get(number or 0, OSError)(message)
    error.errno = number
    return error


def check_input(path: Path, *, directory_ok: bool = False) -> None:
    """Refuse, naming ``path``, what cannot be read as a file: a missing path, a directory
    (unless ``directory_ok``), a FIFO, a device or a socket (which could block or never end),
    or a path this process may not read."""
    mode = _mode_of_input(path, directory_ok=directory_ok)
    if stat.S_ISDIR(mode):
        if not directory_ok:
            raise IsADirectoryError(f"{path} is a directory; expected a file")
        if not os.access(path, os.R_OK | os.X_OK):
            raise _os_error(errno.EACCES, f"{path}: permission denied; cannot read it")
        return
    kind = next((name for test, name in _NOT_REGULAR if test(mode)), None)
    if kind is not None:
        raise _os_error(errno.EINVAL, f"{path} is {kind}, not a regular file; expected a file")
    if not os.access(path, os.R_OK):
        raise _os_error(errno.EACCES, f"{path}: permission denied; cannot read it")


def _mode_of_input(path: Path, *, directory_ok: bool) -> int:
    """``path``'s ``st_mode``; a path that is missing or cannot be looked at is an OSError
    naming it."""
    try:
        return path.stat().st_mode
    except FileNotFoundError:
        what = "file or directory" if directory_ok else "file"
        raise FileNotFoundError(f"no such {what}: {path}") from None
    except PermissionError:
        raise _os_error(errno.EACCES, f"{path}: permission denied; cannot read it") from None
    except OSError as exc:
        raise _os_error(exc.errno, f"{path}: cannot read it ({exc.strerror})") from None


def _check_file(path: Path) -> None:
    check_input(path)


def open_binary(path: Path) -> IO[bytes]:
    """``path`` opened for reading bytes, gunzipped if it is gzip (by magic number).

    A missing path, a directory, a FIFO, device or socket, and an unreadable file are each
    an ``OSError`` whose message names ``path`` and says which.
    """
    _check_file(path)
    return _open_binary(path)


def _open_binary(path: Path) -> IO[bytes]:
    # gzip is transparent: chosen by the magic number, not the name.
    try:
        with open(path, "rb") as probe:
            magic = probe.read(2)
        if magic == b"\x1f\x8b":
            import gzip  # here: most runs and qrels are plain text

            return cast("IO[bytes]", gzip.open(path, "rb"))
        return open(path, "rb")  # the caller closes it
    except PermissionError:
        raise _os_error(errno.EACCES, f"{path}: permission denied; cannot read it") from None


_TOLD_EVERY = 1 << 13  # lines between two reports of how far a watched file is read


def _lines(handle: IO[bytes], path: Path) -> Iterable[bytes]:
    """The raw lines of ``handle``; when a progress phase watches ``path``, telling it the
    bytes of the file read so far (of the gzip file itself for a gzipped one)."""
    told = read_position(path)
    if told is None:
        return handle  # nothing watches: not one call more per line
    raw = cast("IO[bytes]", getattr(handle, "fileobj", handle))  # a GzipFile's own file
    return _telling(handle, raw.tell, told)


def _telling(
    handle: IO[bytes], where: Callable[[], int], told: Callable[[int], None]
) -> Iterator[bytes]:
    for count, line in enumerate(handle, start=1):
        if not count % _TOLD_EVERY:
            told(where())
        yield line
    told(where())


@contextlib.contextmanager
def _reading(path: Path) -> Iterator[IO[bytes]]:
    """``path`` opened for bytes; a damaged gzip stream becomes an error naming the file."""
    try:
        with _open_binary(path) as handle:
            yield handle
    except gzip_damage() as exc:
        raise DatasetFormatError(f"{path}: damaged gzip data ({exc})") from None


def gzip_damage() -> tuple[type[BaseException], ...]:
    """The errors of a damaged gzip stream: gzip's and zlib's own among them once they are
    loaded (as :func:`_open_binary` loads them for a gzip file; a plain file cannot raise
    them, and a plain file's reading loads neither). An ``except`` evaluates this only when
    something was raised."""
    gzip, zlib = sys.modules.get("gzip"), sys.modules.get("zlib")
    return (
        EOFError,
        *(() if gzip is None else (gzip.BadGzipFile,)),
        *(() if zlib is None else (zlib.error,)),
    )


def numbered_lines(
    path: Path, *, keep_blank: bool = False, comments: bool = False
) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` for each non-blank line of a UTF-8 (optionally gzipped) file.

    Decoding is per line, so a bad byte is reported with its line number; a UTF-8 byte-order
    mark at the start of the file and CRLF line ends are accepted; a CR that does not end a
    line (CR-only line ends) is an error naming the line. ``keep_blank`` yields blank lines
    too (for formats whose texts span lines); ``comments`` skips lines whose first non-blank
    character is ``#``, as trec_eval 10 does (a ``#`` later in the line is data). Raises
    ``FileNotFoundError`` naming ``path``.
    """
    _check_file(path)
    with _reading(path) as handle:
        for line_no, raw in enumerate(_lines(handle, path), start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise format_error(
                    path, line_no, f"not valid UTF-8 (byte {exc.start + 1} of the line)"
                ) from None
            if line_no == 1:
                text = text.removeprefix("\ufeff")
            text = text.removesuffix("\n").removesuffix("\r")
            if "\r" in text:
                # Checked before comments are skipped: a CR-only file is one long line, and
                # read as one it would lose every record after the first (or all of them).
                raise format_error(
                    path,
                    line_no,
                    "a carriage return (CR) not followed by a line feed: CR-only (old Mac) "
                    "line ends are not read; convert the file to LF or CRLF line ends",
                    text,
                )
            stripped = text.lstrip()
            if comments and stripped.startswith("#"):
                continue
            if stripped or keep_blank:
                yield line_no, text


def caller_stacklevel() -> int:
    """The ``stacklevel`` at which the function that calls this one should warn: the first
    frame outside ef.evaluation (the user's call), however deep the library's path to it."""
    frame = sys._getframe(1)  # the function about to warn
    level = 1
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        "ef.evaluation."
    ):
        frame = frame.f_back
        level += 1
    return level


class _DuplicateKeyError(ValueError):
    """A JSON object that gives a key twice (json.loads would keep the last silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return record


# A JSON string (skipped whole), a bracket or a line end: what nesting depth is counted from.
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}\n]')
# A JSON string, or a number: its integer digits, and a fraction or exponent if it has one.
_NUMBERS = re.compile(r'"(?:[^"\\]|\\.)*"|-?(\d+)(\.\d+)?([eE][-+]?\d+)?')


def _deepest(text: str) -> tuple[int, int]:
    """How deep ``text``'s arrays and objects nest, and the line (from 0) where that depth
    is first reached."""
    depth = deepest = line = at = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token == "\n":
            line += 1
        elif token in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, line
        elif token in "]}":
            depth -= 1
    return deepest, at


def _long_integer(text: str, limit: int) -> tuple[int, int]:
    """The digits of the first integer in ``text`` longer than ``limit``, and its line (from
    0); ``(0, 0)`` if none is found outside a string."""
    for match in _NUMBERS.finditer(text):
        digits, fraction, exponent = match.groups()
        if digits is not None and fraction is None and exponent is None and len(digits) > limit:
            return len(digits), text.count("\n", 0, match.start())
    return 0, 0


class _FloatOverflow(ValueError):
    """A JSON number beyond a float's range, which ``json`` reads as an infinity."""


def _finite_float(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise _FloatOverflow(token)
    return value


def _line_of_number(text: str, token: str) -> int:
    """The line (from 0) of the first number ``token`` in ``text`` outside a string."""
    for match in _NUMBERS.finditer(text):
        if match.group() == token:
            return text.count("\n", 0, match.start())
    return 0


def load_json(
    text: str, path: Path, line_no: int = 1, line: str | None = None, **options: Any
) -> Any:
    """``json.loads(text, **options)``, with the parser's limits named: nesting too deep for
    it (a bare ``RecursionError``), an integer longer than Python converts
    (``sys.get_int_max_str_digits()``, a bare ``ValueError``), or a number beyond a float's
    range (``1e999``, which ``json`` reads silently as an infinity) is a
    ``DatasetFormatError`` naming ``path`` and the line. ``line_no`` is the line ``text``
    starts on; ``line``, if given, is shown. ``json.JSONDecodeError`` and what the
    ``options``' hooks raise go through, for the caller to word.

    Every JSON reader of a file goes through this, so that no limit escapes unnamed.

    >>> load_json("[" * 100_000 + "]" * 100_000, Path("deep.json"))
    Traceback (most recent call last):
        ...
    ef.evaluation.DatasetFormatError: deep.json:1: JSON nested too deeply to read \
(100000 levels)
    >>> load_json('{"a": 1,\\n "b": ' + "9" * 5000 + "}", Path("r.json"), 10)
    Traceback (most recent call last):
        ...
    ef.evaluation.DatasetFormatError: r.json:11: an integer of 5000 digits, more than Python \
reads (4300: sys.set_int_max_str_digits raises the limit); is it a number at all?
    >>> load_json('{"score": 1e999}', Path("r.json"))
    Traceback (most recent call last):
        ...
    ef.evaluation.DatasetFormatError: r.json:1: the number 1e999 is beyond a float's range \
(about ±1.8e308)
    """
    import json  # here: a run or qrels file of TREC lines never needs it

    options.setdefault("parse_float", _finite_float)
    try:
        return json.loads(text, **options)
    except _FloatOverflow as exc:
        token = str(exc)
        problem = f"the number {token} is beyond a float's range (about ±1.8e308)"
        raise format_error(path, line_no + _line_of_number(text, token), problem, line) from None
    except RecursionError:
        levels, at = _deepest(text)
        problem = f"JSON nested too deeply to read ({levels} levels)"
        raise format_error(path, line_no + at, problem, line) from None
    except ValueError as exc:
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
        digits, at = _long_integer(text, limit) if type(exc) is ValueError and limit else (0, 0)
        if not digits:
            raise
        problem = (
            f"an integer of {digits} digits, more than Python reads ({limit}: "
            "sys.set_int_max_str_digits raises the limit); is it a number at all?"
        )
        raise format_error(path, line_no + at, problem, line) from None


def parse_json(text: str, path: Path, line_no: int, line: str | None = None) -> Any:
    """``text`` parsed as JSON, or an error naming ``path`` and ``line_no``: invalid JSON, an
    object that gives a key twice (which ``json.loads`` would silently resolve to the last),
    or the parser's limits (see :func:`load_json`)."""
    import json

    try:
        return load_json(text, path, line_no, line, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        problem = f"invalid JSON ({exc.msg} at column {exc.colno})"
        raise format_error(path, line_no, problem, line) from None
    except _DuplicateKeyError as exc:
        problem = f"a JSON object gives the key {exc.args[0]!r} twice"
        raise format_error(path, line_no, problem, line) from None


def json_lines(path: Path) -> Iterator[tuple[int, str, Any]]:
    """``(line number, text, parsed value)`` for each non-blank line of a JSONL file; see
    :func:`parse_json` for what is refused."""
    for line_no, line in numbered_lines(path):
        yield line_no, line, parse_json(line, path, line_no, line)


def read_text(path: Path) -> str:
    """The whole text of a UTF-8 (optionally gzipped) file, CRLF and BOM handled like
    :func:`numbered_lines`, for parsers such as ``csv`` whose records may span lines."""
    _check_file(path)
    parts = []
    with _reading(path) as handle:
        for line_no, raw in enumerate(_lines(handle, path), start=1):
            try:
                parts.append(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise format_error(
                    path, line_no, f"not valid UTF-8 (byte {exc.start + 1} of the line)"
                ) from None
    return "".join(parts).removeprefix("\ufeff")


def damaged_gzip(path: Path) -> str | None:
    """``"<path>: damaged gzip data (...)"`` if ``path`` is a gzip file that cannot be read
    from the start, else None (detection could not tell why it read no line)."""
    try:
        with path.open("rb") as raw:
            if raw.read(2) != b"\x1f\x8b":
                return None
        import gzip  # a gzip file's: loaded here only

        with gzip.open(path, "rb") as handle:
            handle.read(1 << 16)
    except gzip_damage() as exc:
        return f"{path}: damaged gzip data ({exc})"
    except OSError:
        return None
    return None


def first_line(path: Path) -> str | None:
    """The first non-blank, non-comment line of a file, without its line end (tabs kept, so
    an empty last column still counts); None if there is none or the file is unreadable."""
    if not path.is_file():
        return None
    try:
        with _open_binary(path) as handle:
            for number, raw in enumerate(handle):
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                if number == 0:
                    line = line.removeprefix("\ufeff")
                if line.strip() and not line.lstrip().startswith("#"):
                    return line
    except OSError:
        return None
    except gzip_damage():  # a damaged gzip file: no line to read either
        return None
    return None


def files_by_split(root: Path, pattern: re.Pattern[str], unnamed: str) -> dict[str, Path]:
    """The files of the directory ``root`` whose names ``pattern`` matches, in name order, by
    the split the match's ``split`` group names (``unnamed`` for a name that has none).

    >>> import tempfile
    >>> qrels = re.compile(r"^qrels(?:\\.(?P<split>[^.]+))?\\.txt$")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("qrels.dev.txt", "qrels.txt", "notes.txt"):
    ...         _ = Path(tmp, name).write_text("")
    ...     found = files_by_split(Path(tmp), qrels, "test")
    ...     {split: path.name for split, path in found.items()}
    {'dev': 'qrels.dev.txt', 'test': 'qrels.txt'}
    """
    found: dict[str, Path] = {}
    for path in sorted(root.iterdir()):
        match = pattern.match(path.name)
        if match and path.is_file():
            found[match["split"] or unnamed] = path
    return found


def once_each(items: Iterable[T], key: Callable[[T], str], kind: str) -> Iterator[T]:
    """``items`` as they stream by, with an error at the first whose ``key`` came before.

    Writers use it so that they never write a file their own reader would refuse.
    """
    seen: set[str] = set()
    for item in items:
        item_id = key(item)
        if item_id in seen:
            raise DatasetFormatError(f"{kind} id {item_id!r} is given twice")
        seen.add(item_id)
        yield item


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


_TEMP_MARK = ".ef-tmp-"
_WRITE_PROBLEMS = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EFBIG: "the file is too large (the file-size limit, ulimit -f, or the file system's)",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "it is a directory",
    errno.ENOENT: "its directory does not exist",
    errno.ENOTDIR: "a part of its path is not a directory",
}


def _write_error(path: Path, exc: OSError) -> OSError:
    problem = _WRITE_PROBLEMS.get(exc.errno or 0, exc.strerror or str(exc))
    return _os_error(exc.errno, f"{path}: cannot write it: {problem}; nothing was written")


def _temp_prefix(path: Path) -> str:
    return f".{path.name}{_TEMP_MARK}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files and folders that killed writers of ``path`` left, and
    return them.

    A temporary file (or a plugin writer's staging folder, :func:`staged_path`) is
    ``.<name>.ef-tmp-<pid>-<random>``; only those whose writer's process is gone are removed,
    so a concurrent writer's file is never touched.
    """
    import shutil  # here, as tempfile below: only a write needs them

    prefix = _temp_prefix(path)
    removed = []
    with contextlib.suppress(OSError):  # an unlistable directory: the write will say so
        for entry in os.scandir(path.parent):
            if not entry.name.startswith(prefix):
                continue
            pid = entry.name[len(prefix) :].partition("-")[0]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                with contextlib.suppress(FileNotFoundError):  # another writer removed it
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path)
                    else:
                        os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[IO[str]]:
    """Write ``path`` through a temporary file in the same directory, renamed on success.

    A name ending in ``.gz`` is written gzip-compressed. The temporary file is
    ``.<name>.ef-tmp-<pid>-<random>``; on any error it is removed and ``path`` is left as it
    was, and an ``OSError`` (disk full, file too large, read-only file system, permission
    denied, a directory in the way) names ``path`` and says which. Temporary files of
    ``path`` that a killed writer left are removed first (only those of dead processes).
    """
    with atomic_binary_writer(path) as handle:
        raw: IO[bytes] = handle
        if path.name.endswith(".gz"):
            import gzip  # a .gz target's only

            # The target's name and mtime=0 in the header: the same data, the same bytes.
            raw = cast(
                "IO[bytes]",
                gzip.GzipFile(
                    filename=path.name.removesuffix(".gz"), fileobj=handle, mode="wb", mtime=0
                ),
            )
        with raw, io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as text:
            yield text


@contextlib.contextmanager
def atomic_binary_writer(path: Path) -> Iterator[IO[bytes]]:
    """Write the bytes of ``path`` as :func:`atomic_writer` writes its text (no gzip)."""
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; cannot write a file there")
    import tempfile

    remove_stale_temporaries(path)
    try:
        fd, temp_name = tempfile.mkstemp(
            dir=path.parent, prefix=f"{_temp_prefix(path)}{os.getpid()}-"
        )
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        with io.BufferedWriter(_Target(open(fd, "wb", buffering=0), path)) as handle:
            yield cast("IO[bytes]", handle)
        try:
            # A temporary file is private (0600); the result gets the mode a new file would
            # get, or keeps the mode of the file it replaces.
            os.chmod(temp_name, _mode_for(path))
            os.replace(temp_name, path)
        except OSError as exc:
            raise _write_error(path, exc) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


@contextlib.contextmanager
def staged_path(path: Path) -> Iterator[Path]:
    """A path to write ``path`` at, in a private folder beside it, moved into place when the
    block ends without an error; on any error (an interrupt too) it is removed, and ``path``
    is left as it was.

    How a plugin's writer is made atomic without its help: it writes the path it is given,
    which has ``path``'s name (a ``.gz`` suffix means the same to it), and what it wrote
    there moves into place. The folder is ``.<name>.ef-tmp-<pid>-<random>``, as
    :func:`atomic_writer`'s temporary files are, so the next write removes one a killed
    writer left. A file replaces ``path`` (keeping the mode of the file it replaces). A
    folder (a dataset) becomes ``path``, or, if ``path`` is a folder already, its files
    replace theirs one at a time and the others there stay, as the built-in dataset writers
    do. Anything written beside it (a sidecar) moves beside ``path``, before it.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     target = Path(tmp, "out.txt")
    ...     with staged_path(target) as staged:
    ...         _ = staged.write_text("done")
    ...         before = target.exists()
    ...     before, target.read_text(), sorted(p.name for p in target.parent.iterdir())
    (False, 'done', ['out.txt'])
    """
    import shutil
    import tempfile

    remove_stale_temporaries(path)
    try:
        folder = Path(
            tempfile.mkdtemp(dir=path.parent, prefix=f"{_temp_prefix(path)}{os.getpid()}-")
        )
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        yield folder / path.name
        # Sidecars first, the output last: whoever sees it sees them too.
        for entry in sorted(folder.iterdir(), key=lambda p: p.name == path.name):
            _place(entry, path.parent / entry.name)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _place(source: Path, target: Path) -> None:
    """Move ``source`` to ``target``: a file replaces a file; a folder's files go into an
    existing folder one by one; an OSError names ``target``."""
    there = target.exists() or target.is_symlink()
    if there:
        is_folder, target_is_folder = _is_folder(source), _is_folder(target)
        if is_folder and target_is_folder:
            for child in sorted(source.iterdir()):
                _place(child, target / child.name)
            return
        if is_folder != target_is_folder:
            _refuse_kind_in_the_way(target, made_folder=is_folder)
    _move(source, target, replacing=there)


def _move(source: Path, target: Path, *, replacing: bool) -> None:
    """``os.replace`` ``source`` to ``target``, which takes the mode of the file it is
    ``replacing``; an OSError names ``target``."""
    try:
        if replacing:
            os.chmod(source, _mode_for(target))  # the mode of the file it replaces
        os.replace(source, target)
    except OSError as exc:
        raise _write_error(target, exc) from None


def _is_folder(path: Path) -> bool:
    """A folder itself, not a link to one (which is replaced as a file is)."""
    return path.is_dir() and not path.is_symlink()


def _refuse_kind_in_the_way(target: Path, *, made_folder: bool) -> NoReturn:
    """Refuse to put a folder where a file is, or a file where a folder is."""
    made, found = ("a folder", "a file") if made_folder else ("a file", "a folder")
    raise _os_error(
        errno.ENOTDIR if made_folder else errno.EISDIR,
        f"{target}: cannot write it: the writer made {made}, and {found} is in the way; "
        "nothing was written there",
    )


class _Target(io.RawIOBase):
    """The temporary file, whose OS errors name the target (the caller's errors pass as
    they are: a reader's error names its own file)."""

    def __init__(self, handle: IO[bytes], path: Path) -> None:
        self._handle, self._path = handle, path

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        try:
            return self._handle.write(data)
        except OSError as exc:
            raise _write_error(self._path, exc) from None

    def close(self) -> None:
        if not self.closed:
            try:
                self._handle.close()
            except OSError as exc:
                raise _write_error(self._path, exc) from None
            finally:
                super().close()
