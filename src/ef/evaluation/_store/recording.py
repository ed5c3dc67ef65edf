"""Recording an evaluation: its names (given, or read from its inputs), the time, the git
commit of the working directory, and the write.

The names a record takes when none is given: the system is the run file's stem
(``_runs/bm25.trec`` is ``bm25``); the dataset is the ir_datasets id of ``irds:`` qrels, a
BEIR directory's name, or a qrels file's stem, prefixed by the name of the folder that
holds it when the stem names a split or says "qrels" alone (``scifact/qrels/test.tsv`` is
``scifact/test``, ``robust04/qrels.txt`` is ``robust04``). A run or qrels held in memory has
no name: recording it without ``system=`` or ``dataset=`` is refused, never guessed.

>>> system_name("runs/bm25.trec.gz"), dataset_name("beir/scifact/qrels/test.tsv")
('bm25', 'scifact/test')
>>> dataset_name("irds:msmarco-passage/trec-dl-2019/judged"), system_name({"q1": {}})
('msmarco-passage/trec-dl-2019/judged', None)
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import PurePath

from .._formats.sources import PREFIX, is_irds, is_url
from .._reports.retrieval import RetrievalEvalReport
from ..errors import ArgumentError, Keyword
from . import open_store
from .record import Record
from .store import Store

__all__ = [
    "dataset_name",
    "git_commit",
    "record_evaluation",
    "recorded_names",
    "system_name",
]

# Stems that name a split or the file's kind, not the dataset: the folder says which.
_GENERIC = {"qrels", "test", "dev", "train", "validation", "valid", "eval"}
_SUFFIXES = {".gz", ".bz2", ".xz", ".zst", ".txt", ".tsv", ".trec", ".run", ".parquet", ".csv"}


def _stem(path: PurePath) -> str:
    name = path.name
    while PurePath(name).suffix.lower() in _SUFFIXES:
        name = PurePath(name).stem
    return name


def _path(value: object) -> PurePath | None:
    if isinstance(value, (str, os.PathLike)):
        text = os.fspath(value)
        if isinstance(text, str) and not is_irds(text):
            return PurePath(text.split("://", 1)[1] if is_url(text) else text)
    return None


def system_name(run: object) -> str | None:
    """The default system name of a run: its file's stem, or None (held in memory)."""
    path = _path(run)
    return _stem(path) or None if path is not None else None


def dataset_name(qrels: object) -> str | None:
    """The default dataset name of qrels: see the module's docstring; None for qrels held
    in memory."""
    if is_irds(qrels):
        return qrels[len(PREFIX) :]
    path = _path(qrels)
    return None if path is None else _dataset_of(path)


def _dataset_of(path: PurePath) -> str | None:
    """A qrels file's dataset: its stem, or its folder's name where the stem is generic."""
    stem = _stem(path)
    if stem.lower() not in _GENERIC:
        return stem or None
    folders = [part for part in reversed(path.parent.parts) if part.lower() not in _GENERIC]
    folder = folders[0] if folders and folders[0] not in ("/", ".", "..") else None
    if stem.lower() == "qrels":
        return folder or stem
    return f"{folder}/{stem}" if folder else stem


def git_commit(where: str | os.PathLike[str] | None = None) -> str | None:
    """The commit checked out in ``where`` (the working directory), or None where there is
    no git repository, or no git."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "HEAD"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = found.stdout.strip()
    return commit if found.returncode == 0 and commit else None


def record_evaluation(
    report: RetrievalEvalReport,
    *,
    system: str | None,
    dataset: str | None,
    tags: Iterable[str] = (),
    store: Store | str | os.PathLike[str] | None = None,
    run: object = None,
    qrels: object = None,
) -> Record:
    """Record ``report`` in ``store`` (a :class:`Store`, a URL, or None for the default
    store), named ``system`` on ``dataset``, or by the names ``run`` and ``qrels`` give.

    Raises:
        ArgumentError: when a name is neither given nor found in the inputs.
    """
    system, dataset = recorded_names(system, dataset, run, qrels)
    if isinstance(tags, str):
        raise TypeError(f"tags must be a sequence of str, e.g. ({tags!r},)")
    record = Record(
        system=system,
        dataset=dataset,
        report=report,
        recorded_at=datetime.now(timezone.utc),
        commit=git_commit(),
        tags=tuple(tags),
    )
    if isinstance(store, Store):
        return store.record(record)
    with open_store(store) as opened:
        return opened.record(record)


def recorded_names(
    system: str | None, dataset: str | None, run: object = None, qrels: object = None
) -> tuple[str, str]:
    """``system`` and ``dataset``, or the names ``run`` and ``qrels`` give.

    Raises:
        ArgumentError: when a name is neither given nor found in the inputs.
        TypeError: for a name given that is not a str.
    """
    for name, value in (("system", system), ("dataset", dataset)):
        if value is not None and (not isinstance(value, str) or not value):
            raise TypeError(f"{name} must be a non-empty str, got {value!r}")
    system = system if system is not None else system_name(run)
    dataset = dataset if dataset is not None else dataset_name(qrels)
    if system is None:
        raise ArgumentError(
            "cannot record the evaluation: the run has no file name to call the system by; "
            "name it with ",
            Keyword("system"),
        )
    if dataset is None:
        raise ArgumentError(
            "cannot record the evaluation: the qrels have no file name to call the dataset "
            "by; name it with ",
            Keyword("dataset"),
        )
    return system, dataset
