"""The one scoring pipeline, behind evaluate_run(), evaluate_retrieval(), the profiles and
compare().

:func:`score_rankings` takes any run value (:class:`~ef.evaluation._runs.ranked.RankedRun`),
applies the query-set rules (DESIGN §4: a query with no positive judgement is skipped, a
judged query the run lacks scores 0 or is left out by the averaging policy), computes every
measure per query (:func:`score_all`, each metric's batch form where it has one) and the tie
diagnostic. :func:`evaluation` turns that into everything a report holds; the report itself
is built in one place, :func:`ef.evaluation._evaluate.report.retrieval_report`.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .._plugin_engine.failures import PLUGIN_FAILURES, owner_of, plugin_call, plugin_failure
from .._plugin_engine.registry import Registry
from ..errors import ArgumentError, Keyword, PluginError
from ..interfaces import RetrievalMetric, aggregate_values, is_score
from .manifest import retrieval_manifest
from .measures import Measure, check_k_values, check_metric_names, parse_measures
from .query_values import QueryValues
from .ties import TieDiagnostic, tie_diagnostic

if TYPE_CHECKING:
    from .._hits import JudgedHits
    from .._progress import Phase
    from .._runs.ranked import RankedRun
    from ..types import Qrels

__all__ = [
    "NO_POSITIVE",
    "Evaluation",
    "Measure",
    "QuerySets",
    "Scored",
    "cutoffs_values",
    "evaluation",
    "mean_of",
    "query_sets",
    "relevant",
    "resolve_measures",
    "score_all",
    "score_rankings",
]


def resolve_measures(
    metrics: Iterable[str], k_values: Sequence[int], registry: Registry
) -> list[Measure]:
    """The measures that ``metrics`` name, in any syntax :func:`~ef.evaluation._engine.measures.
    parse_measure` reads: ``"ndcg"`` at every cutoff of ``k_values``, ``"ndcg@10"`` at cutoff
    10 only, ``"P(rel=2)@5"``, ``"ndcg_cut.10"``. Unknown names raise UnknownNameError."""
    check_metric_names(metrics)
    key = (tuple(metrics), check_k_values(k_values))
    # A registry never changes, so the measures of one list of names and cutoffs stay what
    # they were: parsed once per registry, not on every call (a retrieval evaluation calls
    # this each time, at some 45 µs for the 20 default measures).
    parsed: dict[tuple[tuple[object, ...], tuple[int, ...]], tuple[Measure, ...]]
    parsed = registry.derived(_PARSED, lambda _: {})
    try:
        return list(parsed[key])
    except (KeyError, TypeError):  # TypeError: a name that does not hash, refused below
        pass
    measures = parse_measures(list(key[0]), k_values=k_values, registry=registry)
    if not measures:
        raise ArgumentError(
            "metrics is empty; name at least one, e.g. ", Keyword("metrics", ("ndcg",))
        )
    if len(parsed) < _MOST_PARSED:  # a bound for a process that parses many lists
        parsed[key] = tuple(measures)
    return measures


#: The key of :func:`resolve_measures`'s parsed lists among a registry's derived data, and
#: how many lists it keeps.
_PARSED = "resolved measures"
_MOST_PARSED = 256


def _checked(
    metric: RetrievalMetric, value: object, query_id: str, registry: Registry | None = None
) -> float:
    if not is_score(value):
        # A NaN, an inf or a None would poison the mean silently: say which metric, whose,
        # and which query.
        raise PluginError(
            f"retrieval metric {metric.name!r} returned {value!r} for query {query_id!r} (the "
            f"metric of {owner_of(registry, 'metric', metric.name)}); a retrieval metric must "
            "return a finite number"
        )
    return float(value)  # type: ignore[arg-type]  # is_score checked it


def _plain_floats(raw: object, values: Sequence[Any]) -> bool:
    """True if every value is a finite float (a float64 array is checked at once)."""
    finite = _finite_array(raw)
    if finite is not None:
        return finite
    return all(type(v) is float and math.isfinite(v) for v in values)


def _finite_array(raw: object) -> bool | None:
    """Whether a float64 array of one or two dimensions (a row per cutoff) holds only finite
    numbers, in one pass; None for anything else, whose values are looked at one by one."""
    if getattr(raw, "dtype", None) == "float64" and getattr(raw, "ndim", None) in (1, 2):
        import numpy as np  # a metric returned an array: numpy is loaded already

        return bool(np.isfinite(raw).all())  # type: ignore[call-overload]  # raw is an ndarray
    return None


def _per_query(
    m: Measure,
    rankings: Iterable[Sequence[str]],
    judgements: Iterable[Mapping[str, float]],
    query_of: Callable[[int], str],
    registry: Registry | None,
) -> list[Any]:
    """``m``'s ``func`` on each ranking; what the plugin raises names the query
    (``query_of(i)`` for the i-th call), found only on failure."""
    values: list[Any] = []
    append, func, k, kwargs = values.append, m.metric.func, m.k, m.kwargs
    try:
        for r, j in zip(rankings, judgements, strict=True):
            append(func(r, j, k, **kwargs))
    except PLUGIN_FAILURES as exc:
        where = f"query {query_of(len(values))!r}"
        error = plugin_failure(exc, registry, "metric", m.metric.name, "its func", where=where)
        if error is None:
            raise
        raise error from exc
    return values


def score_all(
    measures: Sequence[Measure],
    query_ids: Sequence[str],
    judgements: Sequence[Mapping[str, float]],
    hits: JudgedHits,
    rankings: Callable[[], Sequence[Sequence[str]]],
    *,
    expected: bool = False,
    registry: Registry | None = None,
    progress: Phase | None = None,
) -> QueryValues:
    """Every measure's value for every query: ``{query_id: {key: value}}``; ``progress``
    advances by one as each measure is done.

    A metric with a ``batch`` form computes all queries at once from ``hits``, and one with a
    ``batch_cutoffs`` form all the cutoffs asked of it with the same parameters at once; one
    without is called query by query on ``rankings()``, which is built only if some metric
    needs it.
    With ``expected``, each value is the metric's mean over the orders of the query's tied
    docs: its ``expected`` form if it has one, else its mean over :func:`~ef.evaluation.
    ties.expand`'s repeats.

    What a metric's plugin raises is a ``PluginError`` naming the metric and its plugin
    (``registry`` says which plugin that is), and, for a per-query ``func``, the query.
    """
    columns: dict[str, Sequence[float]] = {}
    ranked = _built_once(rankings)
    together = {} if expected else _at_cutoffs(measures)
    for m in measures:
        if m.key in columns:
            pass  # scored beside another cutoff of its metric
        elif expected:
            raw, values = _expected_values(
                m, query_ids, judgements, hits, ranked, registry=registry
            )
            columns[m.key] = _column(m, values, query_ids, registry, _plain_floats(raw, values))
        elif m.key in together:
            group = together[m.key]
            raw, rows = cutoffs_values(group, query_ids, hits, registry)
            finite = _finite_array(raw)
            for member, values in zip(group, rows, strict=True):
                plain = finite if finite is not None else _plain_floats(None, values)
                columns[member.key] = _column(member, values, query_ids, registry, plain)
        elif m.metric.batch is not None:
            raw, values = batch_values(m, query_ids, hits, registry)
            columns[m.key] = _column(m, values, query_ids, registry, _plain_floats(raw, values))
        else:
            values = _per_query(m, ranked(), judgements, query_ids.__getitem__, registry)
            columns[m.key] = _column(m, values, query_ids, registry, _plain_floats(None, values))
        if progress is not None:
            progress.advance(1)
    # Columns of floats, 8 bytes a value: a row is made only when a query is read.
    return QueryValues(query_ids, {m.key: columns[m.key] for m in measures})


def _column(
    m: Measure,
    values: Sequence[Any],
    query_ids: Sequence[str],
    registry: Registry | None,
    plain: bool,
) -> Sequence[float]:
    """``m``'s values, checked: only where they are not all ``plain``, finite floats
    (:func:`_plain_floats`) is each value checked."""
    if plain:
        return values
    return [_checked(m.metric, v, q, registry) for v, q in zip(values, query_ids, strict=True)]


def _at_cutoffs(measures: Sequence[Measure]) -> dict[str, list[Measure]]:
    """The measures whose metric scores them in one ``batch_cutoffs`` call, each with the
    others of its metric and parameters (two or more cutoffs)."""
    groups: dict[tuple[int, str], list[Measure]] = {}
    for m in measures:
        if m.metric.batch_cutoffs is not None:
            groups.setdefault((id(m.metric), m.family), []).append(m)
    return {m.key: group for group in groups.values() if len(group) > 1 for m in group}


def _built_once(
    rankings: Callable[[], Sequence[Sequence[str]]],
) -> Callable[[], Sequence[Sequence[str]]]:
    """``rankings``, called the first time its result is needed and only then."""
    built: list[Sequence[Sequence[str]]] = []

    def once() -> Sequence[Sequence[str]]:
        if not built:
            built.append(rankings())
        return built[0]

    return once


def _values_of(raw: Any) -> Sequence[Any]:
    # A float64 column is copied as its bytes into the array("d") a report keeps (no float
    # objects made); another array's tolist() gives Python values in one step; any sequence
    # will do.
    if getattr(raw, "dtype", None) == "float64" and getattr(raw, "ndim", None) == 1:
        return array("d", raw.tobytes())
    return raw.tolist() if hasattr(raw, "tolist") else list(raw)


def batch_values(
    m: Measure, query_ids: Sequence[str], hits: JudgedHits, registry: Registry | None
) -> tuple[object, Sequence[Any]]:
    """A metric's batch form on every query at once: what it returned, and its values.

    The one place a metric's batch form is called, for every route: the scoring pipeline and
    trec_eval's command (``trec_eval.trec_eval_result``) alike."""
    assert m.metric.batch is not None  # the caller's choice of this path
    # Around the whole batch: the fast path pays one try per metric, not per query.
    with plugin_call(registry, "metric", m.metric.name, "its batch form"):
        raw = m.metric.batch(hits, m.k, **m.kwargs)
        values = _values_of(raw)
    _check_count(m, "its batch form", values, query_ids)
    return raw, values


