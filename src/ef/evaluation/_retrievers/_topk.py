"""Exact top-k selection with trec_eval's tie rule, shared by the baseline retrievers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["tie_ranks", "top_k"]


def tie_ranks(doc_ids: Sequence[str]) -> npt.NDArray[np.int64]:
    """Each document's place when ids are sorted descending: the tie-break key of :func:`top_k`.

    >>> tie_ranks(["b", "c", "a"]).tolist()
    [1, 0, 2]
    """
    order = sorted(range(len(doc_ids)), key=doc_ids.__getitem__, reverse=True)
    ranks = np.empty(len(doc_ids), dtype=np.int64)
    ranks[order] = np.arange(len(doc_ids), dtype=np.int64)
    return ranks


def top_k(
    scores: npt.NDArray[np.float32],
    limit: int,
    ranks: npt.NDArray[np.int64],
    *,
    positive_only: bool = False,
) -> npt.NDArray[np.intp]:
    """The indices of the ``limit`` best scores, best first; equal scores by doc id descending.

    This is trec_eval's order (score descending, ties by docno descending), so a run written
    from these rankings reads back in the same order. ``argpartition`` finds the cut-off score
    in linear time; every document tied with it is kept until the final sort, so which of the
    tied documents make the cut does not depend on numpy's partition.
    ``positive_only`` drops scores of 0 or less (for BM25: documents sharing no query term).

    >>> ranks = tie_ranks(["d1", "d2", "d3", "d4"])
    >>> top_k(np.array([0.5, 0.9, 0.5, 0.0], dtype=np.float32), 2, ranks).tolist()
    [1, 2]
    >>> top_k(np.array([0.5, 0.9, 0.5, 0.0], dtype=np.float32), 9, ranks, positive_only=True)
    array([1, 2, 0])
    """
    candidates = np.flatnonzero(scores > 0) if positive_only else np.arange(len(scores))
    values = scores[candidates]
    if limit < len(candidates):
        cut = values[np.argpartition(-values, limit - 1)[limit - 1]]
        keep = values >= cut
        candidates, values = candidates[keep], values[keep]
    order = np.lexsort((ranks[candidates], -values))[:limit]
    selected: npt.NDArray[np.intp] = candidates[order]
    return selected
