"""Scoring a run in batches of whole queries, anywhere, with the numbers of the whole run.

The one module of a large run's scoring, whether it is read a batch at a time (a run file
larger than memory, :func:`batched_scores`) or held in shards scored elsewhere (another
process, a Dask worker: what :func:`~ef.evaluation.evaluate_shards` dispatches). Each batch is
scored by :func:`~ef.evaluation._engine.scoring.score_rankings` against the judgements of its
own queries, then let go; only the per-query values stay. Every per-query value depends on
that query's ranking and judgements alone, and the means are exact sums (``math.fsum``), so
the batches give the whole run's report: the queries, skipped ones and tie lists in the same
order, the missing ones scored (or skipped) by the same rules.

>>> from ef.evaluation import Registry
>>> from ef.evaluation._engine.options import Scoring
>>> from ef.evaluation._engine.scoring import resolve_measures
>>> from ef.evaluation._runs.ranked import RankedLists
>>> registry = Registry.load(autoload=False)
>>> measures = resolve_measures(["recall@2"], (10,), registry)
>>> qrels = {"q1": {"a": 1}, "q2": {"c": 1}, "q3": {"e": 1}}
>>> batches = [RankedLists({"q1": ["a", "b"]}), RankedLists({"q2": ["d", "c"], "q9": ["x"]})]
>>> scoring = Scoring(tie_policy="input_order")
>>> parts = scored_parts(batches, qrels, measures, scoring, registry=registry)
>>> scored, run_ids = combine_batches(parts, qrels, measures, scoring, registry=registry)
>>> scored.per_query, scored.missing, run_ids
({'q1': {'recall@2': 1.0}, 'q2': {'recall@2': 1.0}, 'q3': {'recall@2': 0.0}}, ['q3'], \
['q1', 'q2', 'q9'])

A batch can be scored elsewhere (another process, a Dask worker): :func:`score_batch` gives
a picklable :class:`BatchScores` of its queries alone (:func:`scored_parts` gives one per
batch, as each arrives), and :func:`combine_batches` makes the whole run's values of those,
in the run's order.

>>> parts = [score_batch(b, qrels, measures, scoring, registry=registry) for b in batches]
>>> combine_batches(parts, qrels, measures, scoring, registry=registry)[0] == scored
True

Consecutive batches of one part (a shard read in batches) make that part's
:class:`BatchScores` with :func:`merge_batches`: what :func:`score_batch` gives for them
read at once.

>>> merge_batches(parts).query_ids
('q1', 'q2', 'q9')
"""

from __future__ import annotations

import warnings
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .._formats.files import format_for
from .._runs.packed import PackedStrings
from ..errors import InputWarning
from ..types import FrozenDict
from . import batch_sizes
from .doc_overlap import LOOKED, DocOverlap, doc_overlap
from .measures import Measure
from .query_values import QueryValues
from .score_order import ScoreOrder, score_order
from .scoring import Scored, query_sets, score_rankings
from .ties import TieDiagnostic

if TYPE_CHECKING:
    from .._formats.trec.stream import NotStreamable
    from .._plugin_engine.registry import Registry
    from .._runs.ranked import RankedRun
    from .._runs.table import RunTable
    from ..types import Qrels
    from .options import Scoring

__all__ = [
    "BatchScores",
    "ShardScores",
    "batched_scores",
    "check_distinct",
    "combine_batches",
    "merge_batches",
    "read_whole_warning",
    "run_batches",
    "score_batch",
    "scored_parts",
    "streamable",
]


_FLAGS = ("tied", "at_cutoff", "at_relevant")


@attrs.frozen
class BatchScores:
    """A batch's share of a run's scoring: its query ids in order, the per-query values of
    its judged queries, which of them have ties (by the names of
    :class:`~ef.evaluation._engine.ties.TieDiagnostic`), and how its docs meet the judged
    ones (:class:`~ef.evaluation._engine.doc_overlap.DocOverlap`, for the check of the doc
    ids), and how many of its queries list their docs by rising score
    (:class:`~ef.evaluation._engine.score_order.ScoreOrder`). Picklable: it is what travels
    back from a batch scored on another process or machine."""

    query_ids: tuple[str, ...]
    per_query: Mapping[str, Mapping[str, float]]
    ties: Mapping[str, frozenset[str]]
    docs: DocOverlap = attrs.field(factory=DocOverlap)
    order: ScoreOrder = attrs.field(factory=ScoreOrder)


