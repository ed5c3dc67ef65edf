"""A sharded run scored on a Dask LocalCluster (on 127.0.0.1, no dashboard) gives the numbers
of the single file."""

from __future__ import annotations

import pytest

from ef.evaluation import evaluate_run

from ..conftest import dask_client
from .shards import METRICS, QRELS, entry, same, sharded_files

pytestmark = pytest.mark.retrievers


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
