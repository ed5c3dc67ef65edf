"""compare(): is system B better than system A? Paired tests over queries, with corrections.

Systems are runs (scored against qrels with :func:`~ef.evaluation.evaluate_run`), retrieval
reports, RAG reports, or pipeline reports. Their per-query (per-sample) values are paired by
id, and each pair of systems is tested on each metric; the p-values of the whole family are
corrected together.
numpy and scipy are imported only when :func:`compare` runs.
"""

from __future__ import annotations

import itertools
import math
import os
import platform
import secrets
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast, get_args

import attrs

from .._engine.manifest import file_entry
from .._engine.measures import check_metric_names
from .._engine.rag_measures import parse_rag_metric
from .._engine.significance import Significance
from .._engine.stats import WILCOXON_ZERO_METHOD, PairedResult
from .._progress import Progress, check_progress, phase
from .._reports import (
    ComparisonReport,
    PairComparison,
    PipelineEvalReport,
    RagEvalReport,
    RetrievalEvalReport,
)
from .._version import __version__
from ..errors import ArgumentError, InputWarning, Keyword
from ..types import CompareAveraging, plain

if TYPE_CHECKING:
    from .._formats.trec._subtopics import SubtopicQrels
    from .._plugin_engine.registry import Registry
    from .._runs.table import RunTable
    from ..types import Correction, DataFrameLike, Qrels, RunInput, SignificanceTest, TiePolicy
    from .inputs import InputFiles

    System = (
        RunInput
        | RunTable
        | DataFrameLike
        | str
        | os.PathLike[str]
        | RetrievalEvalReport
        | RagEvalReport
        | PipelineEvalReport
    )

__all__ = ["ComparisonReport", "PairComparison", "compare"]

_Report = TypeVar("_Report", RetrievalEvalReport, RagEvalReport, PipelineEvalReport)

_RUN_SUFFIXES = (".txt", ".trec", ".run", ".res", ".tsv", ".json", ".jsonl", ".csv", ".parquet")


# --- compare() ------------------------------------------------------------------------


def system_name(item: object, index: int) -> str:
    if isinstance(item, (str, os.PathLike)):
        name = Path(item).name
        name = name.removesuffix(".gz")
        for suffix in _RUN_SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                return name.removesuffix(suffix)
        return name
    own = getattr(item, "name", None)  # a named run value: a fused run, a named RunTable
    if isinstance(own, str) and own:
        return own
    return f"system-{index + 1}"


def _named(systems: Mapping[str, System] | Sequence[System]) -> dict[str, System]:
    if isinstance(systems, (str, os.PathLike)):
        raise TypeError("systems must be a mapping of name to system, or a sequence of systems")
    if isinstance(systems, Mapping):
        named = {str(name): item for name, item in systems.items()}
    else:
        items = list(systems)
        names = [system_name(item, i) for i, item in enumerate(items)]
        seen: dict[str, int] = {}
        for i, name in enumerate(names):
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                names[i] = f"{name}-{seen[name]}"
        named = dict(zip(names, items, strict=True))
    if len(named) < 2:
        raise ValueError(f"compare needs two or more systems, got {len(named)}")
    return named


def _check_averaging(averaging: str) -> None:
    # Pairing needs one query set for every system: each run's own queries ("run") won't do.
    AVERAGING = get_args(CompareAveraging)
    if averaging not in AVERAGING:
        raise ValueError(f"averaging must be one of {AVERAGING}, got {averaging!r}")


@attrs.frozen
class _Columns:
    """Every system's values per metric over the paired ids, and who lacked what."""

    keys: tuple[str, ...]
    query_ids: tuple[str, ...]
    scores: dict[str, dict[str, list[float | None]]]
    missing: dict[str, list[str]]
    dropped: list[str]
    manifests: dict[str, Any]
    inputs: dict[str, Any]


