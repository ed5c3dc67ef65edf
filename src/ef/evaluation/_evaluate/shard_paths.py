"""Whether a run is sharded, and its shards' paths: a list of files, a glob, a URL or a glob
of URLs (:func:`shards_of`).

Apart from :mod:`~ef.evaluation._evaluate.sharded`, which scores the shards, so that every
call that asks (``evaluate_run``, the CLI) loads the batch engine only for a sharded run.

>>> shards_of("run.trec") is None, shards_of(["a.trec", "b.trec"])
(True, ['a.trec', 'b.trec'])
"""

from __future__ import annotations

import glob
import os
from typing import Any

from .._formats.sources import GLOB_CHARS, is_url, url_glob

__all__ = ["shards_of"]


def shards_of(run: object) -> list[str] | None:
    """The shard paths of ``run``: a list of paths or URLs (not a tuple, which may be a row
    of a run given in a shape that is refused), a glob pattern (``*``, ``?``, ``[``) that
    names no file itself, matched in sorted order, or a URL (``s3://bucket/run.trec``, one
    shard) or a glob of URLs (``s3://bucket/runs/*.trec``); None for a run of any other
    kind. A glob that matches nothing or an empty list is a ``ValueError``; so is a URL
    that fsspec cannot read (no fsspec, an unknown protocol or its package missing: then a
    :class:`~ef.evaluation.MissingDependencyError`), before any shard is read."""
    if isinstance(run, list):
        return _listed_shards(run)
    if is_url(run):
        return _url_shards(run)
    if isinstance(run, str) and GLOB_CHARS & set(run) and not os.path.exists(run):
        found = sorted(glob.glob(run, recursive=True))
        files = [p for p in found if not os.path.isdir(p)]
        return files or _none_matched(f"the run pattern {run!r} matches no file")
    return None


def _listed_shards(run: list[Any]) -> list[str] | None:
    """A list of paths or URLs (the URLs checked); None for a list of anything else."""
    if not run or not all(isinstance(p, (str, os.PathLike)) for p in run):
        return None if run else _none_matched("an empty list of run files")
    shards = [os.fspath(p) for p in run]
    urls = [shard for shard in shards if is_url(shard)]
    if urls:
        from .._formats.remote import check_url  # fsspec's reader: for URLs only

        for url in urls:
            check_url(url)
    return shards


def _url_shards(run: str) -> list[str]:
    """A URL (one shard) or a glob of URLs, checked to be readable."""
    from .._formats.remote import check_url, expand_url_glob

    check_url(run)
    if not url_glob(run):
        return [run]
    return expand_url_glob(run) or _none_matched(f"the run pattern {run!r} matches no file")


def _none_matched(what: str) -> list[str]:
    raise ValueError(f"{what}: nothing to score")
