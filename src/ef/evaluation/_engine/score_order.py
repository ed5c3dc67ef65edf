"""Whether a run lists its docs by rising score: distances, or ranks, read as scores.

trec_eval ranks a query's docs by score, highest first, and ignores the rank column and the
order of the lines; ef does the same. A run whose scores are distances (lower is better),
or whose rank column was written where the score belongs (``q1 Q0 d1 3.2 1 t``), lists
each query's docs from the lowest score up: ranked by score, each query is read backwards,
and the numbers look plausible. :func:`score_order` counts, among a run's queries whose
scores differ, those whose scores rise down the file (never fall); what it keeps is small
whatever the run's size, and the counts of the parts of a run (batches, shards, in the
run's order) add up to the whole run's:
:func:`~ef.evaluation._evaluate.score_order.check_score_order` judges them.

Only a run whose rows are in an order its source chose is looked at (a file's lines, a
table's rows: :attr:`RunTable.listed <ef.evaluation.RunTable.listed>`); a mapping's order
says nothing of the ranking (``dict(sorted(...))`` by rising score is a fine way to build
one), and ranked lists have no scores.

>>> from ef.evaluation._runs.table import RunTable
>>> run = RunTable.from_dict({"q1": {"d1": 0.12, "d2": 0.35}, "q2": {"d3": 1, "d4": 2}},
...                          listed=True)
>>> order = score_order(run)
>>> order.varied, order.rising, order.as_ranks, order.first, round(order.log_orders, 4)
(2, 2, 1, ('q1', 'q2'), 1.3863)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from .._runs.ranked import RankedRun

__all__ = ["FIRST", "ScoreOrder", "score_order"]

#: Rising queries named, per run (the first ones, in the run's order).
FIRST = 3


@attrs.frozen
class ScoreOrder:
    """Of a run's queries whose scores differ (``varied``), how many list their docs by
    rising score (``rising``), how many of those have their ranks ``1, 2, 3, ...`` as
    scores (``as_ranks``), the :data:`FIRST` rising ones, and ``log_orders``: the natural
    log of the number of orders of the rising queries' distinct scores (each query's
    ``k!``, multiplied), of which the rising one is one, so that lines in no particular
    order would rise so by chance once in ``exp(log_orders)``. ``a + b`` is the count of
    ``a``'s queries followed by ``b``'s (a batch, a shard)."""

    varied: int = 0
    rising: int = 0
    as_ranks: int = 0
    first: tuple[str, ...] = ()
    log_orders: float = 0.0

    def __add__(self, other: ScoreOrder) -> ScoreOrder:
        return ScoreOrder(
            self.varied + other.varied,
            self.rising + other.rising,
            self.as_ranks + other.as_ranks,
            (self.first + other.first)[:FIRST],
            self.log_orders + other.log_orders,
        )


def score_order(run: RankedRun) -> ScoreOrder:
    """The :class:`ScoreOrder` of ``run``'s queries; nothing for a run whose order says
    nothing (a mapping's, ranked lists)."""
    import numpy as np  # only once a run is scored

    from .._runs.table import RunTable

    if not isinstance(run, RunTable) or not run.listed:
        return ScoreOrder()
    steps, rising, as_ranks = run.rising()
    which = rising.nonzero()[0]
    first = tuple(run.query_ids[i] for i in which[:FIRST].tolist())
    distinct = steps[which] + 1
    # log(k!) for each k: a table of cumulated logs up to the largest k.
    log_factorial = np.r_[0.0, np.cumsum(np.log(np.arange(1, int(distinct.max(initial=1)) + 1)))]
    log_orders = float(log_factorial[distinct].sum())
    return ScoreOrder(
        int(np.count_nonzero(steps)), which.size, int(as_ranks.sum()), first, log_orders
    )
