"""``ef-eval evaluate``: a stored run scored against qrels, as trec_eval scores it.

The scoring is imported when the command runs: ``ef-eval evaluate --help`` and the other
commands never load it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import click

from .._engine.measures import AVERAGING, DEFAULT_K_VALUES, DEFAULT_METRICS
from ..errors import DatasetFormatError
from ..types import ProfileName
from ._options import (
    check_measures,
    cutoffs_option,
    dataset_argument,
    echo_warnings,
    input_warnings,
    measures_option,
    per_query_option,
    progress_option,
    qrels_format_option,
    record_options,
    recorded_note,
    run_format_option,
    show_progress,
    split_measures,
    ties_option,
)
from ._render import emit_report, output_option

if TYPE_CHECKING:
    import concurrent.futures as cf

    from ..types import Averaging, TiePolicy

__all__ = ["evaluate_command"]


@click.command("evaluate")
@click.argument("qrels", type=click.Path())
# A str, not a Path: Path("s3://bucket/run") would lose a slash of the URL.
@click.argument("run", nargs=-1, required=True, type=click.Path())
@measures_option
@cutoffs_option
@per_query_option
@click.option(
    "--averaging",
    type=click.Choice(AVERAGING),
    default=None,
    help="qrels (the default): a judged query missing from the run scores 0 (trec_eval -c); "
    "intersection: only queries in both; run: every judged query of the run, one with no "
    "relevant doc included (trec_eval's default, pytrec_eval).",
)
@click.option(
    "--ignore-identical-ids/--keep-identical-ids",
    default=None,
    help="Drop a doc whose id is its query's id from the run (BEIR's option; on under "
    "--profile beir), or keep it (the default).",
)
@click.option(
    "--profile",
    # The names alone (PROFILES' keys, in their order: tests/test_architecture.py): the
    # profiles themselves load with a run scored under one.
    type=click.Choice(list(get_args(ProfileName))),
    default=None,
    help="Reproduce another tool's numbers: its tie order, averaging and rounding, metric "
    "by metric (trec_eval, beir, mteb, ir_measures, ranx). Not with --ties or --averaging.",
)
@ties_option
@qrels_format_option
@run_format_option
@progress_option
@click.option(
    "--run-columns",
    default=None,
    help="A Parquet RUN's query, doc and score columns, comma-separated (default: ranx's "
    "q_id,doc_id,score or ir_measures' query_id,doc_id,score).",
)
@click.option(
    "--qrels-columns",
    default=None,
    help="A Parquet QRELS's query, doc and grade columns, comma-separated (default: ranx's "
    "q_id,doc_id,score or ir_measures' query_id,doc_id,relevance).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Read and score the shards of a sharded RUN on a pool of this many processes "
    "(default: one after another, in this process).",
)
@click.option(
    "--no-check-swapped",
    is_flag=True,
    help="Score QRELS and RUN as given even if they look swapped (by default a Parquet or "
    "other table whose shape says the two were given the wrong way round stops the command).",
)
@click.option(
    "--no-check-doc-ids",
    is_flag=True,
    help="Score RUN's doc ids as they are, even if no query has a judged doc in its ranking "
    "(by default that stops the command, naming the likely cause: case, a prefix, zero "
    "padding, ...).",
)
@record_options
@output_option("retrieval")
def evaluate_command(  # click passes every option by keyword
    *,
    record: bool,
    system: str | None,
    dataset: str | None,
    tags: tuple[str, ...],
    store: str | None,
    qrels: str,
    run: tuple[str, ...],
    workers: int | None,
    no_check_swapped: bool,
    no_check_doc_ids: bool,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    per_query: bool,
    averaging: Averaging | None,
    ignore_identical_ids: bool | None,
    profile: ProfileName | None,
    tie_policy: TiePolicy | None,
    qrels_format: str | None,
    run_format: str | None,
    run_columns: str | None,
    qrels_columns: str | None,
    no_progress: bool,
    output: str,
) -> None:
    """Score the run file RUN against the judgements in QRELS, as trec_eval does.

    QRELS is a TREC or MS MARCO qrels file, a BEIR qrels TSV or a Parquet file (at a path or
    an fsspec URL), or a BEIR directory (its test split; else dev or train, with a warning
    naming it); demo is the demo dataset shipped
    with ef-evaluation (a file or folder ./demo, if there is one, is read instead, with a
    note). RUN is a TREC run (qid Q0 docno rank score tag), an MS MARCO run
    (qid pid rank) or a Parquet file (one row per doc); gzip is read transparently. Several
    RUN files, or a quoted glob ('runs/*.trec'), are the shards of one run, each holding
    whole queries: the numbers are
    those of the shards concatenated (--workers N scores them on N processes). A RUN may be
    an fsspec URL ('s3://bucket/runs/*.trec', with ef-evaluation[remote] and s3fs installed),
    copied and read where it is scored.
    Docs are ranked by score, ties broken by docno descending, the rank column ignored:
    trec_eval's rule, and trec_eval's numbers (--ties picks another rule). When ties could
    change a number, a note on stderr counts the queries.

    --record keeps the report in the store of evaluations (--store), named by --system and
    --dataset, or by RUN's and QRELS's file names; ef-eval history and ef-eval leaderboard
    read it back.
    """
    from .._evaluate.run import evaluate_run
    from .._evaluate.shard_paths import shards_of
    from .._formats.trec import bytes_reader  # noqa: F401 (numpy, loaded before resume)
    from .._reports.retrieval import tie_note
    from .._runs import table  # noqa: F401
    from ._gc import resume

    resume()  # paused by main() while the modules loaded (cli/_gc.py)
    chosen = split_measures(metrics) or DEFAULT_METRICS
    cutoffs = k_values or DEFAULT_K_VALUES
    check_measures(split_measures(metrics), cutoffs)  # an error names -m and the measure
    given = _run_argument(run, sharded=workers is not None)
    judged = _qrels(qrels)
    shards = shards_of(given)  # several files, a glob, a URL, or any under --workers
    if record:  # a missing name stops the command before the scoring
        from .._store.recording import recorded_names

        names = recorded_names(system, dataset, given, judged)
    options: dict[str, Any] = {
        "metrics": chosen,
        "k_values": cutoffs,
        "averaging": averaging,
        "ignore_identical_ids": ignore_identical_ids,
        "tie_policy": tie_policy,
        "run_format": run_format,
        "qrels_format": qrels_format,
        "run_columns": _columns(run_columns),
        "qrels_columns": _columns(qrels_columns),
        "progress": show_progress(no_progress),
        "check_swapped": not no_check_swapped,
        "check_doc_ids": not no_check_doc_ids,
    }
    with (
        input_warnings() as caught,
        _swapped_files(judged, run[0]),
        _pool(workers) as pool,
        _hashed_if_shown(output, record=record),
    ):
        if shards is not None and profile is None:
            from .._evaluate.shards import evaluate_shards

            report = evaluate_shards(shards, judged, executor=pool, **options)
        else:  # a profile refuses shards in evaluate_run, in its own words
            report = evaluate_run(given, judged, profile=profile, **options)
    emit_report(report, output, per_query, " ".join(map(str, run)))
    if record:
        from .._store.recording import record_evaluation

        recorded = record_evaluation(
            report, system=names[0], dataset=names[1], tags=tags, store=store
        )
        recorded_note(recorded, store)
    # stdout stays the report alone: what the user should know goes to stderr, a line each
    echo_warnings(caught)
    for note in _measure_notes(split_measures(metrics), cutoffs):
        click.echo(f"note: {note}", err=True)
    ties = tie_note(report.ties, cli=True)
    if ties is not None:
        click.echo(f"note: {ties}", err=True)


def _pool(workers: int | None) -> contextlib.AbstractContextManager[cf.Executor | None]:
    """A pool of ``workers`` processes that cannot deadlock and dies with this process
    (:func:`~ef.evaluation._evaluate.pools.process_pool`), or none."""
    if not workers:
        return contextlib.nullcontext()
    from .._evaluate.pools import process_pool

    return process_pool(workers)


def _run_argument(
    run: tuple[str, ...], *, sharded: bool
) -> Path | str | list[str | os.PathLike[str]]:
    """One RUN as before; several (or any under --workers) as shards; a quoted glob or a URL
    as such (evaluate_run finds the shards)."""
    from .._formats.sources import GLOB_CHARS, is_irds, is_url

    if len(run) > 1:
        return [r if is_url(r) else Path(r) for r in run]
    (text,) = run
    if is_url(text) or is_irds(text):
        return text  # a URL, or a glob of them (a sharded run), or an ir_datasets id
    one = Path(text)
    if not one.exists() and set(text) & GLOB_CHARS:
        return text  # a glob
    return [one] if sharded else one


def _columns(text: str | None) -> tuple[str, ...] | None:
    """``q,doc,score`` as the column names it lists."""
    return None if text is None else tuple(name.strip() for name in text.split(","))


def _measure_notes(specs: Sequence[str], k_values: Sequence[int]) -> list[str]:
    """What a trec_eval user should know about the measures asked for: the bare names read
    otherwise than trec_eval reads them, and the members of its sets left out."""
    if not specs:  # the default measures: trec_eval's vocabulary is not loaded for them
        return []
    from .._engine.syntax.trec_eval import TREC_EVAL_SETS, trec_eval_differences, trec_eval_set

    notes = []
    differences = trec_eval_differences(specs, k_values)
    if differences is not None:
        notes.append(differences + " (as the API does)")
    for spec in dict.fromkeys(s.strip() for s in specs):
        if spec in TREC_EVAL_SETS:
            left_out = trec_eval_set(spec)[1]
            if left_out:
                notes.append(
                    f"-m {spec}: trec_eval's {', '.join(left_out)} are not implemented and left out"
                )
    return notes


def _hashed_if_shown(output: str, *, record: bool) -> contextlib.AbstractContextManager[None]:
    """The input files hashed for the report's manifest only where it is shown (``-o json``)
    or kept (``--record``): a table's numbers need no sha256 (formats.digests.unasked)."""
    if output == "json" or record:
        return contextlib.nullcontext()
    from .._formats.digests import unasked

    return unasked()


@contextlib.contextmanager
def _swapped_files(qrels: Path | str, run: str | Path) -> Iterator[None]:
    """A qrels file that cannot be read because it is a TREC run (the reader's message says
    its line is a run line): say the order the command takes, and the command meant."""
    from .._formats.sources import is_url
    from .._formats.trec.reader import looks_like_trec_run

    try:
        yield
    except DatasetFormatError as exc:
        local = not is_url(qrels)  # a URL's bytes were in a copy, gone now: the reader's says
        if local and str(exc).startswith(f"{qrels}:") and looks_like_trec_run(Path(qrels)):
            raise DatasetFormatError(
                f"{exc}; ef-eval evaluate takes QRELS RUN, as trec_eval does (did you mean: "
                f"ef-eval evaluate {run} {qrels}?)"
            ) from exc
        raise


def _qrels(value: str) -> Path | str:
    """QRELS: the demo dataset, a path, an fsspec URL (kept a string: a Path would fold
    its ``//``) or an ir_datasets id (``irds:<id>``)."""
    from .._formats.sources import is_irds, is_url

    return value if is_url(value) or is_irds(value) else dataset_argument(value)
