"""The commands of ``ef-eval``."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs
import click

from ..engine.measures import (
    DEFAULT_K_VALUES,
    DEFAULT_METRICS,
    TREC_EVAL_SETS,
    trec_eval_differences,
    trec_eval_set,
)
from ..engine.profiles import PROFILES
from ..engine.scoring import resolve_measures
from ..errors import DatasetFormatError, EvaluationError, FormatNotDetectedError
from ..evaluate.pools import process_pool
from ..evaluate.rag import DEFAULT_RAG_METRICS, evaluate_rag
from ..evaluate.run import AVERAGING, evaluate_retrieved, evaluate_run, profile_refusal
from ..evaluate.sharded import shards_of
from ..formats.convert import DROPPABLE, KINDS, Kind
from ..formats.convert import convert as convert_data
from ..formats.demo import DEMO_NAME, demo_path
from ..formats.download import DEFAULT_DIRECTORY, dataset_present, download_dataset
from ..formats.files import read_dataset, write_run
from ..formats.remote import GLOB_CHARS, is_url
from ..formats.trec import looks_like_trec_run
from ..formats.undetected import cli_csv_hint
from ..plugin_engine.registry import get_registry
from ..presentation.trec_names import SUMMARY_ONLY, trec_eval_line, trec_eval_name
from ..render import Table, exact_number, report_tables
from ..reports import RetrievalEvalReport
from ..reports.retrieval import tie_note
from ._compare import compare_command
from ._fuse import fuse_command, fusions_command
from ._options import (
    check_measures,
    cutoffs_option,
    echo_warnings,
    input_warnings,
    measures_option,
    per_query_option,
    progress_option,
    show_progress,
    split_measures,
    ties_option,
)
from ._pipeline import pipeline_command
from ._render import OUTPUTS, TABLE_OUTPUTS, emit_json, emit_rows, emit_table, number
from ._trec_eval import trec_eval_command

#: Exit code for bad input or usage, as click uses for usage errors.
EXIT_BAD_INPUT = 2


class InputError(click.ClickException):
    """Bad input, reported as one line: ``Error: <file>:<line>: <what is wrong>``."""

    exit_code = EXIT_BAD_INPUT


class _Group(click.Group):
    """Turns library errors into one-line messages unless ``--debug`` is given."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        # A PluginError (a plugin raised, or called sys.exit) is one of ours: exit 2, as for
        # bad input, since the fix is in what the user installed; 1 means a bug of ef's own.
        except (EvaluationError, ValueError, OSError) as exc:
            if ctx.params.get("debug"):
                raise
            message = " ".join(str(exc).split())
            if isinstance(exc, FormatNotDetectedError):
                # A CSV table: the API's DataFrame hint becomes one the shell can follow.
                csv_hint = cli_csv_hint(exc.path, exc.capability)
                message = csv_hint or _name_the_option(
                    message, exc.capability, ctx.invoked_subcommand
                )
            elif ctx.invoked_subcommand == "convert":
                message = message.replace("name it with kind=", "name it with --kind")
            raise InputError(message) from exc
        except SystemExit as exc:
            # Plugins' sys.exit() is a PluginError already; this is the user's own code (a
            # retriever module): never end with its exit code and no output.
            if ctx.params.get("debug"):
                raise
            raise InputError(
                f"the command was ended by sys.exit({exc.code!r}), called by code it imported "
                "(rerun with ef-eval --debug ... for the traceback)"
            ) from exc
        except Exception as exc:
            if ctx.params.get("debug"):
                raise
            click.echo(
                f"Error: internal error: {type(exc).__name__}: {exc} "
                "(rerun with ef-eval --debug ... for the traceback, and please report it)",
                err=True,
            )
            sys.exit(1)


#: The option of each command that names a format, by what was wanted of the file.
_FORMAT_OPTIONS = {
    ("evaluate", "read_run"): "--run-format",
    ("evaluate", "read_qrels"): "--qrels-format",
    ("compare", "read_run"): "--run-format",
    ("compare", "read_qrels"): "--qrels-format",
    ("fuse", "read_run"): "--run-format",
    ("rag", "read_samples"): "--format",
    ("retrieve", "read_dataset"): "--format",
    ("pipeline", "read_dataset"): "--format",
}


