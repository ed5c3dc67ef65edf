"""The TREC format, one package: its declaration here, its readers and writers beside it.

* :mod:`.reader`: the reference readers (qrels, runs, SGML or TSV topics, TREC-text
  documents, a dataset directory), and what tells a TREC file (``looks_like_trec``);
* :mod:`.writer`: the writers of the same;
* :mod:`.bytes_reader` (numpy, small and mid-size runs) and :mod:`.fast` (polars, large
  ones): the fast run readers, which give plain columns
  (:class:`~ef.evaluation._formats.trec.fast.RunColumns`) or leave a file to the reference
  reader, so the numbers and the errors are always its;
* :mod:`.stream`: the same columns, a batch of whole queries at a time, for a large run.

>>> FORMAT.name, "read_run_columns" in FORMAT.capabilities
('trec', True)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...interfaces import DatasetFormat
from .reader import (
    looks_like_trec,
    read_qrels_lines,
    read_run_lines,
    read_trec_corpus,
    read_trec_dataset,
    read_trec_topics,
)
from .writer import (
    write_qrels_lines,
    write_run_lines,
    write_trec_dataset,
    write_trec_documents,
    write_trec_topics,
)

__all__ = ["FORMAT"]


def _read_columns(path: Path) -> Any:
    # numpy, and polars for a large file, are imported only when a run is read this way.
    from .bytes_reader import read_columns

    return read_columns(path)


#: The format's declaration, which ``_default_plugins/formats.py`` registers.
FORMAT = DatasetFormat(
    name="trec",
    read_dataset=read_trec_dataset,
    write_dataset=write_trec_dataset,
    read_qrels=read_qrels_lines,
    write_qrels=write_qrels_lines,
    read_run=read_run_lines,
    read_run_columns=_read_columns,
    write_run=write_run_lines,
    read_queries=read_trec_topics,
    write_queries=write_trec_topics,
    read_corpus=read_trec_corpus,
    write_corpus=write_trec_documents,
    detect=looks_like_trec,
    description="TREC: 4-column qrels, 6-column runs, SGML or TSV topics, TREC-text docs.",
)
