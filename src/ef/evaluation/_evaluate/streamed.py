"""evaluate_run() on a large TREC run file, a batch of whole queries at a time: the journey.

A run file far larger than memory is scored with the memory of one batch
(:mod:`~ef.evaluation._formats.trec.stream`): the per-query values are kept, every batch's
lines are let go. The report is the one the whole file gives; :func:`streamed_evaluation`
returns None where batches cannot give it, and :func:`~ef.evaluation.evaluate_run` then
reads the whole file as before. The scoring and combining of the batches is
:mod:`~ef.evaluation._engine.batched`'s; :func:`batched_evaluation` checks the combined run as
a run read whole is checked, for this journey and the sharded one
(:mod:`~ef.evaluation._evaluate.sharded`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .._engine.batched import (
    BatchScores,
    combine_batches,
    read_whole_warning,
    run_batches,
    scored_parts,
    streamable,
)
from .._engine.doc_overlap import DocOverlap
from .._engine.score_order import ScoreOrder
from .._engine.scoring import Evaluation, evaluation
from .._progress import Progress, phase
from .._runs.packed import packed_qrels
from .._runs.ranked import RankedLists
from .doc_ids import check_doc_overlap
from .inputs import check_overlap, load_qrels
from .score_order import check_score_order

if TYPE_CHECKING:
    from .._engine.measures import Measure
    from .._engine.options import Scoring
    from .._plugin_engine.registry import Registry
    from ..types import DataFrameLike, Qrels
    from .inputs import InputFiles

__all__ = ["batched_evaluation", "streamed_evaluation"]


def streamed_evaluation(
    path: str | os.PathLike[str],
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    measures: Sequence[Measure],
    registry: Registry,
    *,
    files: InputFiles,
    scoring: Scoring,
    inputs: Mapping[str, object],
    progress: Progress = False,
) -> Evaluation | None:
    """The evaluation of the run file ``path`` read in batches of
    :data:`~ef.evaluation._engine.batch_sizes.BLOCK_BYTES`, or None if it is smaller than
    :data:`~ef.evaluation._engine.batch_sizes.STREAM_FROM`, of another format, or cannot be read in
    batches exactly. A run whose queries are not grouped is an
    :class:`~ef.evaluation.InputWarning` saying how to sort it. Its doc ids are checked
    once every batch is scored, before the report (unless ``scoring.check_doc_ids`` is False).
    """
    source = Path(path)
    if not streamable(source, files.run_format, registry):
        return None
    from .._formats.trec.stream import NotStreamable  # numpy: once the run is large enough

    # Kept while every batch is scored: packed, a few arrays instead of an object per grade.
    # Loaded here, so that nothing holds the dicts once packed: a caller that kept them to
    # spare a run read whole after all a second read made XL's peak 359 MB instead of 284.
    judged = packed_qrels(
        load_qrels(qrels, registry, files.qrels_format, columns=files.qrels_columns)
    )
    try:
        # One phase, in bytes of the run: each batch is read and scored before the next.
        with phase(progress, "reading and scoring", source.stat().st_size, unit="bytes") as step:
            parts = scored_parts(
                run_batches(source, step.advance),
                judged,
                measures,
                scoring,
                registry=registry,
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
        read_whole_warning(source, why, stacklevel=4)  # here, evaluate_run, its caller
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
    the run's order (:func:`~ef.evaluation._engine.batched.combine_batches`): checked against
    ``qrels`` as a run read whole is (:func:`~ef.evaluation._evaluate.inputs.check_overlap`,
    :func:`~ef.evaluation._evaluate.doc_ids.check_doc_overlap` of the parts' doc overlaps,
    added up as they pass, unless ``scoring.check_doc_ids`` is False, and
    :func:`~ef.evaluation._evaluate.score_order.check_score_order` of their score orders)."""
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
        scoring,
        registry=registry,
    )
    run = RankedLists(dict.fromkeys(run_ids, ()), checked=True)  # the run's queries, in order
    # stacklevel: the warning points at the caller of evaluate_run, two frames above this.
    check_overlap(run, qrels, scoring.averaging, stacklevel=5)
    if scoring.check_doc_ids:
        # The same frame, from one frame lower.
        check_doc_overlap(docs, stacklevel=4, refuse=scoring.check_doc_ids is True)
    check_score_order(order, stacklevel=4, name=run_name)
    return evaluation(registry, run, qrels, measures, scored, inputs=inputs, **scoring.rules())