def _metric_keys(
    metrics: Sequence[str], k_values: Sequence[int], registry: Registry | None
) -> tuple[str, ...]:
    """The report keys ``metrics`` name, as evaluate_run computes them: ``"ndcg"`` at every
    cutoff, ``"ndcg@10"`` once, and a measure of the whole ranking (``"rprec"``,
    ``"map@all"``, trec_eval's ``"recip_rank"``) with no cutoff added."""
    from .._engine._diversity import is_diversity_spec, parse_diversity_measures
    from .._engine.scoring import resolve_measures
    from .._plugin_engine.registry import registry_or_default

    check_metric_names(metrics)
    keys: list[str] = []
    for spec in metrics:  # a diversity measure's key too (alpha_nDCG@20 is alpha_ndcg@20)
        if is_diversity_spec(spec):
            keys += [s.key for s in parse_diversity_measures([spec], k_values)]
        else:
            keys += [
                m.key for m in resolve_measures([spec], k_values, registry_or_default(registry))
            ]
    if not keys:
        raise ArgumentError(
            "metrics is empty; name at least one, e.g. ", Keyword("metrics", ("ndcg",))
        )
    return tuple(dict.fromkeys(keys))


def _retrieval_columns(
    named: Mapping[str, System],
    *,
    qrels: Qrels | DataFrameLike | str | os.PathLike[str] | None,
    metrics: Sequence[str] | None,
    k_values: Sequence[int],
    averaging: str,
    registry: Registry | None,
    tie_policy: str = "trec_eval",
    files: InputFiles,
    progress: Progress = False,
) -> _Columns:
    from .._formats.sources import is_irds
    from .._plugin_engine.registry import registry_or_default
    from ._diversity import subtopic_qrels_of
    from .inputs import load_qrels
    from .irds_level import irds_metrics
    from .run import evaluate_run

    chosen = ("ndcg@10",) if metrics is None else tuple(metrics)
    inputs = {}
    judged: Qrels | SubtopicQrels | None = None
    if isinstance(qrels, (str, os.PathLike)):
        inputs["qrels"] = file_entry(qrels)
    if is_irds(qrels):  # read here: the dataset's relevance level applies to the measures
        qrels, chosen = irds_metrics(qrels, chosen, k_values, registry_or_default(registry))
    keys = _metric_keys(chosen, k_values, registry)
    if qrels is not None:  # read once, for every system (a file, a DataFrame)
        judged = subtopic_qrels_of(qrels, files.qrels_format, chosen) or load_qrels(
            qrels, registry_or_default(registry), files.qrels_format, columns=files.qrels_columns
        )
    reports: dict[str, RetrievalEvalReport] = {}
    for name, item in named.items():
        if isinstance(item, (str, os.PathLike)):
            inputs[name] = file_entry(item)
        if isinstance(item, RetrievalEvalReport):
            reports[name] = item
            continue
        if judged is None:
            raise ValueError(f"system {name!r} is a run: compare needs qrels to score it")
        reports[name] = evaluate_run(
            item,  # type: ignore[arg-type]  # a run, a RunTable or a path
            judged,
            metrics=chosen,
            k_values=k_values,
            averaging="qrels",  # every judged query; the intersection is taken below
            registry=registry,
            tie_policy=tie_policy,  # type: ignore[arg-type]  # checked by evaluate_run
            run_format=files.run_format,
            run_columns=files.run_columns,
            progress=progress,
        )
    _check_scored(reports, keys)
    return _paired_columns(
        reports,
        keys,
        ids=lambda report: report.per_query,
        present=lambda report: set(report.per_query) - set(report.missing),
        value=_query_value_or_zero,
        intersect=averaging == "intersection",
        inputs=inputs,
    )


def _check_scored(reports: Mapping[str, RetrievalEvalReport], keys: Sequence[str]) -> None:
    """Each report has per-query values, and every compared key."""
    for name, report in reports.items():
        if not report.per_query:
            raise ValueError(f"system {name!r} has no per-query values (its per_query is empty)")
        _require(name, keys, report.metrics)


def _query_value_or_zero(report: RetrievalEvalReport) -> Callable[[str, str], float | None]:
    """A retrieval report's value of a key on a query; 0 for a query it did not answer."""
    per_query = report.per_query
    return lambda key, q: float(per_query[q][key]) if q in per_query else 0.0


def _sample_value(report: RagEvalReport) -> Callable[[str, str], float | None]:
    """A RAG report's value of a key on a sample id (its per_sample lists are by position)."""
    position = {s: i for i, s in enumerate(report.sample_ids)}
    return lambda key, s: report.per_sample[key][position[s]]


