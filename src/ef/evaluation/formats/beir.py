"""The BEIR layout: ``corpus.jsonl``, ``queries.jsonl`` and a qrels TSV in one directory.

Reading follows BEIR's ``GenericDataLoader``: ids are always ``str`` (numeric JSON ids
included), a corpus text is its title and text joined by one space, and the qrels TSV has
``query-id, corpus-id, score`` columns after an optional header row. Unlike BEIR, every query of
``queries.jsonl`` is kept (BEIR drops the unjudged ones), and nothing malformed is skipped: a
bad line raises :class:`~ef.evaluation.errors.DatasetFormatError` naming the file and line.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import DatasetFormatError
from ._io import atomic_writer, format_error, json_lines, numbered_lines

__all__ = ["_DEFAULT_QRELS_PATHS", "looks_like_beir", "read_beir", "write_beir"]

#: Where :func:`read_beir` looks for judgements when ``qrels=None``, in this order.
_DEFAULT_QRELS_PATHS: tuple[str, ...] = (
    "qrels/test.tsv",
    "qrels/dev.tsv",
    "qrels/train.tsv",
    "qrels.tsv",
)

_QRELS_HEADER = ("query-id", "corpus-id", "score")
# A first row whose score column is a word ("score", "relevance") is a header, not data.
_HEADER_SCORE = re.compile(r"^[A-Za-z][A-Za-z_\- ]*$")


def _jsonl_path(directory: Path, stem: str) -> Path:
    plain = directory / f"{stem}.jsonl"
    gzipped = directory / f"{stem}.jsonl.gz"
    if plain.is_file() or not gzipped.is_file():
        return plain
    return gzipped


def _id_of(value: object, path: Path, line_no: int, line: str) -> str:
    # JSON numbers are ids too (BEIR has "_id": 4983 in some sets); bools are not.
    if isinstance(value, str) and value:
        return value
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


def _read_jsonl(path: Path, *, with_title: bool) -> dict[str, str]:
    texts: dict[str, str] = {}
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
        text = _text_field(record, "text", path, line_no, line)
        if with_title:
            title = _text_field(record, "title", path, line_no, line)
            text = " ".join(part for part in (title, text) if part)
        first_seen[doc_id] = line_no
        texts[doc_id] = text
    return texts


def _is_header_score(field: str) -> bool:
    try:
        float(field)  # "nan" and "inf" are numbers to float(): bad data, not a header
    except ValueError:
        return bool(_HEADER_SCORE.match(field))
    return False


def _parse_grade(field: str, path: Path, line_no: int, line: str) -> float:
    try:
        grade = float(field)
    except ValueError:
        raise format_error(path, line_no, f"score {field!r} is not a number", line) from None
    if not math.isfinite(grade):
        raise format_error(path, line_no, f"score {field!r} is not finite", line)
    return grade


def _read_qrels_tsv(path: Path) -> dict[str, dict[str, float]]:
    qrels: dict[str, dict[str, float]] = {}
    for line_no, line in numbered_lines(path):
        fields = [f.strip() for f in (line.split("\t") if "\t" in line else line.split())]
        if len(fields) != 3:
            raise format_error(
                path,
                line_no,
                f"expected 3 columns (query-id, corpus-id, score), got {len(fields)}",
                line,
            )
        query_id, doc_id, score = fields
        if line_no == 1 and _is_header_score(score):
            continue
        if not query_id or not doc_id:
            raise format_error(path, line_no, "empty query-id or corpus-id", line)
        grade = _parse_grade(score, path, line_no, line)
        judged = qrels.setdefault(query_id, {})
        if doc_id in judged and judged[doc_id] != grade:
            raise format_error(
                path,
                line_no,
                f"({query_id!r}, {doc_id!r}) is judged twice, "
                f"with {judged[doc_id]:g} and {grade:g}",
                line,
            )
        judged[doc_id] = grade
    return qrels


def _qrels_path(directory: Path, qrels: str | None) -> Path:
    if qrels is not None:
        path = directory / qrels
        if not path.is_file():
            raise FileNotFoundError(f"no such qrels file: {path}")
        return path
    for candidate in _DEFAULT_QRELS_PATHS:
        if (directory / candidate).is_file():
            return directory / candidate
    tried = ", ".join(_DEFAULT_QRELS_PATHS)
    raise FileNotFoundError(f"no qrels file in {directory} (tried {tried}); pass qrels=")


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
    root = Path(directory)
    if not root.is_dir():
        raise FileNotFoundError(f"no such dataset directory: {root}")
    corpus = _read_jsonl(_jsonl_path(root, "corpus"), with_title=True)
    queries = _read_jsonl(_jsonl_path(root, "queries"), with_title=False)
    judgements = _read_qrels_tsv(_qrels_path(root, qrels))
    return corpus, queries, judgements


def looks_like_beir(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` is a directory holding a BEIR ``corpus.jsonl`` or ``queries.jsonl``."""
    root = Path(path)
    return root.is_dir() and any(
        (root / name).is_file()
        for name in ("corpus.jsonl", "corpus.jsonl.gz", "queries.jsonl", "queries.jsonl.gz")
    )


def _check_texts(kind: str, items: Mapping[str, str]) -> None:
    for item_id, text in items.items():
        if not isinstance(item_id, str) or not item_id:
            raise DatasetFormatError(f"{kind} id {item_id!r} must be a non-empty string")
        if not isinstance(text, str):
            raise DatasetFormatError(
                f"{kind} {item_id!r}: text must be a string, got {type(text).__name__}"
            )


def _check_tsv_id(kind: str, value: object) -> str:
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
    root = Path(directory)
    _check_texts("corpus", corpus)
    _check_texts("query", queries)
    rows = [
        f"{_check_tsv_id('query id', qid)}\t{_check_tsv_id('doc id', doc)}\t"
        f"{_format_grade(qid, doc, grade)}\n"
        for qid, judged in qrels.items()
        for doc, grade in judged.items()
    ]
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
        for doc_id, text in corpus.items():
            corpus_out.write(_json_line({"_id": doc_id, "title": "", "text": text}))
        for query_id, text in queries.items():
            queries_out.write(_json_line({"_id": query_id, "text": text}))
        qrels_out.write("\t".join(_QRELS_HEADER) + "\n")
        qrels_out.writelines(rows)


def _json_line(record: Mapping[str, str]) -> str:
    # ASCII escapes, as BEIR's own files have them: any str round-trips, lone surrogates too.
    return json.dumps(record) + "\n"
