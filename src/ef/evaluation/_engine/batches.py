"""The former name of :mod:`ef.evaluation._engine.batched`, where scoring in batches now lives
with the rest of a large run's scoring (issue 27): its names, kept importable from here.

>>> from ef.evaluation._engine import batched, batches
>>> batches.combine_batches is batched.combine_batches
True
"""

from __future__ import annotations

from .batched import BatchScores, combine_batches, merge_batches, score_batch, scored_parts

__all__ = ["BatchScores", "combine_batches", "merge_batches", "score_batch", "scored_parts"]
