"""Subtopic (intent) qrels, the diversity judgements of the TREC Web track that ndeval reads.

One line per judgement, ``qid subtopic docno grade`` (whitespace-separated, integer grade):
the ordinary qrels' four columns, with the second naming the subtopic instead of being
ignored. A doc judged for several subtopics has one line for each.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ...errors import DatasetFormatError, InputWarning
from ...types import FrozenDict
from .._io import caller_stacklevel, format_error
from .._records import data_lines, empty_file, fields_of, is_qrels_shape, parse_grade, read_id

__all__ = [
    "SUBTOPICS",
    "SUBTOPIC_QRELS_COLUMNS",
    "SubtopicQrels",
    "read_detected_subtopic_qrels",
    "read_subtopic_qrels",
]

SUBTOPIC_QRELS_COLUMNS = "query_id subtopic doc_id grade"

#: The name of the format, for ``qrels_format=`` and ``--qrels-format``.
SUBTOPICS = "subtopics"

#: What column 2 of ordinary TREC qrels holds: the iteration, which trec_eval ignores.
_ITERATIONS = frozenset({"0", "Q0"})

Judgements = Mapping[str, Mapping[str, Mapping[str, float]]]


def _grade(where: str, grade: object) -> float:
    if isinstance(grade, bool) or not isinstance(grade, (int, float)):
        raise ValueError(f"{where} = {grade!r}: a grade is a number")
    if not math.isfinite(grade):
        raise ValueError(f"{where} = {grade!r}: a grade must be finite")
    return grade


def _mapping(where: str, value: object, expected: str) -> Mapping[Any, Any]:
    """``value``, refused unless it is a mapping (the ``expected`` one, at ``where``)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{where}: expected {expected}, got {type(value).__name__}")
    return value


def _frozen(judgements: Judgements) -> Mapping[str, Mapping[str, Mapping[str, float]]]:
    top = _mapping("SubtopicQrels", judgements, "{query_id: {subtopic: {doc_id: grade}}}")
    out = {}
    for query_id, intents in top.items():
        at_query = f"SubtopicQrels[{query_id!r}]"
        frozen = {}
        for subtopic, docs in _mapping(at_query, intents, "{subtopic: {doc_id: grade}}").items():
            where = f"{at_query}[{subtopic!r}]"
            grades = _mapping(where, docs, "{doc_id: grade}")
            frozen[str(subtopic)] = FrozenDict(
                {str(d): _grade(f"{where}[{d!r}]", g) for d, g in grades.items()}
            )
        out[str(query_id)] = FrozenDict(frozen)
    return FrozenDict(out)


@attrs.frozen
class SubtopicQrels:
    """Diversity judgements: ``{query_id: {subtopic: {doc_id: grade}}}``, read-only.

    A grade > 0 is relevant to that subtopic; 0 and negative grades are judged non-relevant
    (ndeval reads natural numbers and treats every grade >= 1 as 1).

    >>> qrels = SubtopicQrels.from_records([("q1", "1", "d1", 1), ("q1", "2", "d1", 0)])
    >>> qrels.judgements
    {'q1': {'1': {'d1': 1}, '2': {'d1': 0}}}
    >>> qrels.query_ids
    ('q1',)
    """

    judgements: Mapping[str, Mapping[str, Mapping[str, float]]] = attrs.field(converter=_frozen)

    @property
    def query_ids(self) -> tuple[str, ...]:
        """The judged queries, in the order given."""
        return tuple(self.judgements)

    def __contains__(self, query_id: object) -> bool:
        return query_id in self.judgements

    def max_grades(self) -> dict[str, dict[str, float]]:
        """Ordinary qrels of these judgements, for the measures that read one grade per
        doc: each judged doc's largest grade over the query's subtopics (relevant if it
        is relevant to some subtopic). A query with no judged doc is kept, with none.

        >>> SubtopicQrels({"q1": {"1": {"a": 1, "b": 0}, "2": {"a": 0, "c": 2}}}).max_grades()
        {'q1': {'a': 1, 'b': 0, 'c': 2}}
        """
        out: dict[str, dict[str, float]] = {}
        for query_id, intents in self.judgements.items():
            grades: dict[str, float] = {}
            for docs in intents.values():
                for doc_id, grade in docs.items():
                    grades[doc_id] = max(grade, grades.get(doc_id, grade))
            out[query_id] = grades
        return out

    @classmethod
    def from_records(cls, records: Iterable[tuple[str, str, str, float]]) -> SubtopicQrels:
        """From ``(query_id, subtopic, doc_id, grade)`` records (pyndeval's ``SubtopicQrel``
        tuples, say). A doc judged twice for one subtopic of one query is refused: ndeval
        would count it twice.

        >>> SubtopicQrels.from_records([("q1", "1", "d1", 1), ("q1", "1", "d1", 1)])
        Traceback (most recent call last):
            ...
        ValueError: doc 'd1' is judged twice for subtopic '1' of query 'q1'
        """
        judgements: dict[str, dict[str, dict[str, float]]] = {}
        for query_id, subtopic, doc_id, grade in records:
            docs = judgements.setdefault(str(query_id), {}).setdefault(str(subtopic), {})
            if str(doc_id) in docs:
                raise ValueError(
                    f"doc {doc_id!r} is judged twice for subtopic {subtopic!r} of query "
                    f"{query_id!r}"
                )
            docs[str(doc_id)] = grade
        return cls(judgements)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> SubtopicQrels:
        """Read a subtopic qrels file: ``qid subtopic docno grade`` lines, ``#`` lines
        comments. A line of another shape, a grade that is not an integer, a doc judged twice
        for one subtopic or an empty file is a ``DatasetFormatError`` naming the file and line;
        a file where every query has a single subtopic (ordinary qrels?) is read with an
        :class:`~ef.evaluation.InputWarning`."""
        return cls(read_subtopic_qrels(Path(path)))


