"""The commands of ``ef-eval``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from .._registry import get_registry
from ..errors import EvaluationError
from ..files import read_samples
from ..interfaces import RagMetric, RetrievalMetric
from ..rag_eval import evaluate_rag
from ._render import OUTPUTS, emit_json, emit_rows, number

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
        except (EvaluationError, ValueError, OSError) as exc:
            if ctx.params.get("debug"):
                raise
            raise InputError(" ".join(str(exc).split())) from exc
        except Exception as exc:
            if ctx.params.get("debug"):
                raise
            click.echo(
                f"Error: internal error: {type(exc).__name__}: {exc} "
                "(rerun with ef-eval --debug ... for the traceback, and please report it)",
                err=True,
            )
            sys.exit(1)


def _split(values: Sequence[str]) -> tuple[str, ...]:
    """``-m a -m b,c`` -> ``(a, b, c)``."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(package_name="ef-evaluation", prog_name="ef-eval")
def cli(debug: bool) -> None:
    """Evaluate retrieval and RAG quality with trec_eval-exact metrics."""


@cli.command()
@click.argument("samples", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "-m",
    "--metric",
    "metrics",
    multiple=True,
    help="A RAG metric (repeat or comma-separate). Default: the lexical metrics.",
)
@click.option(
    "-f",
    "--format",
    "format_",
    default=None,
    help="The samples file format (rag_jsonl, rag_csv, or a plugin's). Default: from the name.",
)
@click.option("-s", "--per-sample", is_flag=True, help="Also show every sample's values.")
@click.option("-o", "--output", type=click.Choice(OUTPUTS), default="table", show_default=True)
def rag(
    samples: Path, metrics: tuple[str, ...], format_: str | None, per_sample: bool, output: str
) -> None:
    """Score the RAG samples in SAMPLES (JSONL or CSV of RagSamples).

    The lexical metrics (exact_match, token_f1, context_recall, context_precision,
    non_empty_rate) need no LLM; plugins add more (ef-eval metrics lists them).
    """
    rows = read_samples(samples, format_)
    chosen = _split(metrics)
    report = evaluate_rag(rows, metrics=chosen) if chosen else evaluate_rag(rows)
    if output == "json":
        data = report.to_dict()
        if not per_sample:
            del data["per_sample"], data["sample_ids"]
        emit_json(data)
        return
    names = list(report.metrics)
    emit_rows(
        ["metric", "mean", "coverage"],
        [[n, number(report.metrics[n]), f"{report.coverage[n]}/{report.n_samples}"] for n in names],
        output,
        title=f"{samples}: {report.n_samples} samples",
    )
    if per_sample:
        emit_rows(
            ["sample", *names],
            [
                [sample_id, *(number(report.per_sample[n][i]) for n in names)]
                for i, sample_id in enumerate(report.sample_ids)
            ],
            output,
            title="per sample",
        )


@cli.command()
@click.option("-o", "--output", type=click.Choice(OUTPUTS), default="table", show_default=True)
def metrics(output: str) -> None:
    """List every metric the loaded plugins provide, and which plugin provides it."""
    registry = get_registry()
    catalogue: dict[str, RetrievalMetric | RagMetric] = {
        **registry.retrieval_metrics,
        **registry.rag_metrics,
    }
    entries = [
        {
            "name": name,
            "kind": metric.kind,
            "plugin": registry.provider(name).name,
            "description": metric.description,
        }
        for name, metric in sorted(
            catalogue.items(), key=lambda item: (item[1].kind != "retrieval", item[0])
        )
    ]
    if output == "json":
        emit_json(entries)
    else:
        emit_rows(
            ["name", "kind", "plugin", "description"],
            [[e["name"], e["kind"], e["plugin"], e["description"]] for e in entries],
            output,
            numeric=False,
        )


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
