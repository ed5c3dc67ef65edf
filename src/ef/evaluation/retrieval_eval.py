"""evaluate_retrieval(): run a retriever over judged queries and score its rankings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._registry import Registry, registry_or_default
from .errors import RetrieverError
from .interfaces import SearchFunction
from .reports import RetrievalEvalReport
from .scoring import check_k_values, mean_of, resolve_measures, score_all

__all__ = ["evaluate_retrieval", "result_doc_id"]

_ID_ATTRIBUTES = ("doc_id", "source_id", "id")
_ID_KEYS = ("_id", "doc_id", "id")
_ACCEPTED = (
    "a doc-id string; an object with a doc_id, source_id or id attribute; a mapping with an "
    "'_id', 'doc_id' or 'id' key; or a (doc_id, score) pair"
)


def _as_id(value: object) -> str | None:
    if isinstance(value, str):
        return value
    # An integer id (a row number, a bm25s index) is an id too; qrels ids are strings.
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def result_doc_id(result: object) -> str:
    """The source document id of one retriever result.

    Accepted shapes, tried in this order: a doc-id string; a ``(doc_id, score)`` pair; a
    mapping with an ``_id``, ``doc_id`` or ``id`` key; an object with a ``doc_id``,
    ``source_id`` or ``id`` attribute. Integer ids become strings.

    >>> result_doc_id("d1"), result_doc_id(("d2", 0.7)), result_doc_id({"_id": "d3"})
    ('d1', 'd2', 'd3')
    >>> result_doc_id(3.5)
    Traceback (most recent call last):
        ...
    TypeError: cannot find a doc id in the retriever result 3.5 (float); expected a doc-id \
