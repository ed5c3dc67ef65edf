"""What :func:`~ef.evaluation._formats.convert.convert` moves and what it may drop, by name.

Apart from the readers and writers, so that ``ef-eval convert``'s options list them (and
its ``--help`` shows them) without importing any.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["DROPPABLE", "KINDS", "Kind"]

Kind = Literal["dataset", "qrels", "run", "queries", "corpus"]
#: What convert() can move; a dataset is a directory, the rest are files.
KINDS: tuple[str, ...] = ("dataset", "qrels", "run", "queries", "corpus")

#: What ``drop=`` may name: the kinds of data a target format may be unable to hold.
DROPPABLE: tuple[str, ...] = ("metadata", "title", "scores", "tag")
