"""Registers the dataset formats: Parquet, BEIR, TREC, MS MARCO, and the RAG-samples formats.

Each format declares itself at the end of its own module (``FORMAT = DatasetFormat(...)``;
the TREC format in its package's ``__init__``): adding one is its module and a line here.
"""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..interfaces import DatasetFormat


# Detection asks formats in this order, so the most specific layouts come first: Parquet by
# its magic bytes, a 3-column TSV with a header is BEIR qrels, a 6-column file a TREC run, a
# tab-separated one MS MARCO.
@hookimpl
def ef_evaluation_formats() -> list[DatasetFormat]:
    # The format modules load when a format is first asked for, not when a metric is.
    from .._formats import beir, msmarco, parquet, rag_samples, trec

    return [
        parquet.FORMAT,
        beir.FORMAT,
        trec.FORMAT,
        msmarco.FORMAT,
        rag_samples.JSONL_FORMAT,
        rag_samples.CSV_FORMAT,
    ]
