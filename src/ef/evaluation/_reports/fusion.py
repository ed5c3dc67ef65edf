"""FusionOptimization: the outcome of optimize_fusion(), the best parameters and every trial."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from ..types import FrozenDict

if TYPE_CHECKING:
    from .._runs.table import RunTable

__all__ = ["FusionOptimization", "format_params"]


def format_params(params: Mapping[str, Any]) -> str:
    """``weights=(0.3, 0.7), k=60``: parameter values as a call would spell them.

    >>> format_params({"weights": (0.3, 0.7)}), format_params({})
    ('weights=(0.3, 0.7)', '-')
    """
    return ", ".join(f"{name}={value!r}" for name, value in params.items()) or "-"


def _frozen_trials(
    value: Iterable[tuple[Mapping[str, Any], float]],
) -> tuple[tuple[Mapping[str, Any], float], ...]:
    return tuple((FrozenDict(params), float(score)) for params, score in value)


@attrs.frozen(repr=False)  # the run would print every query
class FusionOptimization:
    """The outcome of :func:`~ef.evaluation.optimize_fusion`: the parameters that scored best.

    ``params`` holds every parameter of the method at the best trial's value; pass it as
    ``fuse(runs, method=..., norm=..., params=best.params)`` to fuse other runs (a test
    split) the same way, as ranx's ``fuse(..., params=best_params)``. ``score`` is the best
    value of ``metric``; ``trials`` lists every ``(params, score)`` in the order tried, and
    the last of the trials with the best score wins, as in ranx. ``run`` is the fused run of
    the best trial (not compared by ``==``).

    >>> best = FusionOptimization(
    ...     method="wsum", norm="min-max", metric="ndcg@10", params={"weights": (0.3, 0.7)},
    ...     score=0.5, trials=[({"weights": (0.3, 0.7)}, 0.5)])
    >>> print(best)
    wsum (norm min-max) on ndcg@10, best of 1 trials: weights=(0.3, 0.7) -> 0.5000
    """

    method: str
    norm: str | None
    metric: str
    params: Mapping[str, Any] = attrs.field(converter=FrozenDict)
    score: float
    trials: tuple[tuple[Mapping[str, Any], float], ...] = attrs.field(converter=_frozen_trials)
    run: RunTable | None = attrs.field(default=None, eq=False, kw_only=True)

    def __str__(self) -> str:
        return (
            f"{self.method} (norm {self.norm}) on {self.metric}, best of {len(self.trials)} "
            f"trials: {format_params(self.params)} -> {self.score:.4f}"
        )

    def __repr__(self) -> str:
        return f"<FusionOptimization {self}>"

    def to_dict(self) -> dict[str, Any]:
        """The optimisation as plain data (JSON-ready; tuples become lists), without the run.

        >>> FusionOptimization(method="rrf", norm=None, metric="ndcg@all", params={"k": 60},
        ...                    score=0.5, trials=[({"k": 60}, 0.5)]).to_dict()["trials"]
        [{'params': {'k': 60}, 'score': 0.5}]
        """

        def plain(params: Mapping[str, Any]) -> dict[str, Any]:
            return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}

        return {
            "method": self.method,
            "norm": self.norm,
            "metric": self.metric,
            "params": plain(self.params),
            "score": self.score,
            "trials": [{"params": plain(p), "score": s} for p, s in self.trials],
        }
