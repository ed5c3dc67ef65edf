"""The BEIR layout: ``corpus.jsonl``, ``queries.jsonl`` and a qrels TSV in one directory.

Reading follows BEIR's ``GenericDataLoader``: ids are always ``str`` (numeric JSON ids
included), a corpus text is its title and text joined by one space, and the qrels TSV has
``query-id, corpus-id, score`` columns after an optional header row. Unlike BEIR, every query of
``queries.jsonl`` is kept (BEIR drops the unjudged ones), and nothing malformed is skipped: a
bad line raises :class:`~ef.evaluation.errors.DatasetFormatError` naming the file and line.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import DatasetFormatError, InputWarning
from ..interfaces import DatasetFormat
from ._arguments import a_type, check_triple, path_argument
from ._io import (
    atomic_writer,
    caller_stacklevel,
    files_by_split,
    first_line,
    format_error,
    json_lines,
    numbered_lines,
    once_each,
)
from ._records import id_problem, parse_score, read_id, split_fields

if TYPE_CHECKING:
    from .._dataset import Dataset, Document, DocumentStream, QueryTexts

__all__ = [
    "DEFAULT_QRELS_PATHS",
    "FORMAT",
    "_DEFAULT_QRELS_PATHS",
    "looks_like_beir",
    "read_beir",
    "write_beir",
]

#: Where :func:`read_beir` looks for judgements when ``qrels=None``, in this order.
DEFAULT_QRELS_PATHS: tuple[str, ...] = (
    "qrels/test.tsv",
    "qrels/dev.tsv",
    "qrels/train.tsv",
    "qrels.tsv",
)
#: The spec's name for :data:`DEFAULT_QRELS_PATHS`.
_DEFAULT_QRELS_PATHS = DEFAULT_QRELS_PATHS

_QRELS_HEADER = ("query-id", "corpus-id", "score")
# A first row whose score column is a word ("score", "relevance") is a header, not data.
_HEADER_SCORE = re.compile(r"^[A-Za-z][A-Za-z_\- ]*$")
# A qrels file of the qrels folder: its split is its name up to the first dot.
_QRELS_FILE = re.compile(r"(?P<split>[^.]*)(?:\..*)?\.tsv(?:\.gz)?\Z", re.DOTALL)


def _jsonl_path(directory: Path, stem: str) -> Path:
    plain = directory / f"{stem}.jsonl"
    gzipped = directory / f"{stem}.jsonl.gz"
    if plain.is_file() or not gzipped.is_file():
        return plain
    return gzipped


def _id_of(value: object, path: Path, line_no: int, line: str) -> str:
    # JSON numbers are ids too (BEIR has "_id": 4983 in some sets); bools are not.
    if isinstance(value, str) and value:
        return read_id("_id", value, path, line_no, line)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise format_error(path, line_no, f"'_id' must be a non-empty string, got {value!r}", line)


def _text_field(record: Mapping[str, Any], key: str, path: Path, line_no: int, line: str) -> str:
    value = record.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise format_error(path, line_no, f"{key!r} must be a string, got {value!r}", line)
    return value


def _records(path: Path) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
    """``(line number, line, id, record)`` per JSON line; a duplicate id is an error."""
    first_seen: dict[str, int] = {}
    for line_no, line, record in json_lines(path):
        if not isinstance(record, dict):
            raise format_error(path, line_no, "expected a JSON object with '_id' and 'text'", line)
        if "_id" not in record:
            raise format_error(path, line_no, "the record has no '_id'", line)
        doc_id = _id_of(record["_id"], path, line_no, line)
        if doc_id in first_seen:
            raise format_error(
                path, line_no, f"duplicate _id {doc_id!r} (first on line {first_seen[doc_id]})"
            )
        first_seen[doc_id] = line_no
        yield line_no, line, doc_id, record


_DOCUMENT_KEYS = ("_id", "title", "text")
_QUERY_KEYS = ("_id", "text")


def _extra(record: Mapping[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    # Every other field ("metadata": {...}), in file order: a conversion keeps it or says so.
    return {key: value for key, value in record.items() if key not in known}


def iter_beir_documents(path: Path) -> Iterator[Document]:
    """Stream the documents of a ``corpus.jsonl``, title and text apart, other fields kept."""
    from .._dataset import Document

    for line_no, line, doc_id, record in _records(path):
        title = _text_field(record, "title", path, line_no, line)
        text = _text_field(record, "text", path, line_no, line)
        yield Document(doc_id, title, text, extra=_extra(record, _DOCUMENT_KEYS))


def read_beir_queries(path: Path, *, allow_empty: bool = False) -> QueryTexts:
    """``{query_id: text}`` from a ``queries.jsonl`` (or the one in a BEIR directory); the other
    fields of each record (``metadata``) are its ``extra``. An empty file is an error naming
    it, as an empty qrels file is, unless ``allow_empty`` (a dataset that write_beir wrote
    with no query)."""
    from .._dataset import QueryTexts

    if path.is_dir():
        path = _jsonl_path(path, "queries")
    texts: dict[str, str] = {}
    extra: dict[str, dict[str, Any]] = {}
    for line_no, line, query_id, record in _records(path):
        texts[query_id] = _text_field(record, "text", path, line_no, line)
        extra[query_id] = _extra(record, _QUERY_KEYS)
    if not texts and not allow_empty:
        raise DatasetFormatError(
            f'{path}: the file is empty; expected queries, one JSON object per line ({{"_id": '
            '..., "text": ...}})'
        )
    return QueryTexts(texts, extra=extra)


def _is_header_score(field: str) -> bool:
    try:
        float(field)  # "nan" and "inf" are numbers to float(): bad data, not a header
    except ValueError:
        return bool(_HEADER_SCORE.match(field))
    return False


def _qrels_fields(path: Path, line_no: int, line: str) -> tuple[str, str, str]:
    """A qrels line's query-id, corpus-id and score, split at tabs (else at whitespace)."""
    fields = [f.strip() for f in (line.split("\t") if "\t" in line else split_fields(line))]
    if len(fields) != 3:
        raise format_error(
            path,
            line_no,
            f"expected 3 columns (query-id, corpus-id, score), got {len(fields)}",
            line,
        )
    query_id, doc_id, score = fields
    return query_id, doc_id, score


