"""The 17 methods ranx 0.3.21 has beyond the first eight, against ranx live: each fused run
equals ``ranx.fuse``'s (to 1e-9, in the same order), at its default and at another value of
its parameter.

Runs are drawn as in ``test_ranx_differential`` (distinct dyadic scores per query: ranx
ranks tied docs by numba's quicksort). Condorcet is drawn on runs that rank the same docs,
with a strict majority order (no cycle): elsewhere ranx's sort starts from a Python set of
the doc ids and its result varies with the hash seed (docs/fusion.md). The supervised
methods learn on one draw of runs with qrels and fuse another, here and in ranx.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning, fuse, optimize_fusion

from ..profiles_hypothesis import examples

pytestmark = pytest.mark.peers

# Before the shared helpers: their module skips itself without ranx, and would leave the
# import below half done (an ImportError where ranx is absent, as in the default test env).
ranx = pytest.importorskip("ranx", reason="ranx is a test dependency")

from .test_ranx_differential import (  # noqa: E402
    DOCS,
    QUERIES,
    REGISTRY,
    assert_same_run,
    ranx_fused,
    runs_of,
)

NORMS = ["min-max", "zmuv", "sum", "rank", None]
WEIGHTED = ["w_bordafuse", "wmnz", "mixed"]
EIGHTHS = st.integers(1, 8).map(lambda n: n / 8)


def _ranx(call: Any, *args: Any, **kwargs: Any) -> Any:
    from numba.core.errors import NumbaTypeSafetyWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        return call(*args, **kwargs)


@pytest.mark.parametrize("method", ["bordafuse", "med", "log_isr", *WEIGHTED])
@pytest.mark.parametrize("default", [True, False], ids=["default", "other"])
@settings(max_examples=examples(25))
@given(data=st.data())
def test_unsupervised_equals_ranx(method: str, default: bool, data: st.DataObject) -> None:
    """Without parameters, or with weights: ours at 1/n each is ranx's with 1/n each."""
    norm = "min-max" if default else data.draw(st.sampled_from(NORMS), label="norm")
    n_runs = data.draw(st.integers(2, 3), label="n_runs")
    runs = data.draw(runs_of(n_runs, non_negative=False), label="runs")
    params: dict[str, Any] = {}
    theirs_params: dict[str, Any] = {}
    if method in WEIGHTED:
        weights = (
            [1 / n_runs] * n_runs
            if default
            else data.draw(st.lists(EIGHTHS, min_size=n_runs, max_size=n_runs), label="w")
        )
        theirs_params["weights"] = weights
        if not default:
            params["weights"] = weights
    ours = fuse(runs, method=method, norm=norm, params=params, registry=REGISTRY)
    assert_same_run(ours, _ranx(ranx_fused, runs, norm, method, theirs_params))


SCALARS = {
    # method: (parameter, its default (ranx has none for gamma and phi), other values)
    "logn_isr": ("sigma", 0.01, [0.0, 0.25, 0.5, 1.0]),
    "gmnz": ("gamma", 1.0, [0.0, 0.25, 0.5, 2.0]),
    "rbc": ("phi", 0.8, [0.0, 0.25, 0.5, 0.99]),
}


@pytest.mark.parametrize("method", list(SCALARS))
@pytest.mark.parametrize("default", [True, False], ids=["default", "other"])
@settings(max_examples=examples(25))
@given(data=st.data())
def test_scalar_parameter_equals_ranx(method: str, default: bool, data: st.DataObject) -> None:
    name, value, others = SCALARS[method]
    if not default:
        value = data.draw(st.sampled_from(others), label=name)
    norm = "min-max" if default else data.draw(st.sampled_from(NORMS), label="norm")
    runs = data.draw(runs_of(data.draw(st.integers(2, 3)), non_negative=False), label="runs")
    params = {name: value}
    if default and method == "logn_isr":
        params = {}  # its default is ranx's
    ours = fuse(runs, method=method, norm=norm, params=params, registry=REGISTRY)
    assert_same_run(ours, _ranx(ranx_fused, runs, norm, method, {name: value}))


@st.composite
def same_docs_runs(draw: st.DrawFn, n_runs: int) -> list[dict[str, dict[str, float]]]:
    """``n_runs`` runs that rank the same docs per query, each in its own order."""
    runs: list[dict[str, dict[str, float]]] = [{} for _ in range(n_runs)]
    for query in QUERIES:
        docs = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=6))
        for run in runs:
            order = draw(st.permutations(docs))
            run[query] = {doc: float(len(order) - i) for i, doc in enumerate(order)}
    return runs


