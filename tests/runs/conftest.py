"""Fixtures of the tests of streamed and sharded runs: a process pool (tiny blocks,
``small_blocks``, are in tests/conftest.py: the benchmarks' tests read in batches too)."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def process_pool() -> Iterator[cf.ProcessPoolExecutor]:
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool
