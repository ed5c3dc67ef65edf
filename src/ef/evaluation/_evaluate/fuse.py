"""fuse(): several runs made one, by a fusion method of the registry, as ranx's ``fuse``.

The runs are read as :func:`~ef.evaluation.evaluate_run` reads a run (a mapping, a path, a
:class:`~ef.evaluation.RunTable`), each query's docs ranked by the tie policy; each run's
scores for a query are normalised (``norm``), and the method fuses them query by query. The
kernels live in :mod:`ef.evaluation._fusion`; this module loads, checks and assembles.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .._engine.id_forms import shown_ids
from .._engine.score_order import score_order
from .._fusion.normalize import check_norm, normalize
from .._plugin_engine.failures import PLUGIN_FAILURES, describe_item, plugin_failure
from .._plugin_engine.registry import Registry, registry_or_default
from .._runs.order import SINGLE_ORDER_POLICIES, order
from .._runs.ranked import RankedLists
from ..errors import ArgumentError, InputWarning, Keyword, PluginError, message_parts
from ..interfaces import is_score
from .inputs import load_named_run
from .score_order import check_score_order

if TYPE_CHECKING:
    from .._runs.ranked import RankedRun
    from .._runs.table import RunTable
    from ..interfaces import FusionMethod
    from ..types import RunInput

    RunLike = RunInput | RunTable | RankedRun | str | os.PathLike[str]

__all__ = [
    "DEFAULT_METHOD",
    "DEFAULT_NORM",
    "FUSION_TIE_POLICIES",
    "FusionInputs",
    "count_runs",
    "fuse",
    "fuse_inputs",
    "fusion_inputs",
    "method_params",
]

#: ranx's defaults: ``fuse(runs, norm="min-max", method="wsum")``.
DEFAULT_METHOD = "wsum"
DEFAULT_NORM = "min-max"

#: The tie policies that give one order (``"expected"`` averages metrics over orders).
FUSION_TIE_POLICIES = SINGLE_ORDER_POLICIES


def fuse(
    runs: Sequence[RunLike] | Mapping[str, RunLike],
    *,
    method: str = DEFAULT_METHOD,
    norm: str | None = DEFAULT_NORM,
    weights: Sequence[float] | None = None,
    params: Mapping[str, Any] | None = None,
    name: str | None = None,
    tie_policy: str = "trec_eval",
    run_format: str | None = None,
    registry: Registry | None = None,
) -> RunTable:
    """Fuse two or more runs into one, as ``ranx.fuse(runs, norm, method, params)`` does.

    Each run is read as :func:`~ef.evaluation.evaluate_run` reads one, and each query's docs
    are ranked by ``tie_policy`` (trec_eval's rule by default: score descending, compared as
    float32, then doc id descending). A method of scores normalises each run's scores for the
    query by ``norm`` first; a method of ranks (``rrf``, ``isr``) reads only the ranking, so
    ``norm`` changes nothing for it (as in ranx) and ranked lists without scores can be fused.
    A doc a run did not retrieve takes no part in that run's term (see docs/fusion.md for each
    method). The fused run holds every query of any run; a run that lacks some of them is an
    :class:`~ef.evaluation.InputWarning` (ranx refuses such runs), and runs that share no query
    at all are an error.

    Args:
        runs: the runs, each a ``{qid: {doc: score}}`` mapping, ranked lists ``{qid: [doc,
            ...]}``, a :class:`~ef.evaluation.RunTable` or the path of a run file; a mapping
            ``{name: run}`` names them in messages.
        method: a fusion method of the registry (``ef-eval fusions`` lists them): ranx's
            25 under ranx's names, ``"wsum"`` (the default, as ranx's), ``"rrf"``,
            ``"sum"``, ``"mnz"``, ``"bordafuse"``, ``"condorcet"``, ... A supervised one
            (``"probfuse"``, ``"posfuse"``, ...) needs what
            :func:`~ef.evaluation.optimize_fusion` learned, as ``params=best.params``.
        norm: ``"min-max"`` (the default, as ranx's), ``"zmuv"``, ``"sum"``, ``"max"``,
            ``"rank"``, or ``None`` for the scores as they are.
        weights: ``wsum``'s weights, one per run in the order of ``runs``; default ``1/n``.
        params: the method's parameters by name, e.g. ``{"k": 60}`` for ``rrf`` (ranx's
            ``params=``); ``weights`` may be given here instead. A parameter without a
            default (``gmnz``'s ``gamma``, ``rbc``'s ``phi``) must be given.
        name: the fused run's name (what :func:`~ef.evaluation.compare` calls it); default
            the method's name.
        tie_policy: ``"trec_eval"``, ``"docno_asc"`` or ``"input_order"``: how tied docs of an
            input run are ranked, which ranks a method of ranks sees, and how the fused
            run's own ties are listed.
        run_format: the format of runs given as paths; ``None`` detects it.
        registry: the plugins to use; ``None`` is the default registry.

    Returns:
        The fused run as a :class:`~ef.evaluation.RunTable` called ``name``, which
        :func:`~ef.evaluation.evaluate_run` and :func:`~ef.evaluation.compare` take as it is.

    Raises:
        UnknownNameError: for an unknown method or parameter (listing the valid ones).
        ValueError: for fewer than two runs, an unknown norm or tie policy, a bad parameter
            value, runs that share no query, a negative score under ``norm="max"``, or ranked
            lists under a method of scores (naming the run and query).

    >>> bm25 = {"q1": {"d1": 12.0, "d2": 9.0, "d3": 4.0}}
    >>> dense = {"q1": {"d3": 0.9, "d1": 0.8, "d4": 0.1}}
    >>> fused = fuse({"bm25": bm25, "dense": dense}, method="rrf")
    >>> fused.name, fused.ranking("q1")
    ('rrf', ['d1', 'd3', 'd2', 'd4'])
    >>> round(fused.to_dict()["q1"]["d1"], 6)  # 1/(60 + 1) + 1/(60 + 2)
    0.032522
    >>> fuse([bm25, dense], weights=(0.3, 0.7)).to_dict()  # wsum of min-max scores
    {'q1': {'d1': 0.9124999999999999, 'd3': 0.7, 'd2': 0.1875, 'd4': 0.0}}
    """
    registry = registry_or_default(registry)
    chosen = registry.fusion_method(method)
    # The parameters are checked before any run is read.
    values = method_params(chosen, count_runs(runs), weights=weights, params=params)
    inputs = fusion_inputs(
        runs, chosen, norm, tie_policy=tie_policy, run_format=run_format, registry=registry
    )
    return fuse_inputs(inputs, chosen, values, name=name, registry=registry)


def count_runs(runs: Sequence[RunLike] | Mapping[str, RunLike]) -> int:
    """How many runs ``runs`` holds: two or more, else a ValueError."""
    if isinstance(runs, (str, os.PathLike)) or not isinstance(runs, (Sequence, Mapping)):
        raise TypeError(
            "runs must be a sequence of runs (a list), or a mapping of name to run; got "
            f"{type(runs).__name__}"
        )
    count = len(runs)
    if count < 2:
        raise ValueError(f"fuse needs two or more runs, got {count}")
    return count


@attrs.frozen
class FusionInputs:
    """The runs made ready for a method: each query's entries, one per run, normalised.

    ``results[i][r]`` is run ``r``'s entry for ``query_ids[i]``: ``{doc: score}`` in rank
    order for a method of scores, the ranked doc ids for a method of ranks. Built once by
    :func:`fusion_inputs`, fused as often as :func:`~ef.evaluation.optimize_fusion` needs.
    """

    labels: tuple[str, ...]
    query_ids: tuple[str, ...]
    results: tuple[tuple[Mapping[str, float] | Sequence[str], ...], ...]
    norm: str | None
    tie_policy: str


def _labelled(runs: Sequence[RunLike] | Mapping[str, RunLike]) -> list[tuple[str, RunLike]]:
    if isinstance(runs, (str, os.PathLike)):
        raise TypeError("runs must be a sequence of runs, or a mapping of name to run")
    if isinstance(runs, Mapping):
        return [(repr(str(name)), run) for name, run in runs.items()]
    labelled = []
    for index, run in enumerate(runs):
        if isinstance(run, (str, os.PathLike)):
            label = str(Path(run))
        else:
            own = getattr(run, "name", None)
            label = f"runs[{index}]" + (f" ({own!r})" if isinstance(own, str) else "")
        labelled.append((label, run))
    return labelled


def _check_queries(labels: Sequence[str], loaded: Sequence[RankedRun]) -> tuple[str, ...]:
    """Every query of any run, in the order they first appear; an error for a run that shares
    no query with the others, a warning for a run that lacks some."""
    sets = [set(run.query_ids) for run in loaded]
    _check_each_shares(labels, sets)
    union = tuple(dict.fromkeys(q for run in loaded for q in run.query_ids))
    for label, queries in zip(labels, sets, strict=True):
        missing = [q for q in union if q not in queries]
        if missing:
            warnings.warn(
                f"{label} lacks {len(missing)} of the {len(union)} queries "
                f"{shown_ids(missing)}: they are fused from the other runs alone (ranx "
                "refuses runs whose queries differ)",
                InputWarning,
                stacklevel=4,
            )
    return union


def _check_each_shares(labels: Sequence[str], sets: Sequence[set[str]]) -> None:
    """Refuse a run with no query, then a run that shares none with the others."""
    for label, queries in zip(labels, sets, strict=True):
        if not queries:
            raise ValueError(f"{label} has no query: there is nothing to fuse it with")
    for i, (label, queries) in enumerate(zip(labels, sets, strict=True)):
        others = set().union(*(s for j, s in enumerate(sets) if j != i))
        if queries.isdisjoint(others):
            raise ValueError(
                f"{label} shares no query with the other runs: it has {len(queries)} "
                f"queries {shown_ids(queries)}, they have {len(others)} {shown_ids(others)}. "
                "Are they runs of the same collection, with the same query ids?"
            )


def fusion_inputs(
    runs: Sequence[RunLike] | Mapping[str, RunLike],
    method: FusionMethod,
    norm: str | None,
    *,
    tie_policy: str = "trec_eval",
    run_format: str | None = None,
    registry: Registry,
) -> FusionInputs:
    """Read and check ``runs``, rank each query's docs by ``tie_policy`` and normalise each
    run's scores for a method of scores; see :func:`fuse`."""
    norm = check_norm(norm)
    if tie_policy not in FUSION_TIE_POLICIES:
        valid = ", ".join(map(repr, FUSION_TIE_POLICIES))
        raise ValueError(
            f"tie_policy must be one of {valid} (fusion needs one order; 'expected' averages a "
            f"metric over orders); got {tie_policy!r}"
        )
    labelled = _labelled(runs)
    if len(labelled) < 2:
        raise ValueError(f"fuse needs two or more runs, got {len(labelled)}")
    labels = [label for label, _ in labelled]
    loaded = [load_named_run(label, run, registry, run_format) for label, run in labelled]
    for label, run in zip(labels, loaded, strict=True):  # a run ranked backwards fuses so
        _check_str_ids(label, run.query_ids, "a query id")
        check_score_order(score_order(run), stacklevel=3, name=label)  # fuse's caller
    query_ids = _check_queries(labels, loaded)
    scores = method.uses == "scores" and norm != "rank"
    if scores:
        _refuse_ranked_lists(labels, loaded, method, norm, registry)
    by_run = [
        _entries(label, run, query_ids, uses=method.uses, norm=norm, tie_policy=tie_policy)
        for label, run in zip(labels, loaded, strict=True)
    ]
    results = tuple(zip(*by_run, strict=True))
    return FusionInputs(tuple(labels), query_ids, results, norm, tie_policy)


