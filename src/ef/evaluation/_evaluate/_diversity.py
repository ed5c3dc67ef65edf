"""evaluate_diversity: a run scored with the intent-aware measures against subtopic qrels."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, get_args

from .._engine._diversity import (
    DEFAULT_DIVERSITY_K_VALUES,
    DEFAULT_DIVERSITY_METRICS,
    diversity_evaluation,
    parse_diversity_measures,
)
from .._formats.trec._subtopics import SubtopicQrels
from .._plugin_engine.registry import Registry, registry_or_default
from .._reports import RetrievalEvalReport
from ..types import CompareAveraging
from .inputs import load_run
from .report import retrieval_report

if TYPE_CHECKING:
    from .._runs.table import RunTable
    from ..types import DataFrameLike, RunInput

__all__ = ["evaluate_diversity"]


def _subtopic_qrels(
    qrels: SubtopicQrels | Mapping[str, Mapping[str, Mapping[str, float]]] | str | os.PathLike[str],
) -> SubtopicQrels:
    if isinstance(qrels, SubtopicQrels):
        return qrels
    if isinstance(qrels, (str, os.PathLike)):
        return SubtopicQrels.read(qrels)
    return SubtopicQrels(qrels)


def evaluate_diversity(
    run: RunInput | RunTable | DataFrameLike | str | os.PathLike[str],
    subtopic_qrels: SubtopicQrels
    | Mapping[str, Mapping[str, Mapping[str, float]]]
    | str
    | os.PathLike[str],
    *,
    metrics: Sequence[str] = DEFAULT_DIVERSITY_METRICS,
    k_values: Sequence[int] = DEFAULT_DIVERSITY_K_VALUES,
    averaging: CompareAveraging = "qrels",
    run_format: str | None = None,
    registry: Registry | None = None,
) -> RetrievalEvalReport:
    """Score a run with the diversity measures (alpha-nDCG, ERR-IA, NRBP, P-IA, AP-IA,
    S-recall, ...) against subtopic qrels, with the numbers TREC's ndeval gives.

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
    ``extra`` list the judged queries the run lacks and the run's unjudged ones.

    Args:
        run: ``{query_id: {doc_id: score}}``, ``{query_id: [doc_id, ...]}``, a DataFrame or
            a run file's path, as for :func:`evaluate_run`.
        subtopic_qrels: a :class:`SubtopicQrels`, ``{query_id: {subtopic: {doc_id: grade}}}``
            or the path of a ``qid subtopic docno grade`` file.
        metrics: the measure strings.
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
    specs = parse_diversity_measures(metrics, k_values)
    judged = _subtopic_qrels(subtopic_qrels)
    ranked = load_run(run, registry_or_default(registry), run_format)
    answered = [q for q in judged.query_ids if q in ranked]
    if not answered:
        raise ValueError(
            "the run shares no query with the subtopic qrels (run: "
            f"{list(ranked.query_ids)[:3]!r}..., qrels: {list(judged.query_ids)[:3]!r}...)"
        )
    rankings = {q: ranked.ranking(q) for q in answered}
    extra = [q for q in ranked.query_ids if q not in judged]
    evaluation = diversity_evaluation(
        rankings, judged.judgements, specs, averaging=averaging, extra=extra
    )
    return retrieval_report(evaluation)