def _scored(
    run: RankedRun,
    judged: Qrels,
    measures: Sequence[Measure],
    scoring: Scoring,
    registry: Registry | None,
) -> Scored:
    """``run`` scored against ``judged`` (every query of which it holds, or none): a batch
    of queries, or the judged queries no batch held."""
    return score_rankings(run, judged, measures, registry=registry, **scoring.rules())


def score_batch(
    batch: RankedRun,
    qrels: Qrels,
    measures: Sequence[Measure],
    scoring: Scoring,
    *,
    registry: Registry | None = None,
    looks: int = LOOKED,
) -> BatchScores:
    """The values of ``batch``'s judged queries (whole queries of a larger run), scored
    against ``qrels``: a part for :func:`combine_batches`; ``looks``: how many of its queries
    without a judged doc to look at closer (:func:`~ef.evaluation._engine.doc_overlap.
    doc_overlap`)."""
    query_ids = tuple(batch.query_ids)
    order = score_order(batch)  # every query's: the order of a file is the file's
    judged = {q: j for q in query_ids if (j := qrels.get(q)) is not None}  # one look-up each
    if not judged:
        no_ties: FrozenDict[str, frozenset[str]] = FrozenDict({n: frozenset() for n in _FLAGS})
        return BatchScores(query_ids, FrozenDict(), no_ties, order=order)
    # The docs as the run holds them, as a run read whole is checked (identical ids kept).
    docs = doc_overlap(batch, judged, query_sets(batch, judged, scoring.averaging)[0], looks=looks)
    run = batch.without_identical_ids() if scoring.ignore_identical_ids else batch
    # Every query of ``judged`` is in this batch: none is missing from it.
    part = _scored(run, judged, measures, scoring, registry)
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
    scoring: Scoring,
    *,
    registry: Registry | None = None,
) -> tuple[Scored, list[str]]:
    """The whole run's :class:`~ef.evaluation._engine.scoring.Scored` made of ``parts`` (in
    the run's order, no query in two), and the run's query ids in order."""
    from .._runs.ranked import RankedLists

    run_ids, ids, columns, marks = _gathered(parts, measures)
    # The whole run's query sets: its order, skipped queries and missing ones.
    whole = RankedLists(dict.fromkeys(run_ids, ()), checked=True)
    query_ids, skipped, missing = query_sets(whole, qrels, scoring.averaging)
    del whole
    position = _positions(ids)
    unscored = {q: qrels[q] for q in query_ids if q not in position}
    if unscored:  # judged queries the run lacks, scored 0 under averaging="qrels"
        absent = _scored(RankedLists({}, checked=True), unscored, measures, scoring, registry)
        _append(absent.per_query, ids, columns, marks, position)
    in_order = ids == query_ids
    order = range(len(ids)) if in_order else [position[q] for q in query_ids]
    del position
    ties = _tie_lists(query_ids, order, marks, scoring.tie_policy)
    if not in_order:  # the report's order (the qrels', under averaging="qrels")
        columns = {k: array("d", map(column.__getitem__, order)) for k, column in columns.items()}
    return Scored(QueryValues(query_ids, columns), skipped, missing, ties), run_ids


def _gathered(
    parts: Iterable[BatchScores], measures: Sequence[Measure]
) -> tuple[list[str], list[str], dict[str, array[float]], bytearray]:
    """The run's query ids, its scored ones (in the parts' order), each measure's values of
    those and a byte of tie flags for each: ``parts`` taken in, one at a time."""
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
        scored_at.append(_run_positions(part, start))
        start += len(part.query_ids)
        for key, column in chunks.items():
            column.append(_column(part.per_query, key))
        marks.extend(_tie_marks(part))
    # Now that the parts are done, their ids are strings again: once, shared by both lists.
    run_ids = [q for ids in packed for q in ids]
    del packed
    ids = [run_ids[i] for i in _joined("q", scored_at)]  # the scored ones, in the parts' order
    del scored_at
    columns = {key: _joined("d", column) for key, column in chunks.items()}
    return run_ids, ids, columns, marks