def _pipeline_value(report: PipelineEvalReport) -> Callable[[str, str], float | None]:
    """A pipeline report's value of a key on a query."""
    return lambda key, q: report.per_query[q][key]


def _paired_columns(
    reports: Mapping[str, _Report],
    keys: tuple[str, ...],
    *,
    ids: Callable[[_Report], Iterable[str]],
    value: Callable[[_Report], Callable[[str, str], float | None]],
    present: Callable[[_Report], set[str]] | None = None,
    intersect: bool = True,
    inputs: dict[str, Any] | None = None,
) -> _Columns:
    """The columns of ``keys`` over the ids the reports are paired on: ``ids`` gives a
    report's ids in order, ``present`` those it has values for (default: all of them), and
    ``value(report)(key, id)`` one value."""
    has = present or (lambda report: set(ids(report)))
    universe = list(dict.fromkeys(i for report in reports.values() for i in ids(report)))
    kept, missing, dropped = _pairing(
        universe, {name: has(report) for name, report in reports.items()}, intersect=intersect
    )
    scores: dict[str, dict[str, list[float | None]]] = {}
    for name, report in reports.items():
        of = value(report)
        scores[name] = {key: [of(key, i) for i in kept] for key in keys}
    manifests = {name: plain(report.manifest) for name, report in reports.items()}
    return _Columns(keys, tuple(kept), scores, missing, dropped, manifests, inputs or {})


def _require(name: str, keys: Sequence[str], available: Mapping[str, object]) -> None:
    lacking = [key for key in keys if key not in available]
    if lacking:
        raise ValueError(
            f"system {name!r} has no {', '.join(map(repr, lacking))}; "
            f"its metrics are {', '.join(available)}"
        )


def _pairing(
    universe: list[str], present: Mapping[str, set[str]], *, intersect: bool
) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """The ids to compare, what each system lacks, and the ids left out of the comparison."""
    missing = {name: [q for q in universe if q not in ids] for name, ids in present.items()}
    if intersect:
        kept = [q for q in universe if all(q in ids for ids in present.values())]
    else:
        kept = universe
    chosen = set(kept)
    return kept, missing, [q for q in universe if q not in chosen]


def _rag_columns(
    named: Mapping[str, System], metrics: Sequence[str] | None, k_values: Sequence[int]
) -> _Columns:
    reports = _rag_reports(named)
    keys = _rag_metric_keys(reports, metrics, k_values)
    return _paired_columns(reports, keys, ids=lambda r: r.sample_ids, value=_sample_value)


def _rag_reports(named: Mapping[str, System]) -> dict[str, RagEvalReport]:
    """The systems, checked to be RAG reports with per-sample values under unique ids."""
    reports = _reports_of(
        named,
        RagEvalReport,
        refusal="a RAG report cannot be compared with runs or retrieval reports",
        has_values=lambda r: bool(r.sample_ids and r.per_sample),
        values="per-sample values (per_sample is empty)",
    )
    for name, item in reports.items():
        repeated = [s for s, count in _counts(item.sample_ids).items() if count > 1]
        if repeated:
            raise ValueError(
                f"system {name!r}: sample id {repeated[0]!r} appears more than once; "
                "samples are paired by id"
            )
    return reports


def _reports_of(
    named: Mapping[str, System],
    kind: type[_Report],
    *,
    refusal: str,
    has_values: Callable[[_Report], bool],
    values: str,
) -> dict[str, _Report]:
    """The systems, checked to be reports of ``kind`` (else ``refusal`` says why not) that
    hold the ``values`` to pair."""
    reports: dict[str, _Report] = {}
    for name, item in named.items():
        if not isinstance(item, kind):
            raise TypeError(f"system {name!r} is a {type(item).__name__}: {refusal}")
        if not has_values(item):
            raise ValueError(f"system {name!r} has no {values}")
        reports[name] = item
    return reports


