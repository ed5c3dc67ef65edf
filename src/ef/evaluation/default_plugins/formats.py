"""Registers the dataset formats: Parquet, BEIR, TREC, MS MARCO, and the RAG-samples formats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..hookspecs import hookimpl
from ..interfaces import DatasetFormat


# Detection asks formats in this order, so the most specific layouts come first: Parquet by
# its magic bytes, a 3-column TSV with a header is BEIR qrels, a 6-column file a TREC run, a
# tab-separated one MS MARCO.
@hookimpl
def ef_evaluation_formats() -> list[DatasetFormat]:
    # The format modules load when a format is first asked for, not when a metric is.
    from ..formats import _records, beir, msmarco, parquet, rag_samples, trec

    return [
        DatasetFormat(
            name="parquet",
            read_qrels=parquet.read_parquet_qrels,
            write_qrels=parquet.write_parquet_qrels,
            read_run=parquet.read_parquet_run,
            read_run_columns=parquet.read_parquet_run_columns,
            write_run=parquet.write_parquet_run,
            detect=parquet.looks_like_parquet,
            description=(
                "Parquet runs and qrels: q_id, doc_id, score columns (ranx's), or "
                "ir_measures' or PyTerrier's."
            ),
        ),
        DatasetFormat(
            name="beir",
            read_dataset=beir.read_beir_dataset,
            write_dataset=beir.write_beir_dataset,
            read_qrels=beir.read_beir_qrels,
            write_qrels=beir.write_beir_qrels,
            read_queries=beir.read_beir_queries,
            write_queries=beir.write_beir_queries,
            read_corpus=beir.read_beir_corpus,
            write_corpus=beir.write_beir_corpus,
            detect=beir.looks_like_beir,
            description="BEIR: corpus.jsonl, queries.jsonl and qrels/<split>.tsv in a directory.",
        ),
        DatasetFormat(
            name="trec",
            read_dataset=trec.read_trec_dataset,
            write_dataset=trec.write_trec_dataset,
            read_qrels=_records.read_qrels_lines,
            write_qrels=_records.write_qrels_lines,
            read_run=_records.read_run_lines,
            read_run_columns=_read_trec_columns,
            write_run=_records.write_run_lines,
            read_queries=trec.read_trec_topics,
            write_queries=trec.write_trec_topics,
            read_corpus=trec.read_trec_corpus,
            write_corpus=trec.write_trec_documents,
            detect=trec.looks_like_trec,
            description="TREC: 4-column qrels, 6-column runs, SGML or TSV topics, TREC-text docs.",
        ),
        DatasetFormat(
            name="msmarco",
            read_dataset=msmarco.read_msmarco_dataset,
            write_dataset=msmarco.write_msmarco_dataset,
            read_qrels=_records.read_qrels_lines,
            write_qrels=msmarco.write_msmarco_qrels,
            read_run=msmarco.read_msmarco_run,
            write_run=_records.write_ranked_lines,
            read_queries=msmarco.read_msmarco_queries,
            write_queries=msmarco.write_msmarco_queries,
            read_corpus=msmarco.read_msmarco_corpus,
            write_corpus=msmarco.write_msmarco_corpus,
            detect=msmarco.looks_like_msmarco,
            description="MS MARCO: collection.tsv, queries.<split>.tsv, qrels, qid/pid/rank runs.",
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


def _read_trec_columns(path: Path) -> Any:
    # numpy, and polars for a large file, are imported only when a run is read this way.
    from ..formats.trec_bytes import read_columns

    return read_columns(path)
