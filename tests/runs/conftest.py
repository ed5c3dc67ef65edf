"""Fixtures of the tests of streamed and sharded runs: tiny blocks, and a process pool."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
from collections.abc import Callable, Iterator

import pytest

from ef.evaluation import RunTable
from ef.evaluation.evaluate import streamed


def no_whole_read(*args: object, **kwargs: object) -> None:
    raise AssertionError("the whole file was read, not batches")


@pytest.fixture
def small_blocks(monkeypatch) -> Callable[..., None]:
    """``small_blocks(n)``: a run file of ``n`` bytes or more (of ``stream_from`` bytes, if
    given) is read in blocks of ``n`` bytes; with ``whole=False``, reading a whole RunTable
    fails the test."""

    def tiny(block_bytes: int, *, stream_from: int | None = None, whole: bool = True) -> None:
        from_bytes = block_bytes if stream_from is None else stream_from
        monkeypatch.setattr(streamed, "STREAM_FROM", from_bytes)
        monkeypatch.setattr(streamed, "BLOCK_BYTES", block_bytes)
        if not whole:
            monkeypatch.setattr(RunTable, "read", no_whole_read)

    return tiny


@pytest.fixture(scope="module")
def process_pool() -> Iterator[cf.ProcessPoolExecutor]:
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool
