"""RankCorrelation and RboReport: the outcomes of rank_correlation() and rbo()."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

from .fields import frozen_mapping, str_tuple

__all__ = ["RankCorrelation", "RboReport"]


@attrs.frozen
class RankCorrelation:
    """How two orderings of the same systems agree (:func:`~ef.evaluation.rank_correlation`).

    ``tau`` is Kendall's τ-b (ties as ``scipy.stats.kendalltau``), ``tau_ap`` is τ_AP of the
    second ordering against the first (Yilmaz et al. 2008: swaps near the top cost more);
    each is 1 for the same order, -1 for the reverse, and NaN when no pair of systems is
    ordered. ``systems`` lists them in the first ordering, best first.

    >>> print(RankCorrelation(systems=["a", "b", "c"], tau=1 / 3, tau_ap=0.0))
    tau = 0.3333, tau_ap = 0.0000 over 3 systems
    """

    systems: tuple[str, ...] = attrs.field(converter=str_tuple)
    tau: float
    tau_ap: float

    def __str__(self) -> str:
        return f"tau = {self.tau:.4f}, tau_ap = {self.tau_ap:.4f} over {len(self.systems)} systems"

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain data; NaN stays NaN."""
        return {"systems": list(self.systems), "tau": self.tau, "tau_ap": self.tau_ap}


@attrs.frozen(repr=False)  # attrs' repr would print every query
class RboReport:
    """Rank-biased overlap of two runs (:func:`~ef.evaluation.rbo`): ``per_query`` holds
    RBO_ext (Webber et al. 2010) of each query both runs rank, ``mean`` their mean (NaN when
    there is none). ``p`` is the persistence, ``depth`` the cutoff of both rankings (None:
    all of them); ``only_a`` and ``only_b`` list the queries one run lacks (left out).

    >>> report = RboReport(p=0.9, depth=None, per_query={"q1": 1.0, "q2": 0.5})
    >>> print(report)
    RBO_ext (p = 0.9) = 0.7500, mean of 2 queries
    """

    p: float
    depth: int | None
    per_query: Mapping[str, float] = attrs.field(converter=frozen_mapping)
    only_a: tuple[str, ...] = attrs.field(default=(), converter=str_tuple)
    only_b: tuple[str, ...] = attrs.field(default=(), converter=str_tuple)

    @property
    def mean(self) -> float:
        """The mean of ``per_query`` (NaN when it is empty)."""
        if not self.per_query:
            return math.nan
        return math.fsum(self.per_query.values()) / len(self.per_query)

    def __str__(self) -> str:
        depth = "" if self.depth is None else f", depth {self.depth}"
        return (
            f"RBO_ext (p = {self.p:g}{depth}) = {self.mean:.4f}, mean of "
            f"{len(self.per_query)} queries"
        )

    def __repr__(self) -> str:
        return f"<RboReport {self}>"

    def to_dict(self) -> dict[str, Any]:
        """The fields and the mean as plain data."""
        return {
            "p": self.p,
            "depth": self.depth,
            "mean": self.mean,
            "per_query": dict(self.per_query),
            "only_a": list(self.only_a),
            "only_b": list(self.only_b),
        }
