"""``ef-eval pipeline``: a stored run and a file of answers, scored in one report."""

from __future__ import annotations

import sys
from pathlib import Path

import attrs
import click

from .._engine.measures import DEFAULT_K_VALUES, DEFAULT_METRICS
from .._render import report_tables
from ._options import (
    check_measures,
    cutoffs_option,
    dataset_format_option,
    dataset_parts,
    echo_warnings,
    file_option,
    input_warnings,
    measures_option,
    per_query_option,
    source_argument,
    split_measures,
    split_option,
)
from ._render import emit_json, emit_table, output_option

__all__ = ["pipeline_command"]

#: The file of gold answers ef-eval pipeline reads from a dataset directory by default.
REFERENCES_FILE = "references.jsonl"


@click.command("pipeline")
@click.argument("dataset", type=click.Path())
@file_option(
    "--run",
    "run_path",
    required=True,
    help="The retriever's run on DATASET's queries (TREC or MS MARCO; gzip is read).",
)
@file_option(
    "--answers",
    "answers_path",
    required=True,
    help='The generator\'s answers: JSONL lines {"id": query_id, "response": "..."}.',
)
@file_option(
    "--references",
    "references_path",
    help='The gold answers: JSONL lines {"id": query_id, "reference": "...", "references": '
    f"[...]}}. Default: DATASET/{REFERENCES_FILE} if there is one, else none (the metrics "
    "that need a reference score nothing).",
)
@measures_option
@cutoffs_option
@click.option(
    "--rag-metrics",
    "rag_metrics",
    multiple=True,
    help="A RAG metric (repeat or comma-separate). Default: the lexical metrics.",
)
@click.option(
    "--contexts",
    "n_contexts",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="How many of each query's first docs in RUN were the contexts of its answer.",
)
@split_option("The qrels split. Default: test, dev, train.")
@dataset_format_option
@per_query_option
@output_option("pipeline")
def pipeline_command(  # click passes every option by keyword
    *,
    dataset: str,
    run_path: Path,
    answers_path: Path,
    references_path: Path | None,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    rag_metrics: tuple[str, ...],
    n_contexts: int,
    split: str | None,
    dataset_format: str | None,
    per_query: bool,
    output: str,
) -> None:
    """Score a stored RUN and the ANSWERS made from it against DATASET, in one report.

    DATASET is demo (shipped with ef-evaluation; a folder ./demo, if there is one, is read
    instead, with a note), a dataset directory (BEIR, TREC or MS MARCO) or an ir_datasets
    id (irds:<dataset-id>). The retrieval metrics are those of ef-eval evaluate DATASET RUN:
    each judged query's ranking in trec_eval's order, the whole run. The contexts of a
    query's answer are the texts (title and text) of its first --contexts docs in RUN, from
    DATASET's corpus. A query of RUN without an answer is unanswered.
    """
    from .._evaluate.pipeline import evaluate_pipeline
    from .._evaluate.rag import DEFAULT_RAG_METRICS
    from .._formats.answers import read_answers, read_references

    check_measures(split_measures(metrics), k_values or DEFAULT_K_VALUES)  # names -m
    # The qrels of an irds: id are the id: evaluate_pipeline applies its relevance level.
    source = source_argument(dataset)
    corpus, queries, qrels = dataset_parts(source, dataset_format, split)
    answers = read_answers(answers_path, queries=queries)
    folder = source if isinstance(source, Path) else None
    if references_path is None and folder is not None and (folder / REFERENCES_FILE).is_file():
        references_path = folder / REFERENCES_FILE
        click.echo(f"note: the gold answers are {references_path}", err=True)
    references = (
        None if references_path is None else read_references(references_path, queries=queries)
    )
    with input_warnings() as caught:
        report = evaluate_pipeline(
            run_path,
            qrels,
            queries,
            generate=answers,
            corpus=corpus,
            references=references,
            n_contexts=n_contexts,
            k_values=k_values or DEFAULT_K_VALUES,
            metrics=split_measures(metrics) or DEFAULT_METRICS,
            rag_metrics=split_measures(rag_metrics) or DEFAULT_RAG_METRICS,
            limit=sys.maxsize,  # RUN whole, as ef-eval evaluate reads it (map@all, rprec)
        )
    echo_warnings(caught)
    if output == "json":
        data = report.to_dict()
        if not per_query:  # the means, coverage and skips; -q adds every query's values
            del data["samples"]
            del data["rag"]["per_sample"], data["rag"]["sample_ids"]
            if data["retrieval"] is not None:
                del data["retrieval"]["per_query"]
        emit_json(data)
        return
    tables = (
        [report.csv_table(details=per_query)]
        if output == "csv"
        else report_tables(report, details=per_query)
    )
    name = f"{dataset}, {run_path.name}"
    for table in tables:
        title = table.title or ""
        # the summary is titled by what was scored, as ef-eval evaluate titles its own
        shown = title.replace("Pipeline evaluation", name, 1) if title else None
        emit_table(attrs.evolve(table, title=shown), output)
