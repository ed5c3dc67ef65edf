"""evaluate_run(): score a stored run against qrels, with trec_eval's numbers."""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, cast

from .._engine.batch_sizes import large_enough
from .._engine.doc_overlap import doc_overlap
from .._engine.measures import AVERAGING, DEFAULT_K_VALUES, DEFAULT_METRICS
from .._engine.options import Scoring
from .._engine.score_order import score_order
from .._engine.scoring import QuerySets, evaluation, query_sets, resolve_measures, score_rankings
from .._formats.sources import is_irds, is_url, url_glob
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Progress, check_progress, phase, reading
from .._reports.retrieval import RetrievalEvalReport
from .._runs.ranked import RankedLists
from ..errors import ProfileRefused
from ._subtopic_gate import may_hold_subtopics
from .doc_ids import check_doc_overlap, check_docs_meet
from .inputs import InputFiles, check_overlap, load_inputs, load_qrels, load_run
from .pools import check_start_method
from .ranx_bpref import warn_ranx_bpref
from .report import retrieval_report
from .score_order import check_score_order
from .shard_paths import shards_of
from .shards import check_executor

if TYPE_CHECKING:
    import concurrent.futures as cf
    from pathlib import Path

    from .._engine.scoring import Measure
    from .._hits import JudgedHits
    from .._runs.ranked import RankedRun
    from .._runs.table import RunTable
    from .._store import Store
    from ..types import Averaging, DataFrameLike, ProfileName, Qrels, RunInput, TiePolicy
    from ._diversity import SubtopicInput

__all__ = [
    "AVERAGING",
    "empty_run_report",
    "evaluate_retrieved",
    "evaluate_run",
    "load_qrels",
    "load_run",
    "profile_refusal",
    "scored_report",
]


