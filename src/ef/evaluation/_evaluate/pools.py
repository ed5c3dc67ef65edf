"""Process pools that cannot hang or leak: the check of a user's executor, and ef's own pool.

A process started by ``fork`` is a copy of its parent's memory with only the forking thread
running. polars (a Rust thread pool), numpy's BLAS and a progress bar start threads; in the
copy, their locks may be held by threads that no longer exist, and polars' pool has no
threads to run its jobs, so the first read of a shard waits forever. Those native threads
cannot be seen from Python (``threading.active_count()`` counts Python's only), and the
calling process may have started them before any shard is sent (ef's file readers use
polars): whether a fork-started pool works would depend on what ran earlier. So
:func:`check_start_method` refuses every fork-started ``ProcessPoolExecutor``, before
anything is submitted, and says what to pass instead. Any other executor (spawn or
forkserver pools, a thread pool, a Dask client's executor) is the user's to run and shut
down.

:func:`process_pool` is the pool ef makes itself (``ef-eval evaluate --workers N``): started
by ``forkserver`` on Linux, else by ``spawn``, neither of which copies the caller's threads,
and each worker exits once its parent is gone, also after a ``kill -9``.

>>> import concurrent.futures as cf, multiprocessing
>>> check_start_method(cf.ThreadPoolExecutor(1))  # not a process pool: nothing to check
>>> forked = cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
>>> check_start_method(forked)
Traceback (most recent call last):
    ...
ValueError: executor= is a process pool started by fork, which can deadlock once polars' or \
numpy's threads have started (reading any file starts them); start it by forkserver or spawn \
instead: ProcessPoolExecutor(max_workers=N, mp_context=multiprocessing.get_context("forkserver"))
>>> forked.shutdown()
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import concurrent.futures as cf
    from multiprocessing.connection import Connection

__all__ = ["check_start_method", "process_pool", "start_method"]

#: What a fork-started pool should be replaced with (the default of Python 3.14 on Linux).
SAFE_POOL = (
    'ProcessPoolExecutor(max_workers=N, mp_context=multiprocessing.get_context("forkserver"))'
)


def start_method(executor: cf.ProcessPoolExecutor) -> str | None:
    """How ``executor`` starts its workers (``"fork"``, ``"spawn"``, ``"forkserver"``):
    from the context it was given, else the process's default, which it then uses."""
    import multiprocessing

    context = getattr(executor, "_mp_context", None)  # private, but set since Python 3.7
    method = getattr(context, "get_start_method", None)
    if callable(method):
        named = method()
        return named if isinstance(named, str) else None
    # Without it, the default context's: the one set, else the platform's first (the default).
    return (
        multiprocessing.get_start_method(allow_none=True)
        or (multiprocessing.get_all_start_methods()[0])
    )


def check_start_method(executor: object) -> None:
    """Refuse a ``ProcessPoolExecutor`` started by ``fork``, the default of Python 3.10 to
    3.13 on Linux (``ProcessPoolExecutor()`` with no ``mp_context``): its workers can wait
    forever once threads run in this process (see the module's docstring). Any other
    executor passes."""
    if executor is None:
        return
    import concurrent.futures as cf  # multiprocessing and more: only once an executor is given

    if isinstance(executor, cf.ProcessPoolExecutor) and start_method(executor) == "fork":
        raise ValueError(
            "executor= is a process pool started by fork, which can deadlock once polars' or "
            "numpy's threads have started (reading any file starts them); start it by "
            f"forkserver or spawn instead: {SAFE_POOL}"
        )


def safe_start_method() -> str:
    """forkserver on Linux (a small server process, started clean, forks each worker), else
    spawn (a fresh interpreter per worker): neither copies this process's threads."""
    import multiprocessing

    linux = sys.platform.startswith("linux")
    return (
        "forkserver"
        if linux and "forkserver" in multiprocessing.get_all_start_methods()
        else "spawn"
    )


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[cf.ProcessPoolExecutor]:
    """A pool of ``workers`` processes started by :func:`safe_start_method`, shut down on
    exit (the tasks not started cancelled). Each worker watches a pipe that only this
    process can write to: when this process is gone, even killed, the pipe reaches its end
    and the worker exits, so no worker, and then neither the forkserver nor the resource
    tracker, outlives it."""
    import concurrent.futures as cf
    import multiprocessing

    context = multiprocessing.get_context(safe_start_method())
    lifeline, held = context.Pipe(duplex=False)  # the workers read; only this process writes
    pool = cf.ProcessPoolExecutor(
        workers, mp_context=context, initializer=_exit_with_parent, initargs=(lifeline,)
    )
    try:
        with pool:
            yield pool
    finally:
        held.close()
        lifeline.close()


def _exit_with_parent(lifeline: Connection) -> None:
    """A worker's initializer: exit at once when ``lifeline`` ends, which is when the
    process that made the pool is gone (or has shut the pool down)."""
    threading.Thread(
        target=_await_end, args=(lifeline,), name="ef-parent-watch", daemon=True
    ).start()


def _await_end(lifeline: Connection) -> None:
    with contextlib.suppress(EOFError, OSError):
        while True:
            lifeline.recv_bytes()  # nothing is ever sent: this returns only at the end
    os._exit(1)  # the parent is gone: nobody waits for this worker's results
