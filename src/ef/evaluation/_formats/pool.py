"""Pools to judge on disk: written for assessors to fill in, read back once they have.

A pool file lists, for each query, the docs to judge, each with its grade left **empty**:
there is no sentinel grade. Any token in the grade's place would be read as a number by some
reader (trec_eval reads ``?`` or ``NA`` with ``atol``, as grade 0), so an unfilled line
would be scored as a judgement; a missing grade is refused by trec_eval ("Malformed line")
and by ef's qrels readers, which name the file and line. Two forms:

* TREC qrels lines, ``qid 0 docno`` and no fourth column (``.tsv``: tab-separated, with an
  empty fourth column a spreadsheet shows); filled in, the file is TREC qrels;
* CSV (a name ending in ``.csv``), the header ``query_id,doc_id,relevance`` and the
  relevance cells empty.

Every writer is atomic: a file is renamed into place only when it is whole.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     write_pool(Path(tmp, "pool.csv"), {"q1": ("d1", "d2")})
...     print(Path(tmp, "pool.csv").read_text(), end="")
query_id,doc_id,relevance
q1,d1,
q1,d2,
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._io import atomic_writer, format_error, read_text
from ._records import check_id, empty_file, parse_grade, read_id
from .trec.reader import read_qrels_lines

__all__ = ["POOL_HEADER", "is_csv", "read_judged_pool", "write_pool"]

#: The header of a CSV pool file.
POOL_HEADER = ("query_id", "doc_id", "relevance")


def is_csv(path: Path) -> bool:
    """True for a name ending in ``.csv`` (or ``.csv.gz``): a pool file's CSV form."""
    return path.name.lower().removesuffix(".gz").endswith(".csv")


def write_pool(path: Path, docs: Mapping[str, Sequence[str]]) -> None:
    """Write the docs to judge (``{query_id: [doc_id, ...]}``), each with an empty grade,
    atomically: CSV for a name ending in ``.csv``, else TREC qrels lines (tab-separated for a
    name ending in ``.tsv``). A query with no doc to judge writes no line.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_pool(Path(tmp, "pool.txt"), {"q1": ["d1"], "q2": []})
    ...     print(Path(tmp, "pool.txt").read_text(), end="")
    q1 0 d1
    """
    if is_csv(path):
        with atomic_writer(path) as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(POOL_HEADER)
            for query_id, doc_ids in docs.items():
                for doc_id in doc_ids:
                    writer.writerow(
                        (check_id("query id", query_id), check_id("doc id", doc_id), "")
                    )
        return
    tsv = path.name.lower().removesuffix(".gz").endswith(".tsv")
    end = "\t\n" if tsv else "\n"  # the empty fourth cell, where a spreadsheet shows it
    sep = "\t" if tsv else " "
    with atomic_writer(path) as out:
        for query_id, doc_ids in docs.items():
            qid = check_id("query id", query_id, starts_line=True)
            for doc_id in doc_ids:
                out.write(f"{qid}{sep}0{sep}{check_id('doc id', doc_id)}{end}")


def read_judged_pool(path: Path) -> dict[str, dict[str, int]]:
    """``{query_id: {doc_id: grade}}`` of a pool file the assessors filled in: TREC qrels
    lines, or the CSV form (a name ending in ``.csv``). A doc left without a grade is an
    error naming the file and line, never a grade.
    """
    if not is_csv(path):
        return read_qrels_lines(path)
    return _read_csv_pool(path)


def _read_csv_pool(path: Path) -> dict[str, dict[str, int]]:
    rows = csv.reader(io.StringIO(read_text(path)))
    _check_pool_header(path, next(rows, None))
    judged: dict[str, dict[str, int]] = {}
    for row in rows:
        if not row:
            continue
        line_no, line = rows.line_num, ",".join(row)
        query_id, doc_id, grade = _pool_row(row, path, line_no, line)
        judgements = judged.setdefault(query_id, {})
        if doc_id in judgements:
            problem = f"doc {doc_id!r} is judged twice for query {query_id!r}"
            raise format_error(path, line_no, problem, line)
        judgements[doc_id] = parse_grade(grade, path, line_no, line)
    if not judged:
        raise format_error(path, 1, "a header and no row: there is no judgement to read")
    return judged


def _check_pool_header(path: Path, header: list[str] | None) -> None:
    if header is None:
        raise empty_file(path, f"a CSV pool ({','.join(POOL_HEADER)})")
    if tuple(cell.strip().lower() for cell in header) != POOL_HEADER:
        raise format_error(
            path, 1, f"expected the header {','.join(POOL_HEADER)}, got {','.join(header)}"
        )


def _pool_row(row: list[str], path: Path, line_no: int, line: str) -> tuple[str, str, str]:
    """A CSV row's query id, doc id and grade, as text: three cells, the ids valid and the
    grade filled in."""
    if len(row) != len(POOL_HEADER):
        problem = f"expected 3 cells ({','.join(POOL_HEADER)}), got {len(row)}"
        raise format_error(path, line_no, problem, line)
    query_id, doc_id, grade = (cell.strip() for cell in row)
    for kind, value in (("query id", query_id), ("doc id", doc_id)):
        if not value:
            raise format_error(path, line_no, f"the {kind} is empty", line)
        read_id(kind, value, path, line_no, line)
    if not grade:
        problem = (
            f"doc {doc_id!r} of query {query_id!r} has no relevance grade yet: fill in "
            "every grade (an integer), or leave the row out"
        )
        raise format_error(path, line_no, problem, line)
    return query_id, doc_id, grade
