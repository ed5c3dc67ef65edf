"""A sharded run scored on a Dask LocalCluster (on 127.0.0.1, no dashboard) gives the numbers
of the single file."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from ef.evaluation import evaluate_run

from .test_sharded import QRELS, entry, same, sharded_files
from .test_streamed import METRICS

pytestmark = pytest.mark.retrievers


@contextlib.contextmanager
def dask_client(*, processes: bool) -> Iterator[Any]:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=processes,
            **({"host": "127.0.0.1"} if processes else {}),
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.mark.parametrize("processes", [False, True])
def test_a_dask_cluster_gives_the_same_numbers(tmp_path, processes) -> None:
    whole, paths = sharded_files(tmp_path)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, averaging="run")
    with dask_client(processes=processes) as client:
        got = evaluate_run(
            paths, QRELS, metrics=METRICS, averaging="run", executor=client.get_executor()
        )
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]