def evaluate_run(
    run: RunInput
    | RunTable
    | DataFrameLike
    | str
    | os.PathLike[str]
    | list[str]
    | list[Path]
    | list[str | os.PathLike[str]],
    qrels: Qrels | SubtopicInput | DataFrameLike | str | os.PathLike[str],
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    metrics: Sequence[str] = DEFAULT_METRICS,
    averaging: Averaging | None = None,
    registry: Registry | None = None,
    ignore_identical_ids: bool | None = None,
    tie_policy: TiePolicy | None = None,
    profile: ProfileName | None = None,
    run_format: str | None = None,
    qrels_format: str | None = None,
    run_columns: Sequence[str] | None = None,
    qrels_columns: Sequence[str] | None = None,
    check_swapped: bool = True,
    check_doc_ids: bool | Literal["warn"] = True,
    progress: Progress = False,
    executor: cf.Executor | None = None,
    record: bool = False,
    system: str | None = None,
    dataset: str | None = None,
    tags: Sequence[str] = (),
    store: Store | str | os.PathLike[str] | None = None,
) -> RetrievalEvalReport:
    """Score a stored run against qrels, with the numbers trec_eval gives.

    Docs of a scored run are ranked by trec_eval's rule: score descending (compared as
    float32, as trec_eval stores them), ties broken by doc id descending; a file's rank column
    is ignored. Queries are averaged per the design (DESIGN §4): a judged query with no
    positive grade is skipped; with ``averaging="qrels"`` a judged query the run does not
    answer scores 0 (as ``trec_eval -c``); ``averaging="intersection"`` scores only the
    queries in both. ``averaging="run"`` scores every query of the run that qrels judges,
    even one with no positive grade (it scores 0 on the relevance metrics), and nothing else:
    trec_eval's own averaging without ``-c``, and ranx's and pytrec_eval's. The report lists
    the ``missing`` queries (judged, not in the run), the ``extra`` ones (in the run, not
    judged: never scored, as trec_eval and ranx ignore them) and the ``skipped`` ones with
    the reason.

    Inputs that are probably a mistake stop before anything is scored (see "Mistakes that
    stop an evaluation" in the docs): a run that shares no judged query with ``qrels``, run
    and qrels swapped (``check_swapped``), a grade that is no finite number, doc ids that
    do not meet the qrels' (no scored query has a judged doc in its ranking, or a tenth of
    them would only once the ids are respelt: ``cacm-1938`` against ``CACM-1938``). A run
    that answers fewer than half of the judged queries, a run and qrels that may be swapped,
    or a run where fewer than half of the scored queries have a judged doc (of any grade)
    anywhere in their ranking, is scored with an :class:`~ef.evaluation.InputWarning`. A run
    read in batches or shards is checked the same way, before its report is made.

    A bare ``"map"`` is ``map`` at every cutoff of ``k_values``; trec_eval's ``map`` (the
    whole ranking) is ``"map@all"``, or ``"AP"`` in ir_measures' syntax.

    Diversity measures (``alpha_nDCG@20``, ``ERR_IA@20``, ``NRBP``, ``P_IA@10``, ``AP_IA``,
    ``StRecall@20``: docs/metrics.md) need subtopic qrels: a
    :class:`~ef.evaluation.SubtopicQrels`, ``{qid: {subtopic: {doc: grade}}}``, or a
    ``qid subtopic docno grade`` file, named by ``qrels_format="subtopics"`` or detected when a
    diversity measure is asked for (a doc judged for two subtopics of a query; a file it is
    not sure of is refused, asking for the format). Their numbers are ndeval's: a judged
    query with no relevant doc scores 0 and counts. Ordinary measures on subtopic qrels read
    each doc's largest grade over the query's subtopics, as the report's note says. A profile
    or a sharded run is refused with them.

    Args:
        run: ``{query_id: {doc_id: score}}``, ``{query_id: [doc_id, ...]}`` (ranked), a
            pandas or polars DataFrame (one row per doc: ranx's ``q_id, doc_id, score``
            columns, or ir_measures' ``query_id, doc_id, score``), the path of a run file
            (TREC, MS MARCO or Parquet, detected) or an fsspec URL of one
            (``"s3://bucket/run.trec"``, copied to a local temporary file where it is
            scored; needs ``pip install "ef-evaluation[remote]"`` and the protocol's package),
            or a :class:`~ef.evaluation.RunTable` read before (``RunTable.read``,
            ``from_dict``, ``from_frame``, ``from_parquet``). A run held as many files is
            :func:`~ef.evaluation.evaluate_shards`'s: a list or a glob of run files is still
            accepted here for one release, with a ``DeprecationWarning``, and gives the
            same numbers.
        qrels: ``{query_id: {doc_id: relevance}}``, a DataFrame (``q_id, doc_id, score``,
            or ir_measures' ``query_id, doc_id, relevance``), or the path of a qrels file
            (TREC, Parquet) or BEIR directory; or subtopic qrels (see above).
        k_values: the cutoffs of every metric named without one.
        metrics: measure strings: ``"ndcg"`` (at every cutoff), ``"ndcg@10"``,
            ``"precision(rel=2)@5"``, or the same in ir_measures' or trec_eval's syntax
            (``"nDCG@10"``, ``"ndcg_cut.10"``); see ``ef.evaluation._engine.measures``.
        averaging: ``"qrels"`` (the default), ``"intersection"`` or ``"run"``.
        registry: the plugins to use; ``None`` is the default registry.
        ignore_identical_ids: drop a doc whose id is its query's id from the run before
            ranking (BEIR's ``ignore_identical_ids``, for corpora that contain the queries).
            Off by default; on under ``profile="beir"``.
        tie_policy: how docs with equal scores are ordered, for every metric alike:
            ``"trec_eval"`` (the default: doc id descending), ``"docno_asc"``,
            ``"input_order"`` (the order the file or mapping lists them) or ``"expected"``
            (each metric averaged over every order of the tied docs); see
            ``ef.evaluation._engine.ties``. The report's ``ties`` says which queries have ties
            across a cutoff or at a relevant doc.
        profile: reproduce another tool's numbers on the same inputs: ``"trec_eval"``
            (and pytrec_eval), ``"beir"`` (``EvaluateRetrieval``), ``"mteb"``,
            ``"ir_measures"`` or ``"ranx"``;
            see ``ef.evaluation._engine.profiles``. A profile sets the tie policy and averaging,
            so neither may be given with it.
        run_format: the format of a run given as a path (``"trec"``, ``"msmarco"`` or a
            plugin's); ``None`` detects it.
        qrels_format: the same for qrels given as a path; ``"subtopics"`` for subtopic
            qrels.
        run_columns: the ``(query, doc, score)`` columns of a run given as a DataFrame or
            Parquet file, when they are not one of the known sets (see
            ``ef.evaluation._formats.frames``).
        qrels_columns: the ``(query, doc, grade)`` columns of qrels given so.
        check_swapped: look for a run and qrels given the wrong way round, as mappings, a
            RunTable or tables (files of lines are told apart by their readers), from every
            signal of shape: the values (grades are a few small whole numbers; scores are mostly
            fractions, many whole numbers as ranks are, or below -2), the docs per query,
            which side holds the other's docs and, for mappings, ints against floats
            (``ef.evaluation._evaluate.swapped``). Refused when the signals agree; scored
            with an :class:`~ef.evaluation.InputWarning` when they are mixed. ``False``
            scores them as given, e.g. qrels with fractional grades.
        check_doc_ids: refuse a run whose docs do not meet the judged docs of its scored
            queries, naming the likely cause (case, a prefix or suffix, leading zeros,
            whitespace, an int against a str), and warn if fewer than half of those queries
            have a judged doc in their ranking (``doc_ids``).
            ``False`` scores the doc ids as they are; ``"warn"`` scores them as they are
            with an :class:`~ef.evaluation.InputWarning` in place of a refusal (as the
            compat shims do, whose tools score such docs 0).
        progress: ``True`` shows progress bars on stderr once a phase has run for a second
            (``ef.evaluation._progress``); a callable gets ``progress(done, total)`` for
            each phase: reading the run file, in bytes (only for a run given as a path; the
            bytes read so far where the reader reads line by line, else all at the end),
            then scoring, in measures. Each phase starts at ``(0, total)`` and ends at
            ``(total, total)``. A sharded run has one phase, in shards.
        executor: deprecated: an executor is :func:`~ef.evaluation.evaluate_shards`'s
            (accepted here for one release for a list or glob of run files, with a
            ``DeprecationWarning``; a fork-started process pool is refused).
        record: write the report to the store of evaluations (``store``), as a record of
            ``system`` on ``dataset`` with ``tags``; nothing is recorded otherwise.
        system: the system's name in the store; by default the run file's stem
            (``_runs/bm25.trec`` is ``bm25``). A run held in memory must be named.
        dataset: the dataset's name in the store; by default the ir_datasets id, the BEIR
            directory or the qrels file's name (see :doc:`/experiments`). Qrels held in
            memory must be named.
        tags: free labels kept with the record.
        store: where to record: a store's URL (``sqlite:///path``, a file path,
            ``postgresql://...``), an open store, or None for ``EF_EVALUATION_STORE``, else
            the default SQLite file.

    Raises:
        TypeError: for a run or qrels of another shape (a list of tuples, a polars
            LazyFrame); the message lists the accepted ones.
        ValueError: (an ``ArgumentError``) with ``record=True``, for a run or qrels held in
            memory and not named with ``system=`` or ``dataset=``; checked before scoring.
        ValueError: for an unknown metric, a bad cutoff, a NaN score, a grade that is no
            finite number (naming the query and doc), a ranked list that names a doc
            twice (naming the query and doc), an unknown ``averaging`` or
            ``progress``, run and
            qrels that look swapped, no judged query in the run, doc ids that do not meet
            the qrels', if no query can be scored, and, for the deprecated sharded run, as
            :func:`~ef.evaluation.evaluate_shards`.
        DatasetFormatError: (a ``ValueError``) for bad input files, naming the file and line,
            and for a DataFrame whose columns cannot be told or that holds a bad value
            (a null, a score that is no number, a doc twice for a query), naming the column
            and the row.

    >>> run = {"q1": {"d1": 1.2, "d2": 0.4}, "q2": {"d3": 0.9}}
    >>> qrels = {"q1": {"d2": 1}, "q2": {"d3": 1}, "q3": {"d9": 1}}
    >>> report = evaluate_run(run, qrels, k_values=(1, 10), metrics=("recall", "mrr@10"))
    >>> report.metrics
    {'recall@1': 0.3333333333333333, 'recall@10': 0.6666666666666666, 'mrr@10': 0.5}
    >>> report.missing, report.n_queries
    (('q3',), 3)
    >>> evaluate_run(run, qrels, metrics=("mrr@10",), averaging="intersection").metrics
    {'mrr@10': 0.75}
    >>> evaluate_run(run, qrels, metrics=("P(rel=1)@1", "recip_rank", "num_ret")).metrics
    {'precision(rel=1)@1': 0.3333333333333333, 'mrr@all': 0.5, 'num_ret': 3.0}

    Ties: d1 and d2 score the same, and only d1 is relevant.

    >>> tied = {"q1": {"d1": 0.5, "d2": 0.5}}
    >>> [evaluate_run(tied, {"q1": {"d1": 1}}, metrics=("mrr@1",), tie_policy=p).metrics
    ...  for p in ("trec_eval", "docno_asc", "expected")]
    [{'mrr@1': 0.0}, {'mrr@1': 1.0}, {'mrr@1': 0.5}]
    >>> print(evaluate_run(tied, {"q1": {"d1": 1}}, metrics=("mrr@1",)).ties)
    ties (trec_eval): 1 queries with tied scores, 1 across a cutoff, 1 at a relevant doc

    Subtopic qrels: d2 covers both intents of q1, d1 one of them.

    >>> intents = {"q1": {"1": {"d1": 1, "d2": 1}, "2": {"d2": 2}}, "q2": {"1": {"d3": 1}}}
    >>> evaluate_run(run, intents, metrics=("alpha_nDCG@2", "StRecall@1", "ndcg@2")).metrics
    {'alpha_ndcg@2': 0.9203032077642921, 'subtopic_recall@1': 0.75, 'ndcg@2': 0.9298593499260985}

    Mistakes stop it:

    >>> evaluate_run({"Q1": {"d1": 0.5}}, {"1": {"d1": 1}})
    Traceback (most recent call last):
        ...
    ValueError: no query can be scored, no query in common between the run and qrels: the run \
has 1 queries ('Q1'), qrels has 1 judged queries ('1'); likely cause: every run id starts with \
'Q', which qrels' ids lack. Nothing was scored: is it a run of another collection?
    >>> evaluate_run({"q1": {"cacm-1938": 0.5}}, {"q1": {"CACM-1938": 1}})
    Traceback (most recent call last):
        ...
    ValueError: no scored query retrieves a judged doc: none of the 1 queries of the run that \
qrels judges has a judged doc anywhere in its ranking, so each would score 0. Query 'q1' \
retrieves ('cacm-1938'), qrels judges ('CACM-1938'); likely cause: the ids differ in case \
('cacm-1938' and 'CACM-1938'). Nothing was scored: spell the run's doc ids as the qrels' do, \
or pass check_doc_ids=False (ef-eval evaluate --no-check-doc-ids) to score them as they are
    """
    # Each step is called from this frame: the warnings' stacklevels count on it.
    recording = _recording(
        run, qrels, record=record, system=system, dataset=dataset, tags=tags, store=store
    )
    check_progress(progress)
    plugins = registry_or_default(registry)  # registry itself: only one given goes to workers
    # The diversity path (and the TREC readers of its files) loads only for what may be
    # subtopic qrels.
    subtopics = None
    if may_hold_subtopics(qrels, qrels_format, metrics, plugins):
        from ._diversity import subtopic_qrels_of

        subtopics = subtopic_qrels_of(qrels, qrels_format, metrics)
    if subtopics is not None:  # diversity qrels: ndeval's measures, the others on max grades
        from ._diversity import subtopic_report

        report = subtopic_report(
            run,
            subtopics,
            metrics,
            k_values,
            registry=plugins,
            scoring=Scoring.given(
                tie_policy, averaging, ignore_identical_ids, check_swapped, check_doc_ids
            ),
            files=InputFiles(run_format, run_columns),
            inputs={"run": run, "qrels": qrels},
            profile=profile,
            executor=executor,
            progress=progress,
        )
        return recording(report)
    qrels = cast("Qrels | DataFrameLike | str | os.PathLike[str]", qrels)  # one grade a doc
    measures = resolve_measures(metrics, k_values, plugins)
    inputs = {"run": run, "qrels": qrels}  # the paths among them go into the manifest
    qrels, measures, metrics = _levelled(qrels, measures, metrics)  # an irds id's level
    shards = _shards(run, executor)
    scoring = _scoring(
        profile, shards, tie_policy, averaging, ignore_identical_ids, check_swapped, check_doc_ids
    )
    files = InputFiles(run_format, run_columns, qrels_format, qrels_columns)
    # The one place the kinds of run are told apart: shards, a path, a value held in memory.
    if shards is not None:  # each shard read and scored where it runs, as evaluate_shards does
        from .sharded import sharded_report  # the batch engine: for a sharded run only

        _warn_if_sharded(run, executor)
        return recording(
            sharded_report(
                shards, qrels, metrics, k_values, registry, scoring, files, executor, progress
            )
        )
    if isinstance(run, (str, os.PathLike)) and profile is None and large_enough(run):
        from .streamed import streamed_evaluation  # the batch engine: for a large file only

        streamed = streamed_evaluation(  # a batch of queries at a time
            run,
            qrels,
            measures,
            plugins,
            files=files,
            scoring=scoring,
            inputs=inputs,
            progress=progress,
        )
        if streamed is not None:
            return recording(retrieval_report(streamed))
    whole = (run, qrels, measures, plugins, files, scoring, inputs, profile, ignore_identical_ids)
    return recording(_read_whole(*whole, progress=progress))  # type: ignore[arg-type]


