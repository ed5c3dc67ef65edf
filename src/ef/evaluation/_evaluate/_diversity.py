"""Runs scored against subtopic qrels: the diversity measures, as ndeval gives them, and the
ordinary ones on each doc's largest grade, in one report.

:func:`subtopic_qrels_of` tells whether :func:`~ef.evaluation.evaluate_run` was given subtopic
qrels (a :class:`SubtopicQrels`, ``{qid: {subtopic: {doc: grade}}}``, a file named
``qrels_format="subtopics"``, or a file detected as such because diversity measures are asked
for); :func:`subtopic_report` scores the run so. :func:`evaluate_diversity` is that path with
diversity measures only, ndeval's by default.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import attrs

from .._engine._diversity import (
    DEFAULT_DIVERSITY_K_VALUES,
    DEFAULT_DIVERSITY_METRICS,
    DiversitySpec,
    diversity_entry,
    is_diversity_spec,
    parse_diversity_measures,
    score_diversity,
)
from .._engine.measures import check_metric_names
from .._engine.options import Scoring
from .._engine.query_values import QueryValues
from .._engine.score_order import score_order
from .._engine.scoring import Measure, evaluation, query_sets, resolve_measures, score_rankings
from .._formats.sources import is_irds, is_url
from .._formats.trec._subtopics import (
    SUBTOPICS,
    SubtopicQrels,
    read_detected_subtopic_qrels,
)
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Progress, phase, reading
from .._reports import RetrievalEvalReport
from ..errors import ArgumentError, Keyword
from ..types import CompareAveraging
from ._subtopic_gate import may_hold_subtopics, nested
from .doc_ids import check_docs_meet
from .inputs import InputFiles, load_inputs
from .report import retrieval_report
from .score_order import check_score_order
from .shard_paths import shards_of

if TYPE_CHECKING:
    import concurrent.futures as cf

    from .._engine.scoring import Evaluation, Scored
    from .._runs.ranked import RankedRun
    from .._runs.table import RunTable
    from ..types import DataFrameLike, Qrels, RunInput

__all__ = [
    "ORDINARY_NOTE",
    "SubtopicInput",
    "evaluate_diversity",
    "subtopic_qrels_of",
    "subtopic_report",
]

#: The report's note when ordinary measures are scored on subtopic qrels.
ORDINARY_NOTE = (
    "Subtopic qrels: the measures that read one grade per doc read its largest grade over "
    "the query's subtopics (trec_eval refuses a doc judged twice; ir_measures keeps the last "
    "line read)."
)

#: Subtopic qrels as evaluate_run takes them: the value, or ``{qid: {subtopic: {doc: grade}}}``.
SubtopicInput = SubtopicQrels | Mapping[str, Mapping[str, Mapping[str, float]]]


def _held(qrels: object) -> SubtopicQrels | None:
    """Subtopic qrels given as a value: a :class:`SubtopicQrels` or a nested mapping."""
    if isinstance(qrels, SubtopicQrels):
        return qrels
    if nested(qrels):
        return SubtopicQrels(qrels)  # type: ignore[arg-type]  # checked by its converter
    return None


def _local_file(qrels: object) -> bool:
    """A local file's path: not a URL and not an ir_datasets id."""
    return isinstance(qrels, (str, os.PathLike)) and not is_url(qrels) and not is_irds(qrels)


def subtopic_qrels_of(
    qrels: object, qrels_format: str | None, metrics: Sequence[str]
) -> SubtopicQrels | None:
    """The subtopic qrels ``qrels`` holds, or None for ordinary qrels (left as they were).

    Subtopic qrels are a :class:`SubtopicQrels`, a ``{qid: {subtopic: {doc: grade}}}``
    mapping, or a file read as such: named ``qrels_format="subtopics"``, or, when
    ``metrics`` name a diversity measure, detected (:func:`~ef.evaluation._formats.trec.
    _subtopics.read_detected_subtopic_qrels` refuses a file it is not sure of, asking for the
    format). Ordinary qrels with a diversity measure are refused: they hold no subtopic.

    >>> subtopic_qrels_of({"q1": {"1": {"d1": 1}}}, None, ["ndcg@10"]).judgements
    {'q1': {'1': {'d1': 1}}}
    >>> subtopic_qrels_of({"q1": {"d1": 1}}, None, ["ndcg@10"]) is None
    True
    """
    held = _held(qrels)
    if held is not None:
        return held
    check_metric_names(metrics)  # not one str, nor 10: said as evaluate_run says it
    if not may_hold_subtopics(qrels, qrels_format, metrics):  # named, or a diversity measure
        return None
    named = qrels_format == SUBTOPICS
    if _local_file(qrels):
        path = Path(qrels)  # type: ignore[arg-type]  # a str or a path: _local_file says so
        return (
            SubtopicQrels.read(path) if named else SubtopicQrels(read_detected_subtopic_qrels(path))
        )
    if named and isinstance(qrels, Mapping):
        return SubtopicQrels(qrels)
    raise ArgumentError(
        Keyword("qrels_format", "subtopics") if named else "a diversity measure",
        " needs subtopic qrels: a SubtopicQrels, {qid: {subtopic: {doc: grade}}} or the path "
        "of a qid subtopic docno grade file (ndeval's); these qrels "
        f"({type(qrels).__name__}) hold one grade per doc and no subtopic",
    )