def _read_qrels_tsv(path: Path, *, allow_empty: bool = False) -> dict[str, dict[str, float]]:
    qrels: dict[str, dict[str, float]] = {}
    seen_rows = False  # the header, if any, is the first non-blank row
    first_seen: dict[tuple[str, str], int] = {}
    for line_no, line in numbered_lines(path):
        query_id, doc_id, score = _qrels_fields(path, line_no, line)
        first_row = not seen_rows
        seen_rows = True
        if first_row and _is_header_score(score):
            continue
        if not query_id or not doc_id:
            raise format_error(path, line_no, "empty query-id or corpus-id", line)
        read_id("query id", query_id, path, line_no, line)
        read_id("doc id", doc_id, path, line_no, line)
        # The grammar of every line reader: "1_0" or "0x1" is not a number here either.
        grade = parse_score(score, path, line_no, line)
        judged = qrels.setdefault(query_id, {})
        if doc_id in judged:
            # Even with the same grade: a repeated row is a damaged or concatenated file.
            raise format_error(
                path,
                line_no,
                f"({query_id!r}, {doc_id!r}) is judged twice, with {judged[doc_id]:g} and "
                f"{grade:g} (first on line {first_seen[query_id, doc_id]})",
                line,
            )
        judged[doc_id] = grade
        first_seen[query_id, doc_id] = line_no
    if not qrels and not allow_empty:
        raise DatasetFormatError(
            f"{path}: the file is empty; expected qrels lines (query-id, corpus-id, score)"
        )
    return qrels


def dataset_folder(directory: object, call: str, *, other: object = None) -> Path:
    """``directory`` as a Path to an existing folder; else a ``FileNotFoundError`` (or a
    ``TypeError`` for no path at all) naming it as given and resolved, for ``call``."""
    root = path_argument(
        directory, call, "directory", expected="a BEIR dataset folder", other=other
    )
    if root.is_dir():
        return root
    if root.exists():
        raise FileNotFoundError(
            f"{root} ({root.resolve()}) is a file, not a dataset folder; {call} takes the folder "
            f"that holds {_LAYOUT}"
        )
    raise FileNotFoundError(f"no such dataset directory: {root} ({root.resolve()})")


