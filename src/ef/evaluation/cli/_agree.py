"""``ef-eval agree``: how two orderings of the runs agree (τ, τ_AP), and how the runs overlap
(RBO)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ._options import (
    check_measures,
    echo_warnings,
    input_warnings,
    source_argument,
    split_measures,
    ties_option,
)
from ._render import emit_json, emit_table, output_option

if TYPE_CHECKING:
    from .._render import Table
    from .._reports.agreement import RankCorrelation, RboReport
    from ..types import Qrels, TiePolicy

__all__ = ["agree_command"]

#: The metrics whose orderings are compared when -m is not given.
DEFAULT_METRICS = ("ndcg@10", "map@100")


@click.command("agree")
@click.argument("inputs", nargs=-1, required=True)
@click.option(
    "-m",
    "--metric",
    "metrics",
    multiple=True,
    help="A metric to order the runs by, as name@k (repeat or comma-separate). Without "
    "--versus, the first metric's ordering is compared with each other's. Default: "
    f"{', '.join(DEFAULT_METRICS)}.",
)
@click.option(
    "--versus",
    default=None,
    help="Second judgements: compare each metric's ordering under QRELS with this one's.",
)
@click.option(
    "-p",
    "--persistence",
    "p",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.9,
    show_default=True,
    help="RBO's p: the top 1/(1-p) ranks carry most of its weight.",
)
@click.option(
    "--depth", type=click.IntRange(min=1), default=None, help="Cut each ranking here for RBO."
)
@ties_option
@output_option("rows")
def agree_command(  # click passes every option by keyword
    *,
    inputs: tuple[str, ...],
    metrics: tuple[str, ...],
    versus: str | None,
    p: float,
    depth: int | None,
    tie_policy: TiePolicy | None,
    output: str,
) -> None:
    """How far runs agree: tau, tau_AP and RBO. QRELS RUN1 RUN2 [RUN3 ...]

    Kendall's tau and tau_AP between the orderings of the runs by two metrics (or by one
    metric under QRELS and under --versus), and the rank-biased overlap (RBO_ext, the mean
    over the queries both rank) of every pair of runs. Name a run with NAME=PATH; otherwise
    its file name is its name. QRELS, --versus or a RUN may be an ir_datasets id
    (irds:<dataset-id>): its qrels, with its official relevance level, or its run.
    """
    if len(inputs) < 3:
        raise ValueError("give QRELS and at least two runs: QRELS RUN1 RUN2 [RUN3 ...]")
    chosen = split_measures(metrics) or DEFAULT_METRICS
    if versus is None and len(chosen) < 2:
        raise ValueError("give two metrics (-m) to compare their orderings, or --versus QRELS2")
    check_measures(chosen, (10,))
    named = _named_runs(inputs[1:])
    policy = tie_policy or "trec_eval"
    with input_warnings() as caught:
        correlations = _correlations(named, inputs[0], versus, chosen, policy)
        overlaps = _overlaps(named, p, depth, policy)
    _emit(correlations, overlaps, output, p)
    echo_warnings(caught)


def _named_runs(arguments: tuple[str, ...]) -> dict[str, Path | str]:
    """Each run's path by its name: ``NAME=PATH``'s name, or else its file's."""
    from .._evaluate.compare import system_name

    named: dict[str, Path | str] = {}
    for index, argument in enumerate(arguments):
        name, equals, path = argument.partition("=")
        if not (equals and name and not Path(argument).exists()):
            name, path = system_name(argument, index), argument
        if name in named:
            raise ValueError(f"two runs are called {name!r}; name them with NAME=PATH")
        named[name] = source_argument(path)  # an irds: id (its scoreddocs) stays a str
    return named


def _means(
    named: dict[str, Path | str], qrels: str, metrics: tuple[str, ...], tie_policy: TiePolicy
) -> dict[str, dict[str, float]]:
    """Each metric's mean per run: ``{metric: {run: mean}}``."""
    from .._evaluate.run import evaluate_run
    from .._formats.sources import is_irds

    judged: Path | str | Qrels = source_argument(qrels)
    scored = {metric: metric for metric in metrics}
    if is_irds(judged):  # read once, its level applied to the binary metrics
        judged, scored = _levelled(judged, metrics)
    means: dict[str, dict[str, float]] = {metric: {} for metric in metrics}
    for name, path in named.items():
        report = evaluate_run(path, judged, metrics=tuple(scored.values()), tie_policy=tie_policy)
        for metric in metrics:
            means[metric][name] = report.metrics[report.metric_key(scored[metric])]
    return means


