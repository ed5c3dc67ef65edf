"""``ef-eval fuse``: several run files made one TREC run; ``ef-eval fusions`` lists the methods."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ._options import (
    echo_warnings,
    file_option,
    input_warnings,
    single_order_ties_option,
    source_callback,
)
from ._render import emit_json, emit_rows, output_option

if TYPE_CHECKING:
    from ..interfaces import FusionParam

__all__ = ["fuse_command", "fusions_command"]

#: What --norm accepts: ranx's names, and none for the scores as they are.
NORMS = ("min-max", "zmuv", "sum", "max", "rank", "none")


def _number(text: str) -> int | float | str:
    """``"60"`` -> 60, ``"0.5"`` -> 0.5; anything else is left for the parameter to refuse."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _params(values: tuple[str, ...]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for value in values:
        name, equals, given = value.partition("=")
        if not equals or not name.strip():
            raise click.BadParameter(f"{value!r} is not NAME=VALUE (e.g. k=60)", param_hint="-p")
        params[name.strip()] = _number(given.strip())
    return params


def _weights(value: str | None) -> tuple[float, ...] | None:
    if value is None:
        return None
    try:
        return tuple(float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not comma-separated numbers (e.g. 0.3,0.7)", param_hint="--weights"
        ) from None


@click.command("fuse")
@click.argument("runs", nargs=-1, required=True, type=click.Path(), callback=source_callback)
@file_option(
    "-o",
    "--output",
    "out",
    required=True,
    help="Write the fused run here, as a TREC run (.gz compresses), atomically.",
)
@click.option(
    "--method",
    default="wsum",
    show_default=True,
    help="The fusion method: rrf, sum, mnz, max, min, anz, wsum, isr, or a plugin's "
    "(ef-eval fusions lists them).",
)
@click.option(
    "--norm",
    type=click.Choice(NORMS),
    default="min-max",
    show_default=True,
    help="How each run's scores are normalised per query before a method of scores fuses "
    "them (rrf and isr read only the ranks).",
)
@click.option(
    "--weights",
    default=None,
    metavar="W,W,...",
    help="wsum's weights, one per RUN in order. Default: 1/n each.",
)
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A parameter of the method (repeatable), e.g. -p k=60 for rrf.",
)
@click.option("--tag", default=None, help="The run tag (6th column). Default: the method's name.")
@single_order_ties_option(
    "How each RUN's tied docs are ranked (what rrf and isr see), and the fused run's."
)
@click.option("--run-format", default=None, help="The RUN files' format; default: detected.")
def fuse_command(  # click passes every option by keyword
    *,
    runs: tuple[Path | str, ...],
    out: Path,
    method: str,
    norm: str,
    weights: str | None,
    params: tuple[str, ...],
    tag: str | None,
    tie_policy: str,
    run_format: str | None,
) -> None:
    """Fuse two or more run files RUN... into one TREC run, as ranx's fuse does.

    Each RUN is a TREC or MS MARCO run, read as ef-eval evaluate reads it (an ir_datasets
    id, irds:<dataset-id>, is the dataset's run). The default is
    ranx's: a weighted sum (equal weights) of min-max normalised scores. Reciprocal rank
    fusion: --method rrf (k = 60; -p k=10 sets it). The fused run ranks by its scores; the
    line on stdout says what was written.
    """
    from .._evaluate.fuse import fuse
    from .._formats._records import check_id
    from .._formats.trec.writer import write_run_lines
    from .._plugin_engine.registry import get_registry

    if tag is not None:
        check_id("run tag", tag)  # before the runs are read and fused
    with input_warnings() as caught:
        fused = fuse(
            list(runs),
            method=method,
            norm=None if norm == "none" else norm,
            weights=_weights(weights),
            params=_params(params),
            tie_policy=tie_policy,
            run_format=run_format,
        )
    echo_warnings(caught)
    write_run_lines(out, fused.to_dict(), tag or fused.name or method)
    reads = get_registry().fusion_method(method).uses
    how = f"{method}, norm {norm}" if reads == "scores" else method
    click.echo(
        f"fused {len(runs)} runs ({how}): {len(fused.query_ids)} queries, {len(fused)} docs "
        f"-> {out}"
    )


def _param_cell(param: dict[str, Any]) -> str:
    """A parameter in the table: ``k=60``; ``weights (one per run)``; ``gamma (required)``;
    ``probs (one vector per run, learned)``."""
    flags = [flag for flag in ("required", "learned") if param[flag]]
    if param["per_run"]:
        flags.insert(0, "one vector per run" if param["vector"] else "one per run")
    if param["required"] or param["learned"] or (param["per_run"] and param["default"] is None):
        return f"{param['name']} ({', '.join(flags)})"
    return f"{param['name']}={param['default']}"


def _param_entry(param: FusionParam) -> dict[str, Any]:
    """What ``ef-eval fusions -o json`` says of a parameter: its type and default, whether
    it is one per run (a vector per run), required, or learned by the method's ``train``
    (:func:`~ef.evaluation.optimize_fusion` learns it; :func:`~ef.evaluation.fuse` needs
    it), and the grid optimize_fusion searches (empty: none)."""
    return {
        "name": param.name,
        "type": param.type.__name__,
        "per_run": param.per_run,
        "default": param.default,
        "description": param.description,
        "required": param.required,
        "learned": param.learned,
        "vector": param.vector,
        "grid": list(param.grid),
    }


@click.command("fusions")
@output_option("rows")
def fusions_command(output: str) -> None:
    """List every fusion method the loaded plugins provide: what it reads (scores or ranks),
    its parameters, its formula and the plugin that provides it.

    A supervised method (-o json: "supervised") learns its learned parameters from training
    runs and their qrels (optimize_fusion); a required parameter has no default.
    """
    from .._plugin_engine.registry import get_registry

    registry = get_registry()
    entries: list[dict[str, Any]] = [
        {
            "name": name,
            "uses": method.uses,
            "parameters": [_param_entry(p) for p in method.params],
            "supervised": method.train is not None,
            "description": method.description,
            "formula": method.formula,
            "citation": method.citation,
            "plugin": registry.provider(name, "fusion").name,
        }
        for name, method in registry.fusion_methods.items()
    ]
    if output == "json":
        emit_json(entries)
        return
    rows = [
        [
            entry["name"],
            entry["uses"],
            ", ".join(_param_cell(p) for p in entry["parameters"]) or "-",
            entry["formula"] or entry["description"],
            entry["plugin"],
        ]
        for entry in entries
    ]
    emit_rows(["name", "reads", "parameters", "formula", "plugin"], rows, output, numeric=False)
