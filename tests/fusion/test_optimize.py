"""optimize_fusion(): the grid ranx searches, ranx's choice on small cases, and the refusals."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import (
    FusionOptimization,
    InputWarning,
    Registry,
    UnknownNameError,
    fuse,
    optimize_fusion,
    write_qrels,
)
from ef.evaluation._evaluate.optimize_fusion import simplex_weights

REGISTRY = Registry.load(autoload=False)

# Two runs over the same docs per query, scores distinct and irregular, and no doc that tops
# one run is last in the other (under equal weights it would tie, at 0.5, with the doc that
# does the reverse; ranx orders such ties by numba's quicksort, we by doc id).
BM25 = {
    "q1": {"a": 9.1, "b": 7.4, "c": 5.2, "d": 2.9, "e": 1.3, "f": 0.4},
    "q2": {"a": 3.3, "b": 8.8, "c": 1.9, "d": 6.1, "e": 4.7, "f": 0.2},
    "q3": {"a": 0.5, "b": 2.2, "c": 9.9, "d": 1.1, "e": 7.7, "f": 3.6},
    "q4": {"a": 6.6, "b": 5.5, "c": 4.4, "d": 3.3, "e": 2.2, "f": 1.1},
}
DENSE = {
    "q1": {"a": 0.11, "b": 0.52, "c": 0.93, "d": 0.74, "e": 0.35, "f": 0.26},
    "q2": {"a": 0.81, "b": 0.30, "c": 0.11, "d": 0.24, "e": 0.45, "f": 0.96},
    "q3": {"a": 0.97, "b": 0.18, "c": 0.29, "d": 0.84, "e": 0.33, "f": 0.51},
    "q4": {"a": 0.21, "b": 0.32, "c": 0.43, "d": 0.94, "e": 0.15, "f": 0.66},
}
QRELS = {"q1": {"c": 1, "d": 1}, "q2": {"f": 1, "a": 1}, "q3": {"a": 1}, "q4": {"d": 1, "a": 1}}


def ranx_optimized(
    qrels: dict[str, dict[str, int]], runs: list[dict[str, dict[str, float]]], **options: Any
) -> tuple[dict[str, Any], list[tuple[tuple[float, ...], float]]]:
    """ranx's best params and its ``(config, score)`` per trial, in the order it tried them
    (its report's configs are the str() of each config: ``(np.float64(0.1), ...)``)."""
    ranx = pytest.importorskip("ranx", reason="ranx is a test dependency")
    from numba.core.errors import NumbaTypeSafetyWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        best, report = ranx.optimize_fusion(
            ranx.Qrels(qrels),
            [ranx.Run(run) for run in runs],
            show_progress=False,
            return_optimization_report=True,
            **options,
        )
    trials = [
        (tuple(float(x) for x in re.findall(r"[\d.]+", config.replace("np.float64", ""))), score)
        for config, score in zip(report.configs, report.results, strict=True)
    ]
    return best, trials


@pytest.mark.peers
def test_wsum_weights_equal_ranx_s_choice_and_every_trial_s_score() -> None:
    theirs, trials = ranx_optimized(QRELS, [BM25, DENSE], method="wsum", metric="ndcg@3")
    ours = optimize_fusion(QRELS, [BM25, DENSE], metric="ndcg@3", registry=REGISTRY)
    assert ours.params == {"weights": tuple(theirs["weights"])}
    assert len(ours.trials) == len(trials) == 11
    for (params, score), (config, their_score) in zip(ours.trials, trials, strict=True):
        assert params["weights"] == config
        assert score == pytest.approx(their_score, abs=1e-12), config
    # The search is not trivial: some weights score below the best, several tie with it.
    scores = [score for _, score in ours.trials]
    assert min(scores) < ours.score == max(scores)
    assert scores.count(ours.score) > 1  # and the last of them wins, in ranx and here
    assert ours.params == [p for p, s in ours.trials if s == ours.score][-1]


@pytest.mark.peers
def test_rrf_k_equals_ranx_s_choice_on_a_plateau_and_off_it() -> None:
    # run 1: a at rank 1, f1..f28, then b at 30; run 2: f1..f28, x, then b at 30. b, in both
    # runs, rises above a (one run, rank 1) once k > 28: 2 / (k + 30) > 1 / (k + 1).
    fillers = [f"f{i}" for i in range(1, 29)]
    first = ["a", *fillers, "b"]
    second = [*fillers, "x", "b"]
    runs = [
        {"q1": {doc: 100.0 - rank for rank, doc in enumerate(ranking)}}
        for ranking in (first, second)
    ]
    for relevant, expected_k in (("b", 100), ("a", None)):
        qrels = {"q1": {relevant: 1}}
        theirs, trials = ranx_optimized(qrels, runs, method="rrf", metric="mrr@100")
        ours = optimize_fusion(qrels, runs, method="rrf", metric="mrr@100", registry=REGISTRY)
        assert ours.params == {"k": theirs["k"]}, relevant
        assert [p["k"] for p, _ in ours.trials] == list(range(10, 101, 10))
        for (params, score), (config, their_score) in zip(ours.trials, trials, strict=True):
            assert (params["k"],) == config
            assert score == pytest.approx(their_score, abs=1e-12), config
        if expected_k is not None:  # b is 29th for every k >= 30: the last of them wins
            assert ours.params["k"] == expected_k
            assert ours.score == pytest.approx(1 / 29)
        else:  # a only loses ground as k grows: the smallest k wins
            assert ours.params["k"] == 10


# A third run that misses docs: n(d) differs, so CombGMNZ's gamma changes the ranking.
PARTIAL = {
    "q1": {"d": 0.9, "b": 0.4},
    "q2": {"a": 0.7, "e": 0.6, "c": 0.2},
    "q3": {"b": 0.8},
    "q4": {"a": 0.5, "f": 0.45, "e": 0.3},
}
#: The unsupervised methods with a parameter ranx's optimize_fusion searches (beyond wsum
#: and rrf above), with the runs each is searched on.
SEARCHED = {
    "gmnz": [BM25, DENSE, PARTIAL],
    "logn_isr": [BM25, DENSE, PARTIAL],
    "rbc": [BM25, DENSE, PARTIAL],
    "mixed": [BM25, DENSE],
    "wmnz": [BM25, DENSE],
    "w_bordafuse": [BM25, DENSE],
    "w_condorcet": [BM25, DENSE],
}


def _unambiguous(method: str, runs: list[dict[str, dict[str, float]]], params: Any) -> bool:
    """Whether the fused run of a trial orders its docs one way only: no two docs tie on
    the fused score (ranx orders ties by numba's quicksort), and for w_condorcet no pair is
    tied in the vote (two runs of the same docs tie on every pair they disagree on when
    their weights are equal; ranx's order then depends on the hash seed)."""
    fused = fuse(runs, method=method, params=params, registry=REGISTRY).to_dict()
    if any(len(set(scores.values())) != len(scores) for scores in fused.values()):
        return False
    return method != "w_condorcet" or len(set(params["weights"])) == len(runs)


@pytest.mark.peers
@pytest.mark.parametrize("method", list(SEARCHED))
def test_unsupervised_search_equals_ranx(method: str) -> None:
    """Every trial ranx's optimize_fusion makes, in its order, scores as ours (where the
    fused ranking is unambiguous), and the choice is ranx's where every trial is."""
    runs = SEARCHED[method]
    theirs, trials = ranx_optimized(QRELS, runs, method=method, metric="ndcg@3")
    ours = optimize_fusion(QRELS, runs, method=method, metric="ndcg@3", registry=REGISTRY)
    (name,) = theirs
    shown = [params[name] for params, _ in ours.trials]
    assert [v if isinstance(v, tuple) else (v,) for v in shown] == [c for c, _ in trials]
    clear = [_unambiguous(method, runs, params) for params, _ in ours.trials]
    assert sum(clear) > len(clear) // 2, "too few trials to compare: change the runs"
    for (_, score), (config, their_score), compared in zip(
        list(ours.trials), trials, clear, strict=True
    ):
        if compared:
            assert score == pytest.approx(their_score, abs=1e-12), config
    if all(clear):
        chosen = theirs[name]
        assert ours.params == {name: tuple(chosen) if isinstance(chosen, list | tuple) else chosen}


def test_the_best_params_fuse_to_the_best_run() -> None:
    best = optimize_fusion(QRELS, [BM25, DENSE], metric="ndcg@3", step=0.25, registry=REGISTRY)
    assert isinstance(best, FusionOptimization)
    again = fuse([BM25, DENSE], method="wsum", params=best.params, registry=REGISTRY)
    assert best.run is not None
    assert again.to_dict() == best.run.to_dict()
    assert best.to_dict()["params"] == {"weights": list(best.params["weights"])}
    assert str(best).startswith("wsum (norm min-max) on ndcg@3, best of 5 trials: weights=")


def test_simplex_weights_are_every_vector_of_steps_summing_to_one() -> None:
    three = simplex_weights(3, 0.1)
    assert len(three) == 66  # C(12, 2); ranx keeps 62 (its float sum must equal 1.0)
    assert three == sorted(three)
    assert all(round(sum(w) * 10) == 10 for w in three)
    for missed_by_ranx in ((0.2, 0.7, 0.1), (0.3, 0.6, 0.1), (0.6, 0.3, 0.1), (0.7, 0.2, 0.1)):
        assert missed_by_ranx in three
    assert simplex_weights(2, 1) == [(0.0, 1.0), (1.0, 0.0)]
    assert simplex_weights(2, 0.05)[1] == (0.05, 0.95)
    for bad in (0, -0.1, 1.5, 0.3, True):
        with pytest.raises(ValueError, match="step must"):
            simplex_weights(2, bad)


def test_grid_params_and_qrels_paths(tmp_path: Path) -> None:
    best = optimize_fusion(
        QRELS, [BM25, DENSE], method="rrf", metric="ndcg@3", grid={"k": [0, 1, 2]}
    )
    assert [p for p, _ in best.trials] == [{"k": 0}, {"k": 1}, {"k": 2}]
    path = tmp_path / "qrels.txt"
    write_qrels(path, QRELS)
    weighed = optimize_fusion(path, [BM25, DENSE], metric="ndcg@3", grid={"weights": [(1, 3)]})
    assert weighed.params == {"weights": (1.0, 3.0)}
    assert len(weighed.trials) == 1
    with pytest.raises(ValueError, match=r"'weights' is both fixed \(params=\) and searched"):
        optimize_fusion(
            QRELS, [BM25, DENSE], grid={"weights": [(1, 1)]}, params={"weights": (1, 1)}
        )
    with pytest.raises(ValueError, match="no parameter to search left"):
        optimize_fusion(QRELS, [BM25, DENSE], method="rrf", params={"k": 60})
    with pytest.raises(UnknownNameError, match="fusion method 'rrf' has no parameter 'kk'"):
        optimize_fusion(QRELS, [BM25, DENSE], method="rrf", grid={"kk": [1]})
    with pytest.raises(ValueError, match=r"grid\['k'\] is empty"):
        optimize_fusion(QRELS, [BM25, DENSE], method="rrf", grid={"k": []})


def test_refusals() -> None:
    with pytest.raises(ValueError, match=r"'ndcg' names 4 numbers \(ndcg@1, ndcg@5, .*'ndcg@all'"):
        optimize_fusion(QRELS, [BM25, DENSE], metric="ndcg")
    with pytest.raises(ValueError, match="method 'sum' has no parameter to search; fuse the runs"):
        optimize_fusion(QRELS, [BM25, DENSE], method="sum")
    with pytest.raises(TypeError, match="metric is one measure string"):
        optimize_fusion(QRELS, [BM25, DENSE], metric=("ndcg@10",))  # type: ignore[arg-type]


def test_a_warning_about_the_inputs_comes_once_not_once_per_trial() -> None:
    qrels = {**QRELS, **{f"extra{i}": {"a": 1} for i in range(10)}}  # the runs answer 4 of 14
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        optimize_fusion(qrels, [BM25, DENSE], metric="ndcg@3", step=0.5, registry=REGISTRY)
    ours = [w for w in caught if issubclass(w.category, InputWarning)]
    assert len(ours) == 1
    assert "answers only 4 of the 14 judged queries" in str(ours[0].message)
