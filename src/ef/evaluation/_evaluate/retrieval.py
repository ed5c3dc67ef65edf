"""evaluate_retrieval(): run a retriever over judged queries and score its rankings."""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .._engine.doc_overlap import doc_overlap
from .._engine.id_forms import no_overlap_cause, shown_ids, with_cause
from .._engine.measures import DEFAULT_K_VALUES, DEFAULT_METRICS, Measure, check_k_values
from .._engine.options import Scoring
from .._engine.results import DocIdFunction, result_doc_id
from .._engine.retrieve import retrieve
from .._engine.scoring import NO_POSITIVE, QuerySets, query_sets, relevant, resolve_measures
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Progress
from .._reports import RetrievalEvalReport
from .._runs.ranked import RankedLists
from .._store import Store
from .._store.recording import record_evaluation, recorded_names
from .doc_ids import check_doc_overlap
from .inputs import check_qrels
from .irds_level import irds_inputs
from .run import scored_report

__all__ = [
    "check_arguments",
    "evaluate_retrieval",
    "result_doc_id",
    "retrieval_limit",
    "retrieved",
    "runnable_queries",
    "scored_rankings",
    "scored_retrieval",
]


def evaluate_retrieval(
    retriever: Any,
    qrels: Mapping[str, Mapping[str, float]] | str,
    queries: Mapping[str, str] | str,
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    metrics: Sequence[str] = DEFAULT_METRICS,
    limit: int | None = None,
    registry: Registry | None = None,
    executor: int | cf.Executor | None = None,
    batch_size: int = 32,
    progress: Progress = False,
    on_error: Literal["raise", "skip"] = "raise",
    ignore_identical_ids: bool = False,
    doc_id: DocIdFunction | None = None,
    check_doc_ids: bool = True,
    record: bool = False,
    system: str | None = None,
    dataset: str | None = None,
    tags: Sequence[str] = (),
    store: Store | str | os.PathLike[str] | None = None,
) -> RetrievalEvalReport:
    """Score a retriever against a BEIR-shaped evaluation set.

    For every query judged in ``qrels``, the retriever is run, its results are mapped back to
    source document ids (``result_doc_id()``, de-duplicated to the best rank per source), and
    each requested metric is computed at each cutoff in ``k_values``. The report holds the mean
    of each ``"<metric>@<k>"`` over all scored queries; the primary metric is NDCG@10.

    Args:
        retriever: what answers a query: a callable ``(query, *, limit)``, an object with
            ``.search(query, limit=...)`` or ``.retrieve(...)``, or anything a retriever-adapter
            plugin accepts. It returns a list of results in ranked order: doc-id strings,
            ``(doc_id, score)`` pairs, or objects or mappings. A result maps to the first of:
            ``doc_id=`` (below); its ``doc_id`` / ``source_id``; ``metadata['doc_id']`` /
            ``metadata['source_id']``; its segment's ``doc_id`` / ``source_id``
            (``result.segment``); its own ``id`` / ``_id``. Two different ids at one level
            are an error.
        qrels: the relevance judgements, ``{query_id: {doc_id: relevance}}``, or an
            ``irds:<dataset-id>`` (its relevance level applies to the binary measures, as
            in :func:`~ef.evaluation.evaluate_run`). Queries with no positive judgement are
            skipped.
        queries: the query texts, ``{query_id: query_text}``, or an ``irds:<dataset-id>``.
            A judged query absent here cannot be run and is skipped.
        k_values: the rank cutoffs to evaluate at.
        metrics: which metrics to compute: ``ndcg``, ``recall``, ``precision``, ``mrr``,
            ``map``, or any other retrieval metric (built-in or a plugin's), each at every
            cutoff of ``k_values``; ``"ndcg@10"`` names one cutoff only, and ir_measures' or
            trec_eval's syntax works too (``"P(rel=2)@5"``, ``"ndcg_cut.10"``).
        limit: how many results to retrieve per query. ``None`` uses ``max(k_values)``; raise
            it when sources segment into many pieces (de-duplication to source level can
            otherwise shorten the ranking).
        registry: the plugins to use; ``None`` is the default registry of installed plugins.
        executor: where the retriever runs: ``None`` inline, an int ``n`` on ``n`` threads,
            or any ``concurrent.futures.Executor`` (a process pool, a Dask client's
            ``get_executor()``). The report is the same whatever it is; see
            :func:`~ef.evaluation.retrieve`.
        batch_size: how many queries go into one task, and one call of a retriever that
            answers queries in batches.
        progress: ``True`` shows a progress bar on stderr; a callable gets ``(done, total)``.
        on_error: ``"raise"`` stops at the first query whose retriever call raises;
            ``"skip"`` leaves that query out of the scores and lists it in ``skipped`` with
            the reason ``"retriever raised: <ExcType>: <message>"``.
        ignore_identical_ids: drop a result whose doc id is the query's id (BEIR's option,
            for corpora that contain the queries); the results below move up a rank.
        doc_id: a function of one result that returns its doc id, or None to leave it to
            the rules above; for passage-level qrels, ``doc_id=lambda hit: hit.segment.id``.
        check_doc_ids: refuse rankings whose docs do not meet the judged docs (no query
            retrieved one, or a tenth of them only once the ids are respelt: a retriever
            that returns ``cacm-1938`` for ``CACM-1938``), and warn if fewer than half of
            the queries retrieved one, as :func:`~ef.evaluation.evaluate_run` does;
            ``False`` scores them as they are.
        record: write the report to the store of evaluations (``store``) as a record of
            ``system`` on ``dataset`` with ``tags`` (see :doc:`/experiments`); both names
            must be given, since a retriever and qrels in memory have none. Nothing is
            recorded otherwise.
        system: the retriever's name in the store.
        dataset: the dataset's name in the store.
        tags: free labels kept with the record.
        store: a store's URL, an open store, or None for ``EF_EVALUATION_STORE``, else the
            default SQLite file.

    Returns:
        a :class:`RetrievalEvalReport`; its ``skipped`` maps each judged query that was not
        scored to the reason.

    Raises:
        ValueError: for an unknown metric name, a bad cutoff or option, doc ids that do not
            meet the qrels' (naming the likely cause), or if no query can be scored.
        TypeError: if no adapter accepts ``retriever``, or (as ``RetrieverResultError``) an
            answer is not a list of results or a result has no single doc id.
        RetrieverError: if the retriever raises (and ``on_error="raise"``); the message names
            the query id.
        ValueError: (an ``ArgumentError``) with ``record=True`` and no ``system=`` or
            ``dataset=``; checked before any query is run.

    >>> qrels = {'q1': {'d1': 1.0}, 'q2': {'d2': 1.0}}
    >>> queries = {'q1': 'alpha', 'q2': 'beta'}
    >>> def retriever(query, *, limit=10):
    ...     return {'alpha': ['d1', 'd2'], 'beta': ['d1', 'd2']}[query][:limit]
    >>> report = evaluate_retrieval(retriever, qrels, queries, k_values=(1, 2))
    >>> report.metrics['recall@2'], report.n_queries
    (1.0, 2)
    """
    if record:  # a missing name stops the call before the retriever runs
        names = recorded_names(system, dataset)
    registry = registry_or_default(registry)
    # ir_datasets ids read here: the dataset's relevance level applies to the measures
    qrels, queries, metrics = irds_inputs(qrels, queries, metrics, k_values, registry)
    report = scored_retrieval(
        retriever,
        qrels,  # type: ignore[arg-type]  # a str left is refused by check_arguments
        queries,
        k_values=k_values,
        metrics=metrics,
        limit=limit,
        registry=registry,
        executor=executor,
        batch_size=batch_size,
        progress=progress,
        on_error=on_error,
        ignore_identical_ids=ignore_identical_ids,
        doc_id=doc_id,
        check_doc_ids=check_doc_ids,
        stacklevel=2,  # a warning points at evaluate_retrieval's caller
    )[1]
    if record:
        record_evaluation(report, system=names[0], dataset=names[1], tags=tags, store=store)
    return report


