"""How large a run file must be to be read in batches, and how much each batch reads.

Apart from :mod:`~ef.evaluation._engine.batched`, which reads and scores the batches, so that
a smaller run's path asks :func:`large_enough` and loads no batch engine.

>>> STREAM_FROM == 2 * BLOCK_BYTES, large_enough("no such file")
(True, False)
"""

from __future__ import annotations

import os

__all__ = ["BLOCK_BYTES", "STREAM_FROM", "large_enough"]

#: Bytes read at a time: about 900,000 lines of a typical run (a block and its columns take
#: a few hundred MB at most).
BLOCK_BYTES = 16 << 20
#: Run files at least this large are read in batches: below it, the whole file is read.
STREAM_FROM = 2 * BLOCK_BYTES


def large_enough(path: str | os.PathLike[str]) -> bool:
    """True for a file of :data:`STREAM_FROM` bytes or more (read when called: the tests make
    it small); False for a smaller one or one that cannot be read (the whole-file path says
    what is wrong)."""
    try:
        return os.stat(path).st_size >= STREAM_FROM
    except (OSError, ValueError):
        return False