def _refuse_ranked_lists(
    labels: Sequence[str],
    loaded: Sequence[RankedRun],
    method: FusionMethod,
    norm: str | None,
    registry: Registry,
) -> None:
    for label, run in zip(labels, loaded, strict=True):
        if isinstance(run, RankedLists):
            of_ranks = [m.name for m in registry.fusion_methods.values() if m.uses == "ranks"]
            raise ArgumentError(
                f"{label} holds ranked lists without scores, and method {method.name!r} "
                "fuses scores (",
                Keyword("norm", norm),
                "): use ",
                Keyword("norm", "rank"),
                " (scores from the ranks), or a method of ranks "
                f"({', '.join(of_ranks) or 'none loaded'})",
            )


def _entries(
    label: str,
    run: RankedRun,
    query_ids: Sequence[str],
    *,
    uses: str,
    norm: str | None,
    tie_policy: str,
) -> list[Mapping[str, float] | Sequence[str]]:
    """One run's entry for each query: its ranking, or its normalised scores in rank order."""
    from .._runs.table import RunTable

    rankings = [run.ranking(q, tie_policy) if q in run else [] for q in query_ids]
    for query_id, ranking in zip(query_ids, rankings, strict=True):
        _check_str_ids(f"{label}, query {query_id!r}", ranking, "a doc id")
    if uses == "ranks":
        return list(rankings)
    scored = run.to_dict() if isinstance(run, RunTable) else {}
    entries: list[Mapping[str, float] | Sequence[str]] = []
    for query_id, ranking in zip(query_ids, rankings, strict=True):
        held = scored.get(query_id, {})
        raw = [held[doc] for doc in ranking] if held else [0.0] * len(ranking)  # rank: unused
        try:
            normalized = normalize(raw, norm)
        except ValueError as exc:
            raise ArgumentError(f"{label}, query {query_id!r}: ", *message_parts(exc)) from None
        entries.append(dict(zip(ranking, normalized, strict=True)))
    return entries