def _first_value(value: object) -> object:
    return next(iter(value.values()), None) if isinstance(value, Mapping) else None


def check_arguments(call: str, retriever: object, qrels: object, queries: object) -> None:
    """Refuse, naming ``call`` (``"evaluate_retrieval(retriever, qrels, queries)"``), its
    arguments in the wrong order or of the wrong kind: a retriever given last, qrels and
    queries swapped, queries that are no mapping, qrels given as a file's path."""
    kind = "a function" if callable(queries) else f"a {type(queries).__name__}"
    if callable(queries) and not callable(retriever):
        raise TypeError(f"{call}: queries is {kind}: the retriever comes first")
    if isinstance(_first_value(qrels), str) and isinstance(_first_value(queries), Mapping):
        raise TypeError(
            f"{call}: qrels holds texts and queries holds judgements: are qrels and queries "
            "swapped? qrels is {query_id: {doc_id: grade}}, queries is {query_id: text}"
        )
    if not isinstance(queries, Mapping):
        raise TypeError(f"{call}: queries is {kind}; expected {{query_id: text}}")
    if isinstance(qrels, (str, os.PathLike)):
        raise TypeError(
            f"{call}: qrels is the path {str(qrels)!r}; it takes qrels in memory: pass "
            f"read_qrels({str(qrels)!r})"
        )


