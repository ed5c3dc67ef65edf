"""BayesFuse: a doc's log-odds of relevance summed over the runs, each run's odds learned per
band of ranks from training queries.

    p_r(b) = mean over training queries of (relevant docs in band b of r's ranking) / |b|
             (0.001 if it is 0; and 1 - p_r(b) is 0.001 if it is 0)
    O_r(b) = log(p_r(b) / (1 - p_r(b)))
    BayesFuse(d) = sum over runs r of O_r(band of rank_r(d)), or log(0.001 / 0.999) for a
                   run that did not retrieve d

The bands are ranks 1-5, 6-10, 11-15, 16-20, 21-30, 31-100, 101-200, 201-500 and 501-1000
(ranx's); a rank past 1000 counts as not retrieved. Aslam and Montague, "Models for
Metasearch", SIGIR 2001. ``log_odds`` (1000 numbers per run, one per rank) is learned by
:func:`~ef.evaluation.optimize_fusion` on training runs and qrels; pass its ``params`` to
:func:`~ef.evaluation.fuse`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from ..interfaces import FusionMethod
from ._common import candidates, learned

__all__ = ["BANDS", "BAYESFUSE", "MISSING_LOG_ODDS", "bayesfuse", "bayesfuse_train"]

#: Where each band of ranks starts (0-based), the last number where the last one ends.
BANDS = (0, 5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: The log-odds of a doc a run did not retrieve: a probability of relevance of 0.001.
MISSING_LOG_ODDS = math.log(0.001 / 0.999)


def bayesfuse(
    rankings: Sequence[Sequence[str]], *, log_odds: Sequence[Sequence[float]]
) -> dict[str, float]:
    """The sum over the runs of each doc's learned log-odds, ``MISSING_LOG_ODDS`` for a run
    that did not retrieve it.

    >>> fused = bayesfuse([["a", "b"], ["b"]], log_odds=[(1.0, 0.5), (2.0,)])
    >>> {doc: round(score, 4) for doc, score in fused.items()}
    {'a': -5.9068, 'b': 2.5}
    """
    fused = dict.fromkeys(candidates(rankings), 0.0)
    for ranking, odds in zip(rankings, log_odds, strict=True):
        position = {doc: index for index, doc in enumerate(ranking)}
        for doc in fused:
            index = position.get(doc, len(odds))
            fused[doc] += odds[index] if index < len(odds) else MISSING_LOG_ODDS
    return fused


def bayesfuse_train(
    hits: Sequence[Sequence[Sequence[int]]], relevant: Sequence[int]
) -> dict[str, tuple[tuple[float, ...], ...]]:
    """``{"log_odds": ...}``: for each run, the log-odds of relevance of each band's share of
    relevant docs over the training queries, repeated for each rank of the band.

    >>> odds = bayesfuse_train([[[1, 1, 1, 1, 1, 0], [0]]], [6, 1])["log_odds"][0]
    >>> round(odds[0], 4), round(odds[5], 4), len(odds)
    (0.0, -6.9068, 1000)
    """
    learned = []
    for run_hits in hits:
        odds: list[float] = []
        for start, end in itertools.pairwise(BANDS):
            precision = 0.0
            for hit_list in run_hits:  # summed divided, as ranx sums it
                precision += sum(hit_list[start:end]) / (end - start) / len(run_hits)
            if precision == 0:
                precision += 0.001
            miss = 1 - precision
            if miss == 0:
                miss += 0.001
            odds.extend([math.log(precision / miss)] * (end - start))
        learned.append(tuple(odds))
    return {"log_odds": tuple(learned)}


BAYESFUSE = FusionMethod(
    name="bayesfuse",
    func=bayesfuse,
    params=[learned("log_odds", "per run, the log-odds of relevance at each rank (learned)")],
    uses="ranks",
    train=bayesfuse_train,
    formula="BayesFuse(d) = sum_r O_r(rank_r(d)), O_r learned log-odds per band of ranks, "
    "log(0.001 / 0.999) for a run that missed d",
    citation="Aslam and Montague, Models for Metasearch, SIGIR 2001",
)
