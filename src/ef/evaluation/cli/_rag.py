"""``ef-eval rag``: a file of RAG samples scored."""

from __future__ import annotations

import attrs
import click

from .._engine.measures import DEFAULT_K_VALUES
from .._render import report_tables
from ._options import cutoffs_option, dataset_argument, split_measures
from ._render import emit_json, emit_table, output_option

__all__ = ["rag_command"]


@click.command("rag")
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
@output_option("rag")
def rag_command(  # click passes every option by keyword
    *,
    samples: str,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    format_: str | None,
    per_sample: bool,
    output: str,
) -> None:
    """Score the RAG samples in SAMPLES (JSONL or CSV of RagSamples; demo: the demo's).

    A file or folder ./demo, if there is one, is read instead of the demo, with a note.

    The lexical metrics (exact_match, token_f1, context_recall, context_precision,
    non_empty_rate) need no LLM; has_answer@k is open-domain QA's top-k retrieval accuracy;
    ids.<measure> scores the retrieved_context_ids against the reference_context_ids; plugins
    add more (ef-eval metrics lists them).
    """
    from .._evaluate.rag import DEFAULT_RAG_METRICS, evaluate_rag

    path = dataset_argument(samples, "rag_samples.jsonl")
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
