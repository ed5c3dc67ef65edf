"""evaluate_run() on a large TREC run file, a batch of whole queries at a time.

A run file far larger than memory is scored with the memory of one batch
(:mod:`~ef.evaluation.formats.trec_stream`): the per-query values are kept, every batch's
lines are let go. The report is the one the whole file gives; :func:`streamed_evaluation`
returns None where batches cannot give it, and :func:`~ef.evaluation.evaluate_run` then
reads the whole file as before. :func:`batched_scores` does the same for one shard of a
sharded run (:mod:`~ef.evaluation.evaluate.sharded`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.batches import BatchScores, combine_batches, merge_batches, scored_parts
from ..engine.doc_overlap import DocOverlap
from ..engine.score_order import ScoreOrder
from ..engine.scoring import Evaluation, evaluation
from ..errors import InputWarning
from ..formats.files import format_for
from ..progress import Progress, phase
from ..runs.packed import packed_qrels
from ..runs.ranked import RankedLists
from .doc_ids import check_doc_overlap
from .inputs import check_overlap, load_qrels
from .score_order import check_score_order

if TYPE_CHECKING:
    from ..engine.measures import Measure
    from ..engine.options import Scoring
    from ..formats.trec_stream import NotStreamable
    from ..plugin_engine.registry import Registry
    from ..runs.table import RunTable
    from ..types import DataFrameLike, Qrels
    from .inputs import Columns

__all__ = [
    "BLOCK_BYTES",
    "STREAM_FROM",
    "batched_evaluation",
    "batched_scores",
    "streamed_evaluation",
]

#: Bytes read at a time: about 900,000 lines of a typical run (a block and its columns take
#: a few hundred MB at most).
BLOCK_BYTES = 16 << 20
#: Run files at least this large are read in batches: below it, the whole file is read.
STREAM_FROM = 2 * BLOCK_BYTES


def _streamable(path: Path, run_format: str | None, registry: Registry) -> bool:
    """A file of the built-in TREC format, large enough for batches to pay."""
    try:
        if path.stat().st_size < STREAM_FROM:
            return False
        fmt = format_for(path, run_format, "read_run", registry, must_exist=True)
    except (OSError, ValueError):  # the whole-file path says what is wrong
        return False
    return fmt.name == "trec" and registry.provider_name(fmt.name, "format") == "builtin.formats"


def _tables(
    path: Path, block_bytes: int, advance: Callable[[int], None] | None = None
) -> Iterator[RunTable]:
    from ..formats.trec_stream import iter_trec_batches  # numpy and polars: once a run is read
    from ..runs.table import RunTable

    for columns in iter_trec_batches(path, block_bytes):
        yield RunTable.from_columns(columns)
        if advance is not None:  # the batch is read and scored: its bytes are done
            advance(block_bytes)


def _read_whole(source: Path | str, why: NotStreamable, stacklevel: int) -> None:
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
    """The :class:`~ef.evaluation.engine.batches.BatchScores` of the run file ``path`` (a
    shard) read in batches of :data:`BLOCK_BYTES` and scored by ``scoring``'s tie policy,
    averaging and identical ids: those of the whole file read at once, or
    None where :func:`streamed_evaluation` would be. ``shown`` names the file in a warning
    (the URL of a local copy), which points ``stacklevel`` frames above this function (1:
    its caller)."""
    from ..formats.trec_stream import NotStreamable

    if not _streamable(path, run_format, registry):
        return None
    try:
        return merge_batches(
            scored_parts(
                _tables(path, BLOCK_BYTES),
                qrels,
                measures,
                averaging=scoring.averaging,
                tie_policy=scoring.tie_policy,
                registry=registry,
                ignore_identical_ids=scoring.ignore_identical_ids,
            )
        )
    except NotStreamable as why:
        _read_whole(shown or path, why, stacklevel + 2)  # + this function and _read_whole
        return None


def streamed_evaluation(
    path: str | os.PathLike[str],
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    measures: Sequence[Measure],
    registry: Registry,
    *,
    qrels_format: str | None,
    run_format: str | None,
    scoring: Scoring,
    inputs: Mapping[str, object],
    progress: Progress = False,
    qrels_columns: Columns = None,
) -> Evaluation | None:
    """The evaluation of the run file ``path`` read in batches of :data:`BLOCK_BYTES`, or
    None if it is smaller than :data:`STREAM_FROM`, of another format, or cannot be read in
    batches exactly. A run whose queries are not grouped is an
    :class:`~ef.evaluation.InputWarning` saying how to sort it. Its doc ids are checked
    once every batch is scored, before the report (unless ``scoring.check_doc_ids`` is False).
    """
    from ..formats.trec_stream import NotStreamable

    source = Path(path)
    if not _streamable(source, run_format, registry):
        return None
    # Kept while every batch is scored: packed, a few arrays instead of an object per grade.
    # Loaded here, so that nothing holds the dicts once packed: a caller that kept them to
    # spare a run read whole after all a second read made XL's peak 359 MB instead of 284.
    judged = packed_qrels(load_qrels(qrels, registry, qrels_format, columns=qrels_columns))
    try:
        # One phase, in bytes of the run: each batch is read and scored before the next.
        with phase(progress, "reading and scoring", source.stat().st_size, unit="bytes") as step:
            parts = scored_parts(
                _tables(source, BLOCK_BYTES, step.advance),
                judged,
                measures,
                averaging=scoring.averaging,
                tie_policy=scoring.tie_policy,
                registry=registry,
                ignore_identical_ids=scoring.ignore_identical_ids,
            )
            return batched_evaluation(
                parts,
                judged,
                measures,
                registry,
                scoring=scoring,
                inputs=inputs,
                run_name=f"the run {path}",
            )
    except NotStreamable as why:  # raised by a batch, before anything is evaluated
        _read_whole(source, why, stacklevel=4)  # here, evaluate_run, its caller
        return None


def batched_evaluation(
    parts: Iterable[BatchScores],
    qrels: Qrels,
    measures: Sequence[Measure],
    registry: Registry,
    *,
    scoring: Scoring,
    inputs: Mapping[str, object],
    run_name: str = "the run",
) -> Evaluation:
    """The evaluation of the run scored batch by batch (or shard by shard) as ``parts``, in
    the run's order (:func:`~ef.evaluation.engine.batches.combine_batches`): checked against
    ``qrels`` as a run read whole is (:func:`~ef.evaluation.evaluate.inputs.check_overlap`,
    :func:`~ef.evaluation.evaluate.doc_ids.check_doc_overlap` of the parts' doc overlaps,
    added up as they pass, unless ``scoring.check_doc_ids`` is False, and
    :func:`~ef.evaluation.evaluate.score_order.check_score_order` of their score orders)."""
    docs, order = DocOverlap(), ScoreOrder()  # small values, whatever the run's size

    def tallied(parts: Iterable[BatchScores]) -> Iterator[BatchScores]:
        nonlocal docs, order
        for part in parts:
            docs += part.docs
            order += part.order
            yield part

    scored, run_ids = combine_batches(
        tallied(parts),
        qrels,
        measures,
        averaging=scoring.averaging,
        tie_policy=scoring.tie_policy,
        registry=registry,
    )
    run = RankedLists(dict.fromkeys(run_ids, ()), checked=True)  # the run's queries, in order
    # stacklevel: the warning points at the caller of evaluate_run, two frames above this.
    check_overlap(run, qrels, scoring.averaging, stacklevel=5)
    if scoring.check_doc_ids:
        # The same frame, from one frame lower.
        check_doc_overlap(docs, stacklevel=4, refuse=scoring.check_doc_ids is True)
    check_score_order(order, stacklevel=4, name=run_name)
    return evaluation(
        registry,
        run,
        qrels,
        measures,
        scored,
        tie_policy=scoring.tie_policy,
        averaging=scoring.averaging,
        inputs=inputs,
    )
