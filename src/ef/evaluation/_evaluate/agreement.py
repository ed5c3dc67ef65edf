"""rank_correlation() and rbo(): how much two orderings of systems, or two runs, agree.

The formulas are in :mod:`ef.evaluation._engine.agreement`; this module turns reports and runs
into the orderings they compare.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .._engine.agreement import kendall_tau_b, rbo_ext, tau_ap
from .._plugin_engine.registry import registry_or_default
from .._reports.agreement import RankCorrelation, RboReport
from .._runs.order import check_tie_policy
from .inputs import load_run

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from .._runs.table import RunTable
    from ..types import DataFrameLike, RunInput, TiePolicy

__all__ = ["RankCorrelation", "RboReport", "rank_correlation", "rbo"]


def _value(system: str, item: object, metric: str | None, side: str) -> float:
    """A system's value: a number, or a report's mean of ``metric``."""
    if isinstance(item, (int, float)) and not isinstance(item, bool):
        value = float(item)
    elif isinstance(getattr(item, "metrics", None), Mapping):
        if metric is None:
            raise ValueError(f"{side}[{system!r}] is a report: name the metric= to rank by")
        metrics = item.metrics  # type: ignore[attr-defined]
        key = item.metric_key(metric) if hasattr(item, "metric_key") else metric
        if key not in metrics:
            raise KeyError(f"{side}[{system!r}] has no metric {metric!r}: it has {list(metrics)}")
        value = metrics[key]
        if value is None:
            raise ValueError(f"{side}[{system!r}] scored no sample on {metric!r}")
    else:
        raise TypeError(
            f"{side}[{system!r}] is a {type(item).__name__}; expected a number or a report"
        )
    if not math.isfinite(value):
        raise ValueError(f"{side}[{system!r}] = {value!r}: not a finite number")
    return value


def rank_correlation(
    a: Mapping[str, object], b: Mapping[str, object], *, metric: str | None = None
) -> RankCorrelation:
    """How the ordering of systems by ``b`` agrees with their ordering by ``a``.

    ``a`` and ``b`` map the same system names to a number each (higher is better), or to a
    report (:class:`~ef.evaluation.RetrievalEvalReport`,
    :class:`~ef.evaluation.RagEvalReport`) whose mean of ``metric`` ranks them: the same
    systems under two metrics, two sets of judgements, or two collections.

    ``tau`` is Kendall's τ-b (``scipy.stats.kendalltau``'s default, ties included); ``tau_ap``
    is the AP correlation of Yilmaz, Aslam and Robertson (SIGIR 2008), which counts a swap
    near the top of ``b``'s ordering more than one near the bottom, with ``a`` as the
    reference. A pair tied in either ordering counts for neither; without ties τ_AP is the
    paper's.

    Raises:
        ValueError: for fewer than two systems, names in one mapping only, a value that is
            no finite number, or a report without ``metric``.

    >>> ndcg = {"bm25": 0.40, "dense": 0.45, "splade": 0.48, "hybrid": 0.50}
    >>> top_swapped = {"bm25": 0.30, "dense": 0.38, "splade": 0.44, "hybrid": 0.41}
    >>> result = rank_correlation(ndcg, top_swapped)
    >>> result.systems
    ('hybrid', 'splade', 'dense', 'bm25')
    >>> round(result.tau, 4), round(result.tau_ap, 4)
    (0.6667, 0.3333)
    >>> bottom_swapped = {"bm25": 0.39, "dense": 0.37, "splade": 0.44, "hybrid": 0.46}
    >>> result = rank_correlation(ndcg, bottom_swapped)
    >>> round(result.tau, 4), round(result.tau_ap, 4)
    (0.6667, 0.7778)
    """
    if set(a) != set(b):
        only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
        raise ValueError(
            f"the two orderings rank different systems: only in a {only_a}, only in b {only_b}"
        )
    if len(a) < 2:
        raise ValueError(f"a rank correlation needs two or more systems, got {len(a)}")
    systems = [str(name) for name in a]
    first = [_value(name, a[name], metric, "a") for name in systems]
    second = [_value(name, b[name], metric, "b") for name in systems]
    ordered = sorted(range(len(systems)), key=lambda i: -first[i])
    return RankCorrelation(
        systems=[systems[i] for i in ordered],
        tau=kendall_tau_b(first, second),
        tau_ap=tau_ap(first, second),
    )


def rbo(
    run_a: RunInput | RunTable | DataFrameLike | str | os.PathLike[str],
    run_b: RunInput | RunTable | DataFrameLike | str | os.PathLike[str],
    *,
    p: float = 0.9,
    depth: int | None = None,
    tie_policy: TiePolicy = "trec_eval",
    run_format: str | None = None,
    registry: Registry | None = None,
) -> RboReport:
    """Rank-biased overlap of two runs, query by query, and its mean.

    Each query both runs rank gets RBO_ext, the extrapolated rank-biased overlap of Webber,
    Moffat and Zobel (ACM TOIS 2010, equation 32): the overlap of the two rankings' tops at
    every depth, weighted by ``p**(d - 1)``, plus what the seen part of the rankings implies
    for the unseen rest. It is 1 for two equal rankings and 0 for disjoint ones; ``p`` sets
    how top-heavy it is (the top ``d`` ranks carry most of the weight when ``d`` is about
    ``1 / (1 - p)``: 10 for 0.9). It equals the ``rbo`` package's ``rbo_ext``.

    Runs are what :func:`~ef.evaluation.evaluate_run` reads (a mapping, a DataFrame, a run
    file, a :class:`~ef.evaluation.RunTable`), each query ranked under ``tie_policy``, and
    cut at ``depth`` (None: whole). Queries one run lacks are left out and listed.

    Raises:
        ValueError: for ``p`` outside (0, 1), a ``depth`` below 1, or runs with no query in
            common.

    >>> bm25 = {"q1": ["d1", "d2", "d3", "d4"], "q2": ["d5", "d6"]}
    >>> dense = {"q1": ["d2", "d1", "d4", "d3"], "q2": ["d5", "d6"]}
    >>> report = rbo(bm25, dense, p=0.5)
    >>> report.per_query["q1"], report.per_query["q2"], report.mean
    (0.4583333333333333, 1.0, 0.7291666666666666)
    """
    _check_rbo_options(p, depth)
    check_tie_policy(tie_policy)
    registry = registry_or_default(registry)
    first = load_run(run_a, registry, run_format)
    second = load_run(run_b, registry, run_format)
    shared = [q for q in first.query_ids if q in second]
    if not shared:
        raise ValueError("the two runs have no query in common")
    per_query = {
        query_id: rbo_ext(
            first.ranking(query_id, tie_policy)[:depth],
            second.ranking(query_id, tie_policy)[:depth],
            float(p),
        )
        for query_id in shared
    }
    return RboReport(
        p=float(p),
        depth=depth,
        per_query=per_query,
        only_a=[q for q in first.query_ids if q not in second],
        only_b=[q for q in second.query_ids if q not in first],
    )


def _check_rbo_options(p: float, depth: int | None) -> None:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 1:
        raise ValueError(f"p must be a number between 0 and 1, got {p!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be None or a positive int, got {depth!r}")