def _rag_metric_keys(
    reports: Mapping[str, RagEvalReport], metrics: Sequence[str] | None, k_values: Sequence[int]
) -> tuple[str, ...]:
    """The keys to compare: those ``metrics`` name, or every metric the reports share."""
    first = next(iter(reports.values()))
    if metrics is None:
        keys = tuple(
            m for m in first.per_sample if all(m in r.per_sample for r in reports.values())
        )
        _warn_corpus_left_out(first.corpus_level)
        if not keys:
            raise ValueError("the RAG reports share no metric")
        return keys
    keys = tuple(dict.fromkeys(k for m in metrics for k in _rag_keys(m, first.metrics, k_values)))
    if not keys:
        raise ArgumentError(
            "metrics is empty; name at least one, e.g. ", Keyword("metrics", ("token_f1",))
        )
    for name, report in reports.items():
        _refuse_corpus_level(name, keys, report.corpus_level)
        _require(name, keys, report.per_sample)
    return keys


def _warn_corpus_left_out(corpus_level: Sequence[str]) -> None:
    """Say that the default metrics leave the corpus-level scores out (a user who computed
    one may expect it compared)."""
    if corpus_level:
        warnings.warn(
            InputWarning(
                f"compare leaves out {', '.join(map(repr, corpus_level))}: a corpus-level "
                "score is one number for the whole set, with no value per sample to pair or "
                "test"
            ),
            stacklevel=5,  # compare()'s caller: compare -> _*_columns -> _*_metric_keys
        )


def _refuse_corpus_level(name: str, keys: Sequence[str], corpus_level: Sequence[str]) -> None:
    """A corpus score (``bleu(level='corpus')``) has no per-sample values to pair: say so,
    rather than test nothing."""
    named = [key for key in keys if key in corpus_level]
    if named:
        raise ValueError(
            f"{named[0]!r} of system {name!r} is a corpus-level score: one number for the "
            "whole set, with no value per sample, so there is nothing to pair and no "
            "significance test; compare the sentence-level metric (the same metric without "
            "level='corpus'), whose per-sample values can be tested"
        )


def _rag_keys(spec: str, keys: Mapping[str, object], k_values: Sequence[int]) -> list[str]:
    """The report keys of a RAG metric string: ``token_f1(normalize=squad)`` is keyed
    ``token_f1(normalize='squad')``, a bare ``has_answer`` is one key per cutoff of
    ``k_values``; a string that is a key, or that no registry metric reads (a plugin's metric
    in a saved report), stays as it is."""
    if spec in keys:
        return [spec]
    try:
        return [m.key for m in parse_rag_metric(spec, k_values=k_values)]
    except (TypeError, ValueError):
        return [spec]


def _pipeline_columns(named: Mapping[str, System], metrics: Sequence[str] | None) -> _Columns:
    """Pipelines paired by query id over the queries every report scored, on their
    retrieval keys and RAG metrics alike."""
    reports = _pipeline_reports(named)
    keys = _pipeline_metric_keys(reports, metrics)
    return _paired_columns(reports, keys, ids=lambda r: r.per_query, value=_pipeline_value)


def _pipeline_reports(named: Mapping[str, System]) -> dict[str, PipelineEvalReport]:
    """The systems, checked to be pipeline reports with per-query values."""
    return _reports_of(
        named,
        PipelineEvalReport,
        refusal="a pipeline report is compared with pipeline reports (compare its "
        ".retrieval or .rag with other reports)",
        has_values=lambda r: bool(r.per_query),
        values="per-query values (per_query is empty)",
    )


def _pipeline_metric_keys(
    reports: Mapping[str, PipelineEvalReport], metrics: Sequence[str] | None
) -> tuple[str, ...]:
    """The keys to compare: those ``metrics`` name, or nDCG@10 and every answer metric the
    reports share."""
    if metrics is None:
        first = next(iter(reports.values()))
        wanted = ["ndcg@10", *first.rag.per_sample]  # a corpus-level score has none to pair
        _warn_corpus_left_out(first.rag.corpus_level)
        keys = tuple(k for k in wanted if all(k in r.metrics for r in reports.values()))
        if not keys:
            raise ValueError("the pipeline reports share no metric")
        return keys
    keys = tuple(dict.fromkeys(metrics))
    if not keys:
        raise ArgumentError(
            "metrics is empty; name at least one, e.g. ", Keyword("metrics", ("ndcg@10",))
        )
    for name, report in reports.items():
        _refuse_corpus_level(name, keys, report.rag.corpus_level)
        _require(name, keys, report.metrics)
    return keys