def _recording(
    run: object,
    qrels: object,
    *,
    record: bool,
    system: str | None,
    dataset: str | None,
    tags: Sequence[str],
    store: Store | str | os.PathLike[str] | None,
) -> Callable[[RetrievalEvalReport], RetrievalEvalReport]:
    """What ``evaluate_run`` does with its report: records it if asked (the names are
    checked here, before any scoring), and returns it."""
    if not record:
        return _kept
    from .._store.recording import record_evaluation, recorded_names  # a store: when asked for

    names = recorded_names(system, dataset, run, qrels)

    def recorded(report: RetrievalEvalReport) -> RetrievalEvalReport:
        record_evaluation(report, system=names[0], dataset=names[1], tags=tags, store=store)
        return report

    return recorded


def _kept(report: RetrievalEvalReport) -> RetrievalEvalReport:
    return report


def _levelled(
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    measures: list[Measure],
    metrics: Sequence[str],
) -> tuple[Qrels | DataFrameLike | str | os.PathLike[str], list[Measure], Sequence[str]]:
    """An ``irds:`` id's qrels read, with the dataset's relevance level applied to the binary
    measures (and the metric strings that say so, for the shards); other qrels as given."""
    if not is_irds(qrels):
        return qrels, measures, metrics
    from .irds_level import irds_judgements  # ir_datasets' reader: for its ids only

    judged, levelled = irds_judgements(qrels, measures)
    return judged, levelled, [m.key for m in levelled]