#: What a BEIR folder holds, as messages say it.
_LAYOUT = "corpus.jsonl, queries.jsonl and qrels/test.tsv (or dev.tsv, train.tsv, qrels.tsv)"


def _check_parts(root: Path, qrels: str | None) -> None:
    """Refuse a folder that lacks a part of a BEIR dataset read by :func:`read_beir`."""
    lacking = None
    if qrels is not None and not (root / qrels).is_file():
        if all(_jsonl_path(root, stem).is_file() for stem in ("corpus", "queries")):
            _qrels_path(root, qrels)  # the one part missing: "no such qrels file"
        lacking = f"the qrels file {qrels} that qrels= names"
    elif qrels is None and not any((root / c).is_file() for c in _DEFAULT_QRELS_PATHS):
        lacking = f"a qrels file (tried {', '.join(_DEFAULT_QRELS_PATHS)}; or pass qrels=)"
    _refuse_missing(root, lacking)


def _refuse_missing(root: Path, qrels_lacking: str | None) -> None:
    """Refuse a folder that lacks ``corpus.jsonl``, ``queries.jsonl`` or its qrels (what
    ``qrels_lacking`` says, if they lack), naming the folder (resolved: "." names nothing),
    every part it lacks at once, and what it holds instead."""
    missing = [
        f"{stem}.jsonl" for stem in ("corpus", "queries") if not _jsonl_path(root, stem).is_file()
    ]
    if qrels_lacking is not None:
        missing.append(qrels_lacking)
    if not missing:
        return
    try:
        names = sorted(entry.name for entry in os.scandir(root))
    except OSError:
        names = []
    shown = ", ".join(names[:8]) + (f", ... ({len(names)} entries)" if len(names) > 8 else "")
    raise FileNotFoundError(
        f"{root} is not a BEIR dataset folder: {root.resolve()} lacks {'; '.join(missing)} "
        f"(it holds {shown or 'nothing'}); a BEIR folder holds {_LAYOUT}"
    )


def _qrels_path(directory: Path, qrels: str | None) -> Path:
    if qrels is not None:
        path = directory / qrels
        if not path.is_file():
            raise FileNotFoundError(f"no such qrels file: {path} ({path.resolve()})")
        return path
    for candidate in _DEFAULT_QRELS_PATHS:
        if (directory / candidate).is_file():
            if candidate not in (_DEFAULT_QRELS_PATHS[0], "qrels.tsv"):
                split = Path(candidate).stem
                warnings.warn(
                    f"{directory} has no {_DEFAULT_QRELS_PATHS[0]}: its judgements are read "
                    f"from {candidate}, the {split} split, not the test split; name the file "
                    f"({directory / candidate}) to say that is what you mean",
                    InputWarning,
                    stacklevel=caller_stacklevel(),
                )
            return directory / candidate
    tried = ", ".join(_DEFAULT_QRELS_PATHS)
    raise FileNotFoundError(
        f"no qrels file in {directory} ({directory.resolve()}; tried {tried}); pass qrels="
    )


def read_beir(
    directory: str | os.PathLike[str], *, qrels: str | None = None
) -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, float]]]:
    """Load a BEIR-format dataset from disk into the in-memory evaluation triple.

    Reads ``corpus.jsonl`` (records ``{"_id", "title", "text"}``), ``queries.jsonl`` (records
    ``{"_id", "text"}``) and a qrels TSV (query-id, corpus-id, score columns, header optional).
    The corpus text is the record's title and text joined by a space, the BEIR convention.
    ``.jsonl.gz`` files are read when the plain ones are absent.

    Args:
        directory: the dataset directory.
        qrels: the qrels file, relative to ``directory``. ``None`` tries
            ``_DEFAULT_QRELS_PATHS`` in order: ``qrels/test.tsv``, ``qrels/dev.tsv``,
            ``qrels/train.tsv``, ``qrels.tsv``.

    Returns:
        a ``(corpus, queries, qrels)`` triple: corpus and queries are ``{id: text}`` dicts,
        qrels is ``{query_id: {doc_id: relevance}}``. Feed it straight to
        :func:`~ef.evaluation.evaluate_retrieval`.

    Raises:
        FileNotFoundError: if ``corpus.jsonl``, ``queries.jsonl`` or the qrels file is missing.
        DatasetFormatError: (a ``ValueError``) for a malformed line, naming the file and line.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_beir(tmp, {"d1": "Paris is in France."}, {"q1": "where is Paris?"},
    ...                {"q1": {"d1": 1.0}})
    ...     corpus, queries, qrels = read_beir(tmp)
    >>> corpus, queries, qrels
    ({'d1': 'Paris is in France.'}, {'q1': 'where is Paris?'}, {'q1': {'d1': 1.0}})
    """
    root = dataset_folder(directory, "read_beir(directory)")
    _check_parts(root, qrels)
    corpus = {doc.id: doc.joined for doc in iter_beir_documents(_jsonl_path(root, "corpus"))}
    queries = read_beir_queries(_jsonl_path(root, "queries"), allow_empty=True)
    # write_beir() may write an empty qrels file: its inverse reads it.
    judgements = _read_qrels_tsv(_qrels_path(root, qrels), allow_empty=True)
    return corpus, queries, judgements


