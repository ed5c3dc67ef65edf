"""Registers the BEIR dataset format."""

from __future__ import annotations

from ..formats import beir
from ..hookspecs import hookimpl
from ..interfaces import DatasetFormat


@hookimpl
def ef_evaluation_formats() -> list[DatasetFormat]:
    return [
        DatasetFormat(
            name="beir",
            read_dataset=beir.read_beir,
            write_dataset=beir.write_beir,
            detect=beir.looks_like_beir,
            description="BEIR: corpus.jsonl, queries.jsonl and qrels/<split>.tsv in a directory.",
        )
    ]