def _run_positions(part: BatchScores, start: int) -> array[int]:
    """The run position of each scored query of ``part``, whose first query is at ``start``."""
    in_run = {q: start + i for i, q in enumerate(part.query_ids)}
    try:
        return array("q", [in_run[q] for q in part.per_query])
    except KeyError as exc:
        query = exc.args[0]
        raise ValueError(f"a part scores query {query!r}, not one of its queries") from None


def _tie_marks(part: BatchScores) -> Iterator[int]:
    """A byte per scored query of ``part``: bit b set if it is in the tie list ``_FLAGS[b]``."""
    tied, at_cutoff, at_relevant = (part.ties[name] for name in _FLAGS)
    return ((q in tied) | (q in at_cutoff) << 1 | (q in at_relevant) << 2 for q in part.per_query)


def _positions(ids: Sequence[str]) -> dict[str, int]:
    """Where each scored query is among ``ids``; a query there twice is an error."""
    position = {q: i for i, q in enumerate(ids)}
    if len(position) != len(ids):
        raise ValueError("a query is in two batches: each batch must hold whole queries")
    return position


def _append(
    values: Mapping[str, Mapping[str, float]],
    ids: list[str],
    columns: Mapping[str, array[float]],
    marks: bytearray,
    position: dict[str, int],
) -> None:
    """Add the queries of ``values`` after the scored ones, with no tie (a query the run
    lacks has none)."""
    position.update((q, len(ids) + i) for i, q in enumerate(values))
    ids.extend(values)
    for key, column in columns.items():
        column.extend(_column(values, key))
    marks.extend(bytes(len(values)))


def _tie_lists(
    query_ids: Sequence[str], order: Sequence[int], marks: bytearray, tie_policy: str
) -> TieDiagnostic:
    """The tie lists of ``query_ids`` in order, their flags at ``marks[order[i]]``."""
    listed = [
        [q for q, i in zip(query_ids, order, strict=True) if marks[i] & (1 << bit)]
        for bit in range(len(_FLAGS))
    ]
    return TieDiagnostic(
        policy=tie_policy, tied=listed[0], at_cutoff=listed[1], at_relevant=listed[2]
    )


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
    scoring: Scoring,
    *,
    registry: Registry | None = None,
) -> Iterator[BatchScores]:
    """:func:`score_batch` of each batch in turn, as it arrives (a batch is let go once
    scored): the parts for :func:`combine_batches` or :func:`merge_batches`. The queries
    without a judged doc are looked at until :data:`~ef.evaluation._engine.doc_overlap.
    LOOKED` are, as the parts' sum keeps them: fetching the rankings of more cost a fifth
    of the scoring of a large run."""
    looked = 0
    for batch in batches:
        part = score_batch(
            batch, qrels, measures, scoring, registry=registry, looks=LOOKED - looked
        )
        looked += len(part.docs.looked)
        yield part


def streamable(path: Path, run_format: str | None, registry: Registry) -> bool:
    """A file of the built-in TREC format, large enough for batches to pay
    (:func:`~ef.evaluation._engine.batch_sizes.large_enough`)."""
    if not batch_sizes.large_enough(path):
        return False
    try:
        fmt = format_for(path, run_format, "read_run", registry, must_exist=True)
    except (OSError, ValueError):  # the whole-file path says what is wrong
        return False
    return fmt.name == "trec" and registry.provider_name(fmt.name, "format") == "builtin.formats"