def scored_retrieval(
    retriever: Any,
    qrels: Mapping[str, Mapping[str, float]],
    queries: Mapping[str, str],
    *,
    k_values: Sequence[int],
    metrics: Sequence[str],
    limit: int | None,
    registry: Registry,
    executor: int | cf.Executor | None,
    batch_size: int,
    progress: Progress,
    on_error: Literal["raise", "skip"],
    ignore_identical_ids: bool,
    doc_id: DocIdFunction | None,
    check_doc_ids: bool = True,
    stacklevel: int = 1,
) -> tuple[RankedLists, RetrievalEvalReport]:
    """What :func:`evaluate_retrieval` does, with the rankings it scored beside its report
    (:func:`~ef.evaluation.evaluate_pipeline` hands their top docs to the generator); a
    warning points ``stacklevel`` frames above this function (1: its caller)."""
    check_arguments("evaluate_retrieval(retriever, qrels, queries)", retriever, qrels, queries)
    measures = resolve_measures(metrics, k_values, registry)
    check_qrels(qrels)  # the one input check of evaluate_run's: a grade is a finite number
    limit = retrieval_limit(limit, measures, k_values)
    runnable, unavailable, skipped = runnable_queries(qrels, queries)
    run, failed = retrieved(
        retriever,
        runnable,
        ignore_identical_ids=ignore_identical_ids,
        limit=limit,
        executor=executor,
        batch_size=batch_size,
        progress=progress,
        on_error=on_error,
        registry=registry,
        doc_id=doc_id,
    )
    # A run that answered every runnable query holds them in qrels' order: the query sets
    # are known, and qrels need not be walked again.
    whole = not failed and len(run.query_ids) == len(runnable)
    unavailable.update(failed)
    report = scored_rankings(
        run,
        qrels,
        measures,
        registry,
        unavailable=unavailable,
        sets=(list(runnable), skipped, []) if whole else None,
        check_doc_ids=check_doc_ids,
        stacklevel=stacklevel + 1,
    )
    return run, report