def _read_whole(  # noqa: PLR0917 - private: evaluate_run's values, in its order
    run: RunInput | RunTable | RankedRun | DataFrameLike | str | os.PathLike[str],
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    measures: Sequence[Measure],
    plugins: Registry,
    files: InputFiles,
    scoring: Scoring,
    inputs: Mapping[str, object],
    profile: ProfileName | None,
    ignore_identical_ids: bool | None,
    *,
    progress: Progress,
) -> RetrievalEvalReport:
    """The report of a run read whole (a file not read in batches, or a value held in
    memory): read, checked, and scored by ``scoring`` or, under ``profile``, by its tool's
    rules. Its warnings point at evaluate_run's caller, two frames up."""
    path = isinstance(run, (str, os.PathLike))
    with reading(run, progress) if path else contextlib.nullcontext():  # type: ignore[arg-type]
        table, judged = load_inputs(
            run,
            qrels,
            plugins,
            files,
            check_swapped=scoring.check_swapped,
            averaging=scoring.averaging,  # under a profile: "qrels", every judged query counts
            stacklevel=5,  # load_inputs' check, load_inputs, this, evaluate_run: its caller
        )
    _check_read(f"the run {run}" if path else "the run", table, judged, scoring)
    if profile is not None:  # the profile's tool's rules, on the run read whole
        return _profile_report(
            profile, table, judged, measures, plugins, inputs, ignore_identical_ids, progress
        )
    if scoring.ignore_identical_ids:
        table = table.without_identical_ids()
    return scored_report(
        table, judged, measures, plugins, scoring=scoring, inputs=inputs, progress=progress
    )