def _name_the_option(message: str, capability: str, command: str | None) -> str:
    """The API's "name it with format=" as the shell says it: the command's own option."""
    if command == "convert":
        option = "--from"
    else:
        option = _FORMAT_OPTIONS.get((command or "", capability), "")
    return message.replace("name it with format=", f"name it with {option}") if option else message


@contextlib.contextmanager
def _swapped_files(qrels: Path | str, run: str | Path) -> Iterator[None]:
    """A qrels file that cannot be read because it is a TREC run (the reader's message says
    its line is a run line): say the order the command takes, and the command meant."""
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


def _dataset(value: str) -> Path:
    """The name ``demo`` is the demo dataset shipped in the package (``./demo`` is a path).

    Arguments that take it are plain strings: a Path would turn ``./demo`` into ``demo``.
    """
    return demo_path() if value == DEMO_NAME else Path(value)


def _qrels(value: str) -> Path | str:
    """QRELS: the demo dataset, a path, or an fsspec URL (kept a string: a Path would fold
    its ``//``)."""
    return value if is_url(value) else _dataset(value)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(package_name="ef-evaluation", prog_name="ef-eval")
def cli(debug: bool) -> None:
    """Evaluate retrieval and RAG quality with trec_eval-exact metrics."""


@cli.command()
@click.argument("samples", type=click.Path(dir_okay=False))
@click.option(
    "-m",
    "--metric",
    "metrics",
    multiple=True,
    help="A RAG metric (repeat or comma-separate): token_f1, has_answer@5, "
    "has_answer(match=regex)@5, or ids. before a retrieval measure (ids.ndcg@10) for the "
    "context ids. Default: the lexical metrics.",
)
@cutoffs_option
@click.option(
    "-f",
    "--format",
    "format_",
    default=None,
    help="The samples file format (rag_jsonl, rag_csv, or a plugin's). Default: from the name.",
)
@click.option("-s", "--per-sample", is_flag=True, help="Also show every sample's values.")
@click.option(
    "-o", "--output", type=click.Choice(TABLE_OUTPUTS), default="table", show_default=True
)
def rag(  # click passes every option by keyword
    *,
    samples: str,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    format_: str | None,
    per_sample: bool,
    output: str,
) -> None:
    """Score the RAG samples in SAMPLES (JSONL or CSV of RagSamples; demo: the demo's).

    The lexical metrics (exact_match, token_f1, context_recall, context_precision,
    non_empty_rate) need no LLM; has_answer@k is open-domain QA's top-k retrieval accuracy;
    ids.<measure> scores the retrieved_context_ids against the reference_context_ids; plugins
    add more (ef-eval metrics lists them).
    """
    path = demo_path() / "rag_samples.jsonl" if samples == DEMO_NAME else Path(samples)
    chosen = split_measures(metrics) or DEFAULT_RAG_METRICS
    report = evaluate_rag(
        path, metrics=chosen, samples_format=format_, k_values=k_values or DEFAULT_K_VALUES
    )
    if output == "json":
        data = report.to_dict()
        if not per_sample:
            del data["per_sample"], data["sample_ids"]
        emit_json(data)
        return
    if output == "csv":  # one table for machines, at full precision: report.to_csv()
        for note in report.notes():  # plain data on stdout; what the notes say, here
            click.echo(f"note: {note}", err=True)
        emit_table(report.csv_table(details=per_sample), output)
        return
    summary, *details = report_tables(report, details=per_sample)
    emit_table(attrs.evolve(summary, title=f"{samples}: {report.n_samples} samples"), output)
    for table in details:
        emit_table(table, output)


EVALUATE_OUTPUTS = (*TABLE_OUTPUTS, "trec")