def looks_like_beir(path: str | os.PathLike[str]) -> bool:
    """True for a directory holding a BEIR ``corpus.jsonl`` or ``queries.jsonl``, a JSON-lines
    file, or a 3-column tab-separated qrels file."""
    root = Path(path)
    if root.is_dir():
        return any(
            (root / name).is_file()
            for name in ("corpus.jsonl", "corpus.jsonl.gz", "queries.jsonl", "queries.jsonl.gz")
        )
    first = first_line(root)
    if first is None:
        return False
    if first.lstrip().startswith("{"):
        import json  # here, as in _json_line: telling a TREC file from BEIR's needs none

        with contextlib.suppress(ValueError, RecursionError):
            return isinstance(json.loads(first), dict)
    # Three tab-separated columns, none holding a space (that would be TREC's whitespace).
    return len(first.split("\t")) == 3 and len(split_fields(first)) == 3


def read_beir_qrels(path: Path) -> dict[str, dict[str, float]]:
    """Qrels from a BEIR qrels TSV, or from a BEIR directory's first default split."""
    if path.is_dir():
        return _read_qrels_tsv(_qrels_path(path, None))
    return _read_qrels_tsv(path)


def write_beir_qrels(path: Path, qrels: Mapping[str, Mapping[str, float]]) -> None:
    """Write a BEIR qrels TSV (with its header row), atomically."""
    rows = _qrels_rows(qrels)
    with atomic_writer(path) as out:
        _write_qrels_rows(out, rows)


def _split_files(root: Path) -> dict[str, Path]:
    folder = root / "qrels"
    found = files_by_split(folder, _QRELS_FILE, "") if folder.is_dir() else {}
    if not found and (root / "qrels.tsv").is_file():
        found["test"] = root / "qrels.tsv"
    return found


def read_beir_dataset(path: Path) -> Dataset:
    """Every split of a BEIR directory (``qrels/<split>.tsv``), documents streamed."""
    from .._dataset import Dataset, DocumentStream

    dataset_folder(path, "read_dataset(path)")
    splits = _split_files(path)
    _refuse_missing(path, None if splits else "qrels (qrels/<split>.tsv or qrels.tsv)")
    corpus = _jsonl_path(path, "corpus")
    qrels = {split: _read_qrels_tsv(file, allow_empty=True) for split, file in splits.items()}
    queries = read_beir_queries(_jsonl_path(path, "queries"), allow_empty=True)
    return Dataset(DocumentStream(lambda: iter_beir_documents(corpus)), queries, qrels)


def write_beir_dataset(path: Path, dataset: Dataset) -> None:
    """Write ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/<split>.tsv``, titles kept.

    Every file goes through a temporary file, renamed only when all were written.
    """
    rows = {split: _qrels_rows(qrels) for split, qrels in dataset.qrels.items()}
    (path / "qrels").mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        corpus_out = stack.enter_context(atomic_writer(path / "corpus.jsonl"))
        queries_out = stack.enter_context(atomic_writer(path / "queries.jsonl"))
        for split, lines in rows.items():
            _write_qrels_rows(
                stack.enter_context(atomic_writer(path / "qrels" / f"{split}.tsv")), lines
            )
        _write_documents(corpus_out, dataset.corpus)
        _write_queries(queries_out, dataset.queries)


