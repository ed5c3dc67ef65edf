"""evaluate_shards() on a sharded run, the journey: many run files, each holding whole
queries, dispatched to where they are scored.

Each shard is read and scored by :func:`score_shard`, in this process or on an executor
(a process pool, a Dask client's ``get_executor()``); only its per-query values, query ids,
tie flags and file hash travel back, and they are combined by
:func:`~ef.evaluation._engine.batched.combine_batches`, so the report is the one the shards
concatenated into one file give. A query in two shards is an error naming both. Scoring and
combining are :mod:`~ef.evaluation._engine.batched`'s; reading a shard (with the checks of a
run read whole) and sending it out are this module's.

>>> import pathlib, tempfile
>>> from ef.evaluation import evaluate_shards
>>> with tempfile.TemporaryDirectory() as tmp:
...     _ = pathlib.Path(tmp, "a.trec").write_text("q1 Q0 d1 1 2.0 r\\n")
...     _ = pathlib.Path(tmp, "b.trec").write_text("q2 Q0 d3 1 1.0 r\\nq2 Q0 d4 2 0.5 r\\n")
...     report = evaluate_shards(f"{tmp}/*.trec", {"q1": {"d1": 1}, "q2": {"d4": 1}},
...                              metrics=("mrr@10",))
>>> report.metrics, [pathlib.Path(e["path"]).name for e in report.manifest["inputs"]["run"]]
({'mrr@10': 0.75}, ['a.trec', 'b.trec'])
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._engine.batched import (
    BatchScores,
    ShardScores,
    batched_scores,
    check_distinct,
    score_batch,
)
from .._engine.manifest import file_entry
from .._engine.options import Scoring
from .._engine.scoring import resolve_measures
from .._formats.remote import local_copy, named_as
from .._formats.sources import is_url
from .._plugin_engine.registry import registry_or_default
from .._progress import Progress, phase
from .._runs.packed import packed_qrels
from .inputs import load_qrels, load_run, tabular
from .report import retrieval_report
from .shard_paths import shards_of
from .streamed import batched_evaluation

if TYPE_CHECKING:
    import concurrent.futures as cf

    from .._plugin_engine.registry import Registry
    from .._reports import RetrievalEvalReport
    from ..types import Averaging, DataFrameLike, Qrels, TiePolicy
    from .inputs import Columns, InputFiles

__all__ = [
    "ShardScores",  # re-exported: the engine's (ef.evaluation._engine.batched)
    "score_shard",
    "sharded_report",
    "shards_of",  # re-exported: shard_paths' (which the paths that score no shard import)
]


def score_shard(
    shard: str,
    qrels: Qrels,
    metrics: Sequence[str],
    k_values: Sequence[int],
    *,
    averaging: Averaging,
    tie_policy: TiePolicy,
    ignore_identical_ids: bool = False,
    run_format: str | None = None,
    run_columns: Columns = None,
    check_swapped: bool = True,
    registry: Registry | None = None,
    stacklevel: int = 1,
) -> ShardScores:
    """Read the run file ``shard`` and score its queries: the task an executor runs (a
    top-level function of plain values, so it pickles). ``metrics`` and ``k_values`` are
    resolved here, with ``registry`` (the default one if None).

    A shard given as a URL (``s3://...``) is copied here, where it is scored, to a local
    temporary file (:func:`~ef.evaluation._formats.remote.local_copy`), hashed on the way and
    deleted once scored. A large TREC shard is read in batches, with flat memory
    (:func:`~ef.evaluation._engine.batched.batched_scores`); if it cannot be, a warning
    says why, from ``stacklevel`` frames above this function (1: its caller)."""
    registry = registry_or_default(registry)
    measures = resolve_measures(metrics, k_values, registry)
    scoring = Scoring(tie_policy, averaging, ignore_identical_ids, check_swapped)

    def scores(path: Path, shown: str | None = None) -> BatchScores:
        """The scores of the local run file ``path``: in batches if it is large, else read
        whole."""
        batched = batched_scores(
            path,
            qrels,
            measures,
            registry,
            run_format=run_format,
            scoring=scoring,
            shown=shown,
            stacklevel=stacklevel + 2,  # above this function and score_shard
        )
        if batched is not None:
            return batched
        table = load_run(path, registry, run_format, columns=run_columns)
        if check_swapped and tabular(path, run_format, registry):
            from .swapped import check_not_swapped

            # Files of lines are told apart by their readers. stacklevel: score_shard's caller.
            check_not_swapped(table, qrels, stacklevel=stacklevel + 3)
        return score_batch(
            table,
            qrels,
            measures,
            scoring,
            registry=registry,
        )

    if is_url(shard):
        with local_copy(shard) as copy, named_as(shard, copy.path):
            scored = scores(copy.path, shown=shard)
    else:
        scored = scores(Path(shard))
    return ShardScores(file_entry(shard), scored)  # hashed as it was read: after it


def _sent_once(executor: cf.Executor, judged: Qrels) -> Any:
    """What to pass each task for ``judged``: on a Dask client's executor, a future of them
    scattered to every worker once (Dask gives each task the worker's copy); else
    ``judged`` itself, which the executor pickles with each task (for a process pool, only
    the few tasks in flight at a time). The qrels of 200,000 judged queries pickle to 8 MB:
    sent with each of a thousand shards, that would be 8 GB through the scheduler."""
    module = type(executor).__module__
    client = getattr(executor, "_client", None) if module.startswith("distributed.") else None
    scatter = getattr(client, "scatter", None)  # ClientExecutor keeps its client there
    if scatter is None:
        return judged
    return scatter(judged, broadcast=True, hash=False)


def _listed_once(shards: Sequence[str]) -> None:
    """Refuse a shard listed twice (by one name, or by two names of one local file), every
    one at once, before any is read: its queries would be in two shards."""
    first: dict[str, int] = {}
    places: dict[int, list[int]] = {}
    for i, shard in enumerate(shards):
        key = shard if is_url(shard) else os.path.normcase(os.path.realpath(shard))
        at = first.setdefault(key, i)
        if at != i:
            places.setdefault(at, [at]).append(i)
    if places:
        twice = "; ".join(_listed(shards, where) for where in places.values())
        raise ValueError(f"{twice}: list each shard once (a query must be in one shard only)")


def _listed(shards: Sequence[str], where: Sequence[int]) -> str:
    """``a.trec is listed twice (shards 1 and 3)``, with the names if they differ."""
    times = "twice" if len(where) == 2 else f"{len(where)} times"
    numbers = ", ".join(str(i + 1) for i in where[:-1]) + f" and {where[-1] + 1}"
    names = [shards[i] for i in where]
    shown = "" if len(set(names)) == 1 else ": " + ", ".join(names)
    return f"the shard {names[0]} is listed {times} (shards {numbers}{shown})"


def _results(futures: Sequence[cf.Future[ShardScores]], step: Any) -> Iterator[ShardScores]:
    try:
        for future in futures:
            yield future.result()
            step.advance(1)
    finally:
        for future in futures:
            future.cancel()


def sharded_report(  # noqa: PLR0917 - the two public journeys' values, in one short call
    shards: Sequence[str],
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    metrics: Sequence[str],
    k_values: Sequence[int],
    registry: Registry | None,
    scoring: Scoring,
    files: InputFiles,
    executor: cf.Executor | None,
    progress: Progress,
) -> RetrievalEvalReport:
    """The report of the run made of ``shards`` (in order) against ``qrels`` (read as
    :func:`~ef.evaluation._evaluate.inputs.load_qrels` reads them, by ``files``), each shard
    scored by ``scoring`` in :func:`score_shard`, inline (``executor`` None) or by
    ``executor.submit``: evaluate_shards' journey, and evaluate_run's for a list or glob of
    run files. Only a ``registry`` given (not None) is sent to the executor; else each
    worker uses its default one. Each shard's doc overlap travels back with its values: the
    doc ids of the whole run are checked before its report is made (unless
    ``scoring.check_doc_ids`` is False)."""
    sent = registry  # to an executor: a registry given, else None (each worker's default)
    registry = registry_or_default(registry)
    _listed_once(shards)
    measures = resolve_measures(metrics, k_values, registry)
    # Kept to the end and sent to every shard: packed. Loaded here, so that nothing holds
    # the dicts once packed (a caller's copy would last through every shard).
    judged = packed_qrels(
        load_qrels(qrels, registry, files.qrels_format, columns=files.qrels_columns)
    )
    # A URL's digest is kept among the last few read (formats.digests): taken now, before the
    # shards at URLs, each recorded in turn, leave it out.
    qrels_entry = file_entry(qrels) if is_url(qrels) else qrels
    options: dict[str, Any] = {  # score_shard takes plain values, as a task may be sent
        "averaging": scoring.averaging,
        "tie_policy": scoring.tie_policy,
        "ignore_identical_ids": scoring.ignore_identical_ids,
        "run_format": files.run_format,
        "run_columns": files.run_columns,
        "check_swapped": scoring.check_swapped,
    }
    metrics, k_values = tuple(metrics), tuple(k_values)
    with phase(progress, "reading and scoring shards", len(shards)) as step:
        if executor is None:
            parts = []
            for shard in shards:
                # stacklevel: a warning points at evaluate_run's caller, two frames up.
                part = score_shard(
                    shard, judged, metrics, k_values, registry=registry, stacklevel=3, **options
                )
                parts.append(part)
                step.advance(1)
        else:
            shared = _sent_once(executor, judged)
            futures = [
                executor.submit(
                    score_shard, shard, shared, metrics, k_values, registry=sent, **options
                )
                for shard in shards
            ]
            parts = list(_results(futures, step))
    check_distinct(shards, parts)
    evaluation = batched_evaluation(
        [p.scores for p in parts],
        judged,
        measures,
        registry,
        scoring=scoring,
        inputs={"run": [p.entry for p in parts], "qrels": qrels_entry},
    )
    return retrieval_report(evaluation)