def cutoffs_values(
    group: Sequence[Measure], query_ids: Sequence[str], hits: JudgedHits, registry: Registry | None
) -> tuple[object, list[Sequence[Any]]]:
    """The measures of ``group`` (one metric and parameters, at several cutoffs) from one call
    of its ``batch_cutoffs`` form: what it returned, and each measure's values."""
    metric, kwargs = group[0].metric, group[0].kwargs
    assert metric.batch_cutoffs is not None  # the caller's choice of this path
    with plugin_call(registry, "metric", metric.name, "its batch_cutoffs form"):
        raw = metric.batch_cutoffs(hits, tuple(m.k for m in group), **kwargs)
        rows = [_values_of(row) for row in raw]
    if len(rows) != len(group) or not all(hasattr(row, "__len__") for row in rows):
        raise PluginError(
            f"retrieval metric {metric.name!r}: its batch_cutoffs form returned "
            f"{len(rows)} values for {len(group)} cutoffs, not a row of values per cutoff"
        )
    for m, column in zip(group, rows, strict=True):
        _check_count(m, "its batch_cutoffs form", column, query_ids)
    return raw, rows


def _check_count(m: Measure, form: str, values: Sequence[Any], query_ids: Sequence[str]) -> None:
    """A metric's ``form`` gave one value per query, or the plugin is at fault."""
    if len(values) != len(query_ids):
        raise PluginError(
            f"retrieval metric {m.metric.name!r}: {form} returned "
            f"{len(values)} values for {len(query_ids)} queries"
        )


