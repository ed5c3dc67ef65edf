"""``ef-eval plugins``: the loaded plugins, and what each provides."""

from __future__ import annotations

import click

from ._render import emit_json, emit_rows, output_option

__all__ = ["plugins_command"]


@click.command("plugins")
@output_option("rows")
def plugins_command(output: str) -> None:
    """List the loaded plugins: distribution, version and what each provides."""
    from .._plugin_engine.registry import get_registry

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
