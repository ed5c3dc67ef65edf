"""The TREC RAG track's nugget files: JSON lines, one query (and, for assignments, one run's
answer) per line, as castorini's nuggetizer writes them.

A nugget file has ``{"qid": ..., "nuggets": [{"text": ..., "importance": "vital" | "okay"},
...]}`` per line (``query`` and other keys are ignored); an assignment file has the same with
an ``assignment`` in each nugget, and a ``run_id`` when it holds several runs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..errors import DatasetFormatError, InvalidSampleError
from ..types import checked_nuggets

__all__ = ["read_nuggets"]


def read_nuggets(
    path: str | os.PathLike[str], *, run_id: str | None = None
) -> dict[str, list[dict[str, Any]]]:
    """The nuggets of each query in a TREC RAG nugget or assignment file (JSONL):
    ``{qid: [{"text", "importance"[, "assignment"]}, ...]}``, in the file's order.

    An assignment file of several runs (a ``run_id`` on its lines) needs ``run_id=``, which
    keeps that run's lines. :func:`~ef.evaluation.with_nuggets` puts the nuggets into
    samples by query id.

    Raises:
        FileNotFoundError: if there is no such file.
        DatasetFormatError: (a ``ValueError``) naming the file and line, for a line that is no
            JSON object, lacks ``qid`` or ``nuggets``, holds a malformed nugget, or repeats a
            query; for a file of several runs read without ``run_id=`` (the message lists
            them), or a ``run_id`` the file lacks.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "nuggets.jsonl"
    >>> _ = path.write_text('{"qid": "q1", "query": "capital of France?", "nuggets": '
    ...                     '[{"text": "Paris is the capital", "importance": "vital"}]}\\n')
    >>> read_nuggets(path)
    {'q1': [{'text': 'Paris is the capital', 'importance': 'vital'}]}
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such nugget file: {str(path)!r}")
    by_run: dict[str | None, dict[str, list[dict[str, Any]]]] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            record = _record(line, where)
            qid, run = str(record["qid"]), record.get("run_id")
            run = None if run is None else str(run)
            try:
                nuggets = checked_nuggets(record["nuggets"], assigned=False)
            except InvalidSampleError as exc:
                raise DatasetFormatError(f"{where}: {exc}") from None
            queries = by_run.setdefault(run, {})
            if qid in queries:
                also = "" if run is None else f" of run {run!r}"
                raise DatasetFormatError(f"{where}: query {qid!r}{also} is on an earlier line too")
            queries[qid] = [dict(n) for n in nuggets]
    return _one_run(by_run, run_id, path)


def _record(line: str, where: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetFormatError(f"{where}: not a JSON line ({exc.msg})") from None
    if not isinstance(record, dict) or "qid" not in record or "nuggets" not in record:
        raise DatasetFormatError(
            f"{where}: expected a JSON object with 'qid' and 'nuggets' (a TREC RAG nugget "
            "file, as nuggetizer writes it)"
        )
    return record


def _one_run(
    by_run: dict[str | None, dict[str, list[dict[str, Any]]]], run_id: str | None, path: Path
) -> dict[str, list[dict[str, Any]]]:
    runs = sorted(r for r in by_run if r is not None)
    if run_id is not None:
        if run_id not in by_run:
            listed = ", ".join(map(repr, runs)) or "none"
            raise DatasetFormatError(f"{path}: no lines of run {run_id!r}; its runs: {listed}")
        return by_run[run_id]
    if len(by_run) > 1:
        raise DatasetFormatError(
            f"{path}: the file holds {len(runs)} runs ({', '.join(map(repr, runs[:5]))}"
            f"{', ...' if len(runs) > 5 else ''}); choose one with run_id="
        )
    return next(iter(by_run.values()), {})
