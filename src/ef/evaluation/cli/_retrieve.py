"""``ef-eval retrieve``: a retriever run on a dataset's judged queries, and scored."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ._options import (
    batch_size_option,
    check_measures,
    cutoffs_option,
    dataset_format_option,
    dataset_parts,
    echo_warnings,
    file_option,
    input_warnings,
    limit_option,
    measures_option,
    per_query_option,
    source_argument,
    split_measures,
    split_option,
    workers_option,
)
from ._render import emit_report, output_option

__all__ = ["retrieve_command"]


@click.command("retrieve")
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
@split_option()
@dataset_format_option
@file_option("--out", help="Write the rankings as a TREC run here (.gz compresses), atomically.")
@measures_option
@cutoffs_option
@per_query_option
@limit_option
@batch_size_option(32, "Queries per retriever call.")
@workers_option
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@output_option("retrieval")
def retrieve_command(  # click passes every option by keyword
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

    DATASET is demo (the demo dataset shipped with ef-evaluation; a folder ./demo, if there
    is one, is read instead, with a note), a dataset directory (BEIR, TREC or MS MARCO) or
    an ir_datasets id (irds:<dataset-id>).
    The numbers are those of ef-eval evaluate on the run that --out writes: each query's
    ranking is scored in the retriever's order.
    """
    from .._engine.measures import DEFAULT_K_VALUES, DEFAULT_METRICS
    from .._engine.retrieve import retrieve as run_retriever
    from .._engine.scoring import resolve_measures
    from .._evaluate.irds_level import irds_metrics
    from .._evaluate.run import evaluate_retrieved
    from .._formats.files import write_run
    from .._plugin_engine.registry import get_registry
    from .._retrievers._load import retriever_factory

    # Every name is checked before the corpus is read and indexed.
    chosen = split_measures(metrics) or DEFAULT_METRICS
    cutoffs = k_values or DEFAULT_K_VALUES
    check_measures(chosen, cutoffs)  # an error names -m and the measure
    measures = resolve_measures(chosen, cutoffs, get_registry())
    if ":" in retriever_spec and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # module:object from the current directory, as python -m
    build = retriever_factory(retriever_spec)
    corpus, queries, source = dataset_parts(source_argument(dataset), dataset_format, split)
    if isinstance(source, str):  # an irds: id: its relevance level applies to the measures
        with input_warnings() as caught:
            qrels, chosen = irds_metrics(source, chosen, cutoffs, get_registry())
        echo_warnings(caught)
    else:
        qrels = source
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
    emit_report(report, output, per_query, f"{dataset} with {retriever_spec}")
