"""The TREC readers: qrels, runs, topics, TREC-text documents, and a directory of them.

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

import io
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ...errors import DatasetFormatError
from .._io import (
    files_by_split,
    first_line,
    format_error,
    json_lines,
    numbered_lines,
    open_binary,
    read_text,
)
from .._records import (
    add_to_run,
    data_lines,
    empty_file,
    is_qrels_shape,
    is_run_shape,
    merge_texts,
    parse_grade,
    parse_score,
    read_id,
    read_id_texts,
    split_fields,
)

if TYPE_CHECKING:
    from ..._dataset import Dataset, Document, DocumentStream

__all__ = [
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "is_trec_run_line",
    "iter_trec_documents",
    "last_run_tag",
    "looks_like_trec",
    "looks_like_trec_run",
    "meta_path",
    "read_qrels_lines",
    "read_run_lines",
    "read_trec_corpus",
    "read_trec_dataset",
    "read_trec_topics",
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
    from ..._dataset import QueryTexts  # the dataset values: not for a run's or qrels' reading

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
    from ..._dataset import Document

    return Document(doc_id, title or "", text)


# A dataset directory.

_CORPUS_NAMES = ("corpus.trec", "corpus.trec.gz", "corpus.txt", "corpus.txt.gz")
_QRELS_FILE = re.compile(r"^qrels(?:\.(?P<split>[^.]+))?\.(txt|qrels|tsv)(\.gz)?$")
_TOPICS_FILE = re.compile(r"^(topics|queries)([.\-].*)?$")


def _find_corpus(root: Path) -> Path | None:
    return next((root / n for n in _CORPUS_NAMES if (root / n).is_file()), None)


def _split_files(root: Path) -> dict[str, Path]:
    return files_by_split(root, _QRELS_FILE, "test")


def _trec_files(path: Path) -> tuple[Path, list[Path], dict[str, Path]]:
    """The corpus, topics files and qrels files (by split) of the directory ``path``; a
    directory that lacks one of the three is refused."""
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
    return corpus, topics, splits


def read_trec_dataset(path: Path) -> Dataset:
    """A directory of ``corpus.trec``, ``topics*`` files and ``qrels.<split>.txt`` files."""
    from ..._dataset import Dataset, DocumentStream, QueryTexts, extra_of

    corpus, topics, splits = _trec_files(path)
    documents = DocumentStream(lambda: iter_trec_documents(corpus))
    qrels = {split: read_qrels_lines(file, allow_empty=True) for split, file in splits.items()}
    read = [(p, read_trec_topics(p)) for p in topics]
    texts = merge_texts(((p, texts.items()) for p, texts in read), "query")
    extra = {qid: fields for _, texts in read for qid, fields in extra_of(texts).items()}
    return Dataset(documents, QueryTexts(texts, extra=extra), qrels)


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
    from ..._dataset import DocumentStream

    return DocumentStream(lambda: iter_trec_documents(file))


# Qrels and runs: a record a line.

QRELS_COLUMNS = "query-id iteration doc-id relevance"


RUN_COLUMNS = "query-id Q0 doc-id rank score run-tag"


def is_trec_run_line(fields: list[str]) -> bool:
    """True for the fields of a TREC run line (``qid Q0 docno rank score tag``).

    >>> is_trec_run_line(split_fields("q1 Q0 d1 1 2.5 bm25"))
    True
    >>> is_trec_run_line(split_fields("q1 0 d1 1"))
    False
    """
    return len(fields) == 6 and fields[1] == "Q0"


def _columns_problem(fields: list[str], count: int, columns: str) -> str:
    """``expected COUNT columns (COLUMNS), got N``, and what the line is if it has the other
    file's columns: a run given as the qrels, or the qrels as the run, is the usual cause.

    >>> _columns_problem(["q1", "Q0", "d1", "1", "2.5", "bm25"], 4, QRELS_COLUMNS)
    'expected 4 columns (query-id iteration doc-id relevance), got 6: a TREC run line \
(query-id Q0 doc-id rank score run-tag), not a judgement'
    >>> _columns_problem(["q1", "0", "d1"], 4, QRELS_COLUMNS)  # doctest: +ELLIPSIS
    "expected 4 columns (...), got 3: doc 'd1' of query 'q1' has no relevance grade, ..."
    """
    problem = f"expected {count} columns ({columns}), got {len(fields)}"
    if columns == QRELS_COLUMNS and is_trec_run_line(fields):
        return f"{problem}: a TREC run line ({RUN_COLUMNS}), not a judgement"
    if columns == QRELS_COLUMNS and len(fields) == 3:
        # ef-eval pool leaves the grade empty: read as a grade, any token would be a number.
        return (
            f"{problem}: doc {fields[2]!r} of query {fields[0]!r} has no relevance grade, as in "
            "a pool not judged yet (ef-eval pool leaves the grade empty); fill in every grade "
            "(an integer), or leave the line out"
        )
    if columns == RUN_COLUMNS and len(fields) == 4 and fields[1] != "Q0":
        return f"{problem}: a qrels line ({QRELS_COLUMNS}), not a ranked doc"
    return problem


def read_qrels_lines(
    path: Path, *, allow_empty: bool = False, hash_data: bool = False
) -> dict[str, dict[str, int]]:
    """``{query_id: {doc_id: grade}}`` from a 4-column TREC qrels file.

    An empty file is an error unless ``allow_empty`` (a dataset's split may have no judgement).
    A ``#`` line with a qrels line's shape is data if ``hash_data`` (trec_eval 9.0.8's rule),
    else a comment with an :class:`~ef.evaluation.InputWarning` (:func:`data_lines`).
    """
    qrels: dict[str, dict[str, int]] = {}
    for line_no, line in data_lines(path, is_qrels_shape, hash_data=hash_data):
        fields = split_fields(line)
        if len(fields) != 4:
            raise format_error(path, line_no, _columns_problem(fields, 4, QRELS_COLUMNS), line)
        query_id, iteration, doc_id, field = fields
        read_id("query id", query_id, path, line_no, line)
        read_id("doc id", doc_id, path, line_no, line)
        grade = parse_grade(field, path, line_no, line)
        judged = qrels.setdefault(query_id, {})
        if doc_id in judged:
            problem = f"doc {doc_id!r} is judged twice for query {query_id!r}"
            if iteration not in ("0", "Q0"):  # trec_eval refuses it too ("duplicate docs")
                problem += (
                    f" (column 2 is {iteration!r}: if it names a subtopic, these are diversity "
                    "qrels: read them with qrels_format='subtopics', --qrels-format subtopics)"
                )
            raise format_error(path, line_no, problem, line)
        judged[doc_id] = grade
    if not qrels and not allow_empty:
        raise empty_file(path, f"qrels lines ({QRELS_COLUMNS})")
    return qrels


def read_run_lines(path: Path, *, hash_data: bool = False) -> dict[str, dict[str, float]]:
    """``{query_id: {doc_id: score}}`` from a 6-column TREC run; the rank column is ignored.

    Columns after the sixth are ignored, as trec_eval ignores them. A ``#`` line with a run
    line's shape is data if ``hash_data`` (trec_eval 9.0.8's rule), else a comment with an
    :class:`~ef.evaluation.InputWarning` (:func:`data_lines`).
    """
    run: dict[str, dict[str, float]] = {}
    for line_no, line in data_lines(path, is_run_shape, hash_data=hash_data):
        fields = split_fields(line)
        if len(fields) < 6:
            raise format_error(path, line_no, _columns_problem(fields, 6, RUN_COLUMNS), line)
        score = parse_score(fields[4], path, line_no, line)
        add_to_run(run, fields[0], fields[2], score, (path, line_no, line))
    if not run:
        raise empty_file(path, f"run lines ({RUN_COLUMNS})")
    return run


def last_run_tag(path: Path, *, hash_data: bool = False) -> str | None:
    """The run tag (6th column) of the last run line of a TREC run file: the ``runid`` that
    trec_eval prints. None if that line has fewer than 6 columns. Read from the end of a
    plain file, so that a large run is not read again. A ``#`` line of a run line's shape
    is a run line if ``hash_data`` (trec_eval 9.0.8), a comment if not.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     run = Path(tmp, "run.txt")
    ...     _ = run.write_text("q1 Q0 d1 1 2.5 first\\nq1 Q0 d2 2 1.5 second\\n\\n# a note\\n")
    ...     last_run_tag(run)
    'second'
    """
    with open_binary(path) as handle:
        if isinstance(handle, io.BufferedReader):
            size = handle.seek(0, io.SEEK_END)
            tail, start = b"", size
            while start > 0:
                start = max(0, start - (1 << 16))
                handle.seek(start)
                tail = handle.read(size - start)
                found = _last_line(tail, whole=start == 0, hash_data=hash_data)
                if found is not None:
                    return _tag_of(found)
            return None
        tail, cut = b"", False  # gzip: read through, keeping the last megabyte
        for block in iter(lambda: handle.read(1 << 20), b""):
            tail += block
            if len(tail) > 1 << 21:
                tail, cut = tail[-(1 << 20) :], True
        found = _last_line(tail, whole=not cut, hash_data=hash_data)
        return None if found is None else _tag_of(found)


def _last_line(data: bytes, *, whole: bool, hash_data: bool = False) -> bytes | None:
    """The last line of ``data`` that is neither blank nor a comment (with ``hash_data``, a
    ``#`` line of a run line's shape is no comment); None if there is none (or, unless
    ``whole``, if the first line of ``data`` might be cut)."""
    lines = data.split(b"\n")
    if not whole:
        lines = lines[1:]
    for line in reversed(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            return line
        if hash_data and stripped and is_run_shape(split_fields(line.decode("utf-8", "replace"))):
            return line
    return None


def _tag_of(line: bytes) -> str | None:
    fields = split_fields(line.decode("utf-8", errors="replace"))
    return fields[5] if len(fields) >= 6 else None
