"""What several fusion kernels share: each doc's scores (or inverse square ranks) from the runs
that retrieved it, the candidates of a query, the range checks of parameters, the training
means of the segmented methods."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ..interfaces import FusionMethod, FusionParam

__all__ = [
    "WEIGHTS",
    "candidates",
    "check_at_least",
    "check_unit",
    "inverse_square_ranks",
    "learned",
    "mean_shares",
    "present_scores",
    "run_weights",
    "weighed_scores",
    "weighted",
]

#: The ``weights`` of every weighted method (wsum, wmnz, mixed, w_bordafuse, w_condorcet),
#: declared once: :func:`run_weights` reads them.
WEIGHTS = FusionParam(
    "weights",
    float,
    description="one weight per run, in the order of the runs; default 1/n each",
    per_run=True,
)


def weighted(
    name: str,
    func: Callable[..., Mapping[str, float]],
    *,
    formula: str,
    citation: str,
    uses: str = "scores",
) -> FusionMethod:
    """The declaration of a weighted method: :data:`WEIGHTS` is its one parameter.

    >>> method = weighted("w_sum", lambda results, *, weights=None: {}, formula="", citation="")
    >>> [param.name for param in method.params]
    ['weights']
    """
    return FusionMethod(
        name=name, func=func, params=[WEIGHTS], uses=uses, formula=formula, citation=citation
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


def weighed_scores(
    results: Sequence[Mapping[str, float]], weights: Sequence[float] | None
) -> dict[str, list[tuple[float, float]]]:
    """``{doc: [(its score, its run's weight) for each run that retrieved it, in run order]}``,
    docs in the order they first appear; ``weights`` as :func:`run_weights` takes them.

    >>> weighed_scores([{"a": 1.0, "b": 0.5}, {"b": 1.0}], (0.25, 0.75))
    {'a': [(1.0, 0.25)], 'b': [(0.5, 0.25), (1.0, 0.75)]}
    """
    present: dict[str, list[tuple[float, float]]] = {}
    for weight, scores in zip(run_weights(weights, len(results)), results, strict=True):
        for doc, score in scores.items():
            present.setdefault(doc, []).append((score, weight))
    return present


def inverse_square_ranks(rankings: Sequence[Sequence[str]]) -> dict[str, list[float]]:
    """``{doc: [1 / rank**2 in each run that retrieved it]}``, docs in first-seen order.

    >>> inverse_square_ranks([["a", "b"], ["b"]])
    {'a': [1.0], 'b': [0.25, 1.0]}
    """
    present: dict[str, list[float]] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            present.setdefault(doc, []).append(1 / rank**2)
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


def check_at_least(name: str, minimum: int) -> Callable[[float], None]:
    """A check that parameter ``name`` is ``minimum`` or more (a ``FusionParam.check``).

    >>> check_at_least("w", 0)(-1)
    Traceback (most recent call last):
        ...
    ValueError: parameter 'w' must be 0 or more, got -1
    """
    return _AtLeast(name, minimum)


class _AtLeast:
    """Picklable, as :class:`_UnitCheck`."""

    def __init__(self, name: str, minimum: int) -> None:
        self.name = name
        self.minimum = minimum

    def __call__(self, value: float) -> None:
        if value < self.minimum:
            raise ValueError(
                f"parameter {self.name!r} must be {self.minimum} or more, got {value!r}"
            )


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


def mean_shares(
    hits: Sequence[Sequence[Sequence[int]]],
    count: int,
    shares: Callable[[Sequence[int]], Iterable[tuple[int, float]]],
) -> tuple[tuple[float, ...], ...]:
    """For each run, the mean over its training queries of each of ``count`` segments' share of
    relevant docs; ``shares(hit_list)`` yields ``(segment, share)`` for one query. A run with
    no training query learns ``()``. ProbFuse and SegFuse learn their ``probs`` so.

    >>> mean_shares([[[1, 0], [1, 1]]], 2, lambda hit_list: enumerate(hit_list))
    ((1.0, 0.5),)
    """
    learned = []
    for run_hits in hits:
        totals = [0.0] * count
        for hit_list in run_hits:
            for k, share in shares(hit_list):
                totals[k] += share
        learned.append(tuple(total / len(run_hits) for total in totals) if run_hits else ())
    return tuple(learned)
