"""optimize_fusion(): the parameters of a fusion method that score best, by grid search.

As ranx's ``optimize_fusion``: the weights of ``wsum`` (and of the other weighted methods)
are searched over every weight vector of ``0, step, ..., 1`` that sums to 1, RRF's ``k`` over
10, 20, ..., 100, each parameter with a grid over its grid; a supervised method (ProbFuse,
...) learns its learned parameters from the runs and qrels in each trial. Each trial's fused
run is scored by :func:`~ef.evaluation.evaluate_run` on one metric, and the last trial with
the best score wins.
"""

from __future__ import annotations

import itertools
import math
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._engine.measures import DEFAULT_K_VALUES
from .._engine.scoring import resolve_measures
from .._formats.sources import is_irds
from .._plugin_engine.registry import Registry, registry_or_default
from .._reports import FusionOptimization
from ..errors import ArgumentError, InputWarning, Keyword
from .fuse import (
    DEFAULT_METHOD,
    DEFAULT_NORM,
    FusionInputs,
    count_runs,
    fuse_inputs,
    fusion_inputs,
    method_params,
)
from .inputs import load_qrels
from .irds_level import irds_metrics
from .run import evaluate_run

if TYPE_CHECKING:
    from .._runs.table import RunTable
    from ..interfaces import FusionMethod, FusionParam
    from ..types import Averaging, Qrels
    from .fuse import RunLike

__all__ = ["optimize_fusion", "simplex_weights"]

#: ranx's metric: ``"ndcg"`` there is nDCG over the whole ranking.
DEFAULT_METRIC = "ndcg@all"