def _counts(values: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts


def _check_not_swapped(systems: object, qrels: object) -> None:
    """Refuse qrels that hold runs, ``{name: {query: {doc: score}}}``: the systems, given in
    the place of qrels (else the error would be about a grade that is a dict)."""
    first = next(iter(qrels.values()), None) if isinstance(qrels, Mapping) else None
    inner = next(iter(first.values()), None) if isinstance(first, Mapping) else None
    if isinstance(inner, (Mapping, list, tuple)) and isinstance(systems, Mapping):
        raise TypeError(
            "compare(systems, qrels): qrels holds runs, {name: {query_id: {doc_id: score}}}: "
            "are systems and qrels swapped? The systems come first"
        )


def compare(
    systems: Mapping[str, System] | Sequence[System],
    qrels: Qrels | DataFrameLike | str | os.PathLike[str] | None = None,
    *,
    metrics: Sequence[str] | None = None,
    k_values: Sequence[int] = (10,),
    baseline: str | None = None,
    test: SignificanceTest = "paired-t",
    correction: Correction | None = None,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = None,
    averaging: CompareAveraging = "qrels",
    registry: Registry | None = None,
    tie_policy: TiePolicy = "trec_eval",
    run_format: str | None = None,
    qrels_format: str | None = None,
    run_columns: Sequence[str] | None = None,
    qrels_columns: Sequence[str] | None = None,
    progress: Progress = False,
) -> ComparisonReport:
    """Compare two or more systems metric by metric, with paired significance tests.

    Each system is a run (``{qid: {doc: score}}``, ``{qid: [doc, ...]}``, a pandas or polars
    DataFrame, a run file or a :class:`~ef.evaluation.RunTable`, scored against ``qrels`` with
    :func:`~ef.evaluation.evaluate_run`), a :class:`~ef.evaluation.RetrievalEvalReport`
    (its ``per_query`` values), or a :class:`~ef.evaluation.RagEvalReport` (its
    ``per_sample`` values, paired by ``sample_ids``). Give them as ``{name: system}``, or as
    a sequence: a path is named by its file name without ``.gz`` and the run suffix, a run
    with a ``name`` (a :func:`~ef.evaluation.fuse` result) by it, other systems
    ``system-1``, ``system-2``, ...

    Queries are paired by id. With ``averaging="qrels"`` a judged query a system does not
    answer scores 0 for it (DESIGN §4); with ``"intersection"`` only the queries every
    system answers are compared. Either way ``report.missing`` lists what each system
    lacked. RAG samples are paired over the ids every report has; a metric compares only the
    samples every system scored (not ``None``).

    With ``baseline=None`` every pair of systems is compared; with a name, every other system
    is compared with that one. Each comparison tests the per-query differences ``b - a``:

    * ``"paired-t"``: ``scipy.stats.ttest_rel``, with its t-based confidence interval;
    * ``"wilcoxon"``: ``scipy.stats.wilcoxon`` (``zero_method="wilcox"``: zero differences
      are dropped, as R's ``wilcox.test`` does);
    * ``"randomization"``: ``scipy.stats.permutation_test`` swapping each query's pair
      (``permutation_type="samples"``), with the mean difference as statistic;
    * ``"bootstrap"``: ``scipy.stats.bootstrap`` of the mean difference; the p-value is the
      share of the recentred bootstrap means at least as far from 0 as the observed one.

    The last three take their confidence interval from the bootstrap (BCa, ``n_resamples``).
    ``correction`` (``"bonferroni"``, ``"holm"``, ``"bh"`` for Benjamini-Hochberg, or
    ``None``) adjusts the p-values of all comparisons, every pair on every metric, as one
    family; ``reject`` is ``p_corrected <= alpha``.

    ``"tukey"`` is Tukey's HSD, ``scipy.stats.tukey_hsd`` on every system's values of a
    metric, as ranx's ``compare(..., stat_test="tukey")`` runs it: one family per metric, of
    all the pairs of systems, whose p-values it adjusts itself (``p_value`` and
    ``p_corrected`` are both its adjusted p, so it takes no ``correction``), with its
    simultaneous intervals. It pools the variance within systems and does not pair queries.
    With a ``baseline`` only the baseline's pairs are reported, adjusted as for every pair.

    Resampling draws from ``numpy.random.default_rng(seed)``, afresh for each comparison, so a
    seed reproduces every number; ``seed=None`` draws one and records it in ``report.seed``.

    Args:
        systems: two or more systems, as above.
        qrels: the judgements to score runs against (a mapping or a path); not needed for
            reports.
        metrics: ``"<name>@<k>"`` keys, or names to take at every cutoff of ``k_values``.
            Default: ``("ndcg@10",)`` for retrieval, every metric the RAG reports share, and
            for pipelines nDCG@10 and every RAG metric they share.
        k_values: the cutoffs of metric names given without one.
        baseline: the name of the system every other is compared with; None for all pairs.
        test: ``"paired-t"``, ``"wilcoxon"``, ``"randomization"``, ``"bootstrap"`` or
            ``"tukey"``.
        correction: ``None``, ``"bonferroni"``, ``"holm"`` or ``"bh"``; ``None`` with
            ``"tukey"``.
        alpha: the significance level, and ``1 - alpha`` the confidence of the intervals.
        n_resamples: resamples of the randomization and bootstrap tests and intervals.
        seed: the seed of the resampling, or None for a fresh one.
        averaging: ``"qrels"`` or ``"intersection"``, as in ``evaluate_run``.
        registry: the plugins to use; ``None`` is the default registry.
        tie_policy: how a run's tied docs are ordered, as in ``evaluate_run``.
        run_format: the format of the runs given as paths (``None``: detected).
        qrels_format: the format of qrels given as a path (``None``: detected).
        run_columns: the ``(query, doc, score)`` columns of the runs given as DataFrames or
            Parquet files, when they are not a known set (as in ``evaluate_run``).
        qrels_columns: the ``(query, doc, grade)`` columns of qrels given so.
        progress: ``True`` shows progress bars on stderr once a phase has run for a second
            (``ef.evaluation._progress``); a callable gets ``progress(done, total)`` for
            each phase: those of :func:`~ef.evaluation.evaluate_run` for each run, then
            resampling, in resamples drawn over all comparisons (the bootstrap intervals and
            the randomization test's permutations; ``"paired-t"`` draws none, and has no
            such phase). Each phase starts at ``(0, total)`` and ends at ``(total, total)``.

    Raises:
        ValueError: for fewer than two systems, an unknown option, a metric a report lacks,
            runs without qrels, or fewer than two paired queries.
        MissingDependencyError: (an ``ImportError``) if scipy is not installed
            (``pip install "ef-evaluation[stats]"``).

    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}, "q4": {"d4": 1}}
    >>> bm25 = {"q1": ["d1"], "q2": ["x", "d2"], "q3": ["x", "y", "d3"], "q4": ["x"]}
    >>> dense = {"q1": ["d1"], "q2": ["d2"], "q3": ["d3"], "q4": ["x", "d4"]}
    >>> report = compare({"bm25": bm25, "dense": dense}, qrels, metrics=("mrr@10",), seed=7)
    >>> pair = report.pair("bm25", "dense")
    >>> round(pair.difference, 4), round(pair.p_value, 4), (pair.wins, pair.ties, pair.losses)
    (0.4167, 0.0632, (3, 1, 0))
    """
    significance = Significance(
        test=test, correction=correction, alpha=alpha, n_resamples=n_resamples, seed=seed
    )
    _check_averaging(averaging)
    check_progress(progress)
    if metrics is not None:
        check_metric_names(metrics)
    _check_not_swapped(systems, qrels)
    named = _named(systems)
    if baseline is not None and baseline not in named:
        raise ValueError(
            f"baseline {baseline!r} is not a system; the systems are {', '.join(named)}"
        )
    kind = _kind(named)
    if kind == "retrieval":
        from .inputs import InputFiles

        columns = _retrieval_columns(
            named,
            qrels=qrels,
            metrics=metrics,
            k_values=k_values,
            averaging=averaging,
            registry=registry,
            tie_policy=tie_policy,
            files=InputFiles(run_format, run_columns, qrels_format, qrels_columns),
            progress=progress,
        )
    else:  # reports paired over the ids they all have
        columns = (
            _pipeline_columns(named, metrics)
            if kind == "pipeline"
            else _rag_columns(named, metrics, k_values)
        )
        averaging = "intersection"
    return _test_all(
        named=list(named),
        columns=columns,
        kind=kind,
        baseline=baseline,
        significance=attrs.evolve(
            significance,
            alpha=float(alpha),
            seed=secrets.randbits(63) if seed is None else seed,
        ),
        averaging=averaging,
        progress=progress,
    )


def _kind(named: Mapping[str, System]) -> str:
    """``"pipeline"`` if any system is a pipeline report, else ``"rag"`` if any is a RAG
    report, else ``"retrieval"``."""
    if any(isinstance(item, PipelineEvalReport) for item in named.values()):
        return "pipeline"
    if any(isinstance(item, RagEvalReport) for item in named.values()):
        return "rag"
    return "retrieval"


def _test_all(
    *,
    named: list[str],
    columns: _Columns,
    kind: str,
    baseline: str | None,
    significance: Significance,
    averaging: str,
    progress: Progress = False,
) -> ComparisonReport:
    """Every pair's test (``significance``, its seed drawn), corrected, as a report."""
    from .._engine.stats import adjust, scipy_stats

    scipy_stats()  # the ImportError that names the extra, before any work
    test, correction, alpha = significance.test, significance.correction, significance.alpha

    paired, means = _paired_values(columns, named, "samples" if kind == "rag" else "queries")
    if test == "tukey":  # family-wise over the systems already: no correction
        found = _tukey_pairs(paired, means, named, _pairs(named, baseline), alpha=alpha)
        corrected = [entry["p_value"] for entry in found]
    else:
        found = _tested_pairs(
            paired,
            means,
            _pairs(named, baseline),
            test=test,
            alpha=alpha,
            n_resamples=significance.n_resamples,
            seed=cast("int", significance.seed),  # drawn by compare() where it was None
            progress=progress,
        )
        corrected = adjust([entry["p_value"] for entry in found], correction)
    comparisons = [
        PairComparison(**entry, p_corrected=p, reject=p <= alpha)
        for entry, p in zip(found, corrected, strict=True)
    ]
    statistics = {
        "test": test,
        "scipy_function": _SCIPY_FUNCTIONS[test],
        "wilcoxon_zero_method": WILCOXON_ZERO_METHOD if test == "wilcoxon" else None,
        "confidence_interval": _INTERVALS.get(test, "bootstrap BCa"),
        "correction": correction,
        # Tukey's family is each metric's pairs of systems; a correction's is every test.
        "family": len(named) * (len(named) - 1) // 2 if test == "tukey" else len(comparisons),
        "alpha": alpha,
        "n_resamples": significance.n_resamples,
        "seed": significance.seed,
    }
    return ComparisonReport(
        systems=named,
        metrics=columns.keys,
        means=means,
        comparisons=comparisons,
        query_ids=columns.query_ids,
        scores=columns.scores,
        baseline=baseline,
        **attrs.asdict(significance),
        averaging=averaging,
        kind=kind,
        missing=columns.missing,
        dropped=columns.dropped,
        manifest=_comparison_manifest(statistics, averaging, columns),
    )


def _pairs(named: list[str], baseline: str | None) -> list[tuple[str, str]]:
    """The ``(a, b)`` pairs to test: every pair, or the baseline against each other system."""
    if baseline is None:
        return list(itertools.combinations(named, 2))
    return [(baseline, other) for other in named if other != baseline]


def _paired_values(
    columns: _Columns, named: list[str], unit: str
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, float]]]:
    """Each metric's arrays per system over the ids every system scored (not ``None``),
    and each system's mean per metric over them."""
    import numpy as np

    means: dict[str, dict[str, float]] = {name: {} for name in named}
    paired: dict[str, dict[str, Any]] = {}  # each metric's values over its usable ids
    for key in columns.keys:
        values = {name: columns.scores[name][key] for name in named}
        usable = _scored_by_all(values, len(columns.query_ids))
        if len(usable) < 2:
            raise ValueError(f"{key}: {len(usable)} paired {unit}; a comparison needs at least two")
        paired[key] = {
            name: np.array([values[name][i] for i in usable], dtype=float) for name in named
        }
        for name in named:
            means[name][key] = math.fsum(paired[key][name]) / len(usable)
    return paired, means