def _shards(run: object, executor: cf.Executor | None) -> list[str] | None:
    """The shards of a sharded ``run`` (None for a run of one part), once ``executor`` is
    known to be one that may be used, for such a run only."""
    check_start_method(executor)  # first: a forked worker can hang, whatever the run
    shards = shards_of(run)
    check_executor(executor)
    if executor is not None and shards is None:
        raise ValueError("executor= is for a sharded run: a list of run files or a glob")
    return shards


def _scoring(  # noqa: PLR0917 - private: evaluate_run's keywords, in its order
    profile: ProfileName | None,
    shards: Sequence[str] | None,
    tie_policy: TiePolicy | None,
    averaging: Averaging | None,
    ignore_identical_ids: bool | None,
    check_swapped: bool,
    check_doc_ids: bool | Literal["warn"],
) -> Scoring:
    """The rules the run is read and scored by, once ``profile`` (if any) accepts the run."""
    if profile is not None:
        rules_given = tie_policy is not None or averaging is not None
        refusal = profile_refusal(profile, shards, rules_given=rules_given)
        if refusal is not None:
            raise refusal
    # Under a profile, tie_policy and averaging are unset (refused above): the inputs are
    # read under trec_eval's and "qrels", and the profile scores by its own, rule by rule.
    return Scoring.given(tie_policy, averaging, ignore_identical_ids, check_swapped, check_doc_ids)