@cli.command()
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
    type=click.Choice(list(PROFILES)),
    default=None,
    help="Reproduce another tool's numbers: its tie order, averaging and rounding, metric "
    "by metric (trec_eval, beir, mteb, ir_measures, ranx). Not with --ties or --averaging.",
)
@ties_option
@click.option("--qrels-format", default=None, help="The QRELS format; default: detected.")
@click.option("--run-format", default=None, help="The RUN format; default: detected.")
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
@click.option(
    "-o", "--output", type=click.Choice(EVALUATE_OUTPUTS), default="table", show_default=True
)
def evaluate(  # click passes every option by keyword
    *,
    qrels: str,
    run: tuple[str, ...],
    workers: int | None,
    no_check_swapped: bool,
    no_check_doc_ids: bool,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    per_query: bool,
    averaging: Literal["qrels", "intersection", "run"] | None,
    ignore_identical_ids: bool | None,
    profile: Literal["trec_eval", "beir", "mteb", "ir_measures", "ranx"] | None,
    tie_policy: Literal["trec_eval", "docno_asc", "input_order", "expected"] | None,
    qrels_format: str | None,
    run_format: str | None,
    run_columns: str | None,
    qrels_columns: str | None,
    no_progress: bool,
    output: str,
) -> None:
    """Score the run file RUN against the judgements in QRELS, as trec_eval does.

    QRELS is a TREC or MS MARCO qrels file, a BEIR qrels TSV or a Parquet file (at a path or
    an fsspec URL), or a BEIR directory (its test split); demo is the demo dataset shipped
    with ef-evaluation. RUN is a TREC run (qid Q0 docno rank score tag), an MS MARCO run
    (qid pid rank) or a Parquet file (one row per doc); gzip is read transparently. Several
    RUN files, or a quoted glob ('runs/*.trec'), are the shards of one run, each holding
    whole queries: the numbers are
    those of the shards concatenated (--workers N scores them on N processes). A RUN may be
    an fsspec URL ('s3://bucket/runs/*.trec', with ef-evaluation[remote] and s3fs installed),
    copied and read where it is scored.
    Docs are ranked by score, ties broken by docno descending, the rank column ignored:
    trec_eval's rule, and trec_eval's numbers (--ties picks another rule). When ties could
    change a number, a note on stderr counts the queries.
    """
    chosen = split_measures(metrics) or DEFAULT_METRICS
    cutoffs = k_values or DEFAULT_K_VALUES
    check_measures(split_measures(metrics), cutoffs)  # an error names -m and the measure
    given = _run_argument(run, sharded=workers is not None)
    if profile is not None:  # refused here, in the names of ef-eval's options
        rules_given = tie_policy is not None or averaging is not None
        refusal = profile_refusal(profile, shards_of(given), rules_given=rules_given, cli=True)
        if refusal is not None:
            raise ValueError(refusal)
    judged = _qrels(qrels)
    with (
        input_warnings() as caught,
        _swapped_files(judged, run[0]),
        _pool(workers) as pool,
    ):
        report = evaluate_run(
            given,
            judged,
            metrics=chosen,
            k_values=cutoffs,
            averaging=averaging,
            ignore_identical_ids=ignore_identical_ids,
            tie_policy=tie_policy,
            profile=profile,
            run_format=run_format,
            qrels_format=qrels_format,
            run_columns=_columns(run_columns),
            qrels_columns=_columns(qrels_columns),
            progress=show_progress(no_progress),
            executor=pool,
            check_swapped=not no_check_swapped,
            check_doc_ids=not no_check_doc_ids,
        )
    _emit_report(report, output, per_query, " ".join(map(str, run)))
    # stdout stays the report alone: what the user should know goes to stderr, a line each
    echo_warnings(caught)
    for note in _measure_notes(split_measures(metrics), cutoffs):
        click.echo(f"note: {note}", err=True)
    ties = tie_note(report.ties, cli=True)
    if ties is not None:
        click.echo(f"note: {ties}", err=True)


def _pool(workers: int | None) -> contextlib.AbstractContextManager[cf.Executor | None]:
    """A pool of ``workers`` processes that cannot deadlock and dies with this process
    (:func:`~ef.evaluation.evaluate.pools.process_pool`), or none."""
    if not workers:
        return contextlib.nullcontext()
    return process_pool(workers)


def _run_argument(
    run: tuple[str, ...], *, sharded: bool
) -> Path | str | list[str | os.PathLike[str]]:
    """One RUN as before; several (or any under --workers) as shards; a quoted glob or a URL
    as such (evaluate_run finds the shards)."""
    if len(run) > 1:
        return [r if is_url(r) else Path(r) for r in run]
    (text,) = run
    if is_url(text):
        return text  # a URL, or a glob of them: a sharded run
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