def run_batches(path: Path, advance: Callable[[int], None] | None = None) -> Iterator[RunTable]:
    """The run file ``path`` as tables of whole queries, about
    :data:`~ef.evaluation._engine.batch_sizes.BLOCK_BYTES` read for each;
    ``advance(BLOCK_BYTES)`` once each has been used (read and scored)."""
    from .._formats.trec.stream import iter_trec_batches  # numpy and polars: once a run is read
    from .._runs.table import RunTable

    block_bytes = batch_sizes.BLOCK_BYTES  # read when called: the tests make it tiny
    for columns in iter_trec_batches(path, block_bytes):
        yield RunTable.from_columns(columns)
        if advance is not None:  # the batch is read and scored: its bytes are done
            advance(block_bytes)


def read_whole_warning(source: Path | str, why: NotStreamable, stacklevel: int) -> None:
    """Say why a run is read whole, if its order is the reason (sorting it is the fix), at
    ``stacklevel`` as :func:`warnings.warn` counts it here (1: this function)."""
    if not why.grouped:
        warnings.warn(
            f"{source}: {why}, so the whole run is read at once and memory grows with "
            f"it; sorted by query (LC_ALL=C sort -k1,1 -s {source} > sorted.trec), it is "
            "read in batches",
            InputWarning,
            stacklevel=stacklevel,
        )


def batched_scores(
    path: Path,
    qrels: Qrels,
    measures: Sequence[Measure],
    registry: Registry,
    *,
    run_format: str | None,
    scoring: Scoring,
    shown: str | None = None,
    stacklevel: int = 1,
) -> BatchScores | None:
    """The :class:`BatchScores` of the run file ``path`` (a shard) read in batches of
    :data:`~ef.evaluation._engine.batch_sizes.BLOCK_BYTES` and scored by ``scoring``'s tie
    policy, averaging and identical ids: those of the whole file read at once, or None where
    it is smaller than :data:`~ef.evaluation._engine.batch_sizes.STREAM_FROM`, of another
    format, or cannot be read in batches exactly. ``shown`` names the file in a warning (the
    URL of a local copy), which points ``stacklevel`` frames above this function (1: its
    caller)."""
    if not streamable(path, run_format, registry):
        return None
    from .._formats.trec.stream import NotStreamable  # numpy: once the run is large enough

    try:
        return merge_batches(
            scored_parts(
                run_batches(path),
                qrels,
                measures,
                scoring,
                registry=registry,
            )
        )
    except NotStreamable as why:
        # + this function and read_whole_warning
        read_whole_warning(shown or path, why, stacklevel + 2)
        return None


@attrs.frozen
class ShardScores:
    """What scoring one shard gives: its :func:`~ef.evaluation._engine.manifest.file_entry`
    (path, sha256, bytes) and its :class:`BatchScores`."""

    entry: Mapping[str, Any]
    scores: BatchScores


def check_distinct(shards: Sequence[str], parts: Sequence[ShardScores]) -> None:
    """Refuse queries that are in two shards, naming every pair of shards that share one."""
    owner: dict[str, int] = {}
    shared: dict[tuple[int, int], list[str]] = {}
    for i, part in enumerate(parts):
        for query_id in part.scores.query_ids:
            at = owner.setdefault(query_id, i)
            if at != i:
                shared.setdefault((at, i), []).append(query_id)
    if not shared:
        return
    pairs = [_shared_pair(shards, parts, pair, queries) for pair, queries in shared.items()]
    more = f"; and {len(pairs) - 5} more pairs of shards share queries" if len(pairs) > 5 else ""
    raise ValueError(
        "; ".join(pairs[:5]) + more + ": each shard must hold whole queries (split the run by "
        "query, not by line count)"
    )


def _shared_pair(
    shards: Sequence[str], parts: Sequence[ShardScores], pair: tuple[int, int], queries: list[str]
) -> str:
    """What two shards share: the first query, how many more, and whether they are copies."""
    a, b = pair
    said = f"query {queries[0]!r} is in two shards, {shards[a]} and {shards[b]}"
    if len(queries) > 1:
        more = len(queries) - 1
        said += f", as {'is' if more == 1 else 'are'} {more} more of their queries"
    digests = {parts[a].entry.get("sha256"), parts[b].entry.get("sha256")}
    if len(digests) == 1 and None not in digests:
        said += " (the two files hold the same bytes: is one a copy of the other?)"
    return said