def _warn_if_sharded(run: object, executor: cf.Executor | None) -> None:
    """A DeprecationWarning, at evaluate_run's caller, for a list or glob of run files or an
    executor: a sharded run is evaluate_shards'. One URL is a run of one file, scored as a
    shard (where it is copied), with no warning."""
    if executor is None and is_url(run) and not url_glob(run):
        return
    given = "executor=" if executor is not None else "a list or glob of run files"
    warnings.warn(
        f"evaluate_run() with {given} is deprecated and will be removed in a future release: "
        "call evaluate_shards(paths_or_glob, qrels, executor=..., ...) instead, which gives "
        "the same numbers",
        DeprecationWarning,
        stacklevel=3,  # this function, evaluate_run, its caller
    )


def _check_read(named: str, table: RankedRun, judged: Qrels, scoring: Scoring) -> None:
    """The checks of the run read whole (``named`` in a warning), before it is scored: its doc
    ids against the qrels', and whether it lists its docs by rising score. A warning points at
    evaluate_run's caller (this function, _read_whole, evaluate_run: its caller)."""
    if scoring.check_doc_ids:
        refuse = scoring.check_doc_ids is True
        check_docs_meet(table, judged, scoring.averaging, stacklevel=4, refuse=refuse)
    check_score_order(score_order(table), stacklevel=4, name=named)  # a file's or table's order


def _profile_report(  # noqa: PLR0917 - private: evaluate_run's values, in its order
    profile: ProfileName,
    table: RankedRun,
    judged: Qrels,
    measures: Sequence[Measure],
    registry: Registry,
    inputs: Mapping[str, object],
    ignore_identical_ids: bool | None,
    progress: Progress,
) -> RetrievalEvalReport:
    """The report of ``profile``'s tool on the run read whole: its rules, rule by rule."""
    from .._engine.profiles import evaluate_with_profile  # with a profile only

    if profile == "ranx":
        warn_ranx_bpref(table, judged, measures, stacklevel=4)  # at evaluate_run's caller
    with phase(progress, "scoring", len(measures)) as step:
        return retrieval_report(
            evaluate_with_profile(
                profile,
                table,
                judged,
                measures,
                registry=registry,
                inputs=inputs,
                # As given: the profile decides what None means (on under "beir").
                ignore_identical_ids=ignore_identical_ids,
                progress=step,
            )
        )