def _scored_by_all(values: Mapping[str, list[float | None]], count: int) -> list[int]:
    """The positions where every system has a value (not ``None``)."""
    return [i for i in range(count) if all(column[i] is not None for column in values.values())]


def _tested_pairs(
    paired: Mapping[str, Mapping[str, Any]],
    means: Mapping[str, Mapping[str, float]],
    pairs: list[tuple[str, str]],
    *,
    test: str,
    alpha: float,
    n_resamples: int,
    seed: int,
    progress: Progress,
) -> list[dict[str, Any]]:
    """The fields of a PairComparison (but the corrected p-value) for every metric and pair,
    the resampling reported as one progress phase."""
    from .._engine.stats import paired_test, planned_resamples

    planned = {
        (key, a, b): planned_resamples(arrays[b] - arrays[a], test, n_resamples)
        for key, arrays in paired.items()
        for a, b in pairs
    }
    total = sum(planned.values())
    found: list[dict[str, Any]] = []
    with phase(progress if total else False, f"resampling ({test})", total) as resampling:
        for (key, a, b), share in planned.items():
            arrays = paired[key]
            with resampling.share(share) as drew:
                result = paired_test(
                    arrays[a],
                    arrays[b],
                    test,
                    confidence=1 - alpha,
                    n_resamples=n_resamples,
                    seed=seed,
                    on_resamples=drew,
                )
            differences = arrays[b] - arrays[a]
            found.append(_pair_fields(key, a, b, differences, means=means, result=result))
    return found


