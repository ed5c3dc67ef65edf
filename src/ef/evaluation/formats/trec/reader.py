"""The TREC formats: qrels, runs, topics, TREC-text documents, and a directory of them.

* qrels: ``qid iter docno rel`` (4 columns, ``iter`` ignored, integer ``rel``);
* runs: ``qid Q0 docno rank score tag`` (6 columns; the rank is ignored, as trec_eval does);
* topics: the SGML ``<top>`` form (``<num>``, ``<title>``, ``<desc>``, ``<narr>``; the title
  is the query), the ``<DOC><DOCNO>`` form of the CACM topics, or ``qid<TAB>text`` lines;
* documents: TREC text, ``<DOC> <DOCNO>id</DOCNO> <TITLE>..</TITLE> <TEXT>..</TEXT> </DOC>``;
* a dataset directory: ``corpus.trec`` (documents), ``topics.tsv`` and ``qrels.<split>.txt``;
* the fields a TREC file has no place for (BEIR's ``metadata``) go to a sidecar beside it:
  ``corpus.trec`` -> ``corpus.meta.jsonl``, ``topics.tsv`` -> ``topics.meta.jsonl``, one JSON
  line ``{"_id": id, <field>: <value>, ...}`` per document or query that has any. It is written
  only when there is something to keep, and read back whenever it is there.

A line whose first non-blank character is ``#`` is a comment, as in trec_eval 10.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import attrs

from ..dataset import Dataset, Document, DocumentStream, QueryTexts, extra_of
from ..errors import DatasetFormatError
from ._io import (
    atomic_writer,
    first_line,
    format_error,
    json_lines,
    numbered_lines,
    once_each,
    read_text,
)
from ._records import (
    check_id,
    is_trec_run_line,
    merge_texts,
    read_id_texts,
    read_qrels_lines,
    split_fields,
    write_id_texts_to,
    write_qrels_to,
)

__all__ = [
    "iter_trec_documents",
    "looks_like_trec",
    "meta_path",
    "read_trec_dataset",
    "read_trec_topics",
    "write_trec_dataset",
    "write_trec_documents",
]

# The tags that end a topic field; nothing else counts, so "<" inside a title is text.
_TOPIC_TAG = re.compile(r"<(num|title|desc|narr|/top|top)>", re.IGNORECASE)
_TOPIC_PREFIX = {
    "num": re.compile(r"^\s*Number:\s*", re.IGNORECASE),
    "title": re.compile(r"^\s*Topic:\s*", re.IGNORECASE),
    "desc": re.compile(r"^\s*Description:\s*", re.IGNORECASE),
    "narr": re.compile(r"^\s*Narrative:\s*", re.IGNORECASE),
}
_DOC_BLOCK = re.compile(r"<DOC>(.*?)</DOC>", re.DOTALL | re.IGNORECASE)
_DOCNO = re.compile(r"<DOCNO>(.*?)</DOCNO>", re.DOTALL | re.IGNORECASE)


def _fold(text: str) -> str:
    return " ".join(text.split())


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


_META_SUFFIX = ".meta.jsonl"


def meta_path(path: Path) -> Path:
    """The sidecar that keeps what the TREC file ``path`` has no place for.

    >>> meta_path(Path("data/corpus.trec.gz")), meta_path(Path("topics.tsv"))
    (PosixPath('data/corpus.meta.jsonl'), PosixPath('topics.meta.jsonl'))
    """
    name = path.name.removesuffix(".gz")
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    return path.with_name(stem + _META_SUFFIX)


def _read_meta(path: Path) -> dict[str, tuple[int, dict[str, Any]]]:
    """``{id: (line number, fields)}`` from a sidecar; ``{}`` when there is none."""
    if not path.exists():
        return {}
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    for line_no, line, record in json_lines(path):
        item_id = record.get("_id") if isinstance(record, dict) else None
        if not isinstance(item_id, str) or not item_id:
            raise format_error(path, line_no, "expected a JSON object with a string '_id'", line)
        if item_id in found:
            raise format_error(path, line_no, f"duplicate _id {item_id!r}", line)
        found[item_id] = (line_no, {k: v for k, v in record.items() if k != "_id"})
    return found


def _unmatched(meta_file: Path, meta: Mapping[str, tuple[int, Any]], ids: Iterable[str]) -> None:
    # A sidecar line for an id the file lacks is data that would vanish: say so.
    left = set(meta) - set(ids)
    if left:
        item_id = min(left, key=lambda i: meta[i][0])
        raise format_error(
            meta_file, meta[item_id][0], f"_id {item_id!r} is not in the file beside it"
        )


def _meta_line(item_id: str, extra: Mapping[str, Any]) -> str:
    if "_id" in extra:
        raise DatasetFormatError(f"{item_id!r}: an extra field may not be called '_id'")
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


def _sgml_topics(path: Path, text: str) -> dict[str, str]:
    topics: dict[str, str] = {}
    if "<top>" not in text.lower():
        return _doc_topics(path, text)
    for block in re.finditer(r"<top>(.*?)</top>", text, re.DOTALL | re.IGNORECASE):
        fields: dict[str, str] = {}
        body = block.group(1)
        tags = list(_TOPIC_TAG.finditer(body))
        for tag, following in zip(tags, [*tags[1:], None], strict=True):
            end = following.start() if following else len(body)
            name = tag.group(1).lower()
            fields[name] = _fold(_TOPIC_PREFIX[name].sub("", body[tag.end() : end]))
        line_no = _line_of(text, block.start())
        query_id = fields.get("num", "")
        if not query_id or len(query_id.split()) != 1:
            raise format_error(path, line_no, f"topic without a one-word <num> ({query_id!r})")
        if query_id in topics:
            raise format_error(path, line_no, f"duplicate topic number {query_id!r}")
        topics[query_id] = fields.get("title") or fields.get("desc", "")
    if not topics:
        raise DatasetFormatError(f"{path}: no complete <top> ... </top> topic in the file")
    return topics


def _doc_topics(path: Path, text: str) -> dict[str, str]:
    # The CACM topics: <DOC> <DOCNO> n </DOCNO> query text </DOC>.
    topics: dict[str, str] = {}
    for block in _DOC_BLOCK.finditer(text):
        line_no = _line_of(text, block.start())
        docno = _DOCNO.search(block.group(1))
        if docno is None or not docno.group(1).strip():
            raise format_error(path, line_no, "topic <DOC> without a <DOCNO>")
        query_id = docno.group(1).strip()
        if query_id in topics:
            raise format_error(path, line_no, f"duplicate topic number {query_id!r}")
        topics[query_id] = _fold(block.group(1)[docno.end() :])
    if not topics:
        raise DatasetFormatError(f"{path}: no <top> or <DOC> topic in the file")
    return topics


def read_trec_topics(path: Path) -> dict[str, str]:
    """``{query_id: text}`` from SGML topics (``<top>`` or ``<DOC>`` blocks) or TSV lines.

    The form is told from the first non-blank character: ``<`` is SGML. An SGML topic's text
    is its title (its description if it has no title), whitespace folded; a TSV text is kept
    verbatim.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "topics.txt")
    ...     _ = path.write_text("<top>\\n<num> Number: 301\\n<title> Organized crime\\n</top>\\n")
    ...     read_trec_topics(path)
    {'301': 'Organized crime'}
    """
    first = next(numbered_lines(path, comments=True), None)
    if first is None:
        raise DatasetFormatError(f"{path}: the file is empty; expected TREC topics")
    if _is_sgml(first[1]):
        texts = _sgml_topics(path, read_text(path))
    else:
        texts = read_id_texts(path, "query")
    meta_file = meta_path(path)
    meta = _read_meta(meta_file)
    _unmatched(meta_file, meta, texts)
    return QueryTexts(texts, extra={qid: fields for qid, (_, fields) in meta.items()})


def _is_sgml(line: str) -> bool:
    # A TSV topic id may start with "<" too; SGML starts with one of these tags.
    return bool(re.match(r"\s*<(top|doc)>", line, re.IGNORECASE))


def _block_field(block: str, tag: str) -> str | None:
    # One newline after the opening tag and before the closing one belong to the layout.
    parts = re.findall(rf"<{tag}>\n?(.*?)\n?</{tag}>", block, re.DOTALL | re.IGNORECASE)
    return "\n".join(parts) if parts else None


def iter_trec_documents(path: Path) -> Iterator[Document]:
    """Stream the documents of a TREC-text file, one ``<DOC>`` block in memory at a time.

    The id is the ``<DOCNO>``; the title is the ``<TITLE>`` (or ``<HEAD>``); the text is the
    ``<TEXT>`` blocks joined by line breaks. A block without ``<TEXT>`` keeps whatever follows
    its DOCNO and title as text, as collections without a TEXT tag (CACM's topics) have it.
    """
    meta_file = meta_path(path)
    meta = _read_meta(meta_file)
    seen: set[str] = set()
    block: list[str] | None = None
    start = 0
    count = 0
    for line_no, line in numbered_lines(path, keep_blank=True):
        stripped = line.strip().upper()
        if block is None:
            if stripped == "<DOC>":
                block, start = [], line_no
            elif stripped:
                raise format_error(path, line_no, "expected <DOC> to open a document", line)
            continue
        if stripped == "</DOC>":
            doc = _document(path, start, "\n".join(block), seen)
            if doc.id in meta:
                doc = attrs.evolve(doc, extra=meta[doc.id][1])
            count += 1
            block = None
            yield doc
        else:
            block.append(line)
    if block is not None:
        raise format_error(path, start, "this <DOC> is never closed by </DOC>")
    if count == 0:
        raise DatasetFormatError(f"{path}: the file is empty; expected <DOC> documents")
    _unmatched(meta_file, meta, seen)


def _document(path: Path, line_no: int, block: str, seen: set[str]) -> Document:
    docno = _DOCNO.search(block)
    if docno is None or not docno.group(1).strip():
        raise format_error(path, line_no, "document without a <DOCNO>")
    doc_id = docno.group(1).strip()
    if doc_id in seen:
        raise format_error(path, line_no, f"duplicate DOCNO {doc_id!r}")
    seen.add(doc_id)
    title = _block_field(block, "TITLE")
    if title is None:
        title = _block_field(block, "HEAD")
    text = _block_field(block, "TEXT")
    if text is None:
        rest = re.sub(r"<(TITLE|HEAD)>.*?</\1>", "", block[docno.end() :], flags=re.DOTALL)
        text = rest.strip()
    return Document(doc_id, title or "", text)


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
    meta.extend(_meta_line(qid, fields) for qid, fields in extra_of(queries).items())


# A dataset directory.

_CORPUS_NAMES = ("corpus.trec", "corpus.trec.gz", "corpus.txt", "corpus.txt.gz")
_QRELS_FILE = re.compile(r"^qrels(?:\.(?P<split>[^.]+))?\.(txt|qrels|tsv)(\.gz)?$")
_TOPICS_FILE = re.compile(r"^(topics|queries)([.\-].*)?$")


def _find_corpus(root: Path) -> Path | None:
    return next((root / n for n in _CORPUS_NAMES if (root / n).is_file()), None)


def _split_files(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(root.iterdir()):
        match = _QRELS_FILE.match(path.name)
        if match and path.is_file():
            found[match["split"] or "test"] = path
    return found


def read_trec_dataset(path: Path) -> Dataset:
    """A directory of ``corpus.trec``, ``topics*`` files and ``qrels.<split>.txt`` files."""
    if not path.is_dir():
        raise FileNotFoundError(f"no such dataset directory: {path}")
    corpus = _find_corpus(path)
    topics = [
        p
        for p in sorted(path.iterdir())
        if _TOPICS_FILE.match(p.name) and not p.name.endswith(_META_SUFFIX) and p.is_file()
    ]
    splits = _split_files(path)
    if corpus is None or not topics or not splits:
        raise FileNotFoundError(
            f"{path} is not a TREC dataset directory: it needs {' or '.join(_CORPUS_NAMES)}, "
            "a topics file and a qrels.<split>.txt file"
        )
    documents = DocumentStream(lambda: iter_trec_documents(corpus))
    qrels = {split: read_qrels_lines(file, allow_empty=True) for split, file in splits.items()}
    read = [(p, read_trec_topics(p)) for p in topics]
    texts = merge_texts(((p, texts.items()) for p, texts in read), "query")
    extra = {qid: fields for _, texts in read for qid, fields in extra_of(texts).items()}
    return Dataset(documents, QueryTexts(texts, extra=extra), qrels)


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


def looks_like_trec(path: Path) -> bool:
    """True for a TREC dataset directory, or a file whose first line is TREC qrels, run or SGML."""
    if path.is_dir():
        return _find_corpus(path) is not None and bool(_split_files(path))
    first = first_line(path)
    if first is None:
        return False
    if _is_sgml(first):
        return True
    # Split as the readers split: a no-break space in a docno does not make a fifth column
    # (the reader then names the line and the character).
    fields = split_fields(first)
    return len(fields) in (4, 6) or (len(fields) >= 6 and fields[1] == "Q0")


def looks_like_trec_run(path: Path) -> bool:
    """True for a file whose first line is a TREC run line (``qid Q0 docno rank score tag``).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "run.txt")
    ...     _ = path.write_text("q1 Q0 d1 1 2.5 bm25\\n")
    ...     looks_like_trec_run(path)
    True
    """
    first = None if path.is_dir() else first_line(path)
    return first is not None and is_trec_run_line(split_fields(first))


def read_trec_corpus(path: Path) -> DocumentStream:
    """The documents of a TREC-text file (or a TREC directory's), streamed on iteration."""
    file = _find_corpus(path) if path.is_dir() else path
    if file is None or not file.is_file():
        raise FileNotFoundError(f"no such file: {file or path / _CORPUS_NAMES[0]}")
    return DocumentStream(lambda: iter_trec_documents(file))


def write_trec_topics(path: Path, queries: Mapping[str, str]) -> None:
    """Write topics as ``qid<TAB>text`` lines (the form that keeps any one-line text exact);
    the queries' other fields (:func:`~ef.evaluation.dataset.extra_of`) go to the sidecar."""
    with atomic_writer(path) as out, _sidecar(path) as meta:
        _write_topics(out, queries, meta)
