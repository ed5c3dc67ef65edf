"""The MS MARCO formats: ``collection.tsv``, ``queries.<split>.tsv``, qrels and runs.

* collection: ``pid<TAB>text`` (no title: a title is joined to the text when written);
* queries: ``qid<TAB>text``, one file per split (``queries.dev.tsv``); queries judged in no
  split go to ``queries.tsv``;
* qrels: the 4-column TREC form, ``qid 0 pid rel`` (``qrels.<split>.tsv``);
* runs: ``qid<TAB>pid<TAB>rank`` (the official evaluation script's form), or the 6-column TREC
  form. A rank becomes the score ``1/rank`` when read.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..errors import DatasetFormatError
from ..interfaces import DatasetFormat
from ._io import atomic_writer, files_by_split, first_line
from ._records import (
    iter_id_texts,
    merge_texts,
    read_id_texts,
    read_ranked_lines,
    split_fields,
    write_id_texts,
    write_id_texts_to,
    write_ranked_lines,
)
from .trec.reader import read_qrels_lines, read_run_lines
from .trec.writer import write_qrels_to

if TYPE_CHECKING:
    from .._dataset import Dataset, Document, DocumentStream

__all__ = [
    "FORMAT",
    "iter_collection",
    "looks_like_msmarco",
    "read_msmarco_dataset",
    "read_msmarco_run",
    "write_msmarco_dataset",
]

_COLLECTION_NAMES = ("collection.tsv", "collection.tsv.gz")
_QUERIES_FILE = re.compile(r"^queries(?:\.(?P<split>[^.]+))?\.tsv(\.gz)?$")
_QRELS_FILE = re.compile(r"^qrels(?:\.(?P<split>[^.]+))?\.tsv(\.gz)?$")


def _cannot_hold(what: str, item_id: str, fields: Iterable[str]) -> DatasetFormatError:
    names = ", ".join(repr(f) for f in fields)
    return DatasetFormatError(
        f"{what} {item_id!r} has fields MS MARCO cannot hold ({names}): its files are "
        "id<TAB>text only; write BEIR or TREC (which keeps them in a .meta.jsonl sidecar), "
        "or drop them on purpose (convert(..., drop=('metadata',)), ef-eval convert "
        "--drop metadata)"
    )


def _plain_documents(documents: Iterable[Document]) -> Iterator[Document]:
    # Never a silent loss: a document's other fields have no column here.
    for doc in documents:
        if doc.extra:
            raise _cannot_hold("document", doc.id, doc.extra)
        yield doc


def _plain_queries(queries: Mapping[str, str]) -> Mapping[str, str]:
    from .._dataset import extra_of

    for query_id, fields in extra_of(queries).items():
        raise _cannot_hold("query", query_id, fields)
    return queries


def iter_collection(path: Path) -> Iterator[Document]:
    """Stream ``pid<TAB>text`` lines as documents without a title."""
    from .._dataset import Document

    empty = True
    for _, doc_id, text in iter_id_texts(path, "passage"):
        empty = False
        yield Document(doc_id, "", text)
    if empty:
        raise DatasetFormatError(f"{path}: the file is empty; expected pid<TAB>text lines")


def read_msmarco_run(path: Path) -> dict[str, dict[str, float]]:
    """A run in ``qid<TAB>pid<TAB>rank`` form or the 6-column TREC form (told by the first line)."""
    first = first_line(path)
    if first is not None and len(split_fields(first)) >= 6:
        return read_run_lines(path)
    return read_ranked_lines(path)


def _msmarco_files(path: Path) -> tuple[Path, dict[str, Path], dict[str, Path]]:
    """The collection, queries files and qrels files (by split) of the directory ``path``;
    a directory that lacks one of the three is refused."""
    if not path.is_dir():
        raise FileNotFoundError(f"no such dataset directory: {path}")
    collection = next((path / n for n in _COLLECTION_NAMES if (path / n).is_file()), None)
    query_files = files_by_split(path, _QUERIES_FILE, "")
    qrels_files = files_by_split(path, _QRELS_FILE, "")
    if collection is None or not query_files or not qrels_files:
        raise FileNotFoundError(
            f"{path} is not an MS MARCO dataset directory: it needs collection.tsv, "
            "queries.<split>.tsv and qrels.<split>.tsv"
        )
    return collection, query_files, qrels_files


def read_msmarco_dataset(path: Path) -> Dataset:
    """A directory of ``collection.tsv``, ``queries*.tsv`` and ``qrels.<split>.tsv`` files."""
    from .._dataset import Dataset, DocumentStream

    collection, query_files, qrels_files = _msmarco_files(path)
    # A split's queries file may be empty: a split without judgements has no queries.
    queries = merge_texts(
        ((f, ((q, t) for _, q, t in iter_id_texts(f, "query"))) for f in query_files.values()),
        "query",
    )
    qrels = {
        split or "test": read_qrels_lines(file, allow_empty=True)
        for split, file in qrels_files.items()
    }
    return Dataset(DocumentStream(lambda: iter_collection(collection)), queries, qrels)


def write_msmarco_dataset(path: Path, dataset: Dataset) -> None:
    """Write ``collection.tsv``, ``queries.<split>.tsv`` and ``qrels.<split>.tsv`` per split.

    A document's title is joined to its text (the collection has no title column); queries
    judged in no split are written to ``queries.tsv`` so that none is lost.
    """
    _plain_queries(dataset.queries)
    path.mkdir(parents=True, exist_ok=True)
    judged = {qid for qrels in dataset.qrels.values() for qid in qrels}
    unjudged = {q: t for q, t in dataset.queries.items() if q not in judged}
    missing = sorted(judged - set(dataset.queries))
    if missing:
        raise DatasetFormatError(
            f"qrels judge queries with no text ({', '.join(missing[:5])}); MS MARCO keeps "
            "queries per split, so each judged query needs its text"
        )
    with contextlib.ExitStack() as stack:
        # Each file is renamed into place only when all of them were written.
        def open_out(name: str) -> IO[str]:
            return stack.enter_context(atomic_writer(path / name))

        collection = open_out("collection.tsv")
        documents = _plain_documents(dataset.corpus)
        write_id_texts_to(collection, ((d.id, d.joined) for d in documents), "document")
        for split, qrels in dataset.qrels.items():
            write_qrels_to(open_out(f"qrels.{split}.tsv"), qrels, sep="\t")
            texts = ((qid, dataset.queries[qid]) for qid in qrels)
            write_id_texts_to(open_out(f"queries.{split}.tsv"), texts, "query")
        if unjudged:
            write_id_texts_to(open_out("queries.tsv"), unjudged.items(), "query")


def looks_like_msmarco(path: Path) -> bool:
    """True for an MS MARCO directory, or a file of tab-separated MS MARCO lines."""
    if path.is_dir():
        return any((path / n).is_file() for n in _COLLECTION_NAMES)
    first = first_line(path)
    if first is None:
        return False
    return "\t" in first or len(split_fields(first)) in (3, 4, 6)


def read_msmarco_corpus(path: Path) -> DocumentStream:
    """The passages of a ``collection.tsv`` (or an MS MARCO directory's), streamed."""
    from .._dataset import DocumentStream

    file = path
    if path.is_dir():
        file = next((path / n for n in _COLLECTION_NAMES if (path / n).is_file()), path / "x")
    if not file.is_file():
        raise FileNotFoundError(f"no such file: {path / _COLLECTION_NAMES[0]}")
    return DocumentStream(lambda: iter_collection(file))


def write_msmarco_corpus(path: Path, documents: Iterable[Document]) -> None:
    """Write ``pid<TAB>text`` lines, a title joined to its text, atomically."""
    write_id_texts(path, ((doc.id, doc.joined) for doc in _plain_documents(documents)), "document")


def read_msmarco_queries(path: Path) -> dict[str, str]:
    """``{qid: text}`` from a ``qid<TAB>text`` file."""
    return read_id_texts(path, "query")


def write_msmarco_queries(path: Path, queries: Mapping[str, str]) -> None:
    """Write ``qid<TAB>text`` lines, atomically; a query with other fields is an error."""
    write_id_texts(path, _plain_queries(queries).items(), "query")


def write_msmarco_qrels(path: Path, qrels: Mapping[str, Mapping[str, float]]) -> None:
    """Write qrels as MS MARCO has them: ``qid<TAB>0<TAB>pid<TAB>rel``, atomically."""
    with atomic_writer(path) as out:
        write_qrels_to(out, qrels, sep="\t")


#: The format's declaration, which ``_default_plugins/formats.py`` registers. Its qrels are
#: TREC qrels (any whitespace between the columns), and so read by the TREC reader.
FORMAT = DatasetFormat(
    name="msmarco",
    read_dataset=read_msmarco_dataset,
    write_dataset=write_msmarco_dataset,
    read_qrels=read_qrels_lines,
    write_qrels=write_msmarco_qrels,
    read_run=read_msmarco_run,
    write_run=write_ranked_lines,
    read_queries=read_msmarco_queries,
    write_queries=write_msmarco_queries,
    read_corpus=read_msmarco_corpus,
    write_corpus=write_msmarco_corpus,
    detect=looks_like_msmarco,
    description="MS MARCO: collection.tsv, queries.<split>.tsv, qrels, qid/pid/rank runs.",
)
