"""Line records shared by the line formats (TREC, MS MARCO, BEIR's TSV): ids, numbers,
comment lines, and MS MARCO's runs and ``id<TAB>text`` files; the TREC qrels and runs
themselves are read and written in :mod:`ef.evaluation._formats.trec`.

Every reader names the file and line of the first bad record and never drops one: a
duplicate judgement or a doc listed twice for a query is an error, not a silent overwrite.
Columns of qrels and runs are split on any run of ASCII whitespace (space, tab, CR, VT, FF),
as trec_eval's ``isspace`` does, so tabs and spaces may mix and a no-break space or another
Unicode space would stay inside an id; an ``id<TAB>text`` file splits on its first tab only,
since texts hold spaces. An id holding a control character, a Unicode space or a byte-order
mark is refused (:func:`read_id`): such an id is damage (a NUL, a concatenated file's BOM, a
pasted no-break space), and it would silently match nothing.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO

from .._runs.order import scored_order
from ..errors import DatasetFormatError, InputWarning
from ._io import atomic_writer, format_error, numbered_lines, once_each

__all__ = [
    "add_to_run",
    "check_id",
    "check_line_text",
    "data_lines",
    "empty_file",
    "fields_of",
    "format_grade",
    "format_score",
    "id_problem",
    "is_qrels_shape",
    "is_ranked_shape",
    "is_run_shape",
    "iter_id_texts",
    "merge_texts",
    "parse_grade",
    "parse_score",
    "ranked_docs",
    "ranks_only",
    "read_id",
    "read_id_texts",
    "read_ranked_lines",
    "run_tags",
    "split_fields",
    "write_id_texts",
    "write_id_texts_to",
    "write_ranked_lines",
]

# The one number grammar of every line reader (TREC, MS MARCO, BEIR), used with fullmatch.
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
# What float() takes, minus its extras ("1_0", "infinity"): trec_eval reads scores with atof.
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)

# Whitespace to str.split() that C's isspace() (trec_eval's split) does not count.
_NOT_C_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_C_SPACES = re.compile("[ \t\n\r\x0b\x0c]+")
# Never part of an id: C0 controls (NUL included), DEL, Unicode spaces, the byte-order mark.
_NOT_IN_ID = re.compile(
    "[\x00-\x1f\x7f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
)
_CHARACTER_KINDS = {
    "\ufeff": "a byte-order mark",
    "\x7f": "a control character",
    "\x85": "a control character",
}


def empty_file(path: Path, what: str) -> DatasetFormatError:
    """The error of a file with no record in it: ``path: the file is empty; expected WHAT``."""
    return DatasetFormatError(f"{path}: the file is empty; expected {what}")


def split_fields(line: str) -> list[str]:
    """The whitespace-separated fields of a line, split as trec_eval splits them.

    >>> split_fields("q1 Q0\\td1 1")
    ['q1', 'Q0', 'd1', '1']
    >>> split_fields("q1 Q0 doc\\u00a0one 1")  # a no-break space is part of the id
    ['q1', 'Q0', 'doc\\xa0one', '1']
    """
    if _NOT_C_SPACE.search(line) is None:
        return line.split()  # the common case: the same split, faster
    return [field for field in _C_SPACES.split(line) if field]


def fields_of(line: str, columns: str, path: Path, line_no: int) -> list[str]:
    """The fields of ``line`` (as :func:`split_fields` splits them), one per name in
    ``columns``; a line of another count is an error naming the file and line.

    >>> fields_of("301 P_10 0.42 0.31", "qid measure mean stddev", Path("z.txt"), 1)
    ['301', 'P_10', '0.42', '0.31']
    >>> fields_of("301 P_10", "qid measure mean stddev", Path("z.txt"), 2)
    Traceback (most recent call last):
        ...
    ef.evaluation.DatasetFormatError: z.txt:2: expected 4 columns (qid measure mean stddev), \
