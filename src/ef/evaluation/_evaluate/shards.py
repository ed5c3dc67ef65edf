"""evaluate_shards(): score a run held as many files, each holding whole queries.

The sharded journey as its own public function, and the only one that takes an executor:
each shard is read and scored where it runs (:mod:`~ef.evaluation._evaluate.sharded`), and
the shards' per-query values are combined (:mod:`~ef.evaluation._engine.batched`) into the
report the shards concatenated into one file give.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, TypeAlias

from .._engine.measures import DEFAULT_K_VALUES, DEFAULT_METRICS
from .._engine.options import Scoring
from .._engine.scoring import resolve_measures
from .._formats.sources import is_irds
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Progress, check_progress
from .._reports import RetrievalEvalReport
from .inputs import InputFiles
from .pools import check_start_method
from .shard_paths import shards_of

if TYPE_CHECKING:
    import concurrent.futures as cf

    from ..types import Averaging, DataFrameLike, Qrels, TiePolicy

__all__ = ["check_executor", "evaluate_shards", "shard_paths"]

#: What evaluate_shards() takes as its run: a list of paths or URLs, a glob, one path or URL.
ShardsInput: TypeAlias = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


def evaluate_shards(
    paths_or_glob: ShardsInput,
    qrels: Qrels | DataFrameLike | str | os.PathLike[str],
    *,
    executor: cf.Executor | None = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    averaging: Averaging | None = None,
    tie_policy: TiePolicy | None = None,
    ignore_identical_ids: bool | None = None,
    registry: Registry | None = None,
    run_format: str | None = None,
    qrels_format: str | None = None,
    run_columns: Sequence[str] | None = None,
    qrels_columns: Sequence[str] | None = None,
    check_swapped: bool = True,
    check_doc_ids: bool | Literal["warn"] = True,
    progress: Progress = False,
) -> RetrievalEvalReport:
    """Score a run held as many files (shards), each holding whole queries: the numbers of
    the shards concatenated into one file, as :func:`~ef.evaluation.evaluate_run` gives them.

    Each shard is read and scored where it runs, and only its per-query values travel back;
    a large TREC shard is read in batches, with flat memory. A query in two shards, or a
    shard listed twice, is an error naming them. The report's manifest lists every shard (a
    path or a URL) with its sha256. The keywords are :func:`~ef.evaluation.evaluate_run`'s,
    and the run and qrels are checked as it checks them (swapped inputs, no judged query in
    common, doc ids that do not meet the qrels'), over the whole run, before the report is
    made. A profile (another tool's rules) scores one file, so there is none here.

    Args:
        paths_or_glob: the shards, in order: a list of run files (TREC, MS MARCO or Parquet,
            detected), a glob (``"runs/*.trec"``, Parquet partitions
            ``"runs/**/*.parquet"``, matched in sorted order), or fsspec URLs, a list or a
            glob of them (``"s3://bucket/runs/*.trec"``; needs
            ``pip install "ef-evaluation[remote]"`` and the protocol's package, such as s3fs).
            A shard at a URL is copied to a local temporary file where it is scored, and
            deleted after. One path is a run of one shard.
        qrels: as :func:`~ef.evaluation.evaluate_run` takes them.
        executor: where each shard is read and scored: ``None`` in this process, one after
            another; any ``concurrent.futures.Executor`` (a process pool, a Dask
            ``client.get_executor()``) runs ``score_shard()``
            there. The numbers are the same either way. A process pool started by ``fork``
            (``ProcessPoolExecutor()`` on Linux before Python 3.14) is refused, as it can hang:
            pass ``mp_context=multiprocessing.get_context("forkserver")``.
        progress: as :func:`~ef.evaluation.evaluate_run`'s, in one phase counted in shards.

    The other keywords are :func:`~ef.evaluation.evaluate_run`'s.

    Raises:
        TypeError: for a run given in another shape (a mapping, a DataFrame): score it with
            :func:`~ef.evaluation.evaluate_run`.
        ValueError: as :func:`~ef.evaluation.evaluate_run`, and for a glob that matches no
            file, an empty list, a shard listed twice, a query in two shards, or an executor
            that is none or a fork-started process pool.

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = pathlib.Path(tmp, "a.trec").write_text("q1 Q0 d1 1 2.0 r\\n")
    ...     _ = pathlib.Path(tmp, "b.trec").write_text("q2 Q0 d3 1 1.0 r\\nq2 Q0 d4 2 0.5 r\\n")
    ...     report = evaluate_shards(f"{tmp}/*.trec", {"q1": {"d1": 1}, "q2": {"d4": 1}},
    ...                              metrics=("mrr@10",))
    >>> report.metrics, len(report.manifest["inputs"]["run"])
    ({'mrr@10': 0.75}, 2)
    """
    check_progress(progress)
    # An unknown metric: before any shard is read.
    measures = resolve_measures(metrics, k_values, registry_or_default(registry))
    if is_irds(qrels):  # read here: the dataset's relevance level applies to the measures
        from .irds_level import irds_judgements

        qrels, measures = irds_judgements(qrels, measures)
        metrics = [m.key for m in measures]
    check_start_method(executor)  # first: a forked worker can hang, whatever the run
    shards = shard_paths(paths_or_glob)
    check_executor(executor)
    scoring = Scoring.given(
        tie_policy, averaging, ignore_identical_ids, check_swapped, check_doc_ids
    )
    files = InputFiles(run_format, run_columns, qrels_format, qrels_columns)
    from .sharded import sharded_report  # the batch engine: loaded by the sharded paths only

    return sharded_report(
        shards, qrels, metrics, k_values, registry, scoring, files, executor, progress
    )


def shard_paths(paths_or_glob: object) -> list[str]:
    """The shards of ``paths_or_glob`` (see :func:`~ef.evaluation._evaluate.sharded.shards_of`;
    here a tuple is a list too, and one path is a run of one shard); a ``TypeError`` for a
    run of another shape.

    >>> shard_paths(("a.trec", "b.trec")), shard_paths("a.trec")
    (['a.trec', 'b.trec'], ['a.trec'])
    """
    given = list(paths_or_glob) if isinstance(paths_or_glob, tuple) else paths_or_glob
    if isinstance(given, os.PathLike):
        given = os.fspath(given)
    shards = shards_of(given)
    if shards is not None:
        return shards
    if isinstance(given, str):
        return [given]
    raise TypeError(
        f"evaluate_shards() takes run files: a list of paths or URLs, a glob or one path, "
        f"not a {type(paths_or_glob).__name__}; score a run held in memory with evaluate_run()"
    )


def check_executor(executor: object) -> None:
    """Refuse an ``executor`` that is neither None nor a ``concurrent.futures.Executor``."""
    if executor is None:
        return
    import concurrent.futures as cf  # logging and more: only once an executor is given

    if not isinstance(executor, cf.Executor):
        raise ValueError(f"executor must be a concurrent.futures.Executor, got {executor!r}")