def _write_qrels_rows(out: IO[str], rows: list[str]) -> None:
    out.write("\t".join(_QRELS_HEADER) + "\n")  # BEIR's header row
    out.writelines(rows)


def _qrels_rows(qrels: Mapping[str, Mapping[str, float]]) -> list[str]:
    return [
        f"{_check_tsv_id('query id', qid)}\t{_check_tsv_id('doc id', doc)}\t"
        f"{_format_grade(qid, doc, grade)}\n"
        for qid, judged in qrels.items()
        for doc, grade in judged.items()
    ]


_WRITE_BEIR = "write_beir(directory, corpus, queries, qrels)"


def _check_texts(kind: str, items: Mapping[str, object]) -> None:
    for item_id, text in items.items():
        if not isinstance(item_id, str) or not item_id:
            raise DatasetFormatError(f"{kind} id {item_id!r} must be a non-empty string")
        problem = id_problem(item_id)
        if problem is not None:  # what the readers refuse, the writers never write
            raise DatasetFormatError(f"{kind} id {item_id!r} cannot be written: it {problem}")
        if not isinstance(text, str):
            # {query: {doc: grade}} where texts belong: the qrels, given in the wrong place.
            hint = (
                f"; it looks like qrels: the order is {_WRITE_BEIR}"
                if isinstance(text, Mapping)
                else ""
            )
            raise DatasetFormatError(
                f"{kind} {item_id!r}: text must be a string, got {type(text).__name__}{hint}"
            )


def _check_tsv_id(kind: str, value: object) -> str:
    problem = id_problem(value) if isinstance(value, str) else None
    if problem is not None:  # what the readers refuse, the writers never write
        raise DatasetFormatError(f"{kind} {value!r} cannot be written to a qrels TSV: it {problem}")
    if (
        isinstance(value, str)
        and value
        and value == value.strip()
        and not any(c in value for c in "\t\n\r")
        and _encodable(value)
    ):
        return value
    raise DatasetFormatError(
        f"{kind} {value!r} cannot be written to a qrels TSV: ids must be non-empty UTF-8 "
        "strings without tabs, line breaks or surrounding spaces"
    )


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


def _format_grade(query_id: str, doc_id: str, grade: object) -> str:
    if isinstance(grade, bool) or not isinstance(grade, (int, float)) or not math.isfinite(grade):
        raise DatasetFormatError(
            f"qrels[{query_id!r}][{doc_id!r}] = {grade!r}: relevance must be a finite number"
        )
    # Integral grades are written as integers, as BEIR's files have them; repr keeps the rest exact.
    return str(int(grade)) if float(grade).is_integer() else repr(float(grade))


def write_beir(
    directory: str | os.PathLike[str],
    corpus: Mapping[str, str],
    queries: Mapping[str, str],
    qrels: Mapping[str, Mapping[str, float]],
) -> None:
    """Write an evaluation triple to disk in BEIR format: the inverse of :func:`read_beir`.

    Creates ``directory`` (and parents) and writes ``corpus.jsonl``, ``queries.jsonl`` and
    ``qrels.tsv`` (with BEIR's header row). Documents are written with an empty title, so
    reading them back gives the same texts. The three files are written to temporary files
    first and renamed only when all are complete: an error never leaves a half-written
    dataset. A query with no judgements has no qrels row.

    Args:
        directory: the output directory, created if absent.
        corpus: the documents, ``{doc_id: text}``.
        queries: the queries, ``{query_id: query_text}``.
        qrels: the relevance judgements, ``{query_id: {doc_id: relevance}}``.

    Raises:
        DatasetFormatError: (a ``ValueError``) for an id or value that cannot be written,
            naming it, or if ``directory`` holds a ``qrels/`` folder that :func:`read_beir`
            would read instead of the new ``qrels.tsv``.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_beir(tmp, {"d1": "text"}, {"q1": "query"}, {"q1": {"d1": 2}})
    ...     pathlib.Path(tmp, "qrels.tsv").read_text().splitlines()
    ['query-id\\tcorpus-id\\tscore', 'q1\\td1\\t2']
    """
    from .._dataset import documents_of

    root = path_argument(
        directory, _WRITE_BEIR, "directory", expected="a folder path", other=corpus
    )
    if not isinstance(corpus, Mapping):  # write_dataset takes documents; this, texts only
        raise TypeError(
            f"{_WRITE_BEIR}: corpus is {a_type(corpus)}; expected a mapping {{doc_id: text}}"
        )
    check_triple(_WRITE_BEIR, corpus, queries, qrels)
    _check_texts("corpus", corpus)
    _check_texts("query", queries)
    rows = _qrels_rows(qrels)
    shadowing = [p for p in _DEFAULT_QRELS_PATHS[:-1] if (root / p).is_file()]
    if shadowing:
        raise DatasetFormatError(
            f"{root / shadowing[0]} exists and read_beir() would read it instead of the "
            f"qrels.tsv written now; write to a new directory or remove {root / 'qrels'}"
        )
    root.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        # Entered together, so an error in any file discards all three temporary files.
        corpus_out = stack.enter_context(atomic_writer(root / "corpus.jsonl"))
        queries_out = stack.enter_context(atomic_writer(root / "queries.jsonl"))
        qrels_out = stack.enter_context(atomic_writer(root / "qrels.tsv"))
        _write_documents(corpus_out, documents_of(corpus))  # an empty title each
        _write_queries(queries_out, queries)
        _write_qrels_rows(qrels_out, rows)