def _refuse(
    profile: str | None, run: object, executor: object, scoring: Scoring, diverse: bool
) -> None:
    """What subtopic qrels cannot be scored with: a profile, a sharded run, the expected
    tie policy for the diversity measures."""
    if profile is not None:
        raise ArgumentError(
            Keyword("profile", profile),
            " reproduces another tool's ordinary measures; subtopic qrels are scored by "
            "ndeval's rules: give ",
            Keyword("tie_policy", said="tie_policy"),
            " and ",
            Keyword("averaging", said="averaging"),
            " instead (pyndeval, ir_measures' provider, breaks ties by doc id ascending: ",
            Keyword("tie_policy", "docno_asc"),
            ")",
        )
    if executor is not None or shards_of(run) is not None:
        raise ValueError(
            "subtopic qrels score a run read whole: a local run file or a run in memory, not "
            "shards, a glob or a URL (with executor=, for evaluate_shards)"
        )
    if diverse and scoring.tie_policy == "expected":
        raise ArgumentError(
            Keyword("tie_policy", "expected"),
            " averages a measure over the orders of tied docs, which the diversity measures "
            "do not offer: give 'trec_eval', 'docno_asc' or 'input_order'",
        )


def _measures(
    metrics: Sequence[str], k_values: Sequence[int], registry: Registry
) -> tuple[list[Measure], list[DiversitySpec], list[str]]:
    """The ordinary measures and the diversity ones ``metrics`` name, each once, and their
    keys in the order they were named."""
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a list of measure strings, not the str {metrics!r}")
    ordinary: dict[str, Measure] = {}
    diverse: dict[str, DiversitySpec] = {}
    order: dict[str, None] = {}
    for spec in metrics:
        if is_diversity_spec(spec):
            for parsed in parse_diversity_measures([spec], k_values):
                diverse.setdefault(parsed.key, parsed)
                order.setdefault(parsed.key)
        else:
            for measure in resolve_measures([spec], k_values, registry):
                ordinary.setdefault(measure.key, measure)
                order.setdefault(measure.key)
    if not order:
        raise ArgumentError(
            "metrics is empty; name at least one, e.g. ", Keyword("metrics", ("alpha_nDCG@20",))
        )
    return list(ordinary.values()), list(diverse.values()), list(order)


def _queries(
    table: Any, flat: Mapping[str, Mapping[str, float]], averaging: str
) -> tuple[list[str], list[str]]:
    """The queries the diversity measures score and the judged ones the run lacks, as
    ndeval counts them: every judged query, one with no relevant judgement scoring 0 (with
    ``averaging="qrels"``, ``ndeval -c``: one the run lacks scoring 0 too; else only those
    the run answers, ndeval's default)."""
    scored, _, missing = query_sets(table, flat, "all" if averaging == "qrels" else "run")
    return scored, missing


def _mixed_check(ordinary: Sequence[str], diverse: Sequence[str], averaging: str) -> None:
    """The ordinary and diversity measures of one report must score the same queries: they
    differ only on a judged query with no relevant doc (ndeval scores it 0 and counts it,
    trec_eval -c skips it)."""
    if set(ordinary) == set(diverse):
        return
    odd = [q for q in diverse if q not in set(ordinary)]
    raise ArgumentError(
        f"query {odd[0]!r} has no relevant judgement: the diversity measures score it 0 and "
        "count it (as ndeval), the ordinary measures skip it under ",
        Keyword("averaging", averaging),
        f" (as trec_eval -c), so one report cannot hold both ({len(odd)} such queries). Give ",
        Keyword("averaging", "run"),
        " (every judged query the run answers, for both: ndeval's and trec_eval's own "
        "default), or score the two kinds in two calls",
    )


