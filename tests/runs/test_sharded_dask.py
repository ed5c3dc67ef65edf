"""A sharded run scored on a Dask LocalCluster (on 127.0.0.1, no dashboard) gives the numbers
of the single file."""

from __future__ import annotations

from typing import Any

import pytest

from ef.evaluation import evaluate_run, evaluate_shards

from ..conftest import dask_client
from .shards import METRICS, QRELS, entry, same, sharded_files

pytestmark = pytest.mark.retrievers


@pytest.mark.parametrize("processes", [False, True])
def test_a_dask_cluster_gives_the_same_numbers(tmp_path, processes) -> None:
    whole, paths = sharded_files(tmp_path)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, averaging="run")
    with dask_client(processes=processes) as client:
        got = evaluate_shards(
            paths, QRELS, metrics=METRICS, averaging="run", executor=client.get_executor()
        )
    same(got, expected)
    assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]


def test_the_qrels_go_to_the_workers_once_not_with_every_shard(tmp_path, monkeypatch) -> None:
    """On a Dask cluster the judgements are scattered once to every worker; each task gets
    the worker's copy. (Sent with every task, they would be pickled once per shard.)"""
    from ef.evaluation._runs.packed import PackedQrels

    whole, paths = sharded_files(tmp_path)
    pickled: list[int] = []
    reduce = PackedQrels.__reduce__

    def counted(self: PackedQrels) -> Any:
        pickled.append(len(self))
        return reduce(self)

    monkeypatch.setattr(PackedQrels, "__reduce__", counted)
    expected = evaluate_run(whole, QRELS, metrics=METRICS, averaging="run")
    with dask_client(processes=True) as client:
        got = evaluate_shards(
            paths, QRELS, metrics=METRICS, averaging="run", executor=client.get_executor()
        )
    same(got, expected)
    assert len(paths) == 4
    assert pickled == [len(QRELS)], "pickled once, for the scatter"
