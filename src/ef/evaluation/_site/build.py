"""build_site(): the leaderboard site of recorded evaluations, written as static files.

The site is a function of the records: the same records build the same files, byte for byte
(no build time is written; resampling tests run with a fixed seed). It is written into a
directory beside the target and renamed into place, so a build that fails leaves the site
that was there before, whole.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .._store.record import Record
from .pages import INDEX, Files, dataset_page, index_page, ordered_pairs, pair_page, system_page
from .stats import Board, History, Options, drill_down, history, leaderboard

if TYPE_CHECKING:
    from ..types import Correction, SignificanceTest

__all__ = ["MARKER", "build_site"]

#: The file that says a directory is a site this function wrote, and may be replaced.
MARKER = ".ef-site"


def build_site(
    records: Sequence[Record],
    out: str | os.PathLike[str],
    *,
    baseline: str | None = None,
    metric: str | None = None,
    queries: Mapping[str, Mapping[str, str]] | None = None,
    test: SignificanceTest = "paired-t",
    correction: Correction | None = None,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
) -> Path:
    """Write the leaderboard site of ``records`` into the directory ``out``; return its
    ``index.html``.

    The site is static and self-contained: open ``index.html`` from disk, no server and no
    network needed. Its pages:

    * a leaderboard per dataset: each system's latest record, sortable by any column, each
      metric marked where the system is significantly above or below the ``baseline``;
    * a page per system: each metric over time, a regression (a drop that the test finds
      significant against the record before) marked, and each record's manifest, ties note
      and skipped queries;
    * a drill-down of every two systems on a dataset: wins, ties and losses query by query,
      with the query's text where ``queries`` gives it.

    The marks are computed here, by :func:`~ef.evaluation.compare` on the per-query values
    of the records' reports, with ``test``, ``correction``, ``alpha`` and ``n_resamples`` as
    ``compare`` takes them (resampling seeded with 0, so the same records build the same
    site).

    Args:
        records: the recorded evaluations, oldest first (as a store returns them).
        out: the site's directory; an existing one is replaced only if it is a site (it
            holds the ``.ef-site`` file this function writes).
        baseline: the system every other is tested against on each dataset; where it has no
            record (or for ``None``), the system recorded first on that dataset.
        metric: the metric leaderboards are sorted by first (default: ``ndcg@10`` if
            recorded, else a report's first metric).
        queries: query texts, ``{dataset: {query id: text}}``, shown in the drill-downs.

    Raises:
        ValueError: for no records, or an option ``compare`` refuses.
        FileExistsError: when ``out`` is a file, or a directory that is not a site.
        MissingDependencyError: (an ``ImportError``) if scipy is not installed
            (``pip install "ef-evaluation[stats]"``).

    >>> import tempfile
    >>> from datetime import datetime, timezone
    >>> from ef.evaluation import Record, evaluate_run
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> report = evaluate_run({"q1": ["d1"], "q2": ["x", "d2"]}, qrels, metrics=["mrr@10"])
    >>> when = datetime(2026, 12, 2, tzinfo=timezone.utc)
    >>> records = [Record(system="bm25", dataset="demo", report=report, recorded_at=when)]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     index = build_site(records, Path(tmp) / "site")
    ...     sorted(p.name for p in index.parent.glob("*.html"))[:2]
    ['dataset-demo-2a97516c.html', 'index.html']
    """
    records = list(records)
    if not records:
        raise ValueError("no records: the site shows recorded evaluations, and there are none")
    for record in records:
        if not isinstance(record, Record):
            raise TypeError(f"records must be Record values, got {type(record).__name__}")
    target = Path(out)
    _check_replaceable(target)
    options = Options(
        baseline=baseline,
        metric=metric,
        test=test,
        correction=correction,
        alpha=alpha,
        n_resamples=n_resamples,
    )
    pages = _pages(records, options, queries or {})
    _write_atomically(target, pages)
    return target / INDEX


def _pages(
    records: list[Record], options: Options, queries: Mapping[str, Mapping[str, str]]
) -> dict[str, str]:
    """Every file of the site, by name."""
    positions = {id(record): i for i, record in enumerate(records)}
    datasets = list(dict.fromkeys(r.dataset for r in records))
    boards = [leaderboard(records, dataset, options=options) for dataset in datasets]
    histories = _histories(records, datasets, options)
    pages = {INDEX: index_page(boards, histories, options), MARKER: "ef-evaluation site\n"}
    for board in boards:
        pages[Files.dataset(board.dataset)] = dataset_page(board, positions, options)
        pages.update(_pair_pages(board, queries.get(board.dataset, {}), options))
    for system, own in histories.items():
        pages[Files.system(system)] = system_page(system, own, positions, queries, options)
    return pages


def _histories(
    records: list[Record], datasets: list[str], options: Options
) -> dict[str, list[History]]:
    """Each system's history on each dataset it has records of, systems and datasets in the
    order of their first records."""
    systems = list(dict.fromkeys(r.system for r in records))
    return {
        system: [
            history(records, system, dataset, options=options)
            for dataset in datasets
            if any(r.system == system and r.dataset == dataset for r in records)
        ]
        for system in systems
    }


def _pair_pages(board: Board, texts: Mapping[str, str], options: Options) -> dict[str, str]:
    """The drill-down page of each pair of systems on ``board``'s dataset, by file name."""
    pages = {}
    for a, b in ordered_pairs(board):
        pair = drill_down(board, a, b, options=options)
        pages[Files.pair(board.dataset, a, b)] = pair_page(pair, texts, board.metric, options)
    return pages


def _check_replaceable(target: Path) -> None:
    if target.is_file() or target.is_symlink():
        raise FileExistsError(f"{target}: is a file; the site is written into a directory")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise FileExistsError(
            f"{target}: the directory holds files and is not a site built by ef-eval site "
            f"(no {MARKER} file): choose an empty or new directory"
        )


def _write_atomically(target: Path, pages: Mapping[str, str]) -> None:
    """Write ``pages`` into a new directory beside ``target``, then put it in its place."""
    parent = target.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}-building-", dir=parent))
    try:
        for name, text in pages.items():
            (building / name).write_text(text, encoding="utf-8")
        building.chmod(0o755)  # mkdtemp's 0700 would hide the site from a web server's user
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=parent))
            old.rmdir()
            target.rename(old)
            try:
                building.rename(target)
            except BaseException:
                old.rename(target)  # the site that was there stays
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            building.rename(target)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