def _emit_report(report: RetrievalEvalReport, output: str, per_query: bool, name: str) -> None:
    """A retrieval report as ``output``, titled by ``name`` (the run, or the dataset)."""
    title = str(report).splitlines()[0].replace("Retrieval evaluation", name)
    if output in ("csv", "trec"):  # plain data on stdout; what the tables' notes say, here
        for note in report.coverage_notes(unjudged=False):
            click.echo(f"note: {note}", err=True)
    if output == "json":
        # Without -q, the per-query values are never copied into the JSON form.
        data = (report if per_query else attrs.evolve(report, per_query={})).to_dict()
        if not per_query:
            del data["per_query"]
        emit_json(data)
        return
    if output == "trec":
        _emit_trec(report, per_query)
        return
    # CSV is for machines: full precision and empty cells, as report.to_csv() writes them.
    table = (
        report.csv_table(details=per_query)
        if output == "csv"
        else report_tables(report, details=per_query)[-1]
    )
    # The ties note goes to stderr, in the shell's words (--ties): not twice, once as Python.
    in_python = tie_note(report.ties)
    table = attrs.evolve(table, notes=[note for note in table.notes if note != in_python])
    if per_query:  # the means close the per-query table, as trec_eval's "all" lines do
        cell = exact_number if output == "csv" else number
        rows = [*table.rows, ("all", *(cell(report.metrics[key]) for key in table.header[1:]))]
        table = attrs.evolve(table, rows=rows, notes=report.coverage_notes())
        # too wide for the terminal: trec_eval's three columns, measure query value
        long = Table(
            ["measure", "query", "value"],
            [
                (key, row[0], cell)
                for row in rows
                for key, cell in zip(table.header[1:], row[1:], strict=True)
            ],
            title=title,
            text_columns=2,
            notes=table.notes,
        )
        emit_table(attrs.evolve(table, title=title), output, long=long)
        return
    emit_table(attrs.evolve(table, title=title), output)


def _trec_value(name: str, value: float) -> float | int:
    # trec_eval prints its counts (num_ret, num_rel, num_rel_ret) as integers.
    return int(value) if name.startswith("num_") and float(value).is_integer() else value


def _emit_trec(report: RetrievalEvalReport, per_query: bool) -> None:
    names = {key: trec_eval_name(key) for key in report.metrics}
    lines = []
    if per_query:
        for query_id, values in report.per_query.items():
            lines += [
                trec_eval_line(names[k], query_id, _trec_value(names[k], v))
                for k, v in values.items()
                if names[k] not in SUMMARY_ONLY  # gm_map: a summary only, as trec_eval's
            ]
    lines.append(trec_eval_line("num_q", "all", report.n_queries))
    lines += [
        trec_eval_line(names[k], "all", _trec_value(names[k], v)) for k, v in report.metrics.items()
    ]
    click.echo("\n".join(lines))