def optimize_fusion(
    qrels: Qrels | str | os.PathLike[str],
    runs: Sequence[RunLike] | Mapping[str, RunLike],
    *,
    method: str = DEFAULT_METHOD,
    norm: str | None = DEFAULT_NORM,
    metric: str = DEFAULT_METRIC,
    step: float = 0.1,
    grid: Mapping[str, Iterable[Any]] | None = None,
    params: Mapping[str, Any] | None = None,
    tie_policy: str = "trec_eval",
    averaging: Averaging | None = None,
    run_format: str | None = None,
    qrels_format: str | None = None,
    registry: Registry | None = None,
) -> FusionOptimization:
    """Search the parameters of a fusion method for the best ``metric``, as ranx's
    ``optimize_fusion(qrels, runs, norm, method, metric)``.

    Every parameter the method lets be searched is: a per-run weight (``wsum``'s
    ``weights``) over every vector of the values ``0, step, 2 * step, ..., 1`` that sums to 1,
    in lexicographic order (as ranx's ``product`` of the values); a parameter with a grid
    (RRF's ``k``: 10, 20, ..., 100, ranx's ``min_k``, ``max_k``, ``step``) over its grid.
    ``grid`` replaces a grid (``{"k": range(1, 201)}``), ``params`` fixes a parameter instead
    of searching it. Each trial fuses the runs (read and normalised once) and scores the
    fused run with :func:`~ef.evaluation.evaluate_run`; the last trial with the highest
    score wins, as ranx's ``>=`` keeps it.

    A supervised method (``probfuse``, ``segfuse``, ``slidefuse``, ``bayesfuse``,
    ``mapfuse``, ``posfuse``) learns its learned parameters (``probs``, ``log_odds``,
    ``map_scores``) from ``runs`` and ``qrels`` in each trial, by its ``train``, on the
    queries the qrels judge, as ranx's ``optimize_fusion`` does; ``probfuse`` searches
    ``n_segments`` (1 to 100) and ``slidefuse`` ``w`` (1 to 100) too, the others have one
    trial. Train on training runs, then fuse the test runs with ``params=best.params``.

    ranx keeps a weight vector only when its weights, added as floats, equal 1.0 exactly,
    which drops some: for three runs and ``step=0.1``, (0.2, 0.7, 0.1), (0.3, 0.6, 0.1),
    (0.6, 0.3, 0.1) and (0.7, 0.2, 0.1). Here every vector whose steps add up to 1 is tried.

    Args:
        qrels: the judgements (a mapping, or the path of a qrels file or BEIR directory).
        runs: the runs, as :func:`~ef.evaluation.fuse` takes them.
        method: a fusion method with a parameter to search or learn (``"wsum"``, ``"rrf"``,
            ``"probfuse"``, ... or a plugin's).
        norm: as in :func:`~ef.evaluation.fuse`; ``"min-max"`` by default.
        metric: the one number to maximise: a measure string with its cutoff (``"ndcg@10"``,
            ``"recall@100"``, ``"map@all"``); the default ``"ndcg@all"`` is ranx's ``"ndcg"``.
        step: the spacing of the weights; 1 / step must be a whole number.
        grid: the values to try per parameter, replacing the method's grid.
        params: parameters fixed at these values, not searched.
        tie_policy: as in :func:`~ef.evaluation.fuse`, and for scoring each fused run.
        averaging: as in :func:`~ef.evaluation.evaluate_run`.
        run_format: the format of runs given as paths; ``None`` detects it.
        qrels_format: the format of qrels given as a path; ``None`` detects it.
        registry: the plugins to use; ``None`` is the default registry.

    Returns:
        A :class:`~ef.evaluation.FusionOptimization`: ``params`` (pass them to ``fuse(...,
        params=best.params)``), ``score``, every trial, and the best fused ``run``.

    >>> qrels = {"q1": {"d2": 1}, "q2": {"d3": 1}, "q3": {"d5": 1}}
    >>> bm25 = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d3": 2.0, "d4": 1.0},
    ...         "q3": {"d6": 4.0, "d5": 3.5, "d7": 1.0}}
    >>> dense = {"q1": {"d2": 0.9, "d1": 0.2}, "q2": {"d4": 0.8, "d3": 0.1},
    ...          "q3": {"d7": 0.9, "d5": 0.8, "d6": 0.1}}
    >>> best = optimize_fusion(qrels, [bm25, dense], metric="mrr@10", step=0.25)
    >>> [(params["weights"], round(score, 4)) for params, score in best.trials]
    [((0.0, 1.0), 0.6667), ((0.25, 0.75), 0.8333), ((0.5, 0.5), 0.8333), ((0.75, 0.25), 0.8333), \
((1.0, 0.0), 0.6667)]
    >>> print(best)  # three trials tie: the last of them wins, as in ranx
    wsum (norm min-max) on mrr@10, best of 5 trials: weights=(0.75, 0.25) -> 0.8333
    >>> best.run.ranking("q3")
    ['d5', 'd6', 'd7']
    """
    registry = registry_or_default(registry)
    chosen = registry.fusion_method(method)
    key = _metric_key(metric, registry)
    n_runs = count_runs(runs)
    fixed = method_params(chosen, n_runs, params=params, training=True)
    given = set(params or ())
    learns = [p for p in chosen.params if p.learned and p.name not in given]
    searched = _searched(chosen, n_runs, step, grid or {}, given, learns=bool(learns))
    if is_irds(qrels):  # the dataset's relevance level applies to a binary metric
        judged, (metric,) = irds_metrics(qrels, (metric,), DEFAULT_K_VALUES, registry)
        key = _metric_key(metric, registry)
    else:
        judged = load_qrels(qrels, registry, qrels_format)
    inputs = fusion_inputs(
        runs, chosen, norm, tie_policy=tie_policy, run_format=run_format, registry=registry
    )
    hits, relevant = _hit_lists(inputs, judged) if learns else ((), ())
    best: tuple[dict[str, Any], float, RunTable] | None = None
    trials: list[tuple[dict[str, Any], float]] = []
    for trial in _trials(fixed, searched):
        values = trial
        if learns:
            values = _learned(chosen, learns, trial, hits=hits, relevant=relevant, n_runs=n_runs)
        run = fuse_inputs(inputs, chosen, values, registry=registry)
        with warnings.catch_warnings():
            if trials:  # a warning about the inputs is given once, by the first trial
                warnings.simplefilter("ignore", InputWarning)
            report = evaluate_run(
                run,
                judged,
                metrics=(metric,),
                tie_policy=tie_policy,  # type: ignore[arg-type]  # checked by fusion_inputs
                averaging=averaging,
                registry=registry,
            )
        score = report.metrics[key]
        trials.append((values, score))
        if best is None or score >= best[1]:  # the last of equal scores wins, as in ranx
            best = (values, score, run)
    assert best is not None  # _searched() refuses an empty search
    return FusionOptimization(
        method=chosen.name,
        norm=inputs.norm,
        metric=key,
        params=best[0],
        score=best[1],
        trials=trials,
        run=best[2],
    )


def _metric_key(metric: str, registry: Registry) -> str:
    if not isinstance(metric, str):
        raise TypeError(f"metric is one measure string, e.g. 'ndcg@10'; got {metric!r}")
    measures = resolve_measures([metric], DEFAULT_K_VALUES, registry)
    keys = list(dict.fromkeys(m.key for m in measures))
    if len(keys) != 1:
        raise ValueError(
            f"metric={metric!r} names {len(keys)} numbers ({', '.join(keys)}); "
            "optimize_fusion maximises one: give its cutoff, e.g. 'ndcg@10', or 'ndcg@all' "
            "for the whole ranking (ranx's 'ndcg')"
        )
    return keys[0]


