"""The TREC writers: qrels, runs, topics, TREC-text documents, and a directory of them.

Every writer is atomic (a file is renamed into place only when it is whole) and refuses
what its reader would refuse or read differently (an id with whitespace, a text holding a
TREC tag, a fractional grade). The fields a TREC file has no place for go to the sidecar
:func:`~ef.evaluation._formats.trec.reader.meta_path` names.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as tmp:
...     write_run_lines(Path(tmp, "run.txt"), {"q1": {"d1": 0.5, "d2": 1.5}}, tag="bm25")
...     print(Path(tmp, "run.txt").read_text(), end="")
q1 Q0 d2 1 1.5 bm25
q1 Q0 d1 2 0.5 bm25
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ...errors import DatasetFormatError
from .._io import atomic_writer, once_each
from .._records import check_id, format_grade, format_score, ranked_docs, write_id_texts_to
from .reader import meta_path

if TYPE_CHECKING:
    from ..._dataset import Dataset, Document

__all__ = [
    "write_qrels_lines",
    "write_qrels_to",
    "write_run_lines",
    "write_trec_dataset",
    "write_trec_documents",
    "write_trec_topics",
]


def write_qrels_lines(path: Path, qrels: Mapping[str, Mapping[str, float]]) -> None:
    """Write TREC qrels (``qid 0 docno rel``), atomically."""
    with atomic_writer(path) as out:
        write_qrels_to(out, qrels)


def write_qrels_to(out: IO[str], qrels: Mapping[str, Mapping[str, float]], sep: str = " ") -> None:
    for query_id, judged in qrels.items():
        qid = check_id("query id", query_id, starts_line=True)
        for doc_id, grade in judged.items():
            rel = format_grade(query_id, doc_id, grade)
            out.write(f"{qid}{sep}0{sep}{check_id('doc id', doc_id)}{sep}{rel}\n")


def write_run_lines(
    path: Path, run: Mapping[str, Mapping[str, float] | Iterable[str]], tag: str = "ef"
) -> None:
    """Write a 6-column TREC run, atomically, ranks in trec_eval's order.

    A ranked list (``{qid: [docs]}``) gets descending integer scores, so its order survives.
    """
    check_id("run tag", tag)
    with atomic_writer(path) as out:
        for query_id, ranked in run.items():
            qid = check_id("query id", query_id, starts_line=True)
            docs = ranked_docs(query_id, ranked)
            scores = ranked if isinstance(ranked, Mapping) else None
            for rank, doc_id in enumerate(docs, start=1):
                score = (
                    format_score(query_id, doc_id, scores[doc_id])
                    if scores is not None
                    else str(len(docs) - rank + 1)
                )
                out.write(f"{qid} Q0 {check_id('doc id', doc_id)} {rank} {score} {tag}\n")


def _meta_line(item_id: str, extra: Mapping[str, Any]) -> str:
    if "_id" in extra:
        raise DatasetFormatError(f"{item_id!r}: an extra field may not be called '_id'")
    import json  # here: a run or qrels file is written without it

    return json.dumps({"_id": item_id, **extra}) + "\n"


@contextlib.contextmanager
def _sidecar(path: Path) -> Iterator[list[str]]:
    """Lines for ``path``'s sidecar, collected while the file is written; written with the
    file (or a stale sidecar removed) when the block ends without an error."""
    lines: list[str] = []
    yield lines
    meta = meta_path(path)
    if lines:
        with atomic_writer(meta) as out:
            out.writelines(lines)
    else:
        # The file it described is being replaced: it would attach old fields to new data.
        meta.unlink(missing_ok=True)


# <DOCNO> may appear in a text: the reader takes the first one, which the writer puts first.
_FORBIDDEN_IN_TEXT = re.compile(r"</?(DOC|TEXT|TITLE|HEAD)>", re.IGNORECASE)


def _document_block(doc: Document) -> str:
    doc_id = check_id("doc id", doc.id)
    for field, value in (("title", doc.title), ("text", doc.text)):
        if _FORBIDDEN_IN_TEXT.search(value):
            raise DatasetFormatError(
                f"document {doc.id!r}: its {field} holds a TREC tag (<DOC>, <TEXT>, <TITLE> "
                "or <HEAD>), which TREC text cannot store; write BEIR (JSON lines)"
            )
        if "\r" in value:
            raise DatasetFormatError(
                f"document {doc.id!r}: its {field} holds a carriage return, which TREC text "
                "cannot keep (line ends are read as line breaks); write BEIR (JSON lines)"
            )
    title = f"<TITLE>\n{doc.title}\n</TITLE>\n" if doc.title else ""
    return f"<DOC>\n<DOCNO>{doc_id}</DOCNO>\n{title}<TEXT>\n{doc.text}\n</TEXT>\n</DOC>\n"


def write_trec_documents(path: Path, documents: Iterable[Document]) -> None:
    """Write documents as TREC text, atomically, streaming them one at a time; their other
    fields (``Document.extra``) go to the sidecar :func:`meta_path` names."""
    # The sidecar is written first (inner), so an error in it leaves neither file.
    with atomic_writer(path) as out, _sidecar(path) as meta:
        _write_documents(out, documents, meta)


def _write_documents(out: IO[str], documents: Iterable[Document], meta: list[str]) -> None:
    for doc in once_each(documents, lambda doc: doc.id, "document"):
        out.write(_document_block(doc))
        if doc.extra:
            meta.append(_meta_line(doc.id, doc.extra))


def _write_topics(out: IO[str], queries: Mapping[str, str], meta: list[str]) -> None:
    write_id_texts_to(out, queries.items(), "query")
    from ..._dataset import extra_of  # the dataset values: not for a run's or qrels' writing

    meta.extend(_meta_line(qid, fields) for qid, fields in extra_of(queries).items())


def write_trec_dataset(path: Path, dataset: Dataset) -> None:
    """Write ``corpus.trec``, ``topics.tsv`` and one ``qrels.<split>.txt`` per split, and the
    sidecars ``corpus.meta.jsonl`` and ``topics.meta.jsonl`` when there are fields to keep."""
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        # Each file is renamed into place only when all of them were written.
        corpus, topics, *qrels_outs = (
            stack.enter_context(atomic_writer(path / name))
            for name in ("corpus.trec", "topics.tsv", *(f"qrels.{s}.txt" for s in dataset.qrels))
        )
        corpus_meta = stack.enter_context(_sidecar(path / "corpus.trec"))
        topics_meta = stack.enter_context(_sidecar(path / "topics.tsv"))
        _write_documents(corpus, dataset.corpus, corpus_meta)
        _write_topics(topics, dataset.queries, topics_meta)
        for out, qrels in zip(qrels_outs, dataset.qrels.values(), strict=True):
            write_qrels_to(out, qrels)


def write_trec_topics(path: Path, queries: Mapping[str, str]) -> None:
    """Write topics as ``qid<TAB>text`` lines (the form that keeps any one-line text exact);
    the queries' other fields (:func:`~ef.evaluation._dataset.extra_of`) go to the sidecar."""
    with atomic_writer(path) as out, _sidecar(path) as meta:
        _write_topics(out, queries, meta)
