"""What several fusion kernels share: each doc's scores from the runs that retrieved it, the
candidates of a query, a range check."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..interfaces import FusionParam

__all__ = ["WEIGHTS", "candidates", "check_unit", "learned", "present_scores", "run_weights"]

#: The ``weights`` of every weighted method (wsum, wmnz, mixed, w_bordafuse, w_condorcet),
#: declared once: :func:`run_weights` reads them.
WEIGHTS = FusionParam(
    "weights",
    float,
    description="one weight per run, in the order of the runs; default 1/n each",
    per_run=True,
)


def learned(name: str, description: str, *, vector: bool = True) -> FusionParam:
    """A per-run float parameter the method's ``train`` learns (``vector``: a number per rank
    or segment of each run, else one per run).

    >>> learned("map_scores", "per run, its MAP", vector=False).learned
    True
    """
    return FusionParam(
        name, float, description=description, per_run=True, vector=vector, learned=True
    )


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


def candidates(rankings: Sequence[Sequence[str]]) -> dict[str, None]:
    """Every doc any run ranked, in the order they first appear (a dict, for its order).

    >>> list(candidates([["a", "b"], ["c", "a"]]))
    ['a', 'b', 'c']
    """
    return dict.fromkeys(doc for ranking in rankings for doc in ranking)


def check_unit(name: str) -> Callable[[float], None]:
    """A check that parameter ``name`` lies in [0, 1] (a ``FusionParam.check``)."""
    return _UnitCheck(name)


class _UnitCheck:
    """Picklable, unlike a closure: a method's declaration may be shipped to workers."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, value: float) -> None:
        if not 0 <= value <= 1:
            raise ValueError(f"parameter {self.name!r} must be in [0, 1], got {value!r}")


def run_weights(weights: Sequence[float] | None, n_runs: int) -> Sequence[float]:
    """``weights``, one per run; ``None`` weighs each run ``1 / n_runs`` (ranx requires them).

    >>> run_weights(None, 4), run_weights((0.2, 0.8), 2)
    ([0.25, 0.25, 0.25, 0.25], (0.2, 0.8))
    """
    if weights is None:
        return [1 / n_runs] * n_runs
    if len(weights) != n_runs:
        raise ValueError(f"weights holds {len(weights)} numbers for {n_runs} runs")
    return weights
