"""Reports as JSON files: :func:`save_report` writes one, :func:`load_report` reads it back.

The file is ``{"format": "ef-evaluation-report", "version": 1, "kind": ..., "report": ...}``
with ``report`` the report's ``to_dict()``. JSON has no NaN: a NaN is null where a value is
always a number, and the string ``"NaN"`` where null already means "not scored" (a RAG
metric, a comparison's scores); infinities are ``"Infinity"`` and ``"-Infinity"``. A pipeline
report holds a retrieval report and a RAG report, each written by its own kind's rule.
:func:`load_report` reads back exactly that: the bare tokens ``NaN``, ``Infinity`` and
``-Infinity``, which Python's ``json`` writes but JSON does not have, are refused, as is a
file that is not UTF-8.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._formats._io import atomic_binary_writer, load_json
from .._reports import ComparisonReport, PipelineEvalReport, RagEvalReport, RetrievalEvalReport
from ..errors import DatasetFormatError

__all__ = ["FORMAT", "Report", "load_report", "save_report"]

FORMAT = "ef-evaluation-report"
_VERSION = 1

Report = RetrievalEvalReport | RagEvalReport | ComparisonReport | PipelineEvalReport

_KINDS: dict[str, type[Report]] = {
    "retrieval": RetrievalEvalReport,
    "rag": RagEvalReport,
    "comparison": ComparisonReport,
    "pipeline": PipelineEvalReport,
}
# The top-level fields where None means "not scored", so NaN must be told apart from it.
_OPTIONAL = {
    "rag": ("metrics", "per_sample"),
    "comparison": ("scores",),
    "retrieval": (),
    "pipeline": (),
}


def _encode(value: Any, nan: str | None) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        if math.isnan(value):
            return nan
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, Mapping):
        return {key: _encode(inner, nan) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(inner, nan) for inner in value]
    return value


def _body(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """A report's dict with its NaNs marked as its kind reads them back."""
    return {
        # a pipeline's two reports are written by their own kinds' rules
        key: _body(key, value)
        if kind == "pipeline" and key in ("retrieval", "rag") and value is not None
        else _encode(value, "NaN" if key in _OPTIONAL[kind] else None)
        for key, value in data.items()
    }


def save_report(report: Report, path: str | os.PathLike[str]) -> Path:
    """Write ``report`` to ``path`` as JSON (per-query values, ties and manifest included),
    so that :func:`load_report` gives it back equal. Returns the path.

    The file is written to a temporary name beside it and then renamed: a killed writer
    never leaves half a report.

    >>> import tempfile, pathlib
    >>> from ef.evaluation import RetrievalEvalReport, load_report
    >>> report = RetrievalEvalReport({'ndcg@10': 0.5}, {'q1': {'ndcg@10': 0.5}}, 1, (10,))
    >>> path = save_report(report, pathlib.Path(tempfile.mkdtemp()) / 'run.json')
    >>> load_report(path) == report
    True
    """
    kind = next((name for name, cls in _KINDS.items() if isinstance(report, cls)), None)
    if kind is None:
        raise TypeError(
            "save_report takes a RetrievalEvalReport, RagEvalReport, ComparisonReport or "
            f"PipelineEvalReport, got {type(report).__name__}"
        )
    body = _body(kind, report.to_dict())
    document = {"format": FORMAT, "version": _VERSION, "kind": kind, "report": body}
    try:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError as error:  # a NaN inside the manifest: JSON cannot hold it
        raise ValueError(f"cannot save the report to {os.fspath(path)}: {error}") from None
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # As every writer: a recognisable temporary file (a killed one's is removed next time),
    # the mode a new file gets, and an OSError that names the target.
    with atomic_binary_writer(target) as out:
        out.write((text + "\n").encode("utf-8"))
    return target


def load_report(path: str | os.PathLike[str]) -> Report:
    """The report :func:`save_report` wrote to ``path``: a
    :class:`~ef.evaluation.RetrievalEvalReport`, :class:`~ef.evaluation.RagEvalReport`,
    :class:`~ef.evaluation.ComparisonReport` or :class:`~ef.evaluation.PipelineEvalReport`,
    equal to the one saved (its manifest and ties too).

    Raises:
        FileNotFoundError: if there is no file at ``path``.
        DatasetFormatError: (a ``ValueError``) if the file is not a saved report, naming the
            file and what is wrong: not UTF-8, not JSON (the bare ``NaN`` and ``Infinity``
            of Python's ``json`` included), or not what :func:`save_report` writes.

    >>> import tempfile, pathlib
    >>> from ef.evaluation import RagEvalReport, save_report
    >>> report = RagEvalReport.from_values({'token_f1': [1.0, None]}, ['a', 'b'])
    >>> loaded = load_report(save_report(report, pathlib.Path(tempfile.mkdtemp()) / 'r.json'))
    >>> loaded.per_sample['token_f1']
    (1.0, None)
    """
    source = Path(path)
    document = _document(source)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DatasetFormatError(
            f'{source}: not a saved ef-evaluation report (no "format": {FORMAT!r}); '
            "save_report writes one"
        )
    if document.get("version") != _VERSION:
        raise DatasetFormatError(
            f"{source}: report file version {document.get('version')!r}; this ef-evaluation "
            f"reads version {_VERSION}"
        )
    kind = document.get("kind")
    if kind not in _KINDS:
        raise DatasetFormatError(
            f"{source}: unknown report kind {kind!r}; expected one of {', '.join(_KINDS)}"
        )
    body = document.get("report")
    if not isinstance(body, dict):
        raise DatasetFormatError(
            f'{source}: the file holds no report (its "report" is not an object)'
        )
    try:
        return _KINDS[kind].from_dict(body)
    except (ValueError, TypeError) as error:
        raise DatasetFormatError(f"{source}: {error}") from None


class _BareConstant(Exception):
    """A ``NaN``, ``Infinity`` or ``-Infinity`` token, met while parsing."""


def _refuse_constant(token: str) -> Any:
    raise _BareConstant(token)


# A JSON string, or one of the bare tokens: the first token found outside a string is the one.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN')


def _document(source: Path) -> Any:
    """The JSON value in ``source``: strict UTF-8, and strict JSON (no bare ``NaN``)."""
    data = source.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise DatasetFormatError(
            f"{source}: line {line}: not UTF-8 (byte {data[error.start]:#04x} at offset "
            f"{error.start}); a saved report is the UTF-8 JSON that save_report writes"
        ) from None
    try:
        return load_json(text, source, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise DatasetFormatError(
            f"{source}: line {error.lineno}: not JSON ({error.msg}); a saved report is the "
            "JSON that save_report writes"
        ) from None
    except _BareConstant as error:
        token = str(error)
        # The parser meets tokens in the order of the text: the first outside a string.
        found = next((m for m in _TOKENS.finditer(text) if m.group() == token), None)
        line = 1 if found is None else text.count("\n", 0, found.start()) + 1
        written = 'null or "NaN"' if token == "NaN" else f'"{token}"'
        raise DatasetFormatError(
            f"{source}: line {line}: the bare {token} is not JSON; save_report writes it as "
            f"{written}: re-save the report with save_report, or write {written} there"
        ) from None