got 2 (line: '301 P_10')
    """
    fields = split_fields(line)
    count = len(columns.split())
    if len(fields) != count:
        problem = f"expected {count} columns ({columns}), got {len(fields)}"
        raise format_error(path, line_no, problem, line)
    return fields


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be an id (``"holds U+0000 (a control character), ..."``), or None.

    >>> id_problem("d1") is None, id_problem("d\\x001")
    (True, 'holds U+0000 (a control character), which no id may hold')
    """
    bad = _NOT_IN_ID.search(value)
    if bad is None:
        return None
    char = bad.group()
    what = _CHARACTER_KINDS.get(char) or ("a control character" if char < " " else "a space")
    return f"holds U+{ord(char):04X} ({what}), which no id may hold"


def read_id(kind: str, value: str, path: Path, line_no: int, line: str | None = None) -> str:
    """``value`` if it can be an id; else an error naming the file, line and character.

    >>> read_id("doc id", "d1", Path("run.trec"), 3)
    'd1'
    >>> try:
    ...     read_id("doc id", "d\\u00a01", Path("run.trec"), 3)
    ... except ValueError as exc:
    ...     print(exc)
    run.trec:3: doc id 'd\\xa01' holds U+00A0 (a space), which no id may hold
    """
    problem = id_problem(value)
    if problem is None:
        return value
    raise format_error(path, line_no, f"{kind} {value!r} {problem}", line)


def parse_score(field: str, path: Path, line_no: int, line: str, what: str = "score") -> float:
    """A finite float written as a plain decimal literal, or an error naming the file and
    line: ``1_0``, ``0x10``, ``nan`` and ``1e999`` are refused by every reader alike."""
    if not _NUMBER.fullmatch(field):
        if field.lower().lstrip("+-") in {"nan", "inf", "infinity"}:
            raise format_error(path, line_no, f"{what} {field!r} is not a finite number", line)
        raise format_error(path, line_no, f"{what} {field!r} is not a number", line)
    value = float(field)
    if not math.isfinite(value):  # "1e999" overflows to inf
        raise format_error(path, line_no, f"{what} {field!r} is not a finite number", line)
    return value


def parse_grade(field: str, path: Path, line_no: int, line: str) -> int:
    """An integer relevance grade, or an error naming the file and line (trec_eval reads ints)."""
    if not _INTEGER.fullmatch(field):
        raise format_error(
            path, line_no, f"relevance {field!r} is not an integer (trec_eval reads ints)", line
        )
    return int(field)


def is_qrels_shape(fields: list[str]) -> bool:
    """True for the fields of a qrels line: 4, the last an integer (``q1 0 d1 1``)."""
    return len(fields) == 4 and _INTEGER.fullmatch(fields[3]) is not None


def is_run_shape(fields: list[str]) -> bool:
    """True for the fields of a TREC run line: 6, the fifth a number (``q1 Q0 d1 1 2.5 t``)."""
    return len(fields) == 6 and _NUMBER.fullmatch(fields[4]) is not None


def is_ranked_shape(fields: list[str]) -> bool:
    """True for the fields of an MS MARCO run line: 3, the last an integer (``q1 d1 1``)."""
    return len(fields) == 3 and _INTEGER.fullmatch(fields[2]) is not None


#: What each shape's lines are called in messages.
_SHAPE_NAMES: dict[Callable[[list[str]], bool], str] = {
    is_qrels_shape: "a qrels line",
    is_run_shape: "a run line",
    is_ranked_shape: "a run line (query-id doc-id rank)",
}


