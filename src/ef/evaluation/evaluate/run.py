"""evaluate_run(): score a stored run against qrels, with trec_eval's numbers."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias, cast

import attrs

from ..engine.manifest import retrieval_manifest
from ..engine.scoring import Measure, mean_of, resolve_measures, score_all
from ..engine.ties import check_tie_policy, tie_diagnostic
from ..formats._records import ranking_of
from ..formats.files import read_qrels
from ..plugin_engine.registry import Registry, registry_or_default
from ..reports import RetrievalEvalReport, TieDiagnostic
from ..types import Qrels, RunInput

if TYPE_CHECKING:
    from ..hits import JudgedHits
    from ..runs.table import RunTable

__all__ = ["AVERAGING", "evaluate_run", "ranking_of"]


class _RankedLists:
    """The part of RunTable that evaluate_run uses, over ``{qid: [doc, ...]}`` in memory.

    Ranked lists are used in their order (a repeated doc at its best rank), as
    ``RunTable.from_dict`` uses them, without building its arrays: for the rankings of
    :func:`~ef.evaluation.retrieve` that is most of the cost of scoring them.
    """

    def __init__(self, run: Mapping[str, Sequence[str]]) -> None:
        self._rankings = {query_id: ranking_of(query_id, docs) for query_id, docs in run.items()}
        self.query_ids = list(self._rankings)

    def __contains__(self, query_id: object) -> bool:
        return query_id in self._rankings

    def ranking(self, query_id: str, *_: object, **__: object) -> list[str]:
        return self._rankings.get(query_id, [])  # ranked lists have no ties

    def without_identical_ids(self) -> _RankedLists:
        return _RankedLists(
            {q: [doc for doc in docs if doc != q] for q, docs in self._rankings.items()}
        )

    def judged_hits(
        self,
        query_ids: Sequence[str],
        judgements: Sequence[Mapping[str, float]],
        *_: object,
        **__: object,
    ) -> JudgedHits:
        from ..hits import JudgedHits

        return JudgedHits.from_rankings([self.ranking(q) for q in query_ids], judgements)


#: The query-averaging policies of :func:`evaluate_run`.
AVERAGING = ("qrels", "intersection", "run")


def evaluate_run(
    run: RunInput | RunTable | str | os.PathLike[str],
    qrels: Qrels | str | os.PathLike[str],
    *,
    k_values: Sequence[int] = (1, 5, 10, 100),
    metrics: Sequence[str] = ("ndcg", "recall", "precision", "mrr", "map"),
    averaging: Literal["qrels", "intersection", "run"] | None = None,
    registry: Registry | None = None,
    ignore_identical_ids: bool | None = None,
    tie_policy: Literal["trec_eval", "docno_asc", "input_order", "expected"] | None = None,
    profile: Literal["trec_eval", "beir", "mteb", "ranx"] | None = None,
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

    A bare ``"map"`` is ``map`` at every cutoff of ``k_values``; trec_eval's ``map`` (the
    whole ranking) is ``"map@all"``, or ``"AP"`` in ir_measures' syntax.

    Args:
        run: ``{query_id: {doc_id: score}}``, ``{query_id: [doc_id, ...]}`` (ranked), the
            path of a run file (TREC or MS MARCO, detected), or a
            :class:`~ef.evaluation.RunTable` read before.
        qrels: ``{query_id: {doc_id: relevance}}`` or the path of a qrels file or BEIR
            directory.
        k_values: the cutoffs of every metric named without one.
        metrics: measure strings: ``"ndcg"`` (at every cutoff), ``"ndcg@10"``,
            ``"precision(rel=2)@5"``, or the same in ir_measures' or trec_eval's syntax
            (``"nDCG@10"``, ``"ndcg_cut.10"``); see :mod:`ef.evaluation.engine.measures`.
        averaging: ``"qrels"`` (the default), ``"intersection"`` or ``"run"``.
        registry: the plugins to use; ``None`` is the default registry.
        ignore_identical_ids: drop a doc whose id is its query's id from the run before
            ranking (BEIR's ``ignore_identical_ids``, for corpora that contain the queries).
            Off by default; on under ``profile="beir"``.
        tie_policy: how docs with equal scores are ordered, for every metric alike:
            ``"trec_eval"`` (the default: doc id descending), ``"docno_asc"``,
            ``"input_order"`` (the order the file or mapping lists them) or ``"expected"``
            (each metric averaged over every order of the tied docs); see
            :mod:`ef.evaluation.engine.ties`. The report's ``ties`` says which queries have ties
            across a cutoff or at a relevant doc.
        profile: reproduce another tool's numbers on the same inputs: ``"trec_eval"``
            (and pytrec_eval), ``"beir"`` (``EvaluateRetrieval``), ``"mteb"`` or ``"ranx"``;
            see :mod:`ef.evaluation.engine.profiles`. A profile sets the tie policy and averaging,
            so neither may be given with it.

    Raises:
        ValueError: for an unknown metric, a bad cutoff, a NaN score, an unknown
            ``averaging``, or if no query can be scored.
        DatasetFormatError: (a ``ValueError``) for bad input files, naming the file and line.

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
    """
    registry = registry_or_default(registry)
    measures = resolve_measures(metrics, k_values, registry)
    inputs = {"run": run, "qrels": qrels}  # the paths among them go into the manifest
    if profile is not None:
        from ..engine.profiles import evaluate_with_profile

        if tie_policy is not None or averaging is not None:
            raise ValueError(
                f"profile={profile!r} sets the tie policy and the averaging of its tool; "
                "leave tie_policy and averaging unset, or drop the profile"
            )
        return evaluate_with_profile(
            profile,
            load_run(run, registry),
            load_qrels(qrels, registry),
            measures,
            registry=registry,
            inputs=inputs,
            ignore_identical_ids=ignore_identical_ids,
        )
    policy = check_tie_policy(tie_policy or "trec_eval")
    averaging = averaging or "qrels"
    if averaging not in AVERAGING:
        raise ValueError(f"averaging must be one of {AVERAGING}, got {averaging!r}")
    table = load_run(run, registry)
    if ignore_identical_ids:
        table = table.without_identical_ids()
    qrels = load_qrels(qrels, registry)
    scored = score_run(table, qrels, measures, averaging=averaging, tie_policy=policy)
    if not scored.per_query:
        reasons = sorted(set(scored.skipped.values())) or ["qrels is empty"]
        raise ValueError(f"no query can be scored ({'; '.join(reasons)})")
    return RetrievalEvalReport(
        metrics=mean_of(measures, scored.per_query),
        per_query=scored.per_query,
        n_queries=len(scored.per_query),
        k_values=tuple(dict.fromkeys(m.k for m in measures if m.k is not None)),
        skipped=scored.skipped,
        missing=scored.missing,
        extra=[query_id for query_id in table.query_ids if query_id not in qrels],
        manifest=retrieval_manifest(
            registry,
            [(m.key, m.metric.name, m.k, m.kwargs) for m in measures],
            tie_policy=policy,
            averaging=averaging,
            inputs=inputs,  # type: ignore[arg-type]  # only the paths are kept
        ),
        ties=scored.ties,
    )