@cli.command()
@click.argument("dataset", type=click.Path())
@click.option(
    "-r",
    "--retriever",
    "retriever_spec",
    required=True,
    help="bm25 (bm25s; the bm25 extra), dense (sentence-transformers; the dense extra), or "
    "module:object, a retriever or a class built with the corpus, imported from the current "
    "directory or the environment.",
)
@click.option("--split", default=None, help="The qrels split to run. Default: test, dev, train.")
@click.option(
    "--format", "dataset_format", default=None, help="DATASET's format; default: detected."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the rankings as a TREC run here (.gz compresses), atomically.",
)
@measures_option
@cutoffs_option
@per_query_option
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Results to retrieve per query. Default: the largest cutoff of the metrics.",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=32,
    show_default=True,
    help="Queries per retriever call.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Run the batches on this many threads. Default: one after another.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@click.option(
    "-o", "--output", type=click.Choice(EVALUATE_OUTPUTS), default="table", show_default=True
)
def retrieve(  # click passes every option by keyword
    *,
    dataset: str,
    retriever_spec: str,
    split: str | None,
    dataset_format: str | None,
    out: Path | None,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    per_query: bool,
    limit: int | None,
    batch_size: int,
    workers: int | None,
    no_progress: bool,
    output: str,
) -> None:
    """Index DATASET's corpus, run its judged queries through a retriever, and score them.

    DATASET is demo (the demo dataset shipped with ef-evaluation) or a dataset directory
    (BEIR, TREC or MS MARCO). The numbers are those of ef-eval evaluate on the run that
    --out writes: each query's ranking is scored in the retriever's order.
    """
    from ..engine.retrieve import retrieve as run_retriever
    from ..retrievers._load import retriever_factory

    # Every name is checked before the corpus is read and indexed.
    chosen = split_measures(metrics) or ("ndcg", "recall", "precision", "mrr", "map")
    cutoffs = k_values or (1, 5, 10, 100)
    check_measures(chosen, cutoffs)  # an error names -m and the measure
    measures = resolve_measures(chosen, cutoffs, get_registry())
    if ":" in retriever_spec and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # module:object from the current directory, as python -m
    build = retriever_factory(retriever_spec)
    corpus, queries, qrels = read_dataset(_dataset(dataset), dataset_format, split=split)
    if not no_progress:
        click.echo(f"indexing the corpus of {dataset} with {retriever_spec}...", err=True)
    retriever = build(corpus)
    judged = {qid: queries[qid] for qid in qrels if qid in queries}
    result = run_retriever(
        retriever,
        judged,
        limit=limit or max((m.k for m in measures if m.k is not None), default=100),
        executor=workers,
        batch_size=batch_size,
        progress=not no_progress,
    )
    if out is not None:
        write_run(out, result.rankings)
    # evaluate_run's report, without checking again the lists retrieve() de-duplicated.
    report = evaluate_retrieved(result.rankings, qrels, metrics=chosen, k_values=cutoffs)
    _emit_report(report, output, per_query, f"{dataset} with {retriever_spec}")


@cli.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--from", "from_format", default=None, help="The SOURCE format; default: detected.")
@click.option(
    "--to",
    "to_format",
    default=None,
    help="The TARGET format (beir, trec, msmarco, or a plugin's); default: from a .jsonl, "
    ".trec or .run name.",
)
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default=None,
    help="What SOURCE holds; default: a directory is a dataset, a file is told by its name "
    "(qrels, run, topics, queries, collection, corpus) or its first line.",
)
@click.option(
    "--drop",
    default="",
    metavar="KINDS",
    help=f"Drop on purpose what the target cannot hold, comma-separated: {', '.join(DROPPABLE)}. "
    "Each is an error without it; a note on stderr says what was dropped.",
)
@progress_option
def convert(  # noqa: PLR0917 - click passes each option by position
    source: Path,
    target: Path,
    from_format: str | None,
    to_format: str | None,
    kind: Kind | None,
    drop: str,
    no_progress: bool,
) -> None:
    """Convert SOURCE into TARGET in another format: a dataset directory, qrels, a run,
    queries or a corpus.

    \b
    What each target keeps (ids, texts and judgements always):
      beir     titles, metadata (the other fields of a record)
      trec     titles, metadata (in corpus.meta.jsonl / topics.meta.jsonl
               beside the files), run scores, one run tag
      msmarco  none of these: a title (--drop title joins it to the text),
               metadata (--drop metadata), run scores (--drop scores writes
               ranks) and the run tag (--drop tag) are errors without --drop
    Integer grades only in TREC and MS MARCO qrels; texts with a tab or line
    break only in BEIR.

    Datasets keep every split; corpora stream through one document at a time. Nothing is
    written unless all of it can be: a value the target cannot hold is an error naming it.
    """
    drops = tuple(part.strip() for part in drop.split(",") if part.strip())
    with input_warnings() as caught:  # a '#' line shaped as data, read as a comment
        what = convert_data(
            source,
            target,
            from_format=from_format,
            to_format=to_format,
            kind=kind,
            drop=drops,
            on_drop=lambda note: click.echo(f"note: {note}", err=True),
            progress=show_progress(no_progress),
        )
    click.echo(f"converted {what}: {source} -> {target}")
    echo_warnings(caught)


