"""``ef-eval diversity``: a run's intent-aware measures against subtopic qrels, as ndeval."""

from __future__ import annotations

import click

from ..types import CompareAveraging
from ._options import averaging_option, per_query_option, run_format_option, split_measures
from ._render import emit_report, output_option

__all__ = ["diversity_command"]


@click.command("diversity")
@click.argument("qrels", type=click.Path())
@click.argument("run", type=click.Path())
@click.option(
    "-m",
    "--metric",
    "metrics",
    multiple=True,
    help="A diversity measure (repeat or comma-separate), in our, ir_measures' or ndeval's "
    "names: alpha_nDCG@20, ERR-IA@10, NRBP(beta=0.8), AP_IA, P_IA@5, StRecall@20. Default: "
    "ndeval's ERR-IA, alpha-nDCG, NRBP, MAP-IA, P-IA and strec.",
)
@click.option(
    "-k",
    "--cutoffs",
    "k_values",
    default="5,10,20",
    show_default=True,
    help="The cutoffs of a measure named without @k, comma-separated.",
)
@averaging_option(
    "qrels: a judged query missing from RUN scores 0 (ndeval -c); intersection: only "
    "the judged queries RUN answers (ndeval's default)."
)
@run_format_option
@per_query_option
@output_option("retrieval")
def diversity_command(  # click passes every option by keyword
    *,
    qrels: str,
    run: str,
    metrics: tuple[str, ...],
    k_values: str,
    averaging: CompareAveraging,
    run_format: str | None,
    per_query: bool,
    output: str,
) -> None:
    """Score RUN with the diversity measures against the subtopic judgements in QRELS.

    QRELS has one ``qid subtopic docno grade`` line per judgement (the TREC Web track's
    diversity qrels). The numbers are ndeval's; RUN is ranked by trec_eval's rule (ndeval
    -traditional).
    """
    from .._engine._diversity import DEFAULT_DIVERSITY_METRICS
    from .._evaluate._diversity import evaluate_diversity

    cutoffs = _cutoffs(k_values)
    chosen = split_measures(metrics)
    report = evaluate_diversity(
        run,
        qrels,
        metrics=chosen or DEFAULT_DIVERSITY_METRICS,
        k_values=cutoffs,
        averaging=averaging,
        run_format=run_format,
    )
    emit_report(report, output, per_query, run)


def _cutoffs(text: str) -> tuple[int, ...]:
    try:
        cutoffs = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(f"expected ints separated by commas, got {text!r}") from None
    if not cutoffs or min(cutoffs) < 1:
        raise click.BadParameter(f"expected ints >= 1 separated by commas, got {text!r}")
    return cutoffs