def read_detected_subtopic_qrels(path: Path) -> dict[str, dict[str, dict[str, int]]]:
    """:func:`read_subtopic_qrels` of a file whose format was not named, once it is sure to be
    subtopic qrels: some doc is judged for two subtopics of a query (ordinary qrels judge a
    doc once; trec_eval refuses a doc twice). Else a ``DatasetFormatError`` asks for the
    format to be named: column 2 may be ordinary qrels' iteration (``0``, or TREC-COVID's
    judging round), which must never be read as a subtopic."""
    judgements = read_subtopic_qrels(path, warn_single=False)
    for intents in judgements.values():
        seen: set[str] = set()
        for docs in intents.values():
            if not seen.isdisjoint(docs):
                return judgements
            seen.update(docs)
    columns = {subtopic for intents in judgements.values() for subtopic in intents}
    named = f"qrels_format={SUBTOPICS!r} (ef-eval --qrels-format {SUBTOPICS})"
    if columns <= _ITERATIONS:
        problem = (
            f"column 2 is {' or '.join(sorted(columns))} on every line: the iteration of "
            "ordinary TREC qrels, which holds no subtopic"
        )
    else:
        problem = (
            "no doc is judged for two subtopics of a query, so column 2 may be the iteration "
            "of ordinary qrels (a judging round, say) rather than a subtopic"
        )
    raise DatasetFormatError(
        f"{path}: the diversity measures need subtopic qrels (one {SUBTOPIC_QRELS_COLUMNS} "
        f"line per judgement), and {problem}. If column 2 does name the subtopic, name the "
        f"format: {named}"
    )


def read_subtopic_qrels(
    path: Path, *, warn_single: bool = True
) -> dict[str, dict[str, dict[str, int]]]:
    """``{query_id: {subtopic: {doc_id: grade}}}`` from ``qid subtopic docno grade`` lines.

    ``#`` lines are comments (as in the TREC qrels reader). A line of another shape, a grade
    that is not an integer, a doc judged twice for one subtopic or an empty file is a
    ``DatasetFormatError`` naming the file and line. A file where every query has a single
    subtopic is read with an :class:`~ef.evaluation.InputWarning`: it is probably ordinary
    qrels (their second column is ignored), and diversity over one intent is plain relevance.
    """
    judgements: dict[str, dict[str, dict[str, int]]] = {}
    for line_no, line in data_lines(path, is_qrels_shape):
        query_id, subtopic, doc_id, field = fields_of(line, SUBTOPIC_QRELS_COLUMNS, path, line_no)
        read_id("query id", query_id, path, line_no, line)
        read_id("subtopic", subtopic, path, line_no, line)
        read_id("doc id", doc_id, path, line_no, line)
        grade = parse_grade(field, path, line_no, line)
        docs = judgements.setdefault(query_id, {}).setdefault(subtopic, {})
        if doc_id in docs:
            raise format_error(
                path,
                line_no,
                f"doc {doc_id!r} is judged twice for subtopic {subtopic!r} of query {query_id!r}",
                line,
            )
        docs[doc_id] = grade
    if not judgements:
        raise empty_file(path, f"subtopic qrels lines ({SUBTOPIC_QRELS_COLUMNS})")
    if warn_single and all(len(intents) == 1 for intents in judgements.values()):
        warnings.warn(
            InputWarning(
                f"{path}: every query has a single subtopic: is this ordinary qrels? "
                "Diversity measures need one line per (query, subtopic, doc)"
            ),
            stacklevel=caller_stacklevel(),
        )
    return judgements
