"""The values of a fusion plugin: :class:`FusionMethod` and its :class:`FusionParam`. Users
import them from :mod:`ef.evaluation.interfaces`, which loads this module on the first use of
one of its names (scoring a run fuses nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import attrs

from . import (
    _CONVERTERS,
    _V,
    _any_tuple,
    _callable,
    _check_param_name,
    _check_unique,
    _first_docstring_line,
    _name,
    _optional_callable,
    _param_named,
    _qualified,
)

__all__ = ["FUSION_INPUTS", "FUSION_PARAM_TYPES", "FusionMethod", "FusionParam"]

#: What a fusion parameter holds: an ``int`` or a ``float`` (one per run if ``per_run``).
FUSION_PARAM_TYPES: tuple[type, ...] = (int, float)

#: What a fusion method reads of each run: its scores (after normalisation) or its ranks.
FUSION_INPUTS = ("scores", "ranks")

#: Names a fusion parameter cannot take: the positional argument of a fusion function.
_RESERVED_FUSION_PARAMS = frozenset({"results", "rankings"})


def _fusion_params_tuple(value: Iterable[FusionParam]) -> tuple[FusionParam, ...]:
    return tuple(value)


@attrs.frozen
class FusionParam:
    """A parameter of a fusion method: RRF's ``k``, the ``weights`` of a weighted sum.

    ``type`` is ``int`` or ``float``. With ``per_run`` the value is a sequence of such
    numbers, one per fused run in the order of the runs (``weights``), held as a tuple.
    ``default`` is the value when the call does not set it; ``None`` means the method's own
    choice, which its ``func`` documents (equal weights). ``grid`` lists the values
    :func:`~ef.evaluation.optimize_fusion` tries for a scalar parameter (RRF's ``k``); a
    per-run ``float`` parameter is searched over the weights ``0, step, ..., 1`` that sum to
    1. ``check(value)`` may raise ``ValueError`` for any other rule.

    Three flags serve the methods ranx has (all ``False`` by default):

    * ``required``: the call must set it; it has no default (ranx's ``gamma`` of ``gmnz``
      and ``phi`` of ``rbc``). :func:`~ef.evaluation.optimize_fusion` searches it all the
      same (it has a grid).
    * ``learned``: the method's ``FusionMethod.train`` learns it from training runs and
      their qrels; :func:`~ef.evaluation.optimize_fusion` does so, and its ``params`` hold
      the value for :func:`~ef.evaluation.fuse`, which requires it (ProbFuse's ``probs``).
      A learned parameter is per run and has no grid.
    * ``vector``: with ``per_run``, each run's value is itself a sequence of numbers (a
      probability per rank position), held as a tuple of tuples.

    >>> k = FusionParam("k", int, 60, "the rank offset", grid=range(10, 101, 10))
    >>> k.convert(10, n_runs=2), k.grid[:3]
    (10, (10, 20, 30))
    >>> weights = FusionParam("weights", float, per_run=True)
    >>> weights.convert([1, 0.5], n_runs=2)
    (1.0, 0.5)
    >>> weights.convert([1, 0.5, 2], n_runs=2)
    Traceback (most recent call last):
        ...
    ValueError: parameter 'weights' holds one number per run: 2 runs, got 3 values
    >>> probs = FusionParam("probs", float, per_run=True, vector=True, learned=True)
    >>> probs.convert([[0.5, 0.25], [1]], n_runs=2)
    ((0.5, 0.25), (1.0,))
    """

    name: str
    type: type
    default: Any = None
    description: str = ""
    per_run: bool = attrs.field(default=False, kw_only=True)
    required: bool = attrs.field(default=False, kw_only=True)
    learned: bool = attrs.field(default=False, kw_only=True)
    vector: bool = attrs.field(default=False, kw_only=True)
    grid: tuple[Any, ...] = attrs.field(default=(), converter=_any_tuple, kw_only=True)
    check: Callable[[Any], None] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )

    def __attrs_post_init__(self) -> None:
        _check_param_name(self.name, "fusion", _RESERVED_FUSION_PARAMS)
        if self.type not in FUSION_PARAM_TYPES:
            raise TypeError(f"fusion parameter {self.name!r}: type must be int or float")
        self._check_per_run()
        object.__setattr__(self, "grid", tuple(self._scalar(v) for v in self.grid))
        if self.default is not None and not self.per_run:
            object.__setattr__(self, "default", self._scalar(self.default))

    def _check_per_run(self) -> None:
        """A per-run parameter has no grid; a vector or learned one is per run."""
        if self.per_run and self.grid:
            raise ValueError(
                f"fusion parameter {self.name!r}: a per-run parameter has no grid "
                "(optimize_fusion searches its values on the simplex)"
            )
        if (self.vector or self.learned) and not self.per_run:
            raise ValueError(
                f"fusion parameter {self.name!r}: a vector or learned parameter is per run "
                "(per_run=True)"
            )

    def _scalar(self, value: object) -> Any:
        converted = _CONVERTERS[self.type](self.name, value)
        if self.check is not None:
            self.check(converted)
        return converted

    def _vector(self, value: object) -> tuple[Any, ...]:
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise ValueError(
                f"parameter {self.name!r} holds a sequence of numbers per run; got {value!r}"
            )
        return tuple(self._scalar(v) for v in value)

    def convert(self, value: object, n_runs: int) -> Any:
        """``value`` checked and converted (a tuple for a per-run parameter); ValueError
        otherwise. ``None`` is the default."""
        if value is None:
            return self.default
        if not self.per_run:
            return self._scalar(value)
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise ValueError(
                f"parameter {self.name!r} holds one number per run, e.g. (0.5, 0.5); got {value!r}"
            )
        values = tuple(self._vector(v) if self.vector else self._scalar(v) for v in value)
        if len(values) != n_runs:
            raise ValueError(
                f"parameter {self.name!r} holds one number per run: {n_runs} runs, "
                f"got {len(values)} values"
            )
        return values


@attrs.frozen
class FusionMethod:
    """A fusion method: how the results of several runs for one query become one ranking.

    ``func(results, **params) -> {doc_id: score}`` fuses one query; the fused run ranks its
    docs by that score, ties broken by the tie policy. What ``results`` holds, one entry per
    run in the order of the runs, depends on ``uses``:

    * ``"scores"`` (the default): a ``{doc_id: score}`` mapping per run, listing that run's
      docs for the query in rank order, with the scores after normalisation (``norm=``);
    * ``"ranks"``: a list of doc ids per run, in rank order (rank 1 first). Such a method
      never sees a score (RRF, ISR), so normalisation does not touch it and ranked lists
      without scores can be fused.

    A run that lacks the query gives an empty entry. ``func`` receives every one of
    ``params`` (:class:`FusionParam`) as a keyword argument, at its default when the call
    does not set it. ``formula`` and ``citation`` are one line each, for ``ef-eval
    fusions`` and the docs.

    A supervised method (ProbFuse, SegFuse, ...) also has ``train(hits, relevant, **values)
    -> {name: value}``, which learns its ``learned`` parameters from training runs and their
    qrels; :func:`~ef.evaluation.optimize_fusion` calls it. ``hits[r][i]`` is run ``r``'s
    hit list on training query ``i`` (for each doc it ranked, in rank order, 1 if the qrels
    grade it 1 or more, else 0), ``relevant[i]`` the number of docs the qrels grade 1 or
    more for that query, and ``values`` the method's other parameters (ProbFuse's
    ``n_segments``). A method has ``train`` if and only if it has a learned parameter.

    >>> def comb_first(results):
    ...     '''The score of the first run that retrieved the doc.'''
    ...     fused = {}
    ...     for scores in results:
    ...         for doc, score in scores.items():
    ...             fused.setdefault(doc, score)
    ...     return fused
    >>> method = FusionMethod(name="first", func=comb_first)
    >>> method.description, method.uses
    ('The score of the first run that retrieved the doc.', 'scores')
    >>> method.func([{"d1": 1.0}, {"d1": 0.2, "d2": 0.5}])
    {'d1': 1.0, 'd2': 0.5}
    """

    name: str = attrs.field(validator=_name)
    func: Callable[..., Mapping[str, float]] = attrs.field(validator=_callable)
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.func), takes_self=True)
    )
    params: tuple[FusionParam, ...] = attrs.field(
        default=(),
        converter=_fusion_params_tuple,
        validator=_qualified(_V.deep_iterable(_V.instance_of(FusionParam))),
        kw_only=True,
    )
    uses: str = attrs.field(
        default="scores", validator=_qualified(_V.in_(FUSION_INPUTS)), kw_only=True
    )
    formula: str = attrs.field(default="", kw_only=True)
    citation: str = attrs.field(default="", kw_only=True)
    train: Callable[..., Mapping[str, Any]] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )

    kind: ClassVar[str] = "fusion"

    def __attrs_post_init__(self) -> None:
        _check_unique(f"fusion method {self.name!r}", self.params)
        if (self.train is not None) != any(p.learned for p in self.params):
            raise ValueError(
                f"fusion method {self.name!r}: a method has train= if and only if it has a "
                "learned parameter (FusionParam(..., learned=True))"
            )

    def param(self, name: str) -> FusionParam:
        """The parameter called ``name``; ``UnknownNameError`` lists the valid ones."""
        return _param_named(f"fusion method {self.name!r}", self.params, name)
