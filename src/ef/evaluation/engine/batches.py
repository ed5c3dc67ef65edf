"""Scoring a run that arrives in batches of whole queries, with the numbers of the whole run.

Each batch is scored by :func:`~ef.evaluation.engine.scoring.score_rankings` against the
judgements of its own queries, then let go; only the per-query values stay. Every per-query
value depends on that query's ranking and judgements alone, and the means are exact sums
(``math.fsum``), so the batches give the whole run's report: the queries, skipped ones and
tie lists in the same order, the missing ones scored (or skipped) by the same rules.

>>> from ef.evaluation import Registry
>>> from ef.evaluation.engine.scoring import resolve_measures
>>> from ef.evaluation.runs.ranked import RankedLists
>>> registry = Registry.load(autoload=False)
>>> measures = resolve_measures(["recall@2"], (10,), registry)
>>> qrels = {"q1": {"a": 1}, "q2": {"c": 1}, "q3": {"e": 1}}
>>> batches = [RankedLists({"q1": ["a", "b"]}), RankedLists({"q2": ["d", "c"], "q9": ["x"]})]
>>> parts = scored_parts(batches, qrels, measures, averaging="qrels",
...                      tie_policy="input_order", registry=registry)
>>> scored, run_ids = combine_batches(parts, qrels, measures, averaging="qrels",
...                                   tie_policy="input_order", registry=registry)
>>> scored.per_query, scored.missing, run_ids
({'q1': {'recall@2': 1.0}, 'q2': {'recall@2': 1.0}, 'q3': {'recall@2': 0.0}}, ['q3'], \
['q1', 'q2', 'q9'])

A batch can be scored elsewhere (another process, a Dask worker): :func:`score_batch` gives
a picklable :class:`BatchScores` of its queries alone (:func:`scored_parts` gives one per
batch, as each arrives), and :func:`combine_batches` makes the whole run's values of those,
in the run's order.

>>> parts = [score_batch(b, qrels, measures, averaging="qrels", tie_policy="input_order",
...                      registry=registry) for b in batches]
>>> combine_batches(parts, qrels, measures, averaging="qrels", tie_policy="input_order",
...                 registry=registry)[0] == scored
True

Consecutive batches of one part (a shard read in batches) make that part's
:class:`BatchScores` with :func:`merge_batches`: what :func:`score_batch` gives for them
read at once.

>>> merge_batches(parts).query_ids
('q1', 'q2', 'q9')
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..runs.packed import PackedStrings
from ..types import FrozenDict
from .doc_overlap import DocOverlap, doc_overlap
from .measures import Measure
from .query_values import QueryValues
from .score_order import ScoreOrder, score_order
from .scoring import Scored, query_sets, score_rankings
from .ties import TieDiagnostic

if TYPE_CHECKING:
    from ..plugin_engine.registry import Registry
    from ..runs.ranked import RankedRun
    from ..types import Qrels

__all__ = [
    "BatchScores",
    "combine_batches",
    "merge_batches",
    "score_batch",
    "scored_parts",
]

_FLAGS = ("tied", "at_cutoff", "at_relevant")


@attrs.frozen
class BatchScores:
    """A batch's share of a run's scoring: its query ids in order, the per-query values of
    its judged queries, which of them have ties (by the names of
    :class:`~ef.evaluation.engine.ties.TieDiagnostic`), and how its docs meet the judged
    ones (:class:`~ef.evaluation.engine.doc_overlap.DocOverlap`, for the check of the doc
    ids), and how many of its queries list their docs by rising score
    (:class:`~ef.evaluation.engine.score_order.ScoreOrder`). Picklable: it is what travels
    back from a batch scored on another process or machine."""

    query_ids: tuple[str, ...]
    per_query: Mapping[str, Mapping[str, float]]
    ties: Mapping[str, frozenset[str]]
    docs: DocOverlap = attrs.field(factory=DocOverlap)
    order: ScoreOrder = attrs.field(factory=ScoreOrder)


def _cutoffs(measures: Sequence[Measure]) -> list[int]:
    return sorted({m.k for m in measures if m.k is not None})


def score_batch(
    batch: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    averaging: str,
    tie_policy: str,
    registry: Registry | None = None,
    ignore_identical_ids: bool = False,
) -> BatchScores:
    """The values of ``batch``'s judged queries (whole queries of a larger run), scored
    against ``qrels``: a part for :func:`combine_batches`."""
    query_ids = tuple(batch.query_ids)
    order = score_order(batch)  # every query's: the order of a file is the file's
    judged = {q: j for q in query_ids if (j := qrels.get(q)) is not None}  # one look-up each
    if not judged:
        no_ties: FrozenDict[str, frozenset[str]] = FrozenDict({n: frozenset() for n in _FLAGS})
        return BatchScores(query_ids, FrozenDict(), no_ties, order=order)
    # The docs as the run holds them, as a run read whole is checked (identical ids kept).
    docs = doc_overlap(batch, judged, query_sets(batch, judged, averaging)[0])
    run = batch.without_identical_ids() if ignore_identical_ids else batch
    # Every query of ``judged`` is in this batch: none is missing from it.
    part = score_rankings(
        run,
        judged,
        measures,
        averaging=averaging,
        tie_policy=tie_policy,
        cutoffs=_cutoffs(measures),
        registry=registry,
    )
    ties = FrozenDict({n: frozenset(getattr(part.ties, n)) for n in _FLAGS})
    return BatchScores(query_ids, part.per_query, ties, docs, order)  # columns, as reported


def merge_batches(parts: Iterable[BatchScores]) -> BatchScores:
    """One :class:`BatchScores` of ``parts``, consecutive batches of one run (no query in
    two): the one :func:`score_batch` gives for their batches concatenated."""
    query_ids: list[str] = []
    ids: list[str] = []
    columns: dict[str, array[float]] | None = None  # the keys of the first scored batch
    flagged: dict[str, set[str]] = {name: set() for name in _FLAGS}
    docs, order = DocOverlap(), ScoreOrder()
    for part in parts:
        query_ids.extend(part.query_ids)
        docs += part.docs
        order += part.order
        if part.per_query:
            if columns is None:
                first = next(iter(part.per_query.values()))
                columns = {key: array("d") for key in first}
            ids.extend(part.per_query)
            for key, column in columns.items():
                column.extend(_column(part.per_query, key))
        for name, queries in flagged.items():
            queries.update(part.ties[name])
    ties = FrozenDict({name: frozenset(queries) for name, queries in flagged.items()})
    per_query = FrozenDict() if columns is None else QueryValues(ids, columns)
    return BatchScores(tuple(query_ids), per_query, ties, docs, order)


def combine_batches(
    parts: Iterable[BatchScores],
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    averaging: str,
    tie_policy: str,
    registry: Registry | None = None,
) -> tuple[Scored, list[str]]:
    """The whole run's :class:`~ef.evaluation.engine.scoring.Scored` made of ``parts`` (in
    the run's order, no query in two), and the run's query ids in order."""
    from ..runs.ranked import RankedLists

    # Kept until every part is in, a part at a time (no array grows and moves through the
    # batches, leaving holes): each part's query ids packed, not a string per query; the
    # run position of each scored query; each measure's values.
    packed: list[PackedStrings] = []
    scored_at: list[array[int]] = []
    chunks: dict[str, list[array[float]]] = {m.key: [] for m in measures}
    # A byte per scored query, in scored_at's order: bit b set if it is in the tie list
    # _FLAGS[b] (three sets of every tied query's id would take 100 bytes a query).
    marks = bytearray()
    start = 0  # the run position of the part's first query
    for part in parts:
        packed.append(PackedStrings(part.query_ids))
        in_run = {q: start + i for i, q in enumerate(part.query_ids)}
        start += len(part.query_ids)
        try:
            scored_at.append(array("q", [in_run[q] for q in part.per_query]))
        except KeyError as exc:
            query = exc.args[0]
            raise ValueError(f"a part scores query {query!r}, not one of its queries") from None
        for key, column in chunks.items():
            column.append(_column(part.per_query, key))
        tied, at_cutoff, at_relevant = (part.ties[name] for name in _FLAGS)
        marks.extend(
            (q in tied) | (q in at_cutoff) << 1 | (q in at_relevant) << 2 for q in part.per_query
        )
    # Now that the parts are done, their ids are strings again: once, shared by both lists.
    run_ids = [q for ids in packed for q in ids]
    del packed
    ids = [run_ids[i] for i in _joined("q", scored_at)]  # the scored ones, in the parts' order
    del scored_at
    columns = {key: _joined("d", column) for key, column in chunks.items()}
    del chunks
    # The whole run's query sets: its order, skipped queries and missing ones.
    whole = RankedLists(dict.fromkeys(run_ids, ()), checked=True)
    query_ids, skipped, missing = query_sets(whole, qrels, averaging)
    del whole
    position = {q: i for i, q in enumerate(ids)}
    if len(position) != len(ids):
        raise ValueError("a query is in two batches: each batch must hold whole queries")
    unscored = {q: qrels[q] for q in query_ids if q not in position}
    if unscored:  # judged queries the run lacks, scored 0 under averaging="qrels"
        absent = score_rankings(
            RankedLists({}, checked=True),
            unscored,
            measures,
            averaging=averaging,
            tie_policy=tie_policy,
            cutoffs=_cutoffs(measures),
            registry=registry,
        )
        position.update((q, len(ids) + i) for i, q in enumerate(absent.per_query))
        ids.extend(absent.per_query)
        for key, values in columns.items():
            values.extend(_column(absent.per_query, key))
        marks.extend(bytes(len(absent.per_query)))  # a query the run lacks has no tie
    in_order = ids == query_ids
    order = range(len(ids)) if in_order else [position[q] for q in query_ids]
    del position
    listed = [
        [q for q, i in zip(query_ids, order, strict=True) if marks[i] & (1 << bit)]
        for bit in range(len(_FLAGS))
    ]
    ties = TieDiagnostic(
        policy=tie_policy, tied=listed[0], at_cutoff=listed[1], at_relevant=listed[2]
    )
    if not in_order:  # the report's order (the qrels', under averaging="qrels")
        columns = {k: array("d", map(column.__getitem__, order)) for k, column in columns.items()}
    return Scored(QueryValues(query_ids, columns), skipped, missing, ties), run_ids


def _column(values: Mapping[str, Mapping[str, float]], key: str) -> array[float]:
    """The values of ``key``, one per query of ``values`` in order."""
    if isinstance(values, QueryValues):
        return array("d", values.column(key))
    return array("d", (row[key] for row in values.values()))  # a BatchScores made by hand


def _joined(typecode: str, chunks: list[array[Any]]) -> array[Any]:
    """One array of ``chunks`` one after another."""
    joined = array(typecode)
    joined.frombytes(b"".join(chunks))
    return joined


def scored_parts(
    batches: Iterable[RankedRun],
    qrels: Qrels,
    measures: Sequence[Measure],
    *,
    averaging: str,
    tie_policy: str,
    registry: Registry | None = None,
    ignore_identical_ids: bool = False,
) -> Iterator[BatchScores]:
    """:func:`score_batch` of each batch in turn, as it arrives (a batch is let go once
    scored): the parts for :func:`combine_batches` or :func:`merge_batches`."""
    for batch in batches:
        yield score_batch(
            batch,
            qrels,
            measures,
            averaging=averaging,
            tie_policy=tie_policy,
            registry=registry,
            ignore_identical_ids=ignore_identical_ids,
        )
