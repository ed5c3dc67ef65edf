"""Tie policies: how docs with equal scores are ordered, and what the ties could change.

Four policies, applied to every metric of an evaluation alike:

* ``"trec_eval"`` (the default): score descending, compared as float32, then doc id
  descending, as trec_eval, pytrec_eval, BEIR's pytrec metrics and MTEB order them;
* ``"docno_asc"``: doc id ascending among equal scores (ir_measures' msmarco provider);
* ``"input_order"``: the order the run lists them (file order, or a mapping's order), as a
  stable sort gives (BEIR's own MRR, R_cap, Hole and accuracy);
* ``"expected"``: no order at all. Each metric is averaged over every order of each group of
  tied docs, exactly (McSherry and Najork, 2008). Built-in metrics have closed forms; a
  metric without one is averaged over the distinct orders of its groups (see
  :func:`expand`), which is exact but grows with the groups that mix judgements.

:func:`tie_diagnostic` says, per evaluation, which queries the choice could matter for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .._runs.order import TIE_POLICIES, check_tie_policy
from ..metrics.retrieval.orders import MAX_ORDERS, expand, mean_by_owner

if TYPE_CHECKING:
    import numpy.typing as npt

    from .._hits import Ints, JudgedHits

__all__ = [
    "MAX_ORDERS",
    "TIE_POLICIES",
    "TieDiagnostic",
    "check_tie_policy",
    "expand",
    "expand_rankings",
    "mean_by_owner",
    "tie_diagnostic",
]


def _str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class TieDiagnostic:
    """Where tied scores could change a retrieval report: which scored queries have docs with
    equal scores (``tied``), ties across one of the report's cutoffs (``at_cutoff``: the docs
    at ranks ``k`` and ``k + 1`` tie, so which one counts depends on the tie policy), and
    ties between a relevant doc and a doc of another grade or an unjudged one
    (``at_relevant``). ``policy`` is the tie policy the report used.

    >>> ties = TieDiagnostic(policy="trec_eval", tied=["q1", "q2"], at_cutoff=["q2"])
    >>> str(ties)
    'ties (trec_eval): 2 queries with tied scores, 1 across a cutoff, 0 at a relevant doc'
    """

    policy: str = "trec_eval"
    tied: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    at_cutoff: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    at_relevant: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``."""
        return {
            "policy": self.policy,
            "tied": list(self.tied),
            "at_cutoff": list(self.at_cutoff),
            "at_relevant": list(self.at_relevant),
        }

    def __str__(self) -> str:
        return (
            f"ties ({self.policy}): {len(self.tied)} queries with tied scores, "
            f"{len(self.at_cutoff)} across a cutoff, {len(self.at_relevant)} at a relevant doc"
        )


def expand_rankings(
    rankings: Sequence[Sequence[str]],
    judgements: Sequence[Mapping[str, float]],
    hits: JudgedHits,
    metric: str = "this metric",
    query_ids: Sequence[str] | None = None,
) -> tuple[list[list[str]], list[Mapping[str, float]], Ints]:
    """Like :func:`expand`, for a metric scored on ranked doc ids: every distinct order of
    each query's tie groups as a ranking (its judgements alongside), and the query each is
    for. ``rankings`` are in the order ``hits`` ranks them."""
    import numpy as np  # only once something is scored

    repeats, owner = expand(hits, metric, query_ids)
    out: list[list[str]] = []
    out_judgements: list[Mapping[str, float]] = []
    for index, q in enumerate(owner.tolist()):
        ranking = list(rankings[q])
        judged = judgements[q]
        start, end = np.searchsorted(repeats.query, [index, index + 1])
        ranks, grades = repeats.rank[start:end].tolist(), repeats.grade[start:end].tolist()
        wanted = dict(zip(ranks, grades, strict=True))
        # The query's judged docs by grade, to be placed where this order puts each grade.
        pools: dict[float, list[str]] = {}
        moved = set()
        for rank in range(int(hits.n_retrieved[q])):
            grade = judged.get(ranking[rank])
            if grade is not None:
                pools.setdefault(float(grade), []).append(ranking[rank])
        placed: dict[int, str] = {}
        for rank, grade in sorted(wanted.items()):
            doc = pools[grade].pop(0)
            placed[rank - 1] = doc
            moved.add(doc)
        rest = iter(doc for doc in ranking if doc not in moved)
        out.append([placed[i] if i in placed else next(rest) for i in range(len(ranking))])
        out_judgements.append(judged)
    return out, out_judgements, owner


def tie_diagnostic(
    policy: str,
    query_ids: Sequence[str],
    hits: JudgedHits,
    stats: tuple[npt.NDArray[Any], npt.NDArray[Any]] | None,
) -> TieDiagnostic:
    """Which scored queries have ties, ties across a cutoff, and ties that hold a relevant
    doc together with a doc of another grade or an unjudged one (``stats`` from
    :meth:`~ef.evaluation.RunTable.tie_stats`; None for rankings without scores)."""
    import numpy as np  # only once something is scored

    if stats is None:
        return TieDiagnostic(policy=policy)
    has_ties, at_cutoff = stats
    at_relevant = np.zeros(len(query_ids), dtype=bool)
    above, tied = hits.tie_above(), hits.tie_size()
    candidates = (hits.grade > 0) & (tied > 1)
    if candidates.any():
        # A group is uniform when every one of its docs is judged with the same grade.
        keys = np.stack([hits.query, above, hits.grade.view(np.int64)], axis=1)
        _, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        same = counts[inverse.ravel()]
        at_relevant[hits.query[candidates & (same < tied)]] = True
    return TieDiagnostic(
        policy=policy,
        tied=[q for q, flag in zip(query_ids, has_ties.tolist(), strict=True) if flag],
        at_cutoff=[q for q, flag in zip(query_ids, at_cutoff.tolist(), strict=True) if flag],
        at_relevant=[q for q, flag in zip(query_ids, at_relevant.tolist(), strict=True) if flag],
    )