def scored_rankings(
    run: RankedLists,
    qrels: Mapping[str, Mapping[str, float]],
    measures: Sequence[Measure],
    registry: Registry,
    *,
    unavailable: Mapping[str, str],
    sets: QuerySets | None = None,
    check_doc_ids: bool = True,
    stacklevel: int = 1,
) -> RetrievalEvalReport:
    """A retriever's rankings scored as :func:`evaluate_retrieval` scores them, in the
    retriever's order (the judged queries of ``unavailable`` skipped with its reasons, or
    ``sets``, their :func:`~ef.evaluation._engine.scoring.query_sets` if the caller knows
    them); a warning points ``stacklevel`` frames above this function (1: its caller)."""
    # The queries and their judged docs' ranks, once, for the check and the scores.
    if sets is None:
        sets = query_sets(run, qrels, "qrels", unavailable)
    hits = run.judged_hits(sets[0], [qrels[query_id] for query_id in sets[0]])
    if check_doc_ids:
        met = {sets[0][i] for i in set(hits.query.tolist())}  # any grade, 0 included
        overlap = doc_overlap(run, qrels, sets[0], whole=True, met=met)
        check_doc_overlap(overlap, stacklevel=stacklevel + 1)
    scoring = Scoring(tie_policy="input_order")
    return scored_report(run, qrels, measures, registry, scoring=scoring, sets=sets, hits=hits)


def retrieval_limit(limit: int | None, measures: Sequence[Measure], k_values: Sequence[int]) -> int:
    """How many results to ask for: ``limit``, checked, or the largest cutoff."""
    ks = tuple(dict.fromkeys(m.k for m in measures if m.k is not None))
    if limit is None:  # measures of the whole ranking get max(k_values) results
        return max(ks or check_k_values(k_values))
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive int or None, got {limit!r}")
    return limit


def runnable_queries(
    qrels: Mapping[str, Mapping[str, float]], queries: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The text of each judged query to retrieve for; why each query with a positive
    judgement but no text is not scored; and why each judged query that is not retrieved
    for is skipped, in qrels' order, as :func:`~ef.evaluation._engine.scoring.query_sets`
    gives it.

    >>> runnable_queries({"q1": {"d1": 1}, "q2": {"d1": 0}, "q3": {"d2": 2}}, {"q1": "red"})
    ({'q1': 'red'}, {'q3': 'no query text in queries'}, \
{'q2': 'no positive judgement', 'q3': 'no query text in queries'})
    """
    runnable: dict[str, str] = {}
    unavailable: dict[str, str] = {}
    skipped: dict[str, str] = {}
    for query_id, judged in qrels.items():
        if not relevant(judged):  # the engine skips it (grades are finite numbers)
            skipped[query_id] = NO_POSITIVE
        elif query_id not in queries:
            unavailable[query_id] = skipped[query_id] = "no query text in queries"
        else:
            runnable[query_id] = queries[query_id]
    if unavailable and not runnable:  # every judged query lacks a text: ids spelled otherwise?
        raise ValueError(_no_text_message(list(unavailable), queries))
    return runnable, unavailable, skipped


def retrieved(
    retriever: Any,
    queries: Mapping[str, str],
    *,
    ignore_identical_ids: bool,
    **options: Any,
) -> tuple[RankedLists, dict[str, str]]:
    """The rankings :func:`~ef.evaluation.retrieve` gives ``queries`` (``options`` are its
    own), and the reason each query whose retriever call raised is skipped."""
    retrieval = retrieve(retriever, queries, **options)
    run = RankedLists(retrieval.rankings, checked=True)
    skipped = {q: f"retriever raised: {failure}" for q, failure in retrieval.failures.items()}
    return (run.without_identical_ids() if ignore_identical_ids else run), skipped


def _no_text_message(judged: list[str], queries: Mapping[str, str]) -> str:
    message = (
        f"no judged query has a text in queries: qrels has {len(judged)} judged queries "
        f"{shown_ids(judged)}, queries has {len(queries)} {shown_ids(queries)}"
    )
    cause = no_overlap_cause(list(queries), judged, ("queries", "qrels"))
    return with_cause(message, cause) + ". Nothing was retrieved: are they of the same collection?"