string; an object with a doc_id, source_id or id attribute; a mapping with an '_id', 'doc_id' \
or 'id' key; or a (doc_id, score) pair
    """
    found = _as_id(result)
    if found is None and isinstance(result, tuple) and len(result) == 2:
        found = _as_id(result[0])
    elif found is None and isinstance(result, Mapping):
        found = next((_as_id(result[k]) for k in _ID_KEYS if k in result), None)
    elif found is None:
        found = next(
            (
                _as_id(getattr(result, a))
                for a in _ID_ATTRIBUTES
                if getattr(result, a, None) is not None
            ),
            None,
        )
    if found is None:
        raise TypeError(
            f"cannot find a doc id in the retriever result {result!r} "
            f"({type(result).__name__}); expected {_ACCEPTED}"
        )
    return found


def _ranking(results: Sequence[Any], limit: int) -> list[str]:
    """The first ``limit`` results as source doc ids, each kept at its best rank."""
    ranked: dict[str, None] = {}
    for result in list(results)[:limit]:
        ranked.setdefault(result_doc_id(result), None)
    return list(ranked)


def _search_function(retriever: Any, registry: Registry) -> SearchFunction:
    for adapter in registry.adapters:
        if adapter.accepts(retriever):
            return adapter.adapt(retriever)
    tried = ", ".join(
        f"{a.name} ({a.description})" if a.description else a.name for a in registry.adapters
    )
    raise TypeError(
        f"no retriever adapter accepts {type(retriever).__name__} objects; tried: {tried}"
    )


def evaluate_retrieval(
    retriever: Any,
    qrels: Mapping[str, Mapping[str, float]],
    queries: Mapping[str, str],
    *,
    k_values: Sequence[int] = (1, 5, 10, 100),
    metrics: Sequence[str] = ("ndcg", "recall", "precision", "mrr", "map"),
    limit: int | None = None,
    registry: Registry | None = None,
    ignore_identical_ids: bool = False,
) -> RetrievalEvalReport:
    """Score a retriever against a BEIR-shaped evaluation set.

    For every query judged in ``qrels``, the retriever is run, its results are mapped back to
    source document ids (:func:`result_doc_id`, de-duplicated to the best rank per source), and
    each requested metric is computed at each cutoff in ``k_values``. The report holds the mean
    of each ``"<metric>@<k>"`` over all scored queries; the primary metric is NDCG@10.

    Args:
        retriever: what answers a query: a callable ``(query, *, limit)``, an object with
            ``.search(query, limit=...)`` or ``.retrieve(...)``, or anything a retriever-adapter
            plugin accepts. Results may be doc-id strings, objects with ``doc_id`` /
            ``source_id`` / ``id``, mappings with ``_id`` / ``doc_id`` / ``id``, or
            ``(doc_id, score)`` pairs, in ranked order.
        qrels: the relevance judgements, ``{query_id: {doc_id: relevance}}``. Queries with no
            positive judgement are skipped.
        queries: the query texts, ``{query_id: query_text}``. A judged query absent here
            cannot be run and is skipped.
        k_values: the rank cutoffs to evaluate at.
        metrics: which metrics to compute: ``ndcg``, ``recall``, ``precision``, ``mrr``,
            ``map``, or any other retrieval metric (built-in or a plugin's), each at every
            cutoff of ``k_values``; ``"ndcg@10"`` names one cutoff only, and ir_measures' or
            trec_eval's syntax works too (``"P(rel=2)@5"``, ``"ndcg_cut.10"``).
        limit: how many results to retrieve per query. ``None`` uses ``max(k_values)``; raise
            it when sources segment into many pieces (de-duplication to source level can
            otherwise shorten the ranking).
        registry: the plugins to use; ``None`` is the default registry of installed plugins.
        ignore_identical_ids: drop a result whose doc id is the query's id (BEIR's option,
            for corpora that contain the queries); the results below move up a rank.

    Returns:
        a :class:`RetrievalEvalReport`; its ``skipped`` maps each judged query that was not
        scored to the reason.

    Raises:
        ValueError: for an unknown metric name, a bad cutoff, or if no query can be scored.
        TypeError: if no adapter accepts ``retriever`` or a result has no doc id.
        RetrieverError: if the retriever raises; the message names the query id.

    >>> qrels = {'q1': {'d1': 1.0}, 'q2': {'d2': 1.0}}
    >>> queries = {'q1': 'alpha', 'q2': 'beta'}
    >>> def retriever(query, *, limit=10):
    ...     return {'alpha': ['d1', 'd2'], 'beta': ['d1', 'd2']}[query][:limit]
    >>> report = evaluate_retrieval(retriever, qrels, queries, k_values=(1, 2))
    >>> report.metrics['recall@2'], report.n_queries
    (1.0, 2)
    """
    registry = registry_or_default(registry)
    measures = resolve_measures(metrics, k_values, registry)
    ks = tuple(dict.fromkeys(m.k for m in measures if m.k is not None))
    if limit is None:  # measures of the whole ranking get max(k_values) results
        limit = max(ks or check_k_values(k_values))
    elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive int or None, got {limit!r}")
    search = _search_function(retriever, registry)

    scored: list[str] = []
    judgements: list[Mapping[str, float]] = []
    rankings: list[list[str]] = []
    skipped: dict[str, str] = {}
    for query_id, judged in qrels.items():
        if not any(grade > 0 for grade in judged.values()):
            skipped[query_id] = "no positive judgement"
            continue
        if query_id not in queries:
            skipped[query_id] = "no query text in queries"
            continue
        try:
            results = search(queries[query_id], limit)
        except Exception as exc:
            raise RetrieverError(
                f"the retriever raised on query {query_id!r}: {type(exc).__name__}: {exc}"
            ) from exc
        try:
            ranked = _ranking(results, limit)
        except TypeError as exc:
            raise TypeError(f"query {query_id!r}: {exc}") from None
        if ignore_identical_ids:
            ranked = [doc for doc in ranked if doc != query_id]
        scored.append(query_id)
        judgements.append(judged)
        rankings.append(ranked)
    from .metrics.batch import JudgedHits  # numpy, only once something is scored

    hits = JudgedHits.from_rankings(rankings, judgements)
    per_query = score_all(measures, scored, judgements, hits, lambda: rankings)
    if not per_query:
        reasons = sorted(set(skipped.values())) or ["qrels is empty"]
        raise ValueError(f"no query can be scored ({'; '.join(reasons)})")
    means = mean_of(measures, per_query)
    return RetrievalEvalReport(
        metrics=means, per_query=per_query, n_queries=len(per_query), k_values=ks, skipped=skipped
    )
