"""Shared fixtures: the shared data folder, a built-ins-only registry, runs read in tiny
blocks, and (from the shipped kit, ef.evaluation.testing.fixtures) ``ef_make_dist`` for fake
plugin distributions."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ef.evaluation import Registry
from ef.evaluation.testing.fixtures import ef_make_dist

from . import profiles_hypothesis  # noqa: F401  (loads the small or the large profile)

# Haystack's usage telemetry stays off (it would only send from pipelines; tests stay offline).
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")

#: ../shared beside the checkout (CI lays it there), or EF_EVALUATION_SHARED.
SHARED = Path(os.environ.get("EF_EVALUATION_SHARED", Path(__file__).parents[2] / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or a skip naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared data folder is not beside this checkout")
    return path


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` (a benchmark, an example) imported as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def dask_client(*, processes: bool) -> Iterator[Any]:
    """A two-worker LocalCluster on 127.0.0.1, no dashboard, and a client of it."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=processes,
            **({"host": "127.0.0.1"} if processes else {}),  # in-process workers use inproc://
            dashboard_address=None,
            # The scheduler's HTTP server (health checks) still starts: on a free loopback port,
            # not on 8787, which another cluster may hold.
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@contextlib.contextmanager
def short_scratch(prefix: str) -> Iterator[Path]:
    """A folder of its own under /tmp, for a program's TMPDIR, removed afterwards with what it
    holds (what a killed process leaves behind too).

    A Unix socket's path must fit in 107 bytes, which a pytest tmp_path under xdist does not
    leave room for: Chromium's singleton socket (Chromium aborts; and TMPDIR must not be /tmp
    itself, where Chromium leaves it) and multiprocessing's forkserver socket
    (``pymp-*/listener-*``) go here instead.
    """
    scratch = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def no_whole_read(*args: object, **kwargs: object) -> None:
    raise AssertionError("the whole file was read, not batches")


@pytest.fixture
def small_blocks(monkeypatch) -> Callable[..., None]:
    """``small_blocks(n)``: a run file of ``n`` bytes or more (of ``stream_from`` bytes, if
    given) is read in blocks of ``n`` bytes; with ``whole=False``, reading a whole RunTable
    fails the test."""
    from ef.evaluation import RunTable
    from ef.evaluation._engine import batch_sizes

    def tiny(block_bytes: int, *, stream_from: int | None = None, whole: bool = True) -> None:
        from_bytes = block_bytes if stream_from is None else stream_from
        monkeypatch.setattr(batch_sizes, "STREAM_FROM", from_bytes)
        monkeypatch.setattr(batch_sizes, "BLOCK_BYTES", block_bytes)
        if not whole:
            monkeypatch.setattr(RunTable, "read", no_whole_read)

    return tiny


@pytest.fixture
def builtin_registry() -> Registry:
    """The built-in plugins only: what a test sees does not depend on what is installed."""
    return Registry.load(autoload=False)


__all__ = [
    "builtin_registry",
    "dask_client",
    "ef_make_dist",
    "load_script",
    "shared_path",
    "small_blocks",
]