def _check_str_ids(where: str, ids: Sequence[object], what: str) -> None:
    """A ValueError naming ``where`` and the first id of ``ids`` that is no str.

    A method would hand a non-str id back, and the fused run would hold an id that no
    qrels' str id can match (``1`` is not ``"1"``): refused here, before any method runs, so
    no plugin is blamed for the input.
    """
    for value in ids:
        if not isinstance(value, str):
            raise ValueError(
                f"{where}: {what} is {type(value).__name__} {value!r}; ids must be str "
                f"(as the qrels' are): use {str(value)!r}"
            )


def method_params(
    method: FusionMethod,
    n_runs: int,
    *,
    weights: Sequence[float] | None = None,
    params: Mapping[str, Any] | None = None,
    training: bool = False,
) -> dict[str, Any]:
    """Every parameter of ``method``, at the value given or its default, checked; a required
    or learned parameter must be given unless ``training`` (optimize_fusion searches or
    learns it).

    >>> from ef.evaluation import get_registry
    >>> method_params(get_registry().fusion_method("rrf"), 2, params={"k": 10})
    {'k': 10}
    >>> method_params(get_registry().fusion_method("rrf"), 2, weights=(0.5, 0.5))
    Traceback (most recent call last):
        ...
    ef.evaluation.UnknownNameError: fusion method 'rrf' has no parameter 'weights'. Its \
parameters: k.
    """
    given = dict(params or {})
    if weights is not None:
        if "weights" in given:
            raise ArgumentError(
                "weights is given twice: as ", Keyword("weights"), " and in ", Keyword("params")
            )
        given["weights"] = weights
    for key in given:
        method.param(key)  # an unknown name is an UnknownNameError listing the valid ones
    if not training:
        _check_given(method, given)
    return {p.name: p.convert(given.get(p.name), n_runs) for p in method.params}