def simplex_weights(n_runs: int, step: float) -> list[tuple[float, ...]]:
    """Every vector of ``n_runs`` weights from ``0, step, ..., 1`` that sums to 1, in
    lexicographic order.

    >>> simplex_weights(2, 0.25)
    [(0.0, 1.0), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (1.0, 0.0)]
    >>> len(simplex_weights(3, 0.1))
    66
    >>> simplex_weights(2, 0.3)
    Traceback (most recent call last):
        ...
    ValueError: step must divide 1 into whole steps (0.1, 0.05, 0.25, ...), got 0.3
    """
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not 0 < step <= 1:
        raise ValueError(f"step must be a number in (0, 1], got {step!r}")
    steps = round(1 / step)
    if not math.isclose(steps * step, 1.0, rel_tol=0, abs_tol=1e-9):
        raise ValueError(
            f"step must divide 1 into whole steps (0.1, 0.05, 0.25, ...), got {step!r}"
        )
    return [
        tuple(count / steps for count in counts)
        for counts in itertools.product(range(steps + 1), repeat=n_runs)
        if sum(counts) == steps
    ]


def _hit_lists(inputs: FusionInputs, judged: Qrels) -> tuple[list[list[list[int]]], list[int]]:
    """What a method's ``train`` learns from: each run's hit list on each judged query of
    the runs (1 where the doc at that rank is graded 1 or more), and each query's number of
    such docs (see :class:`~ef.evaluation.FusionMethod`)."""
    queries = [i for i, query in enumerate(inputs.query_ids) if query in judged]
    grades = [judged[inputs.query_ids[i]] for i in queries]
    hits = [
        [
            [1 if grade.get(doc, 0) >= 1 else 0 for doc in inputs.results[i][run]]
            for i, grade in zip(queries, grades, strict=True)
        ]
        for run in range(len(inputs.labels))
    ]
    return hits, [sum(1 for g in grade.values() if g >= 1) for grade in grades]


def _learned(
    method: FusionMethod,
    learns: Sequence[FusionParam],
    values: Mapping[str, Any],
    *,
    hits: Sequence[Sequence[Sequence[int]]],
    relevant: Sequence[int],
    n_runs: int,
) -> dict[str, Any]:
    """``values`` with the learned parameters learned by ``method.train`` under the others."""
    assert method.train is not None  # a method with a learned parameter has train
    names = {p.name for p in method.params if p.learned}
    others = {name: value for name, value in values.items() if name not in names}
    learned = method.train(hits, relevant, **others)
    return {**values, **{p.name: p.convert(learned[p.name], n_runs) for p in learns}}


def _searched(
    method: FusionMethod,
    n_runs: int,
    step: float,
    grid: Mapping[str, Iterable[Any]],
    fixed: set[str],
    *,
    learns: bool = False,
) -> dict[str, list[Any]]:
    """The values to try of each searched parameter, in the method's order (a learned one
    is learned in each trial, not searched)."""
    _check_grid(method, grid, fixed)
    searched: dict[str, list[Any]] = {}
    for param in method.params:
        if param.name in fixed or param.learned:
            continue
        values = _values(param, n_runs, step, grid)
        if values is not None:
            searched[param.name] = values
    if not searched and learns:
        return searched  # one trial: learn, fuse, score
    if not searched:
        left = (" left (", Keyword("params"), " fixes them all)") if method.params else ()
        raise ArgumentError(
            f"fusion method {method.name!r} has no parameter to search",
            *left,
            # Python code to write: as it is for every caller.
            f"; fuse the runs with fuse(runs, method={method.name!r}) directly",
        )
    return searched


def _check_grid(method: FusionMethod, grid: Mapping[str, Iterable[Any]], fixed: set[str]) -> None:
    """Refuse a grid over a learned parameter, or over one ``params=`` fixes."""
    for name in grid:
        if method.param(name).learned:  # an unknown name is an UnknownNameError
            raise ValueError(f"parameter {name!r} is learned from the qrels, not searched")
        if name in fixed:
            raise ArgumentError(
                f"parameter {name!r} is both fixed (",
                Keyword("params"),
                ") and searched (",
                Keyword("grid"),
                ")",
            )


def _values(
    param: FusionParam, n_runs: int, step: float, grid: Mapping[str, Iterable[Any]]
) -> list[Any] | None:
    if param.name in grid:
        values = [param.convert(value, n_runs) for value in grid[param.name]]
        if not values:
            raise ValueError(f"grid[{param.name!r}] is empty; give the values to try")
        return values
    if param.per_run and param.type is float:
        return list(simplex_weights(n_runs, step))
    return list(param.grid) or None


def _trials(fixed: Mapping[str, Any], searched: Mapping[str, list[Any]]) -> list[dict[str, Any]]:
    names = list(searched)
    return [
        {**fixed, **dict(zip(names, combination, strict=True))}
        for combination in itertools.product(*(searched[name] for name in names))
    ]
