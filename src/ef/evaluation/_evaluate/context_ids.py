"""The retrieval metrics over RAG samples' context ids (``ids.ndcg@10``), scored by the one
scoring engine of evaluate_run.

Each sample that has both ``retrieved_context_ids`` and ``reference_context_ids`` becomes a
query of a run and its qrels:

* the run: its retrieved ids as a ranked list, in the order given (a ranked list has no
  scores, so no ties, and the tie policy plays no part); an id repeated counts at its best
  rank, as in every ranked list ef scores;
* the qrels: its reference ids, each at its grade in the extra key
  ``reference_context_grades`` (``{id: grade}``), or 1 where that does not grade it.

Ids compare as text: ``1`` and ``"1"`` are one id. The query id is the sample's id (its
position when sample ids repeat). The run and qrels are then scored as
``evaluate_run({qid: [id, ...]}, qrels, averaging="qrels")`` scores them: a sample whose
reference ids hold no positive grade is skipped, like a query with no relevant doc, and so is
a sample that lacks either id field. Skipped samples have the value ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._engine.scoring import score_rankings
from .._runs.ranked import RankedLists
from ..types import GRADES_KEY, reference_grades

if TYPE_CHECKING:
    from .._engine.rag_measures import ContextIdMeasure
    from .._plugin_engine.registry import Registry
    from ..types import RagSample

__all__ = ["GRADES_KEY", "context_id_inputs", "context_id_values"]


def context_id_inputs(
    samples: Sequence[RagSample], sample_ids: Sequence[str]
) -> tuple[RankedLists, dict[str, dict[str, float]], list[str | None]]:
    """The run and qrels of ``samples``, and each sample's query id (``None`` for a sample
    that lacks an id field).

    >>> run, qrels, queries = context_id_inputs(
    ...     [{"retrieved_context_ids": ["d2", 1], "reference_context_ids": ["1", "d3"],
    ...       "reference_context_grades": {"d3": 2}}, {"retrieved_context_ids": ["d1"]}],
    ...     ["s1", "s2"])
    >>> run.ranking("s1"), qrels, queries
    (['d2', '1'], {'s1': {'1': 1.0, 'd3': 2.0}}, ['s1', None])
    """
    # Sample ids name the queries in messages; repeated ones would merge two samples.
    names = list(sample_ids) if len(set(sample_ids)) == len(sample_ids) else None
    rankings: dict[str, list[str]] = {}
    qrels: dict[str, dict[str, float]] = {}
    queries: list[str | None] = []
    for index, sample in enumerate(samples):
        retrieved = sample.get("retrieved_context_ids")
        judged = reference_grades(sample, index)  # checked even if the sample is not scored
        if sample.get("reference_context_ids") is None:
            queries.append(None)
            continue
        if retrieved is None:
            queries.append(None)
            continue
        query = names[index] if names is not None else str(index)
        # An id retrieved twice counts at its best rank (docs/rag.md): contexts cut from
        # one document may map to one id, as a retriever's results do.
        rankings[query] = list(dict.fromkeys(str(i) for i in retrieved))
        qrels[query] = judged
        queries.append(query)
    return RankedLists(rankings, checked=True), qrels, queries


def context_id_values(
    samples: Sequence[RagSample],
    sample_ids: Sequence[str],
    measures: Sequence[ContextIdMeasure],
    registry: Registry,
) -> dict[str, list[float | None]]:
    """Each measure over the samples' context ids: ``{key: values}``, a value per sample in
    order, ``None`` where the sample was not scored.

    >>> from ef.evaluation import get_registry
    >>> from ef.evaluation._engine.rag_measures import parse_rag_metric
    >>> samples = [
    ...     {"retrieved_context_ids": ["d9", "d1"], "reference_context_ids": ["d1"]},
    ...     {"retrieved_context_ids": ["d3"], "reference_context_ids": ["d3"]},
    ...     {"retrieved_context_ids": ["d3"]},
    ... ]
    >>> measures = parse_rag_metric("ids.mrr@10")
    >>> context_id_values(samples, ["a", "b", "c"], measures, get_registry())
    {'ids.mrr@10': [0.5, 1.0, None]}
    """
    run, qrels, queries = context_id_inputs(samples, sample_ids)
    per_query: Mapping[str, Mapping[str, float]] = {}
    if qrels:
        # Ranked lists have no ties: "input_order" is what they are ranked by.
        scored = score_rankings(
            run,
            qrels,
            [m.measure for m in measures],
            averaging="qrels",
            tie_policy="input_order",
            registry=registry,
        )
        per_query = scored.per_query
    return {
        m.key: [
            per_query[q][m.measure.key] if q is not None and q in per_query else None
            for q in queries
        ]
        for m in measures
    }