def _levelled(source: str, metrics: tuple[str, ...]) -> tuple[Qrels, dict[str, str]]:
    """The qrels of the ir_datasets id ``source``, read once, and each metric as it is
    scored: with the dataset's relevance level if it is binary (``map@10`` as
    ``map(rel=2)@10``), said once in an InputWarning."""
    from .._engine.measures import DEFAULT_K_VALUES
    from .._engine.scoring import resolve_measures
    from .._evaluate.irds_level import levelled, official_level
    from .._formats.irds import read_irds
    from .._plugin_engine.registry import get_registry

    qrels = read_irds(source, "read_qrels", note=False)
    each = {m: resolve_measures([m], DEFAULT_K_VALUES, get_registry()) for m in metrics}
    level = official_level(source, qrels, [x for found in each.values() for x in found])
    return qrels, {m: levelled(found, level)[0].key for m, found in each.items()}


def _correlations(
    named: dict[str, Path | str],
    qrels: str,
    versus: str | None,
    metrics: tuple[str, ...],
    tie_policy: TiePolicy,
) -> list[tuple[str, str, RankCorrelation]]:
    """``(first ordering, second ordering, their correlation)`` for each comparison."""
    from .._evaluate.agreement import rank_correlation

    means = _means(named, qrels, metrics, tie_policy)
    if versus is None:
        first = metrics[0]
        return [
            (first, other, rank_correlation(means[first], means[other])) for other in metrics[1:]
        ]
    others = _means(named, versus, metrics, tie_policy)
    return [
        (f"{m} ({qrels})", f"{m} ({versus})", rank_correlation(means[m], others[m]))
        for m in metrics
    ]


def _overlaps(
    named: dict[str, Path | str], p: float, depth: int | None, tie_policy: TiePolicy
) -> list[tuple[str, str, RboReport]]:
    from .._evaluate.agreement import rbo

    return [
        (a, b, rbo(named[a], named[b], p=p, depth=depth, tie_policy=tie_policy))
        for a, b in itertools.combinations(named, 2)
    ]


def _emit(
    correlations: list[tuple[str, str, RankCorrelation]],
    overlaps: list[tuple[str, str, RboReport]],
    output: str,
    p: float,
) -> None:
    if output == "json":
        emit_json(_json_data(correlations, overlaps))
        return
    for i, table in enumerate(_tables(correlations, overlaps, p)):
        if i and output == "table":
            click.echo()
        emit_table(table, output)


def _json_data(
    correlations: list[tuple[str, str, RankCorrelation]],
    overlaps: list[tuple[str, str, RboReport]],
) -> dict[str, Any]:
    """The JSON report: each correlation whole, each overlap without its per-query values."""
    return {
        "rank_correlation": [{"a": a, "b": b, **result.to_dict()} for a, b, result in correlations],
        "rbo": [
            {"a": a, "b": b, **{k: v for k, v in result.to_dict().items() if k != "per_query"}}
            for a, b, result in overlaps
        ],
    }


def _tables(
    correlations: list[tuple[str, str, RankCorrelation]],
    overlaps: list[tuple[str, str, RboReport]],
    p: float,
) -> tuple[Table, Table]:
    """The rank-correlation table and the overlap table."""
    from .._render import Table, number

    systems = len(correlations[0][2].systems)
    ranked = Table(
        ["ordering A", "ordering B", "tau", "tau_ap"],
        [[a, b, number(r.tau), number(r.tau_ap)] for a, b, r in correlations],
        title=f"Rank correlation of the {systems} runs' orderings (tau_ap: B against A)",
        text_columns=2,
    )
    overlap = Table(
        ["run A", "run B", f"RBO_ext (p = {p:g})", "queries"],
        [[a, b, number(r.mean), str(len(r.per_query))] for a, b, r in overlaps],
        title="Rank-biased overlap, mean over the queries both runs rank",
        text_columns=2,
        notes=[
            f"{a} and {b}: {len(r.only_a)} queries only in {a}, {len(r.only_b)} only in {b} "
            "(left out)."
            for a, b, r in overlaps
            if r.only_a or r.only_b
        ],
    )
    return ranked, overlap