def _tukey_pairs(
    paired: Mapping[str, Mapping[str, Any]],
    means: Mapping[str, Mapping[str, float]],
    named: list[str],
    pairs: list[tuple[str, str]],
    *,
    alpha: float,
) -> list[dict[str, Any]]:
    """The fields of a PairComparison for every metric and pair, from one Tukey HSD per
    metric over every system (its intervals at ``1 - alpha``)."""
    from .._engine.stats import tukey_test

    index = {name: i for i, name in enumerate(named)}
    found: list[dict[str, Any]] = []
    for key, arrays in paired.items():
        result = tukey_test([arrays[name] for name in named], confidence=1 - alpha)
        for a, b in pairs:
            i, j = index[b], index[a]  # [b][a]: the interval of mean_b - mean_a
            tested = PairedResult(result.p_values[i][j], result.ci_low[i][j], result.ci_high[i][j])
            differences = arrays[b] - arrays[a]
            found.append(_pair_fields(key, a, b, differences, means=means, result=tested))
    return found


def _pair_fields(
    key: str,
    a: str,
    b: str,
    differences: Any,
    *,
    means: Mapping[str, Mapping[str, float]],
    result: Any,
) -> dict[str, Any]:
    """One comparison's fields, from its differences ``b - a`` and its test's result."""
    import numpy as np

    from .._engine.stats import cohens_d

    return {
        "metric": key,
        "a": a,
        "b": b,
        "n": len(differences),
        "mean_a": means[a][key],
        "mean_b": means[b][key],
        "difference": means[b][key] - means[a][key],
        "ci_low": result.ci_low,
        "ci_high": result.ci_high,
        "p_value": result.p_value,
        "effect_size": cohens_d(differences),
        "wins": int(np.count_nonzero(differences > 0)),
        "ties": int(np.count_nonzero(differences == 0)),
        "losses": int(np.count_nonzero(differences < 0)),
    }


def _comparison_manifest(
    statistics: dict[str, Any], averaging: str, columns: _Columns
) -> dict[str, Any]:
    """The report's manifest: the versions that computed it, the test, and the inputs."""
    import numpy as np
    import scipy

    return {
        "ef_evaluation": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "statistics": statistics,
        "averaging": averaging,
        "inputs": columns.inputs,
        "systems": columns.manifests,
    }


_SCIPY_FUNCTIONS = {
    "paired-t": "scipy.stats.ttest_rel",
    "wilcoxon": "scipy.stats.wilcoxon",
    "randomization": "scipy.stats.permutation_test",
    "bootstrap": "scipy.stats.bootstrap",
    "tukey": "scipy.stats.tukey_hsd",
}
_INTERVALS = {"paired-t": "t", "tukey": "Tukey simultaneous"}