def subtopic_report(
    run: object,
    judged: SubtopicQrels,
    metrics: Sequence[str],
    k_values: Sequence[int],
    *,
    registry: Registry,
    scoring: Scoring,
    files: InputFiles,
    inputs: Mapping[str, object],
    profile: str | None = None,
    executor: cf.Executor | None = None,
    progress: Progress = False,
) -> RetrievalEvalReport:
    """``run`` scored against subtopic qrels, as :func:`~ef.evaluation.evaluate_run` scores
    it: the diversity measures over ndeval's queries, the ordinary ones over the largest
    grade of each doc (:meth:`SubtopicQrels.max_grades`) by evaluate_run's rules, the run
    read and checked as evaluate_run reads and checks it, against those grades."""
    ordinary, diverse, order = _measures(metrics, k_values, registry)
    _refuse(profile, run, executor, scoring, bool(diverse))
    flat = judged.max_grades()
    path = isinstance(run, (str, os.PathLike))
    with reading(run, progress) if path else contextlib.nullcontext():  # type: ignore[arg-type]
        table, _ = load_inputs(
            run,  # type: ignore[arg-type]  # checked by load_inputs
            flat,
            registry,
            InputFiles(files.run_format, files.run_columns),
            check_swapped=scoring.check_swapped,
            averaging=scoring.averaging,
            stacklevel=5,  # a frame deeper than evaluate_run's: its caller
        )
    if scoring.check_doc_ids:
        refuse = scoring.check_doc_ids is True
        check_docs_meet(table, flat, scoring.averaging, stacklevel=3, refuse=refuse)
    named = f"the run {run}" if path else "the run"
    check_score_order(score_order(table), stacklevel=3, name=named)
    if scoring.ignore_identical_ids:
        table = table.without_identical_ids()
    query_ids, missing = _queries(table, flat, scoring.averaging)
    scored, query_ids, values = _scores(
        table, judged, flat, (ordinary, diverse), query_ids, registry, scoring, progress
    )
    base = evaluation(registry, table, flat, ordinary, scored, inputs=inputs, **scoring.rules())
    return retrieval_report(
        _with_diversity(base, (ordinary, diverse), order, query_ids, values, scored, missing)
    )


def _scores(  # noqa: PLR0917 - private: subtopic_report's values, in its order
    table: RankedRun,
    judged: SubtopicQrels,
    flat: Qrels,
    measures: tuple[list[Measure], list[DiversitySpec]],
    query_ids: list[str],
    registry: Registry,
    scoring: Scoring,
    progress: Progress,
) -> tuple[Scored, list[str], dict[str, dict[str, float]]]:
    """The ordinary measures scored by evaluate_run's rules on the largest grades, the
    diversity ones by ndeval's on the subtopics; the queries, in the order they scored."""
    ordinary, diverse = measures
    cutoffs = sorted({m.k for m in ordinary if m.k is not None} | {s.k for s in diverse if s.k})
    with phase(progress, "scoring", len(ordinary) + len(diverse)) as step:
        scored = score_rankings(
            table,
            flat,
            ordinary,
            cutoffs=cutoffs,
            registry=registry,
            progress=step,
            **scoring.rules(),
        )
        if ordinary and diverse:
            _mixed_check(list(scored.per_query), query_ids, scoring.averaging)
        if ordinary:
            query_ids = list(scored.per_query)  # the same queries: in the order they scored
        rankings = {
            q: table.ranking(q, scoring.tie_policy) if q in table else [] for q in query_ids
        }
        values = score_diversity(rankings, judged.judgements, diverse)
        step.advance(len(diverse))
    return scored, query_ids, values


def _with_diversity(  # noqa: PLR0917 - private: subtopic_report's values, in its order
    base: Evaluation,
    measures: tuple[list[Measure], list[DiversitySpec]],
    order: Sequence[str],
    query_ids: list[str],
    values: Mapping[str, Mapping[str, float]],
    scored: Scored,
    missing: Any,
) -> Evaluation:
    """``base`` (the ordinary measures' evaluation) with the diversity measures' values,
    means and manifest entries, in the order the metrics were asked for."""
    ordinary, diverse = measures
    ordinary_keys = {m.key for m in ordinary}
    columns = {
        key: [(scored.per_query if key in ordinary_keys else values)[q][key] for q in query_ids]
        for key in order
    }
    means = {**base.metrics, **{s.key: _mean(columns[s.key]) for s in diverse}}
    skipped, missing = (base.skipped, base.missing) if ordinary else ({}, missing)
    return attrs.evolve(
        base,
        metrics={key: means[key] for key in order},
        per_query=QueryValues(query_ids, columns),
        k_values=tuple(sorted(set(base.k_values) | {s.k for s in diverse if s.k})),
        skipped=skipped,
        missing=missing,
        manifest=_manifest(base.manifest, order, diverse, with_ordinary=bool(ordinary)),
    )