def _expected_values(
    m: Measure,
    query_ids: Sequence[str],
    judgements: Sequence[Mapping[str, float]],
    hits: JudgedHits,
    ranked: Callable[[], Sequence[Sequence[str]]],
    *,
    registry: Registry | None,
) -> tuple[object, Sequence[Any]]:
    """A metric's mean over the orders of each query's ties: its expected form if it has
    one (what it returned, and its values), else the mean over the expanded orders."""
    raw: object = None
    if m.metric.expected is not None:
        with plugin_call(registry, "metric", m.metric.name, "its expected form"):
            raw = m.metric.expected(hits, m.k, **m.kwargs)
            values = _values_of(raw)
    else:
        rankings = ranked() if m.metric.batch is None else None
        values = _tie_averaged(m, query_ids, hits, judgements, rankings, registry=registry)
    _check_count(m, "its expected form", values, query_ids)
    return raw, values


def _tie_averaged(
    m: Measure,
    query_ids: Sequence[str],
    hits: JudgedHits,
    judgements: Sequence[Mapping[str, float]],
    ranked: Sequence[Sequence[str]] | None,
    *,
    registry: Registry | None = None,
) -> list[float]:
    """A metric without an expected form, averaged over every distinct order of the ties."""
    import numpy as np  # hits are scored: numpy is loaded already

    from ..metrics.retrieval.kernels import untied
    from ..metrics.retrieval.params import JUDGED_ONLY
    from .ties import expand, expand_rankings, mean_by_owner

    name = f"metric {m.metric.name!r}"
    if m.metric.batch is not None:
        kwargs = m.kwargs
        if JUDGED_ONLY in m.metric.params and kwargs["judged_only"]:
            # -J first, as the batch form does it: the tie groups keep their judged docs only,
            # so there are fewer orders to expand (the batch form's own -J is then a no-op).
            hits = hits.judged_only()
        if untied(hits):  # one order a query, its value the mean: nothing to expand
            repeats, owner = hits, np.arange(hits.n_queries)
        else:
            repeats, owner = expand(hits, name, query_ids)
        with plugin_call(registry, "metric", m.metric.name, "its batch form"):
            raw = m.metric.batch(repeats, m.k, **kwargs)
            values = raw.tolist() if hasattr(raw, "tolist") else list(raw)
    else:
        assert ranked is not None  # built by the caller for a metric without a batch form
        orders, judged, owner = expand_rankings(ranked, judgements, hits, name, query_ids)
        values = _per_query(m, orders, judged, lambda i: query_ids[owner[i]], registry)
    checked = [
        _checked(m.metric, v, query_ids[q], registry)
        for v, q in zip(values, owner.tolist(), strict=True)
    ]
    return mean_by_owner(checked, owner, hits.n_queries)


