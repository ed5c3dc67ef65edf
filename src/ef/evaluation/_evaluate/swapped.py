"""A run and qrels given the wrong way round, told from their shape (DESIGN §6).

Every peer takes the qrels first, so ``evaluate_run(qrels, run)`` is a common slip, and it
gives a plausible number. A run and its qrels differ in shape, and four signals are weighed,
never one alone:

* **values**: grades are a few small whole numbers (at most seven kinds, from -2 to 10);
  scores are mostly fractions, or many whole numbers (a run scored by rank), or fall below
  -2 (grades rarely do: TREC's -1 and -2 are grades) or above 10;
* **docs per query**, over the queries both hold: a run holds tens to thousands, qrels
  usually a handful (MS MARCO one; pooled TREC qrels hundreds, so this alone says little);
* **which side holds the other's docs**: a run holds many of the judged docs, and more;
* **types**, for two mappings: a run's scores are floats, hand-made grades ints.

The values weigh most: scores in the qrels argument and grades in the run argument are
refused when another signal agrees and none disagrees, and warned of otherwise (an
:class:`~ef.evaluation.InputWarning`). Grades in the qrels argument and scores in the run
argument are never doubted. When the values cannot tell, three signals that point to a swap,
none against, are warned of, and four refused; two are warned of when one is the types
(ints where the run's scores are, floats where the grades are), rare in a right call.

Only whole queries holding about :data:`_BUDGET` values are looked at, spread over those
both sides hold, so the check costs about a millisecond on any size of run.

>>> run = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}}
>>> qrels = {"q1": {"d2": 1}, "q2": {"d3": 2}}
>>> print(swap_verdict(qrels, run))  # doctest: +NORMALIZE_WHITESPACE
warn: the qrels argument holds 1.5 docs per query, the run argument 1; the qrels argument
holds 100% of the run argument's docs; the run argument's values are ints, the qrels
argument's floats
>>> print(swap_verdict(run, qrels))
None
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, TypeGuard

import attrs

from ..errors import InputWarning

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .._runs.table import RunTable
    from ..types import Qrels

    Floats = npt.NDArray[np.float64]

__all__ = ["Verdict", "check_not_swapped", "swap_verdict"]

#: How many values of each side are looked at, at most (from whole queries: at least
#: :data:`_FEWEST` and at most :data:`_MOST` of them, spread evenly over those both hold).
_BUDGET = 10_000
_FEWEST, _MOST = 10, 100
#: Grades: whole numbers in this range, of at most this many kinds.
_GRADES = (-2, 10)
_GRADE_KINDS = 7
#: More kinds of whole numbers than this are scores (a run scored by rank).
_SCORE_KINDS = 10
#: One side has more docs per query than the other when it has this many times as many.
_MORE_DOCS = 1.5

_FIX = (
    "The run comes first: evaluate_run(run, qrels), or by keyword "
    "evaluate_run(run=..., qrels=...) (ef-eval evaluate takes QRELS RUN)."
)


@attrs.frozen(eq=False)
class _Shape:
    """A sample of the queries of one side (the ``name`` argument): their values, and their
    docs when asked for (a table's doc ids cost more to fetch)."""

    name: str
    side: Mapping[str, Mapping[str, object]] | RunTable
    query_ids: tuple[str, ...]
    per_query: tuple[Floats, ...]
    values: Floats

    def docs(self, query_id: str) -> Collection[str]:
        if isinstance(self.side, Mapping):
            return self.side[query_id].keys()
        return frozenset(self.side.docs_and_scores(query_id)[0])

    def docs_per_query(self) -> float:
        return self.values.size / max(len(self.query_ids), 1)

    def first_fraction(self) -> str | None:
        """Where the first value that is no whole number is, as ``qrels['q1']['d1'] = 0.9``
        (mappings only: a table's rows have no such name)."""
        if not isinstance(self.side, Mapping):
            return None
        for query_id, values in zip(self.query_ids, self.per_query, strict=True):
            for doc, value in zip(self.side[query_id], values.tolist(), strict=True):
                if not value.is_integer():
                    return f"{self.name}[{query_id!r}][{doc!r}] = {value!r}"
        return None

    def types(self) -> frozenset[type]:
        """The types of the sampled values of a mapping (none for a table)."""
        if not isinstance(self.side, Mapping):
            return frozenset()
        return frozenset().union(*(map(type, self.side[q].values()) for q in self.query_ids))


@attrs.frozen
class _Values:
    """The kind of a side's values: 0 grades, 1 cannot tell, 2 scores; and what they are."""

    kind: int
    text: str


@attrs.frozen
class _Signal:
    """One sign of shape: +1 points to a swap, -1 to the right order, 0 neither."""

    direction: int
    text: str
    strong: bool = False


@attrs.frozen
class Verdict:
    """What the signals say: ``"refuse"`` or ``"warn"``, those that point to a swap and
    those against it."""

    action: str
    pros: tuple[str, ...]
    cons: tuple[str, ...]

    def __str__(self) -> str:
        text = f"{self.action}: {'; '.join(self.pros)}"
        return text + (f"; but {'; '.join(self.cons)}" if self.cons else "")

    def message(self) -> str:
        """The refusal's or warning's text, with the fix."""
        if self.action == "refuse":
            return (
                f"run and qrels look swapped: {'; '.join(self.pros)}. {_FIX} If these are the "
                "inputs you meant, pass check_swapped=False (ef-eval evaluate --no-check-swapped) "
                "to score them as given"
            )
        against = f"; but {'; '.join(self.cons)}" if self.cons else ""
        return (
            f"run and qrels may be swapped: {'; '.join(self.pros)}{against}. {_FIX} They are "
            "scored as given; if that is what you meant, check_swapped=False (ef-eval evaluate "
            "--no-check-swapped) silences this"
        )


def _number(value: float) -> str:
    return f"{value:g}"


def _spread(values: Floats) -> str:
    low, high = float(values.min()), float(values.max())
    if low == high:
        return f"only {_number(low)}"
    return f"from {_number(low)} to {_number(high)}"


def _scores(shape: _Shape, whole: npt.NDArray[np.bool_], kinds: int) -> str | None:
    """Why the values of ``shape`` are no grades, if they are not."""
    values = shape.values
    if 2 * int(whole.sum()) < values.size:  # most are fractions: grades seldom all are
        return f"fractions, e.g. {shape.first_fraction() or _number(float(values[~whole][0]))}"
    low, high = float(values.min()), float(values.max())
    if low < _GRADES[0]:
        return f"values down to {_number(low)}"
    if kinds > _SCORE_KINDS:
        return f"{kinds} different numbers {_spread(values)}"
    if high > _GRADES[1]:
        return f"values up to {_number(high)}"
    return None


def _kind_of(shape: _Shape) -> _Values:
    """Whether the values of ``shape`` look like grades, scores, or cannot tell."""
    import numpy as np

    values = shape.values
    if not values.size:
        return _Values(1, "no values")
    whole = values == np.floor(values)
    kinds = int(np.unique(values).size)
    scores = _scores(shape, whole, kinds)
    if scores is not None:
        return _Values(2, scores)
    if bool(whole.all()) and kinds <= _GRADE_KINDS:
        return _Values(0, "whole numbers " + _spread(values) if kinds > 1 else _spread(values))
    return _Values(1, f"{kinds} different numbers {_spread(values)}")


def _values_signal(run: _Shape, qrels: _Shape) -> _Signal:
    ran, judged = _kind_of(run), _kind_of(qrels)
    direction = (judged.kind > ran.kind) - (judged.kind < ran.kind)
    strong = abs(judged.kind - ran.kind) == 2
    if direction == 0:
        text = ""
    elif strong and direction > 0:
        text = (
            f"the qrels argument holds scores ({judged.text}), the run argument grades ({ran.text})"
        )
    elif direction > 0:
        text = (
            f"the qrels argument's values ({judged.text}) look less like grades than the run "
            f"argument's ({ran.text})"
        )
    else:
        text = (
            f"the run argument's values ({ran.text}) look less like grades than the qrels "
            f"argument's ({judged.text})"
        )
    return _Signal(direction, text, strong)


def _docs_signal(run: _Shape, qrels: _Shape) -> _Signal:
    ran, judged = run.docs_per_query(), qrels.docs_per_query()
    if not ran or not judged:
        return _Signal(0, "")
    if judged >= _MORE_DOCS * ran:
        return _Signal(
            1,
            f"the qrels argument holds {judged:.3g} docs per query, the run argument {ran:.3g}",
        )
    if ran >= _MORE_DOCS * judged:
        return _Signal(
            -1,
            f"the run argument holds {ran:.3g} docs per query, the qrels argument {judged:.3g}",
        )
    return _Signal(0, "")


def _shared_docs(run: _Shape, qrels: _Shape) -> tuple[int, int, int]:
    """How many docs the run side and the qrels side hold, and how many of them both do,
    over the sampled queries both hold."""
    ran = held = both = 0
    for query_id in set(run.query_ids).intersection(qrels.query_ids):
        mine, theirs = run.docs(query_id), qrels.docs(query_id)
        ran, held = ran + len(mine), held + len(theirs)
        small, large = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
        both += sum(doc in large for doc in small)
    return ran, held, both


def _containment_signal(run: _Shape, qrels: _Shape) -> _Signal:
    ran, judged, both = _shared_docs(run, qrels)
    if judged > ran and 2 * both >= ran > 0:
        return _Signal(1, f"the qrels argument holds {both / ran:.0%} of the run argument's docs")
    if ran > judged and 2 * both >= judged > 0:
        return _Signal(
            -1, f"the run argument holds {both / judged:.0%} of the qrels argument's docs"
        )
    return _Signal(0, "")


def _type_of(shape: _Shape) -> str | None:
    """``"int"`` or ``"float"`` if every sampled value of a mapping is one."""
    import numpy as np

    types = shape.types()
    if types and all(issubclass(t, (int, np.integer)) and t is not bool for t in types):
        return "int"
    if types and all(issubclass(t, (float, np.floating)) for t in types):
        return "float"
    return None


def _types_signal(
    run: _Shape, qrels: _Shape, types: tuple[str | None, str | None] | None = None
) -> _Signal:
    ran, judged = types or (_type_of(run), _type_of(qrels))
    if (ran, judged) == ("int", "float"):
        return _Signal(1, "the run argument's values are ints, the qrels argument's floats")
    if (ran, judged) == ("float", "int"):
        return _Signal(-1, "the run argument's values are floats, the qrels argument's ints")
    return _Signal(0, "")


def _decide(signals: Sequence[_Signal]) -> str | None:
    values = signals[0]
    pros = sum(s.direction > 0 for s in signals)
    cons = sum(s.direction < 0 for s in signals)
    if values.strong:
        return "refuse" if pros >= 2 and not cons else "warn"
    if cons:
        return None
    return _decide_by_count(pros, typed=signals[-1].direction > 0)


def _decide_by_count(pros: int, *, typed: bool) -> str | None:
    """When the values say nothing strongly and no signal says the order is right: refuse
    on four signals of a swap, warn on three (or two, one of them the value types)."""
    # Ints where a run's scores belong and floats where grades do is rare in itself: with one
    # more signal beside it, say so (a small table of rounded scores is otherwise unsaid).
    return "refuse" if pros >= 4 else "warn" if pros >= 3 or (typed and pros >= 2) else None


def _mean_docs(side: Mapping[str, Mapping[str, object]] | RunTable) -> float:
    if isinstance(side, Mapping):
        return sum(map(len, side.values())) / max(len(side), 1)
    return len(side) / max(len(side.query_ids), 1)


def _sampled(ids: Sequence[str], docs_per_query: float) -> list[str]:
    """Whole queries of ``ids``, spread evenly over them, holding about :data:`_BUDGET`
    values."""
    wanted = max(_FEWEST, min(_MOST, math.floor(_BUDGET / max(docs_per_query, 1.0))))
    if len(ids) <= wanted:
        return list(ids)
    step = len(ids) / wanted
    return [ids[math.floor(i * step)] for i in range(wanted)]


def _values_of(side: Mapping[str, Mapping[str, object]] | RunTable, query_id: str) -> Floats:
    import numpy as np

    if isinstance(side, Mapping):
        judged = side[query_id]
        return np.fromiter(
            (float(v) for v in judged.values()),  # type: ignore[arg-type]  # checked numbers
            dtype=np.float64,
            count=len(judged),
        )
    return side.docs_and_scores(query_id)[1]


def _shape(
    name: str, side: Mapping[str, Mapping[str, object]] | RunTable, query_ids: Sequence[str]
) -> _Shape:
    import numpy as np

    per_query = tuple(_values_of(side, q) for q in query_ids)
    values = np.concatenate(per_query) if per_query else np.zeros(0, dtype=np.float64)
    return _Shape(name, side, tuple(query_ids), per_query, values)


def _shapes(
    run: Mapping[str, Mapping[str, object]] | RunTable, qrels: Qrels
) -> tuple[_Shape, _Shape]:
    """A sample of each side: of the queries both hold, else of each side's own."""
    run_ids: Sequence[str] = list(run) if isinstance(run, Mapping) else run.query_ids
    shared = [q for q in run_ids if q in qrels]
    deepest = max(_mean_docs(run), _mean_docs(qrels))
    if shared:
        ran = judged = _sampled(shared, deepest)
    else:
        ran, judged = _sampled(run_ids, deepest), _sampled(list(qrels), deepest)
    return _shape("run", run, ran), _shape("qrels", qrels, judged)


def _has_scores(run: object) -> TypeGuard[Mapping[str, Mapping[str, object]] | RunTable]:
    """True for a mapping of ``{doc: score}`` mappings or a RunTable: the runs whose shape
    can be compared with the qrels' (ranked lists are no qrels)."""
    from .._runs.table import RunTable

    if isinstance(run, Mapping):
        return all(isinstance(ranked, Mapping) for ranked in run.values())
    return isinstance(run, RunTable)


def swap_verdict(
    run: object, qrels: Qrels, *, types: tuple[str | None, str | None] | None = None
) -> Verdict | None:
    """What the shape of ``run`` and ``qrels`` says of their order: ``None`` if nothing
    points to a swap, else whether to refuse or warn, and why. ``types`` are the value types
    (``"int"``, ``"float"``) of the two as given, where reading them lost it (DataFrames:
    a whole float grade reads as an int).

    A run of ranked lists (no scores), or of another shape than a mapping or a
    :class:`~ef.evaluation.RunTable`, is not looked at.
    """
    if not _has_scores(run):
        return None
    ran, judged = _shapes(run, qrels)
    values = _values_signal(ran, judged)
    if values.strong and values.direction < 0:
        return None  # scores in the run, grades in the qrels: as it should be (and cheap)
    signals = [
        values,
        _docs_signal(ran, judged),
        _containment_signal(ran, judged),
        _types_signal(ran, judged, types),
    ]
    action = _decide(signals)
    if action is None:
        return None
    return Verdict(
        action,
        tuple(s.text for s in signals if s.direction > 0),
        tuple(s.text for s in signals if s.direction < 0),
    )


def check_not_swapped(
    run: object,
    qrels: Qrels,
    *,
    stacklevel: int = 4,
    types: tuple[str | None, str | None] | None = None,
) -> None:
    """Refuse a run and qrels given the wrong way round when their shapes agree on it
    (a ``ValueError``), warn when they are mixed (an :class:`~ef.evaluation.InputWarning`
    from ``stacklevel`` frames up, counted as :func:`warnings.warn` does: by default the
    caller of the public function that called :func:`~ef.evaluation._evaluate.inputs.load_inputs`).

    A run file and a qrels file of lines cannot be swapped this way (their readers refuse
    them), so only mappings and tables (a DataFrame, a Parquet file: their columns may be
    the same for both) are looked at.

    >>> run = {q: {f"d{i}": float(i) for i in range(1, 101)} for q in ("q1", "q2")}
    >>> qrels = {"q1": {"d3": 1, "d9": 2}, "q2": {"d4": 1}}
    >>> check_not_swapped(run, qrels)  # the right way round
    >>> check_not_swapped(qrels, run)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: run and qrels look swapped: the qrels argument holds scores (100 different \
numbers from 1 to 100), the run argument grades (whole numbers from 1 to 2); the qrels \
argument holds 100 docs per query, the run argument 1.5; ...
    """
    verdict = swap_verdict(run, qrels, types=types)
    if verdict is None:
        return
    if verdict.action == "refuse":
        raise ValueError(verdict.message())
    warnings.warn(verdict.message(), InputWarning, stacklevel=stacklevel)
