"""convert(): move evaluation data between formats, losing nothing the target can hold."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from ..errors import UnknownNameError
from ..plugin_engine.registry import Registry, registry_or_default
from ._io import first_line
from .files import format_for

__all__ = ["KINDS", "convert"]

Kind = Literal["dataset", "qrels", "run", "queries", "corpus"]
#: What :func:`convert` can move; a dataset is a directory, the rest are files.
KINDS: tuple[str, ...] = ("dataset", "qrels", "run", "queries", "corpus")

_NAME_HINTS = (
    ("qrels", "qrels"),
    ("run", "run"),
    ("topics", "queries"),
    ("queries", "queries"),
    ("collection", "corpus"),
    ("corpus", "corpus"),
)
_SUFFIX_FORMATS = {".jsonl": "beir", ".trec": "trec", ".run": "trec"}


def guess_kind(path: Path) -> str:
    """What ``path`` holds, from its name, else its first line; a ValueError if unclear."""
    if path.is_dir():
        return "dataset"
    # Whole words of the name only: "truncated" does not say "run".
    words = set(re.split(r"[^a-z0-9]+", path.name.lower()))
    by_name = next((kind for hint, kind in _NAME_HINTS if hint in words), None)
    if by_name is not None:
        return by_name
    first = (first_line(path) or "").strip()
    columns = first.split()
    by_content = [
        (first.startswith("{") and '"title"' in first, "corpus"),
        (first.startswith("{"), "queries"),
        (first.upper().startswith("<DOC>"), "corpus"),
        (first.lower().startswith("<top>"), "queries"),
        (len(columns) == 4, "qrels"),
        (len(columns) >= 6 and columns[1:2] == ["Q0"], "run"),
    ]
    found = next((kind for matched, kind in by_content if matched), None)
    if found is None:
        raise ValueError(f"cannot tell what {path} holds ({', '.join(KINDS)}); name it with kind=")
    return found


def _target_format(target: Path, to_format: str | None) -> str:
    if to_format is not None:
        return to_format
    for suffix, name in _SUFFIX_FORMATS.items():
        if target.name.endswith((suffix, suffix + ".gz")):
            return name
    raise UnknownNameError(f"cannot tell the format to write {target} in; name it with to_format=")


def convert(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    kind: Kind | None = None,
    registry: Registry | None = None,
) -> str:
    """Convert ``source`` into ``target``, in another format; return the kind converted.

    A directory is a dataset and keeps every split; a file holds qrels, a run, queries or a
    corpus (``kind``, else told from the file name or first line). ``from_format`` is detected
    when ``None``; ``to_format`` is required unless the target name says it (``.jsonl`` is
    BEIR, ``.trec`` and ``.run`` TREC). Corpora stream through, one document at a time.
    Where the target has no title field (MS MARCO), a title is joined to its text.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     src = pathlib.Path(tmp, "run.txt")
    ...     _ = src.write_text("q1 Q0 d1 1 2.0 bm25\\nq1 Q0 d2 2 1.0 bm25\\n")
    ...     convert(src, pathlib.Path(tmp, "run.tsv"), to_format="msmarco")
    ...     pathlib.Path(tmp, "run.tsv").read_text()
    'run'
    'q1\\td1\\t1\\nq1\\td2\\t2\\n'
    """
    registry = registry_or_default(registry)
    src, dst = Path(source), Path(target)
    if not src.exists():
        raise FileNotFoundError(f"no such file or directory: {src}")
    what = kind or guess_kind(src)
    if what not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {what!r}")
    if src.resolve() == dst.resolve():
        raise ValueError(f"{src}: source and target are the same path")
    reader = format_for(src, from_format, f"read_{what}", registry, must_exist=True)
    writer = format_for(
        dst, _target_format(dst, to_format), f"write_{what}", registry, must_exist=False
    )
    data: Any = getattr(reader, f"read_{what}")(src)
    getattr(writer, f"write_{what}")(dst, data)
    return what
