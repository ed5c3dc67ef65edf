"""The check that a run is not listed by rising score (issue 25), on every path that scores
a run file or table.

Docs are ranked by score, highest first, as trec_eval ranks them; the rank column and the
order of the lines are not used. A run listed from its lowest score up, in (nearly) every
query, is one whose scores are distances (lower is better), or ranks in the score column:
ranked by score, each query is read backwards, and the number looks plausible.
:func:`check_score_order` judges the :class:`~ef.evaluation._engine.score_order.ScoreOrder`
of a run, counted before scoring for a run read whole, and batch by batch, shard by shard,
for a run read in parts: an :class:`~ef.evaluation.InputWarning` when :data:`SHARE` or more
of the queries whose scores differ list them rising, and lines in no particular order would
rise so less than once in 100 (one query of five distinct scores, or seven of two: a table of
a few rows in any order says nothing). A run whose scores are all equal within each query
says nothing either way.

>>> import warnings
>>> from ef.evaluation._engine.score_order import ScoreOrder
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     check_score_order(ScoreOrder(40, 39, 0, ("1", "2", "3"), 250.0), stacklevel=1)
>>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
the run lists its docs by rising score in 39 of its 40 queries whose scores differ (first
'1', '2', '3'): docs are ranked by score, highest first, as trec_eval ranks them (the rank
column and the order of the lines are not used), so each of these queries is ranked from
its last line up. If lower is better (distances), negate the scores (1 - distance, or
-distance); if higher is better and the order of the lines is not meant as the ranking,
ignore this warning
"""

from __future__ import annotations

import math
import warnings

from .._engine.score_order import ScoreOrder
from ..errors import InputWarning

__all__ = ["SHARE", "check_score_order"]

#: The share of the queries whose scores differ that must list them rising for a warning.
SHARE = 0.9
#: And lines in no particular order must rise so by chance less than once in 100 (a query
#: of five distinct scores, or seven of two): a table of two rows in any order says nothing.
_CHANCE = math.log(100)


def check_score_order(order: ScoreOrder, *, stacklevel: int, name: str = "the run") -> None:
    """Warn, from ``stacklevel`` frames above this function (1: its caller), if ``name``
    lists its docs by rising score in :data:`SHARE` or more of its queries whose scores
    differ."""
    if not order.rising or order.rising < SHARE * order.varied or order.log_orders < _CHANCE:
        return
    ranks = ""
    if order.as_ranks >= SHARE * order.rising:
        ranks = (
            f" In {order.as_ranks} of them the scores are the ranks, 1, 2, 3, ...: is the rank "
            "in the score column (the 5th of a TREC run line: qid Q0 docno rank score tag)? "
            "Put the score there (-rank if there is none)."
        )
    warnings.warn(
        f"{name} lists its docs by rising score in {order.rising} of its {order.varied} "
        f"queries whose scores differ (first {', '.join(map(repr, order.first))}): docs are "
        "ranked by score, highest first, as trec_eval ranks them (the rank column and the "
        "order of the lines are not used), so each of these queries is ranked from its last "
        f"line up.{ranks} If lower is better (distances), negate the scores (1 - distance, "
        "or -distance); if higher is better and the order of the lines is not meant as the "
        "ranking, ignore this warning",
        InputWarning,
        stacklevel=stacklevel + 1,
    )