def data_lines(
    path: Path, shape: Callable[[list[str]], bool], *, hash_data: bool = False
) -> Iterator[tuple[int, str]]:
    """``numbered_lines(path, comments=True)``, with a look at each comment line: one that
    has the ``shape`` of a data line (``#5 0 d1 1`` in qrels) is read as data if
    ``hash_data`` (as trec_eval 9.0.8 reads every line), else skipped with an
    :class:`~ef.evaluation.InputWarning` naming the file and its lines once all are read:
    query ``#5`` may be a query, or a line commented out; either way it is not silently lost.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     qrels = Path(tmp, "qrels")
    ...     _ = qrels.write_text("# judged by hand\\nq1 0 d1 1\\n#5 0 d1 1\\n")
    ...     with warnings.catch_warnings(record=True) as caught:
    ...         warnings.simplefilter("always")
    ...         lines = list(data_lines(qrels, is_qrels_shape))
    ...     as_data = list(data_lines(qrels, is_qrels_shape, hash_data=True))
    >>> lines, as_data
    ([(2, 'q1 0 d1 1')], [(2, 'q1 0 d1 1'), (3, '#5 0 d1 1')])
    >>> print(str(caught[0].message).replace(tmp, "tmp"))  # doctest: +NORMALIZE_WHITESPACE
    tmp/qrels:3: starts with '#' but has the shape of a qrels line ('#5 0 d1 1'): taken as a
    comment, so query '#5' is not read from it (1 such line). trec_eval 9.0.8 reads such a
    line as data. If it is data, give the query an id that does not start with '#'; if it is
    a comment, put a space after the '#'
    """
    hashed: list[tuple[int, str]] = []
    for line_no, line in numbered_lines(path):
        if not line.lstrip().startswith("#"):
            yield line_no, line
        elif shape(split_fields(line)):
            if hash_data:
                yield line_no, line
            else:
                hashed.append((line_no, line))
    if hashed:
        warnings.warn(_hashed_message(path, _SHAPE_NAMES[shape], hashed), InputWarning, 2)


def _hashed_message(path: Path, what: str, hashed: list[tuple[int, str]]) -> str:
    line_no, line = hashed[0]
    shown = line.strip() if len(line.strip()) <= 60 else line.strip()[:57] + "..."
    queries = list(dict.fromkeys(split_fields(text)[0] for _, text in hashed))
    named = ", ".join(map(repr, queries[:5])) + (
        f" and {len(queries) - 5} more" if len(queries) > 5 else ""
    )
    which = "query" if len(queries) == 1 else "queries"
    others = [str(n) for n, _ in hashed[1:6]] + (["..."] if len(hashed) > 6 else [])
    count = f"{len(hashed)} such line{'s' if len(hashed) > 1 else ''}"
    also = f", also line{'s' if len(others) > 1 else ''} {', '.join(others)}" if others else ""
    return (
        f"{path}:{line_no}: starts with '#' but has the shape of {what} ({shown!r}): taken as "
        f"a comment, so {which} {named} is not read from it ({count}{also}). trec_eval 9.0.8 "
        "reads such a line as data. If it is data, give the query an id that does not start "
        "with '#'; if it is a comment, put a space after the '#'"
    )


def add_to_run(
    run: dict[str, dict[str, float]],
    query_id: str,
    doc_id: str,
    score: float,
    where: tuple[Path, int, str],
) -> None:
    """Add ``doc_id`` with ``score`` to ``run[query_id]``; a bad id or a doc listed twice
    for a query is an error naming ``where`` (the file, line number and line)."""
    path, line_no, line = where
    read_id("query id", query_id, path, line_no, line)
    read_id("doc id", doc_id, path, line_no, line)
    ranked = run.setdefault(query_id, {})
    if doc_id in ranked:
        # trec_eval refuses a run that lists a doc twice for a query; so do we, rather than
        # keep one of the two scores silently.
        raise format_error(
            path, line_no, f"doc {doc_id!r} is listed twice for query {query_id!r}", line
        )
    ranked[doc_id] = score


def run_tags(path: Path) -> list[str]:
    """The distinct run tags (6th column) of a run file, in file order; none for 3 columns."""
    tags: dict[str, None] = {}
    for _, line in numbered_lines(path, comments=True):
        fields = split_fields(line)
        if len(fields) >= 6:
            tags.setdefault(fields[5])
    return list(tags)


