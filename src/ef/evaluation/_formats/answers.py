"""Answers and gold answers keyed by query id, one JSON object per line.

An answers file holds what a generator said: ``{"id": query_id, "response": "..."}`` per
line. A references file holds the gold answers: ``{"id": query_id, "reference": "..."}``,
with further gold answers in ``"references": [...]`` (the RagSample keys, DESIGN §4). Both
are what :func:`~ef.evaluation.evaluate_pipeline` takes as ``generate=`` and
``references=``; ``ef-eval pipeline`` reads them with these functions.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from ..errors import DatasetFormatError
from ._arguments import path_argument
from ._io import format_error, json_lines

__all__ = ["read_answers", "read_references"]


def _query_id(record: Any, source: Path, line_no: int, line: str) -> str:
    """The ``id`` of a line's object, as a str; a line that is no object, or has no id that
    is a str or an int, is refused."""
    if not isinstance(record, dict):
        raise format_error(source, line_no, "expected a JSON object", line)
    query_id = record.get("id")
    if not isinstance(query_id, (str, int)) or isinstance(query_id, bool):
        raise format_error(source, line_no, "expected an 'id' (the query id)", line)
    return str(query_id)


def _records(
    path: str | os.PathLike[str], fields: Collection[str], queries: Collection[str] | None
) -> dict[str, tuple[int, Mapping[str, Any]]]:
    """Each line's object by its ``id``, with its line number; what is wrong names the line,
    and a file with no line is an error naming the file."""
    source = Path(path)
    found: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for line_no, line, record in json_lines(source):
        query_id = _query_id(record, source, line_no, line)
        unknown = sorted(set(record) - {"id", *fields})
        if unknown:
            raise format_error(
                source,
                line_no,
                f"unknown key {unknown[0]!r}; a line holds 'id' and {', '.join(map(repr, fields))}",
            )
        if query_id in found:
            raise format_error(
                source, line_no, f"query {query_id!r} is given twice (first on line "
                f"{found[query_id][0]})"
            )  # fmt: skip
        if queries is not None and query_id not in queries:
            raise format_error(source, line_no, f"query {query_id!r} is not one of the queries")
        found[query_id] = (line_no, record)
    if not found:  # not {}: every query would be left without an answer, the file unnamed
        shown = ", ".join(f'"{field}": ...' for field in fields)
        raise DatasetFormatError(
            f"{source}: the file is empty; expected one JSON object per line, "
            f'{{"id": query_id, {shown}}}'
        )
    return found


def read_answers(
    path: str | os.PathLike[str], *, queries: Collection[str] | None = None
) -> dict[str, str]:
    """The answers of a JSONL file, ``{query_id: response}``.

    Raises:
        FileNotFoundError: if ``path`` does not exist.
        DatasetFormatError: (a ``ValueError``) naming the file and line, for an empty file,
            bad JSON, a line without an ``id`` or with a ``response`` that is not a str, an
            unknown key, a query id given twice, or (with ``queries``) an id that is not a
            query.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "answers.jsonl")
    ...     _ = path.write_text('{"id": "q1", "response": "Paris"}\\n{"id": "q1"}\\n')
    ...     read_answers(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ef.evaluation.DatasetFormatError: .../answers.jsonl:2: query 'q1' is given twice ...
    """
    source = path_argument(path, "read_answers(path)")
    answers: dict[str, str] = {}
    for query_id, (line_no, record) in _records(source, ("response",), queries).items():
        response = record.get("response")
        if not isinstance(response, str):
            raise format_error(
                source, line_no, f"query {query_id!r}: 'response' must be a string, got "
                f"{type(response).__name__}"
            )  # fmt: skip
        answers[query_id] = response
    return answers


def read_references(
    path: str | os.PathLike[str], *, queries: Collection[str] | None = None
) -> dict[str, list[str]]:
    """The gold answers of a JSONL file, ``{query_id: [reference, *references]}``.

    Raises:
        FileNotFoundError: if ``path`` does not exist.
        DatasetFormatError: (a ``ValueError``) naming the file and line, as
            :func:`read_answers` does, and for a ``reference`` that is not a str or
            ``references`` that are not a list of str.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "references.jsonl")
    ...     _ = path.write_text('{"id": "q1", "reference": "Rome", "references": ["the city"]}\\n')
    ...     read_references(path)
    {'q1': ['Rome', 'the city']}
    """
    source = path_argument(path, "read_references(path)")
    gold: dict[str, list[str]] = {}
    for query_id, (line_no, record) in _records(
        source, ("reference", "references"), queries
    ).items():
        reference, more = record.get("reference"), record.get("references", [])
        if not isinstance(reference, str):
            raise format_error(
                source, line_no, f"query {query_id!r}: 'reference' must be a string, got "
                f"{type(reference).__name__}"
            )  # fmt: skip
        if not isinstance(more, list) or not all(isinstance(text, str) for text in more):
            raise format_error(
                source, line_no, f"query {query_id!r}: 'references' must be a list of strings"
            )
        gold[query_id] = [reference, *more]
    return gold
