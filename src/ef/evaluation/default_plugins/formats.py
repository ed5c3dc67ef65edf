"""Registers the BEIR dataset format and the RAG-samples formats (JSONL, CSV)."""

from __future__ import annotations

from ..formats import beir, rag_samples
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
        ),
        DatasetFormat(
            name="rag_jsonl",
            read_samples=rag_samples.read_jsonl_samples,
            write_samples=rag_samples.write_jsonl_samples,
            detect=rag_samples.looks_like_jsonl_samples,
            description="RAG samples, one JSON object per line (as Ragas' to_jsonl writes).",
        ),
        DatasetFormat(
            name="rag_csv",
            read_samples=rag_samples.read_csv_samples,
            write_samples=rag_samples.write_csv_samples,
            detect=rag_samples.looks_like_csv_samples,
            description="RAG samples, one per CSV row; list fields as JSON (or Python) lists.",
        ),
    ]