Table: TypeAlias = "RunTable | _RankedLists"


def load_run(run: RunInput | RunTable | str | os.PathLike[str], registry: Registry) -> Table:
    """The run as a table: read from a path, or built from a mapping (ranked lists are kept
    as they are, with no table to build)."""
    from ..runs.table import RunTable  # numpy, only once something is scored

    if isinstance(run, (str, os.PathLike)):
        return RunTable.read(Path(run), registry=registry)
    if isinstance(run, RunTable):
        return run
    if all(isinstance(r, (list, tuple)) for r in run.values()):
        return _RankedLists(cast("Mapping[str, Sequence[str]]", run))
    return RunTable.from_dict(run)


def load_qrels(qrels: Qrels | str | os.PathLike[str], registry: Registry) -> Qrels:
    """The judgements, read if ``qrels`` is a path."""
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(Path(qrels), registry=registry)
    return qrels


@attrs.frozen
class Scored:
    """What scoring a run gives: per-query values, the queries skipped (with why) and missing,
    and the tie diagnostic."""

    per_query: dict[str, dict[str, float]]
    skipped: dict[str, str]
    missing: list[str]
    ties: TieDiagnostic


def score_run(
    table: Table,
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    averaging: str,
    tie_policy: str,
    float64: bool = False,
    cutoffs: Sequence[int] | None = None,
) -> Scored:
    """Every measure on every query ``averaging`` scores, with tied docs ordered by
    ``tie_policy`` (scores compared as float64 if ``float64``, as Python's sort would). The
    tie diagnostic looks at ``cutoffs`` (default: the measures' own)."""
    query_ids, judgements, skipped, missing = _query_sets(table, qrels, averaging)
    hits = table.judged_hits(query_ids, judgements, tie_policy, float64=float64)
    per_query = score_all(
        measures,
        query_ids,
        judgements,
        hits,
        lambda: [table.ranking(q, tie_policy, float64=float64) for q in query_ids],
        expected=tie_policy == "expected",
    )
    if cutoffs is None:
        cutoffs = sorted({m.k for m in measures if m.k is not None})
    stats = None
    if not isinstance(table, _RankedLists):
        stats = table.tie_stats(query_ids, cutoffs, float64=float64)
    return Scored(per_query, skipped, missing, tie_diagnostic(tie_policy, query_ids, hits, stats))


def _query_sets(
    table: RunTable | _RankedLists, qrels: Qrels, averaging: str
) -> tuple[list[str], list[Mapping[str, float]], dict[str, str], list[str]]:
    """The queries to score and their judgements, the skipped ones (with why) and the
    missing ones, under the averaging policy (or ``"all"``: every judged query, scoring 0
    where the run lacks it, as ranx's ``make_comparable``)."""
    scored: list[str] = []
    judgements: list[Mapping[str, float]] = []
    skipped: dict[str, str] = {}
    missing: list[str] = []
    if averaging == "run":
        # The run's order; a judged query with no positive grade is scored too.
        for query_id in table.query_ids:
            judged = qrels.get(query_id)
            if judged:
                scored.append(query_id)
                judgements.append(judged)
            elif judged is not None:
                skipped[query_id] = "no judgement"
        for query_id, judged in qrels.items():
            if query_id not in table:
                if judged:
                    missing.append(query_id)
                skipped[query_id] = "not in the run" if judged else "no judgement"
        return scored, judgements, skipped, missing
    for query_id, judged in qrels.items():
        if averaging != "all" and not any(grade > 0 for grade in judged.values()):
            skipped[query_id] = "no positive judgement"
            continue
        if query_id not in table:
            missing.append(query_id)
            if averaging == "intersection":
                skipped[query_id] = "not in the run"
                continue
        scored.append(query_id)
        judgements.append(judged)
    return scored, judgements, skipped, missing
