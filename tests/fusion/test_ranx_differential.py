"""fuse() against ranx.fuse, live: the same scores (to 1e-9) and the same order.

The runs are drawn by hypothesis. Each query's scores are distinct multiples of 1/8: ranx
ranks a run's tied docs by numba's quicksort, which no tie policy reproduces, and dyadic
scores add exactly, so a mean (zmuv) is the same in both. The fused runs may tie: there
our order is the declared tie policy's (trec_eval: doc id descending), so the order check is
that ranx's fused scores never rise along our ranking, except between docs ranx also ties
(within 1e-9 or in float32, where the policy ranks by doc id).
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import Registry, fuse

from ..profiles_hypothesis import examples

pytestmark = pytest.mark.peers

ranx = pytest.importorskip("ranx", reason="ranx is a test dependency")

METHODS = ["rrf", "sum", "mnz", "max", "min", "anz", "wsum", "isr"]
NORMS = ["min-max", "zmuv", "sum", "max", "rank", None]
DOCS = [f"d{i}" for i in range(10)]
QUERIES = ["q1", "q2", "q3"]
REGISTRY = Registry.load(autoload=False)


@st.composite
def runs_of(draw: st.DrawFn, n_runs: int, non_negative: bool) -> list[dict[str, dict[str, float]]]:
    """``n_runs`` runs over the same queries (ranx asserts that), each query with at least
    one doc and distinct scores that are multiples of 1/8."""
    low = 0 if non_negative else -400
    runs = []
    for _ in range(n_runs):
        run = {}
        for query in QUERIES:
            docs = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=8))
            scores = draw(
                st.lists(st.integers(low, 400), unique=True, min_size=len(docs), max_size=len(docs))
            )
            run[query] = {doc: score / 8 for doc, score in zip(docs, scores, strict=True)}
        runs.append(run)
    return runs


def ranx_fused(
    runs: list[dict[str, dict[str, float]]], norm: str | None, method: str, params: dict[str, Any]
) -> dict[str, dict[str, float]]:
    from numba.core.errors import NumbaTypeSafetyWarning

    with warnings.catch_warnings():
        # numba's JIT warns about ranx's uint64 -> int64 hash cast while compiling.
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        fused = ranx.fuse([ranx.Run(run) for run in runs], norm=norm, method=method, params=params)
        return {q: dict(docs) for q, docs in fused.to_dict().items()}


def assert_same_run(ours: Any, theirs: dict[str, dict[str, float]]) -> None:
    mine = ours.to_dict()
    assert set(mine) == set(theirs)
    for query, scores in theirs.items():
        assert set(mine[query]) == set(scores), query
        for doc, score in scores.items():
            assert mine[query][doc] == pytest.approx(score, rel=0, abs=1e-9), (query, doc)
        ranking = ours.ranking(query)
        assert sorted(ranking) == sorted(scores)
        for above, below in itertools.pairwise(ranking):
            a, b = scores[above], scores[below]
            tied = abs(a - b) <= 1e-9 or np.float32(a) == np.float32(b)
            assert a > b or tied, (query, above, below, a, b)
            if np.float32(mine[query][above]) == np.float32(mine[query][below]):
                assert above > below, (query, above, below)  # trec_eval: doc id descending


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=examples(25))
@given(data=st.data())
def test_fuse_equals_ranx(method: str, data: st.DataObject) -> None:
    norm = data.draw(st.sampled_from(NORMS), label="norm")
    n_runs = data.draw(st.integers(2, 3), label="n_runs")
    runs = data.draw(runs_of(n_runs, non_negative=norm == "max"), label="runs")
    params: dict[str, Any] = {}
    if method == "rrf":
        params["k"] = data.draw(st.integers(0, 100), label="k")
    if method == "wsum":
        eighths = st.integers(0, 8).map(lambda n: n / 8)
        params["weights"] = tuple(
            data.draw(st.lists(eighths, min_size=n_runs, max_size=n_runs), label="weights")
        )
    ours = fuse(runs, method=method, norm=norm, params=params, registry=REGISTRY)
    assert_same_run(ours, ranx_fused(runs, norm, method, params))


def test_wsum_without_weights_is_ranx_with_equal_weights() -> None:
    runs = [
        {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"x": 1.0}},
        {"q1": {"b": 5.0, "d": 1.0}, "q2": {"y": 2.0, "x": 0.5}},
    ]
    ours = fuse(runs, registry=REGISTRY)  # ranx's defaults: wsum of min-max scores
    theirs = ranx_fused(runs, "min-max", "wsum", {"weights": [0.5, 0.5]})
    assert_same_run(ours, theirs)
    assert ours.to_dict()["q1"] == {"b": 0.75, "a": 0.5, "c": 0.0, "d": 0.0}
