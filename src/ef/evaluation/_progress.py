"""Progress of long work: nothing, a rich bar on stderr, or a callable ``(done, total)``.

The long functions of the API take ``progress=``: :func:`~ef.evaluation.retrieve`,
:func:`~ef.evaluation.evaluate_run`, :func:`~ef.evaluation.compare`,
:func:`~ef.evaluation.convert` and :func:`~ef.evaluation.download_dataset`.

* ``False``, their default: nothing is reported.
* ``True``: a rich progress bar on stderr for each phase of the work. Work that is often
  short (reading, scoring, converting, resampling) draws its bar only once the phase has run
  for :data:`DELAY` seconds, so a quick call prints nothing; retrieving and downloading, slow
  by nature, draw theirs at once.
* A callable: ``progress(done, total)``, from the calling thread, for each phase: first
  ``(0, total)``, then ``done`` never decreasing and never above ``total``, and, when the
  phase completes, ``(total, total)``. A failed phase stops where it was. A new phase starts
  again at ``(0, total)``.

rich is imported only when a bar is drawn, and a bar never takes over stdout: what a
command prints there (a report, JSON) is the same with or without it.

>>> seen = []
>>> with phase(lambda done, total: seen.append((done, total)), "counting", 3) as counting:
...     counting.advance(2)
...     counting.update(1)  # done never goes back
>>> seen
[(0, 3), (2, 3), (3, 3)]
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

__all__ = ["DELAY", "Phase", "Progress", "check_progress", "phase", "read_position", "reading"]

#: ``progress=``: off, a rich progress bar on stderr, or a callable ``(done, total)``.
Progress = bool | Callable[[int, int], object]

#: Seconds a phase of often-short work runs before its bar is drawn.
DELAY = 1.0

#: What a phase is counted in: things (queries, measures, resamples) or bytes.
Unit = Literal["count", "bytes"]

# A reporter gets (done, total); total is None while unknown (a download without a length).
_Report = Callable[[int, Any], object]


def check_progress(progress: object) -> None:
    """Refuse a ``progress=`` that is neither a bool nor a callable.

    >>> check_progress("yes")
    Traceback (most recent call last):
        ...
    ValueError: progress must be a bool or a callable (done, total), got 'yes'
    """
    if not (isinstance(progress, bool) or callable(progress)):
        raise ValueError(f"progress must be a bool or a callable (done, total), got {progress!r}")


class Phase:
    """One phase of work as its reporter sees it: ``done`` never decreases and never passes
    ``total``. Without a reporter, it only counts.

    >>> counting = Phase(None, 10)
    >>> counting.advance(4); counting.update(12); counting.done
    10
    """

    def __init__(self, report: _Report | None, total: int | None) -> None:
        self.total = total
        self.done = 0
        self._report = report
        if report is not None:
            report(0, total)

    def update(self, done: int) -> None:
        """``done`` so far: a value below the last is ignored, one above ``total`` capped."""
        if self.total is not None:
            done = min(done, self.total)
        if done <= self.done:
            return
        self.done = done
        if self._report is not None:
            self._report(done, self.total)

    def advance(self, n: int) -> None:
        """``n`` more done."""
        self.update(self.done + n)

    @contextlib.contextmanager
    def share(self, n: int) -> Iterator[Callable[[int], None]]:
        """A part of the phase worth ``n``: the function given counts its progress (capped at
        ``n``), and the part counts as ``n`` once the block ends without an error.

        >>> counting = Phase(None, 10)
        >>> with counting.share(6) as drew:
        ...     drew(4); drew(5)
        ...     print(counting.done)
        6
        """
        start = self.done
        counted = 0

        def advance(k: int) -> None:
            nonlocal counted
            counted += k
            self.update(start + min(counted, n))

        yield advance
        self.update(start + n)


@contextlib.contextmanager
def phase(
    progress: bool | _Report,
    label: str,
    total: int | None,
    *,
    unit: Unit = "count",
    delay: float | None = None,
) -> Iterator[Phase]:
    """A :class:`Phase` of ``total`` told to ``progress``: a callable, a bar (``True``,
    drawn after ``delay`` seconds, :data:`DELAY` by default) or no one (``False``).

    When the block ends without an error, the phase completes (``done = total``); the bar
    is closed either way.

    >>> with phase(False, "scoring", 5) as scoring:
    ...     scoring.advance(2)
    >>> scoring.done
    5
    """
    bar = None
    report: _Report | None = None
    if progress is True:
        bar = _Bar(label, total, unit, DELAY if delay is None else delay)
        report = bar.update
    elif progress is not False:
        report = progress
    try:
        tracked = Phase(report, total)
        yield tracked
        if tracked.total is not None:
            tracked.update(tracked.total)
        elif bar is not None:
            bar.update(tracked.done, tracked.done)  # the end of an unknown total: a full bar
    finally:
        if bar is not None:
            bar.close()


class _Bar:
    """A rich progress bar on stderr, drawn ``delay`` seconds after it is made (at once for
    ``delay <= 0``) unless it is closed before; ``timer`` schedules the drawing."""

    def __init__(
        self,
        label: str,
        total: int | None,
        unit: Unit,
        delay: float,
        *,
        console: Any = None,
        timer: Callable[[float, Callable[[], None]], Any] = threading.Timer,
    ) -> None:
        self._label, self._total, self._unit, self._done = label, total, unit, 0
        self._console = console
        self._lock = threading.Lock()  # the timer's thread draws, the caller's updates
        self._drawn: Any = None  # the rich Progress, once drawn
        self._task: Any = None
        self._closed = False
        self._timer = None
        if delay <= 0:
            self._draw()
        else:
            self._timer = timer(delay, self._draw)
            self._timer.daemon = True  # never keeps the interpreter alive
            self._timer.start()

    def _draw(self) -> None:
        with self._lock:
            if self._closed or self._drawn is not None:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            counts = (MofNCompleteColumn(), TimeElapsedColumn())
            amounts = (DownloadColumn(), TransferSpeedColumn())
            drawn = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                *(amounts if self._unit == "bytes" else counts),
                TimeRemainingColumn(),
                console=self._console or Console(stderr=True),
                transient=False,
                # rich would send what others print to stdout through its console, on stderr.
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._task = drawn.add_task(self._label, total=self._total, completed=self._done)
            drawn.start()
            self._drawn = drawn

    def update(self, done: int, total: int | None) -> None:
        with self._lock:
            self._done, self._total = done, total
            if self._drawn is not None:
                self._drawn.update(self._task, completed=done, total=total)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._closed = True
            if self._drawn is not None:
                self._drawn.stop()


# -- bytes read ------------------------------------------------------------------------------


class _Watch:
    """The files under ``root`` being read, and how far into each (in bytes)."""

    def __init__(self, root: Path, tracked: Phase) -> None:
        self.root = root
        self.folder = root.is_dir()
        self.tracked = tracked
        self.positions: dict[Path, int] = {}

    def covers(self, file: Path) -> bool:
        return file == self.root or (self.folder and file.is_relative_to(self.root))

    def position(self, file: Path, at: int) -> None:
        # A file read twice (a run's tags are read after its lines) counts once.
        if at > self.positions.get(file, 0):
            self.positions[file] = at
            self.tracked.update(sum(self.positions.values()))


_WATCH: contextvars.ContextVar[_Watch | None] = contextvars.ContextVar(
    "ef_evaluation_watched_reads", default=None
)


def _size(path: Path) -> int | None:
    """The bytes of a file, or of every file under a folder; None if it cannot be told (the
    reader then names what is wrong with the path)."""
    try:
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        return path.stat().st_size
    except OSError:
        return None


@contextlib.contextmanager
def reading(
    path: str | os.PathLike[str], progress: bool | _Report, label: str | None = None
) -> Iterator[Phase]:
    """A phase in bytes of ``path`` (a file, or every file under a folder) that the built-in
    readers advance as they read it, through :func:`read_position`.

    >>> import pathlib, tempfile
    >>> from ef.evaluation import read_qrels
    >>> seen = []
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "qrels.txt")
    ...     _ = path.write_text("q1 0 d1 1\\n")
    ...     with reading(path, lambda done, total: seen.append((done, total))):
    ...         _ = read_qrels(path)
    >>> seen
    [(0, 10), (10, 10)]
    """
    source = Path(path)
    with phase(progress, label or f"reading {source.name}", _size(source), unit="bytes") as p:
        if progress is False:
            yield p
            return
        token = _WATCH.set(_Watch(source.resolve(), p))
        try:
            yield p
        finally:
            _WATCH.reset(token)


def read_position(path: Path) -> Callable[[int], None] | None:
    """For a reader of ``path``: the function to tell how many bytes of the file it has read
    so far, if a :func:`reading` phase watches it, else None (and nothing to do).

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "run.txt")
    ...     _ = path.write_bytes(b"0123456789")
    ...     print(read_position(path))
    ...     with reading(path, lambda done, total: print(done, total)):
    ...         read_position(path)(4)
    None
    0 10
    4 10
    10 10
    """
    watch = _WATCH.get()
    if watch is None:
        return None
    file = path.resolve()
    if not watch.covers(file):
        return None
    return functools.partial(watch.position, file)