def strict_majority(runs: list[dict[str, dict[str, float]]], weights: list[float]) -> bool:
    """Whether the weighted pairwise majority orders each query's docs strictly, without a
    cycle: a tournament is an order exactly when its win counts are 0, 1, ..., n - 1."""
    for query in QUERIES:
        docs = list(runs[0][query])
        wins = []
        for x in docs:
            beaten = 0
            for y in docs:
                if x == y:
                    continue
                votes = sum(
                    w if run[query][x] > run[query][y] else -w
                    for w, run in zip(weights, runs, strict=True)
                )
                if votes == 0:
                    return False
                beaten += votes > 0
            wins.append(beaten)
        if sorted(wins) != list(range(len(docs))):
            return False
    return True


@pytest.mark.parametrize("method", ["condorcet", "w_condorcet"])
@pytest.mark.parametrize("default", [True, False], ids=["default", "other"])
@settings(max_examples=examples(25))
@given(data=st.data())
def test_condorcet_equals_ranx(method: str, default: bool, data: st.DataObject) -> None:
    weights = [1 / 3] * 3
    if method == "w_condorcet" and not default:
        weights = data.draw(st.permutations([0.5, 0.3, 0.15]), label="weights")
    runs = data.draw(same_docs_runs(3), label="runs")
    assume(strict_majority(runs, weights))
    params = {"weights": weights} if method == "w_condorcet" and not default else {}
    theirs = {"weights": weights} if method == "w_condorcet" else {}
    ours = fuse(runs, method=method, params=params, registry=REGISTRY)
    assert_same_run(ours, _ranx(ranx_fused, runs, "min-max", method, theirs))


@st.composite
def qrels_of(draw: st.DrawFn) -> dict[str, dict[str, int]]:
    """Every query judged, with one to five docs graded 1 or 2 (ranx asserts the queries)."""
    return {
        query: {
            doc: draw(st.integers(1, 2))
            for doc in draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=5))
        }
        for query in QUERIES
    }


SUPERVISED: dict[str, tuple[str, list[int]] | None] = {
    # method: (its searched parameter and its values, or None), ranx's options for them
    "probfuse": ("n_segments", [1, 2, 3, 5]),
    "slidefuse": ("w", [0, 1, 2, 4]),
    "segfuse": None,
    "bayesfuse": None,
    "mapfuse": None,
    "posfuse": None,
}
RANX_GRID = {"n_segments": ("min_n_segments", "max_n_segments"), "w": ("min_w", "max_w")}


@pytest.mark.parametrize("method", list(SUPERVISED))
@pytest.mark.parametrize("default", [True, False], ids=["default", "other"])
@settings(max_examples=examples(20))
@given(data=st.data())
def test_supervised_equals_ranx(method: str, default: bool, data: st.DataObject) -> None:
    """Learned on training runs and qrels (optimize_fusion), then fused on other runs; the
    learned values are ranx's too."""
    norm = "min-max" if default else data.draw(st.sampled_from(NORMS), label="norm")
    n_runs = data.draw(st.integers(2, 3), label="n_runs")
    training = data.draw(runs_of(n_runs, non_negative=False), label="training")
    testing = data.draw(runs_of(n_runs, non_negative=False), label="testing")
    qrels = data.draw(qrels_of(), label="qrels")
    grid: dict[str, list[int]] = {}
    options: dict[str, Any] = {}
    searched = SUPERVISED[method]
    if searched is not None:
        name, values = searched
        value = values[1] if default else data.draw(st.sampled_from(values), label=name)
        grid[name] = [value]
        low, high = RANX_GRID[name]
        options = {low: value, high: value, "show_progress": False}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # a drawn run may miss every judged doc
        best = optimize_fusion(
            qrels, training, method=method, norm=norm, grid=grid or None, registry=REGISTRY
        )
    learned = _ranx(
        ranx.optimize_fusion,
        ranx.Qrels(qrels),
        [ranx.Run(run) for run in training],
        norm=norm,
        method=method,
        **options,
    )
    for key, theirs in learned.items():
        ours = best.params[key]
        if isinstance(theirs, (int, float)):
            assert ours == theirs, key
            continue
        for mine, their in zip(ours, theirs, strict=True):
            assert np.allclose(np.asarray(mine, dtype=float), np.asarray(their), rtol=0, atol=1e-9)
    fused = fuse(testing, method=method, norm=norm, params=best.params, registry=REGISTRY)
    assert_same_run(fused, _ranx(ranx_fused, testing, norm, method, learned))