@cli.command()
@click.argument("name")
@click.option(
    "-d",
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    default=DEFAULT_DIRECTORY,
    show_default=True,
    help="The folder to put NAME/ in, created if absent.",
)
@click.option(
    "--url",
    default=None,
    help="Fetch the zip from here instead of BEIR's server (a mirror; http, https or file).",
)
@click.option(
    "--checksum",
    default=None,
    help="The zip's md5 (or md5:<hex>, sha256:<hex>); default: the md5 BEIR publishes.",
)
@click.option("--force", is_flag=True, help="Download again and replace DIR/NAME if it exists.")
@progress_option
def download(  # noqa: PLR0917 - click passes each option by position
    name: str,
    directory: Path,
    url: str | None,
    checksum: str | None,
    force: bool,
    no_progress: bool,
) -> None:
    """Download the BEIR dataset NAME (scifact, nfcorpus, fiqa, ...) into DIR/NAME.

    The zip's md5 is checked against the one BEIR publishes before anything is unpacked.
    It is unpacked into a temporary folder (nothing outside DIR/NAME, no symlinks) and
    renamed into place only when complete. A complete DIR/NAME is left as it is.
    """
    target = directory / name
    present = not force and dataset_present(target)
    path = download_dataset(
        name,
        directory,
        url=url,
        checksum=checksum,
        force=force,
        progress=not present and show_progress(no_progress),
    )
    if present:
        click.echo(f"{path} is already there; nothing downloaded (--force downloads it again)")
    else:
        click.echo(f"downloaded {name} into {path}")
    click.echo(f"score a run on it: ef-eval evaluate {shlex.quote(str(path))} RUN")


@cli.command()
@click.option("-o", "--output", type=click.Choice(OUTPUTS), default="table", show_default=True)
def metrics(output: str) -> None:
    """List every metric the loaded plugins provide: its parameters, its names in our,
    ir_measures' and trec_eval's syntax, and the plugin that provides it."""
    from ..presentation.catalogue import catalogue_entries

    entries = catalogue_entries(get_registry())
    if output == "json":
        emit_json(entries)
        return
    rows = []
    for entry in entries:
        params = ", ".join(
            f"{p['name']}={p['default'] if p['default'] is not None else 'unset'}"
            for p in entry["parameters"]
        )
        syntaxes = "; ".join(
            (f"{syntax}: " if syntax != "ours" else "") + ", ".join(spelled)
            for syntax, spelled in entry["syntaxes"].items()
        )
        rows.append([entry["name"], entry["kind"], params or "-", syntaxes, entry["plugin"]])
    emit_rows(["name", "kind", "parameters", "syntaxes", "plugin"], rows, output, numeric=False)


@cli.command()
@click.option("-o", "--output", type=click.Choice(OUTPUTS), default="table", show_default=True)
def plugins(output: str) -> None:
    """List the loaded plugins: distribution, version and what each provides."""
    infos = get_registry().plugins
    if output == "json":
        emit_json(
            [
                {
                    "name": info.name,
                    "distribution": info.distribution,
                    "version": info.version,
                    "builtin": info.builtin,
                    "entry_point": info.entry_point,
                    "provides": {kind: list(names) for kind, names in info.provides.items()},
                }
                for info in infos
            ]
        )
        return
    emit_rows(
        ["plugin", "distribution", "version", "provides"],
        [
            [
                info.name,
                info.distribution or "-",
                info.version or "-",
                "; ".join(f"{kind}s: {', '.join(names)}" for kind, names in info.provides.items()),
            ]
            for info in infos
        ],
        output,
        numeric=False,
    )


cli.add_command(compare_command)
cli.add_command(pipeline_command)

cli.add_command(fuse_command)
cli.add_command(fusions_command)

cli.add_command(trec_eval_command)


def _debug_after_the_command(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    # `ef-eval evaluate ... --debug` means what `ef-eval --debug evaluate ...` does: the group
    # reads the flag from its own parameters when an error reaches it.
    if value:
        ctx.find_root().params["debug"] = True


for _command in cli.commands.values():
    _command.params.append(
        click.Option(
            ["--debug"],
            is_flag=True,
            expose_value=False,
            callback=_debug_after_the_command,
            help="Show tracebacks instead of one-line errors (also before the command).",
        )
    )
