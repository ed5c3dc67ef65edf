"""Reading and writing evaluation data by path: the format is detected or named."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ._registry import Registry, registry_or_default
from .errors import UnknownNameError
from .interfaces import DatasetFormat

__all__ = ["read_samples", "write_samples"]


def _format_for(
    path: Path, format: str | None, capability: str, registry: Registry, *, must_exist: bool
) -> DatasetFormat:
    """The format named ``format``, or the one whose ``detect`` recognises ``path``."""
    able = {n: f for n, f in registry.formats.items() if getattr(f, capability) is not None}
    if format is not None:
        chosen = registry.format(format)
        if getattr(chosen, capability) is None:
            raise UnknownNameError(
                f"format {format!r} cannot {capability.replace('_', ' ')}; formats that can: "
                f"{', '.join(able) or '(none)'}"
            )
        return chosen
    if must_exist and not path.exists():
        raise FileNotFoundError(f"no such file or directory: {path}")
    for fmt in able.values():
        if fmt.detect is not None and fmt.detect(path):
            return fmt
    raise UnknownNameError(
        f"cannot tell the format of {path}; name it with format= (one of: {', '.join(able)})"
    )


def read_samples(
    path: str | os.PathLike[str], format: str | None = None, *, registry: Registry | None = None
) -> list[dict[str, Any]]:
    """Read RAG samples from ``path``: JSONL (``.jsonl``) or CSV (``.csv``), gzip or not.

    ``format`` names the format (``"rag_jsonl"``, ``"rag_csv"`` or a plugin's); ``None``
    detects it from the file name. Each sample is a dict with RagSample keys, plus any other
    keys the file holds (an ``id``). Ragas' ``to_jsonl`` and ``to_csv`` exports read as they are.

    Raises:
        FileNotFoundError: if ``path`` does not exist.
        DatasetFormatError: (a ``ValueError``) for a malformed line, naming the file and line.
        UnknownNameError: (a ``ValueError``) if the format cannot be told or is unknown.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "samples.jsonl")
    ...     write_samples(path, [{"id": "s1", "response": "Paris", "reference": "Paris"}])
    ...     read_samples(path)
    [{'id': 's1', 'response': 'Paris', 'reference': 'Paris'}]
    """
    source = Path(path)
    fmt = _format_for(
        source, format, "read_samples", registry_or_default(registry), must_exist=True
    )
    assert fmt.read_samples is not None  # _format_for picked a format that reads samples
    return fmt.read_samples(source)


def write_samples(
    path: str | os.PathLike[str],
    samples: Iterable[Mapping[str, Any]],
    format: str | None = None,
    *,
    registry: Registry | None = None,
) -> None:
    """Write RAG samples to ``path`` (JSONL or CSV, from the name or ``format``), atomically.

    Every sample is validated first, so a malformed one raises
    :class:`~ef.evaluation.InvalidSampleError` naming its index and nothing is written.
    """
    target = Path(path)
    registry = registry_or_default(registry)
    fmt = _format_for(target, format, "write_samples", registry, must_exist=False)
    assert fmt.write_samples is not None  # _format_for picked a format that writes samples
    fmt.write_samples(target, samples)