def evaluate_retrieved(
    rankings: Mapping[str, Sequence[str]],
    qrels: Qrels,
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    metrics: Sequence[str] = DEFAULT_METRICS,
    registry: Registry | None = None,
) -> RetrievalEvalReport:
    """``evaluate_run(rankings, qrels, k_values=..., metrics=..., registry=...)``'s report
    of the rankings of :func:`~ef.evaluation.retrieve`, without checking them again
    (``ef-eval retrieve`` scores its run so).

    Each list must hold unique doc ids (``retrieve()`` de-duplicates them): they are scored
    as they are. The qrels are checked, and a run sharing too few judged queries, or whose
    docs meet too few judged docs, is refused or warned of, as :func:`evaluate_run` does.

    >>> report = evaluate_retrieved({"q1": ("d2", "d1")}, {"q1": {"d1": 1}}, metrics=("mrr@10",))
    >>> report.metrics, report.manifest["tie_policy"]
    ({'mrr@10': 0.5}, 'trec_eval')
    """
    registry = registry_or_default(registry)
    measures = resolve_measures(metrics, k_values, registry)
    judged = load_qrels(qrels, registry)
    # No shape or swap check: ranked lists of str never look like qrels (check_not_swapped).
    run = RankedLists(rankings, checked=True)
    # stacklevel: a warning points at the caller, as evaluate_run's does.
    check_overlap(run, judged, "qrels", stacklevel=3)
    sets = query_sets(run, judged, "qrels")
    check_doc_overlap(doc_overlap(run, judged, sets[0], whole=True), stacklevel=2)
    return scored_report(run, judged, measures, registry, scoring=Scoring(), sets=sets)


def empty_run_report(
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    metrics: Sequence[str],
    profile: Literal["ir_measures", "ranx"],
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> RetrievalEvalReport:
    """What ``profile``'s tool reports for a run with no query, which
    :func:`evaluate_run` refuses: every judged query is one the run lacks, scored as that
    tool scores such a query (0 in ir_measures, and in ranx with ``make_comparable``). For
    the compat shims, which give their tool's result and say that the run is empty.

    >>> report = empty_run_report({"q1": {"d1": 1}, "q2": {"d2": 1}}, ["AP"], "ir_measures")
    >>> report.metrics, report.missing
    ({'map@all': 0.0}, ('q1', 'q2'))
    """
    from .._engine.profiles import evaluate_with_profile

    registry = registry_or_default(registry)
    measures = resolve_measures(metrics, k_values, registry)
    judged = load_qrels(qrels, registry)
    return retrieval_report(
        evaluate_with_profile(
            profile,
            RankedLists({}, checked=True),
            judged,
            measures,
            registry=registry,
            inputs={"run": {}, "qrels": qrels},
            ignore_identical_ids=None,
        )
    )


def scored_report(
    run: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    registry: Registry,
    *,
    scoring: Scoring,
    sets: QuerySets | None = None,
    hits: JudgedHits | None = None,
    inputs: Mapping[str, object] | None = None,
    progress: Progress = False,
) -> RetrievalEvalReport:
    """Every measure on ``run``, scored as :func:`evaluate_run` scores a checked run by the
    tie policy and averaging of ``scoring`` (on the queries of ``sets`` if given, the
    :func:`~ef.evaluation._engine.scoring.query_sets` its caller worked out already, and
    with ``hits``, their judged hits, if it has them too)."""
    with phase(progress, "scoring", len(measures)) as step:
        scored = score_rankings(
            run,
            qrels,
            measures,
            sets=sets,
            hits=hits,
            registry=registry,
            progress=step,
            **scoring.rules(),
        )
    return retrieval_report(
        evaluation(registry, run, qrels, measures, scored, inputs=inputs, **scoring.rules())
    )


def profile_refusal(
    profile: str, shards: Sequence[str] | None, *, rules_given: bool
) -> ProfileRefused | None:
    """Why ``profile`` refuses to score the run (``shards``, if it is sharded), or None: a
    profile scores one local file or a run in memory, by its tool's rules. ``rules_given``:
    a tie policy or an averaging was given too.

    >>> profile_refusal("beir", ["a.trec", "b.trec"], rules_given=False).reason
    'sharded'
    >>> print(profile_refusal("trec_eval", ["s3://bucket/run.trec"], rules_given=False))
    profile='trec_eval' needs a local run file, not the URL 's3://bucket/run.trec': copy it \
locally first and give its path, or give tie_policy and averaging instead
    >>> profile_refusal("trec_eval", None, rules_given=False) is None
    True
    """
    if shards is None:
        return ProfileRefused(profile, "rules") if rules_given else None
    if len(shards) > 1:
        return ProfileRefused(profile, "sharded")
    (shard,) = shards
    # A URL, or a list of one path, or a glob that matched one file.
    return ProfileRefused(profile, "url" if is_url(shard) else "one_shard", shard)