def mean_of(
    measures: Sequence[Measure], per_query: Mapping[str, Mapping[str, float]]
) -> dict[str, float]:
    """Each measure's mean over the queries of ``per_query`` (exactly summed); the sum for a
    metric that aggregates by sum (``num_ret``, as trec_eval and ir_measures report it), the
    geometric mean for one that aggregates so (``gm_map``)."""
    n = len(per_query)
    means: dict[str, float] = {}
    if not n:
        return means  # no query scored: the report refuses, naming why
    rows = per_query.values()
    for m in measures:
        key = m.key
        # aggregate_values sums exactly (and takes gm_ logs): from a column as it is (fsum
        # reads the view; a list of it would cost more than the sum), else from a C-level
        # pass over the rows.
        values: Sequence[float] = (
            per_query.column(key)
            if isinstance(per_query, QueryValues)
            else list(map(operator.itemgetter(key), rows))
        )
        means[key] = aggregate_values(m.metric.aggregate, values)
    return means


@attrs.frozen
class Scored:
    """What scoring a run gives: per-query values, the queries skipped (with why) and
    missing, and the tie diagnostic."""

    per_query: Mapping[str, Mapping[str, float]]
    skipped: dict[str, str]
    missing: list[str]
    ties: TieDiagnostic


def score_rankings(
    run: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    averaging: str,
    tie_policy: str,
    float64: bool = False,
    cutoffs: Sequence[int] | None = None,
    unavailable: Mapping[str, str] | None = None,
    registry: Registry | None = None,
    progress: Phase | None = None,
    sets: QuerySets | None = None,
    hits: JudgedHits | None = None,
) -> Scored:
    """Every measure on every query that ``averaging`` scores, with tied docs ordered by
    ``tie_policy`` (scores compared as float64 if ``float64``, as Python's sort would).

    ``unavailable`` maps judged queries that could not be run to why (a retriever raised, a
    query had no text): they are skipped with that reason. The tie diagnostic looks at
    ``cutoffs`` (default: the measures' own). ``registry`` names the plugin of a metric that
    fails. ``progress`` advances by one per measure scored. ``sets`` are the
    :func:`query_sets` of these inputs, and ``hits`` the judged hits of their scored
    queries under ``tie_policy``, where the caller has them already.
    """
    if sets is None:
        sets = query_sets(run, qrels, averaging, unavailable)
    query_ids, skipped, missing = sets
    judgements = [qrels[query_id] for query_id in query_ids]
    if hits is None:
        hits = run.judged_hits(query_ids, judgements, tie_policy, float64=float64)
    per_query = score_all(
        measures,
        query_ids,
        judgements,
        hits,
        lambda: [run.ranking(q, tie_policy, float64=float64) for q in query_ids],
        expected=tie_policy == "expected",
        registry=registry,
        progress=progress,
    )
    if cutoffs is None:
        cutoffs = sorted({m.k for m in measures if m.k is not None})
    stats = run.tie_stats(query_ids, cutoffs, float64=float64)
    return Scored(per_query, skipped, missing, tie_diagnostic(tie_policy, query_ids, hits, stats))