def _check_given(method: FusionMethod, given: Mapping[str, Any]) -> None:
    """A ValueError for a required or learned parameter the call does not set."""
    for param in method.params:
        if given.get(param.name) is not None:
            continue
        if param.learned:
            raise ValueError(
                f"fusion method {method.name!r} learns {param.name!r} from training runs and "
                f"their qrels: best = optimize_fusion(qrels, training_runs, "
                f"method={method.name!r}), then fuse(runs, method={method.name!r}, "
                "params=best.params)"
            )
        if param.required:
            raise ArgumentError(
                f"fusion method {method.name!r} needs parameter {param.name!r} (",
                Keyword("params", {param.name: ...}, code=f"{{{param.name!r}: ...}}"),
                f"; it has no default, as in ranx): {param.description}",
            )


def fuse_inputs(
    inputs: FusionInputs,
    method: FusionMethod,
    values: Mapping[str, Any],
    *,
    name: str | None = None,
    registry: Registry,
) -> RunTable:
    """The fused run of prepared ``inputs`` under ``method`` with parameter ``values``."""
    from .._runs.table import RunTable

    fused: dict[str, dict[str, float]] = {}
    for query_id, results in zip(inputs.query_ids, inputs.results, strict=True):
        try:
            scores = method.func(list(results), **values)
        except PLUGIN_FAILURES as exc:
            where = f"query {query_id!r}"
            error = plugin_failure(exc, registry, "fusion", method.name, "its func", where=where)
            if error is None:
                raise
            raise error from exc
        checked = _checked(
            scores, method, query_id, registry, labels=inputs.labels, results=results, values=values
        )
        fused[query_id] = _ranked(checked, inputs.tie_policy)
    return RunTable.from_dict(fused, name=name if name is not None else method.name)


