"""``ef-eval metrics``: every metric the loaded plugins provide."""

from __future__ import annotations

import click

from ._render import emit_json, emit_rows, output_option

__all__ = ["metrics_command"]


@click.command("metrics")
@output_option("rows")
def metrics_command(output: str) -> None:
    """List every metric the loaded plugins provide: its parameters, its names in our,
    ir_measures' and trec_eval's syntax, and the plugin that provides it."""
    from .._plugin_engine.registry import get_registry
    from .._presentation.catalogue import catalogue_entries

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