def ranks_only(ranked: Mapping[str, float]) -> bool:
    """True if the scores are ``1/rank`` in trec_eval's order, as an MS MARCO run reads:
    writing only the ranks loses nothing then.

    >>> ranks_only({"d1": 1.0, "d2": 0.5}), ranks_only({"d1": 2.0, "d2": 1.0})
    (True, False)
    """
    order = scored_order(ranked)
    return all(ranked[doc] == 1.0 / rank for rank, doc in enumerate(order, start=1))


def read_ranked_lines(path: Path) -> dict[str, dict[str, float]]:
    """``{query_id: {doc_id: 1/rank}}`` from an MS MARCO ``qid<TAB>pid<TAB>rank`` run.

    A rank becomes the score ``1/rank`` (Pyserini's conversion), so the trec_eval order of the
    scores is the rank order.
    """
    run: dict[str, dict[str, float]] = {}
    for line_no, line in data_lines(path, is_ranked_shape):
        fields = split_fields(line)
        if len(fields) != 3:
            raise format_error(
                path, line_no, f"expected 3 columns (query-id doc-id rank), got {len(fields)}", line
            )
        rank = fields[2]
        if not _INTEGER.fullmatch(rank) or int(rank) < 1:
            raise format_error(path, line_no, f"rank {rank!r} is not a positive integer", line)
        add_to_run(run, fields[0], fields[1], 1.0 / int(rank), (path, line_no, line))
    if not run:
        raise empty_file(path, "run lines (query-id doc-id rank)")
    return run


def iter_id_texts(path: Path, kind: str) -> Iterator[tuple[int, str, str]]:
    """``(line number, id, text)`` for each ``id<TAB>text`` line; the text is kept verbatim."""
    seen: set[str] = set()
    for line_no, line in numbered_lines(path, comments=True):
        item_id, tab, text = line.partition("\t")
        if not tab:
            raise format_error(path, line_no, f"expected {kind}-id<TAB>text; no tab", line)
        if not item_id.strip() or item_id != item_id.strip():
            raise format_error(path, line_no, f"empty or padded {kind} id {item_id!r}", line)
        read_id(f"{kind} id", item_id, path, line_no, line)
        if item_id in seen:
            raise format_error(path, line_no, f"duplicate {kind} id {item_id!r}", line)
        seen.add(item_id)
        yield line_no, item_id, text


def read_id_texts(path: Path, kind: str) -> dict[str, str]:
    """``{id: text}`` from an ``id<TAB>text`` file (queries, topics)."""
    texts = {item_id: text for _, item_id, text in iter_id_texts(path, kind)}
    if not texts:
        raise empty_file(path, f"{kind}-id<TAB>text lines")
    return texts


def merge_texts(
    sources: Iterable[tuple[Path, Iterable[tuple[str, str]]]], kind: str
) -> dict[str, str]:
    """``{id: text}`` from several files' ``(id, text)`` pairs; an id may repeat across files
    (a query judged in two splits) only with the same text."""
    merged: dict[str, str] = {}
    for path, pairs in sources:
        for item_id, text in pairs:
            if merged.get(item_id, text) != text:
                raise DatasetFormatError(
                    f"{path}: {kind} {item_id!r} has a different text in another file"
                )
            merged[item_id] = text
    return merged


def check_id(kind: str, value: object, *, starts_line: bool = False) -> str:
    """``value`` if it can be one whitespace-free column of a line; else a clear error.

    An id that ``starts_line`` may not begin with ``#``: readers would take the line for a
    comment, as trec_eval 10 does.
    """
    if isinstance(value, str) and value:
        problem = id_problem(value)
        if problem is not None:  # what the readers refuse, the writers never write
            raise DatasetFormatError(f"{kind} {value!r} cannot be written: it {problem}")
    if isinstance(value, str) and value and not any(c.isspace() for c in value):
        if not (starts_line and value.startswith("#")):
            return value
        raise DatasetFormatError(
            f"{kind} {value!r} cannot be written first on a line: a line starting with '#' "
            "is a comment"
        )
    raise DatasetFormatError(
        f"{kind} {value!r} cannot be written: ids must be non-empty strings without whitespace"
    )