def _checked(
    scores: object,
    method: FusionMethod,
    query_id: str,
    registry: Registry,
    *,
    labels: Sequence[str],
    results: Sequence[Mapping[str, float] | Sequence[str]],
    values: Mapping[str, Any],
) -> Mapping[str, float]:
    problem = None
    if not isinstance(scores, Mapping):
        problem = f"returned {type(scores).__name__} {scores!r}; expected {{doc_id: score}}"
    else:
        for doc, score in scores.items():
            if not isinstance(doc, str) or not is_score(score):
                if isinstance(doc, str) and isinstance(score, float):
                    _refuse_overflow(query_id, labels, results, values)
                problem = f"returned {score!r} for doc {doc!r}; expected a finite number per str id"
                break
    if problem is None:
        return scores  # type: ignore[return-value]  # a Mapping[str, float], checked above
    raise PluginError(
        f"{describe_item(registry, 'fusion', method.name)} {problem}, on query {query_id!r}"
    )


def _refuse_overflow(
    query_id: str,
    labels: Sequence[str],
    results: Sequence[Mapping[str, float] | Sequence[str]],
    values: Mapping[str, Any],
) -> None:
    """A ValueError if the scores fed to the method are so large that adding them (times
    the runs, times a weight) overflows a float: then a sum of finite inputs is inf, which
    is the input's doing, not the method's. A method that overflows on smaller scores is
    left to be blamed."""
    tops = [
        (max(map(abs, entry.values()), default=0.0), label)
        for label, entry in zip(labels, results, strict=True)
        if isinstance(entry, Mapping)
    ]
    if not tops:
        return
    bound = sum(top for top, _ in tops) * len(results)
    largest = max([1.0, *_magnitudes(values.values())])
    if math.isfinite(bound * largest):
        return
    head = f"query {query_id!r}: the fused score overflows a float"
    if math.isfinite(bound):
        raise ValueError(
            f"{head}: the method's parameters reach {largest:g}, too large to weigh the "
            "scores by; use smaller ones (weights that sum to 1, as the default's)"
        )
    top, label = max(tops)
    raise ArgumentError(
        f"{head}: {label}'s scores reach {top:g} in magnitude, too large to add up; "
        "normalise them (",
        Keyword("norm", "min-max"),
        ", the default) or scale them down",
    )


def _magnitudes(values: Iterable[object]) -> list[float]:
    """The size of each number among a method's parameter values (per-run ones included)."""
    found: list[float] = []
    for value in values:
        for item in value if isinstance(value, tuple) else (value,):
            if is_score(item):
                found.append(abs(float(item)))
    return found


def _ranked(scores: Mapping[str, float], tie_policy: str) -> dict[str, float]:
    """``scores`` listed in rank order: :func:`~ef.evaluation._runs.order.order`'s (score
    descending as float32, as the run's ranking compares them, ties by ``tie_policy``)."""
    docs = list(scores)
    return {doc: scores[doc] for doc in order([scores[d] for d in docs], docs, tie_policy)}
