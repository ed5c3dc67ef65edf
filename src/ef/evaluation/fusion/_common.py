"""What several fusion kernels share: each doc's scores from the runs that retrieved it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["present_scores"]


def present_scores(results: Sequence[Mapping[str, float]]) -> dict[str, list[float]]:
    """``{doc: [its score in each run that retrieved it, in run order]}``, docs in the order
    they first appear.

    >>> present_scores([{"a": 1.0, "b": 0.5}, {"b": 1.0}])
    {'a': [1.0], 'b': [0.5, 1.0]}
    """
    present: dict[str, list[float]] = {}
    for scores in results:
        for doc, score in scores.items():
            present.setdefault(doc, []).append(score)
    return present