def _manifest(
    given: Mapping[str, Any],
    order: Sequence[str],
    diverse: Sequence[DiversitySpec],
    *,
    with_ordinary: bool,
) -> dict[str, Any]:
    """The ordinary measures' manifest with the diversity measures' entries, in the order
    asked for, the qrels' format, and the note on the grades the ordinary ones read."""
    manifest = dict(given)
    entries = {e["key"]: e for e in manifest["metrics"]}
    entries.update({s.key: diversity_entry(s) for s in diverse})
    manifest["metrics"] = [entries[key] for key in order]
    manifest["qrels_format"] = SUBTOPICS
    if with_ordinary:
        manifest["notes"] = [ORDINARY_NOTE]
    return manifest


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def evaluate_diversity(
    run: RunInput | RunTable | DataFrameLike | str | os.PathLike[str],
    subtopic_qrels: SubtopicInput | str | os.PathLike[str],
    *,
    metrics: Sequence[str] = DEFAULT_DIVERSITY_METRICS,
    k_values: Sequence[int] = DEFAULT_DIVERSITY_K_VALUES,
    averaging: CompareAveraging = "qrels",
    run_format: str | None = None,
    registry: Registry | None = None,
) -> RetrievalEvalReport:
    """Score a run with the diversity measures (alpha-nDCG, ERR-IA, NRBP, P-IA, AP-IA,
    S-recall, ...) against subtopic qrels, with the numbers TREC's ndeval gives:
    :func:`evaluate_run` with diversity measures only, ndeval's by default.

    The run is ranked as :func:`evaluate_run` ranks it (score descending as float32, ties by
    doc id descending: ndeval's ``-traditional`` order); a ranked list is used as given.
    Measures are named in our syntax (``alpha_ndcg@20``), ir_measures' (``alpha_nDCG@20``,
    ``ERR_IA@20``, ``NRBP``, ``P_IA@20``, ``AP_IA``, ``StRecall@20``) or ndeval's
    (``alpha-nDCG@20``, ``MAP-IA``, ``strec@20``); parameters ``alpha`` and ``beta``
    (ndeval's 0.5 and 0.5) and ``rel`` go in brackets: ``alpha_ndcg(alpha=0.3)@20``. A
    bare name with a cutoff is every cutoff of ``k_values`` (ndeval's 5, 10 and 20).

    A judged query with no relevant judgement scores 0.0 and counts in the mean, as in
    ndeval. ``averaging="qrels"`` (the default, ``ndeval -c``) means over every judged
    query, one the run does not answer scoring 0.0; ``"intersection"`` (ndeval's own
    default) means over the judged queries the run answers. The report's ``missing`` and
    ``extra`` list the judged queries the run lacks and the run's unjudged ones. The run is
    checked as :func:`evaluate_run` checks it (a query in common, doc ids that meet the
    judged ones).

    Args:
        run: ``{query_id: {doc_id: score}}``, ``{query_id: [doc_id, ...]}``, a DataFrame or
            a run file's path, as for :func:`evaluate_run`.
        subtopic_qrels: a :class:`SubtopicQrels`, ``{query_id: {subtopic: {doc_id: grade}}}``
            or the path of a ``qid subtopic docno grade`` file.
        metrics: the diversity measure strings.
        k_values: the cutoffs of a bare name.
        averaging: ``"qrels"`` or ``"intersection"``.
        run_format: the run file's format, if not detected.
        registry: the plugins that read the run; ``None`` is the default registry.

    >>> qrels = {"q1": {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}}
    >>> report = evaluate_diversity({"q1": ["c", "a"]}, qrels, metrics=["alpha_nDCG@2", "NRBP"])
    >>> report.metrics
    {'alpha_ndcg@2': 0.7043638493171503, 'nrbp': 0.5625}
    """
    if averaging not in get_args(CompareAveraging):
        raise ValueError(f"averaging must be 'qrels' or 'intersection', got {averaging!r}")
    parse_diversity_measures(metrics, k_values)  # diversity measures only: an error says so
    if isinstance(subtopic_qrels, (str, os.PathLike)):
        judged = SubtopicQrels.read(subtopic_qrels)
    else:
        judged = subtopic_qrels_of(subtopic_qrels, SUBTOPICS, metrics)  # type: ignore[assignment]
    return subtopic_report(
        run,
        judged,
        metrics,
        k_values,
        registry=registry_or_default(registry),
        scoring=Scoring.given(None, averaging, None),
        files=InputFiles(run_format),
        inputs={"run": run, "qrels": subtopic_qrels},
    )