def check_line_text(kind: str, item_id: str, text: object) -> str:
    """``text`` if it fits on one TSV line; else an error naming the item, never a mangled line."""
    if not isinstance(text, str):
        raise DatasetFormatError(
            f"{kind} {item_id!r}: text must be a string, got {type(text).__name__}"
        )
    if any(c in text for c in "\t\n\r"):
        raise DatasetFormatError(
            f"{kind} {item_id!r}: the text holds a tab or line break, which this format cannot "
            "store; write BEIR (JSON lines) instead"
        )
    return text


def format_grade(query_id: str, doc_id: str, grade: object) -> str:
    """An integer relevance as text; a fractional or non-numeric one is an error."""
    if isinstance(grade, bool) or not isinstance(grade, (int, float)) or not math.isfinite(grade):
        raise DatasetFormatError(
            f"qrels[{query_id!r}][{doc_id!r}] = {grade!r}: relevance must be a finite number"
        )
    if not float(grade).is_integer():
        raise DatasetFormatError(
            f"qrels[{query_id!r}][{doc_id!r}] = {grade!r}: TREC qrels hold integer relevance "
            "only; write BEIR to keep fractional grades"
        )
    return str(int(grade))


def format_score(query_id: str, doc_id: str, score: object) -> str:
    """A finite score as the shortest text that reads back as the same float."""
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
        raise DatasetFormatError(
            f"run[{query_id!r}][{doc_id!r}] = {score!r}: a score must be a finite number"
        )
    return repr(float(score))


def ranked_docs(query_id: str, ranked: Mapping[str, float] | Iterable[str]) -> list[str]:
    """The doc ids of one query of a run to write, in trec_eval's order (scores) or as
    given (a ranked list); a score that is no finite number, or a doc twice, is an error."""
    if isinstance(ranked, Mapping):
        for doc_id, score in ranked.items():
            format_score(query_id, doc_id, score)  # refuses NaN before it can be sorted
        return scored_order(ranked)
    if isinstance(ranked, str):
        raise DatasetFormatError(f"run[{query_id!r}] is a str; expected a list of doc ids")
    docs = list(ranked)
    if len(set(docs)) != len(docs):
        twice = next(doc for i, doc in enumerate(docs) if doc in docs[:i])
        raise DatasetFormatError(
            f"run[{query_id!r}] lists doc {twice!r} twice; a run file cannot hold that "
            "(trec_eval refuses it)"
        )
    return docs


def write_ranked_lines(path: Path, run: Mapping[str, Mapping[str, float] | Iterable[str]]) -> None:
    """Write an MS MARCO ``qid<TAB>pid<TAB>rank`` run, atomically, ranks in trec_eval's order."""
    with atomic_writer(path) as out:
        for query_id, ranked in run.items():
            qid = check_id("query id", query_id, starts_line=True)
            for rank, doc_id in enumerate(ranked_docs(query_id, ranked), start=1):
                out.write(f"{qid}\t{check_id('doc id', doc_id)}\t{rank}\n")


def write_id_texts(path: Path, texts: Iterable[tuple[str, str]], kind: str) -> None:
    """Write ``id<TAB>text`` lines, atomically; a text with a tab or line break is an error."""
    with atomic_writer(path) as out:
        write_id_texts_to(out, texts, kind)


def write_id_texts_to(out: IO[str], texts: Iterable[tuple[str, str]], kind: str) -> None:
    for item_id, text in once_each(texts, lambda pair: pair[0], kind):
        checked = check_id(f"{kind} id", item_id, starts_line=True)
        out.write(f"{checked}\t{check_line_text(kind, item_id, text)}\n")