def _json_line(record: Mapping[str, Any]) -> str:
    # ASCII escapes, as BEIR's own files have them: any str round-trips, lone surrogates too.
    import json

    return json.dumps(record) + "\n"


def read_beir_corpus(path: Path) -> DocumentStream:
    """The documents of a ``corpus.jsonl`` (or a BEIR directory's), streamed on iteration."""
    from .._dataset import DocumentStream

    file = _jsonl_path(path, "corpus") if path.is_dir() else path
    if not file.is_file():
        raise FileNotFoundError(f"no such file: {file}")
    return DocumentStream(lambda: iter_beir_documents(file))


def write_beir_corpus(path: Path, documents: Iterable[Document]) -> None:
    """Write a ``corpus.jsonl``, atomically, one document at a time."""
    with atomic_writer(path) as out:
        _write_documents(out, documents)


def _write_documents(out: IO[str], documents: Iterable[Document]) -> None:
    for doc in once_each(documents, lambda doc: doc.id, "document"):
        _check_texts("corpus", {doc.id: doc.text})
        _check_texts("corpus", {doc.id: doc.title})
        fields = {"_id": doc.id, "title": doc.title, "text": doc.text}
        out.write(_json_line(_with_extra(fields, doc.extra, f"document {doc.id!r}")))


def _with_extra(fields: dict[str, Any], extra: Mapping[str, Any], owner: str) -> dict[str, Any]:
    clash = next((key for key in extra if key in fields), None)
    if clash is not None:
        raise DatasetFormatError(
            f"{owner}: its extra field {clash!r} would overwrite the record's own {clash!r}"
        )
    return {**fields, **extra}


def write_beir_queries(path: Path, queries: Mapping[str, str]) -> None:
    """Write a ``queries.jsonl``, atomically."""
    with atomic_writer(path) as out:
        _write_queries(out, queries)


def _write_queries(out: IO[str], queries: Mapping[str, str]) -> None:
    from .._dataset import extra_of

    _check_texts("query", queries)
    extra = extra_of(queries)
    for query_id, text in queries.items():
        fields = {"_id": query_id, "text": text}
        out.write(_json_line(_with_extra(fields, extra.get(query_id, {}), f"query {query_id!r}")))


#: The format's declaration, which ``_default_plugins/formats.py`` registers.
FORMAT = DatasetFormat(
    name="beir",
    read_dataset=read_beir_dataset,
    write_dataset=write_beir_dataset,
    read_qrels=read_beir_qrels,
    write_qrels=write_beir_qrels,
    read_queries=read_beir_queries,
    write_queries=write_beir_queries,
    read_corpus=read_beir_corpus,
    write_corpus=write_beir_corpus,
    detect=looks_like_beir,
    description="BEIR: corpus.jsonl, queries.jsonl and qrels/<split>.tsv in a directory.",
)