def relevant(judged: Mapping[str, float]) -> bool:
    """Whether a query's judgements hold a positive grade: a query scoring can count.

    >>> relevant({"d1": 0, "d2": 2}), relevant({"d1": 0}), relevant({})
    (True, False, False)
    """
    # max()'s default= keyword alone costs twice the rest: this runs for every judged query.
    return bool(judged) and max(judged.values()) > 0


#: The queries to score, the skipped ones (with why) and the missing ones (:func:`query_sets`).
QuerySets = tuple[list[str], dict[str, str], list[str]]
#: Why a judged query without a positive grade is skipped.
NO_POSITIVE = "no positive judgement"


def query_sets(
    run: RankedRun,
    qrels: Qrels,
    averaging: str,
    unavailable: Mapping[str, str] | None = None,
) -> QuerySets:
    """The queries to score (all judged), the skipped ones (with why, in qrels' order) and
    the missing ones, under the averaging policy (or ``"all"``: every judged query, scoring
    0 where the run lacks it, as ranx's ``make_comparable``)."""
    if averaging == "run":
        return _run_query_sets(run, qrels)
    unavailable = unavailable or {}
    scored: list[str] = []
    skipped: dict[str, str] = {}
    missing: list[str] = []
    for query_id, judged in qrels.items():
        if averaging != "all" and not relevant(judged):
            skipped[query_id] = NO_POSITIVE
            continue
        if query_id in unavailable:
            skipped[query_id] = unavailable[query_id]
            continue
        if query_id not in run:
            missing.append(query_id)
            if averaging == "intersection":
                skipped[query_id] = "not in the run"
                continue
        scored.append(query_id)
    return scored, skipped, missing


def _run_query_sets(run: RankedRun, qrels: Qrels) -> QuerySets:
    """:func:`query_sets` under ``averaging="run"``: the run's queries in its order (a judged
    query with no positive grade is scored too)."""
    scored: list[str] = []
    skipped: dict[str, str] = {}
    missing: list[str] = []
    for query_id in run.query_ids:
        judged = qrels.get(query_id)
        if judged:
            scored.append(query_id)
        elif judged is not None:
            skipped[query_id] = "no judgement"
    for query_id, judged in qrels.items():
        if query_id not in run:
            if judged:
                missing.append(query_id)
            skipped[query_id] = "not in the run" if judged else "no judgement"
    return scored, skipped, missing


@attrs.frozen
class Evaluation:
    """Everything a :class:`~ef.evaluation.RetrievalEvalReport` holds, before it is one."""

    metrics: dict[str, float]
    per_query: Mapping[str, Mapping[str, float]]
    k_values: tuple[int, ...]
    skipped: Mapping[str, str]
    missing: Sequence[str]
    extra: Sequence[str]
    manifest: dict[str, Any]
    ties: TieDiagnostic


def evaluation(
    registry: Registry,
    run: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    scored: Scored,
    *,
    tie_policy: str,
    averaging: str,
    inputs: Mapping[str, object] | None = None,
    means: Mapping[str, float] | None = None,
) -> Evaluation:
    """The evaluation of ``scored``: the means (``means`` if a profile computed its own),
    the cutoffs, the queries, and the manifest with the input files among ``inputs``."""
    return Evaluation(
        metrics=dict(means) if means is not None else mean_of(measures, scored.per_query),
        per_query=scored.per_query,
        k_values=tuple(dict.fromkeys(m.k for m in measures if m.k is not None)),
        skipped=scored.skipped,
        missing=scored.missing,
        extra=[query_id for query_id in run.query_ids if query_id not in qrels],
        manifest=retrieval_manifest(
            registry,
            [(m.key, m.metric.name, m.k, m.kwargs) for m in measures],
            tie_policy=tie_policy,
            averaging=averaging,
            inputs=inputs,  # only the paths are kept
        ),
        ties=scored.ties,
    )
