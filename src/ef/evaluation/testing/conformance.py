"""check_retrieval_metric: a retrieval metric plugin's conformance check, for its own tests.

On generated queries (graded judgements from -1 to 3, ties, unjudged and judged-but-not-
retrieved docs, empty rankings; ``k=None`` and integer cutoffs), it checks that

* the metric's name, aliases, synonyms and parameters are valid, and every parameter's
  default passes its own checks;
* ``func`` returns a finite real number, within ``value_range`` when one is given;
* ``batch``, if the metric has one, equals ``func`` query by query (to 1e-9);
* ``batch_cutoffs``, if it has one, gives a row per cutoff asked, each equal to ``func`` at
  that cutoff query by query (to 1e-9);
* ``expected``, if it has one, equals the mean of ``func`` over every order of each group of
  tied docs (by brute force: the generated groups are small).

The examples come from hypothesis (seeded, no example database) when it is installed, else
from :class:`random.Random` seeded with ``seed``. A failure is an ``AssertionError`` naming
the metric, the input and both values.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._runs.order import scored_order
from ..interfaces import (
    _PARAM_NAME,
    _RESERVED_PARAMS,
    NAME_PATTERN,
    SYNTAXES,
    MetricParam,
    RetrievalMetric,
    is_score,
)

if TYPE_CHECKING:
    from .._hits import JudgedHits

__all__ = ["check_retrieval_metric"]

#: Tolerance of the comparisons (absolute and relative).
TOLERANCE = 1e-9
_CUTOFFS: tuple[int | None, ...] = (None, 1, 2, 3, 5, 10)
#: Grades a retrieved doc may get; None leaves it unjudged.
_GRADES: tuple[float | None, ...] = (-1, 0, 0, 1, 1, 2, 3, 0.5, None, None)

Query = tuple[dict[str, float], dict[str, float]]  # (scores, judgements)


def check_retrieval_metric(
    metric: RetrievalMetric,
    *,
    examples: int = 200,
    seed: int = 0,
    params: Mapping[str, Any] | None = None,
    value_range: tuple[float, float] | None = None,
    cutoffs: Sequence[int | None] = _CUTOFFS,
    engine: str | None = None,
) -> None:
    """Check ``metric`` on ``examples`` generated inputs; ``AssertionError`` on the first fault.

    ``params`` sets parameter values (the others keep their defaults); ``value_range``
    ``(low, high)`` is the range every value must lie in (by default, values need only be
    finite); ``cutoffs`` are the ``k`` asked of a metric with cutoffs (``None`` is the whole
    ranking, ``name@all``; a metric with ``cutoff=False`` is asked ``k=None`` only).
    ``engine`` is ``"hypothesis"`` or ``"random"`` (default: hypothesis when installed).

    >>> from ef.evaluation import RetrievalMetric
    >>> def hits(ranked, relevant, k):
    ...     return float(any(relevant.get(d, 0) > 0 for d in ranked[:k]))
    >>> check_retrieval_metric(RetrievalMetric(name="hits", func=hits), examples=20,
    ...                        value_range=(0, 1), engine="random")
    >>> check_retrieval_metric(RetrievalMetric(name="twice", func=lambda r, q, k: 2.0),
    ...                        examples=5, value_range=(0, 1), engine="random")
    Traceback (most recent call last):
        ...
    AssertionError: retrieval metric 'twice': func gave 2.0, outside its range [0, 1], \
on ranking [] with judgements {} at k=None
    """
    if not isinstance(metric, RetrievalMetric):
        raise TypeError(f"check_retrieval_metric takes a RetrievalMetric, got {metric!r}")
    keywords = _check_declaration(metric, params or {})
    ks = [k for k in cutoffs if metric.cutoff or k is None] or [None]
    checker = _Checker(metric, keywords, value_range, tuple(ks))
    for queries, k in _EDGE_CASES:
        checker.check(queries, k)
    _check_examples(checker, ks, engine, examples, seed)


def _check_examples(
    checker: _Checker, ks: Sequence[int | None], engine: str | None, examples: int, seed: int
) -> None:
    """Check ``examples`` generated inputs with ``engine`` (hypothesis when installed, by
    default)."""
    if engine is None:
        engine = "hypothesis" if importlib.util.find_spec("hypothesis") else "random"
    if engine == "random":
        rnd = random.Random(seed)
        for _ in range(examples):
            checker.check(*_example(rnd, ks))
    elif engine == "hypothesis":
        _with_hypothesis(lambda rnd: checker.check(*_example(rnd, ks)), examples, seed)
    else:
        raise ValueError(f"engine must be 'hypothesis' or 'random', got {engine!r}")


def _with_hypothesis(check: Callable[[random.Random], None], examples: int, seed: int) -> None:
    from hypothesis import HealthCheck, given, settings, strategies
    from hypothesis import seed as seeded

    @seeded(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategies.randoms(use_true_random=False))
    def run(rnd: random.Random) -> None:
        check(rnd)

    run()


#: Always checked first: empty rankings, no judgements, one unjudged doc, one tie group.
_EDGE_CASES: list[tuple[list[Query], int | None]] = [
    ([({}, {})], None),
    ([({}, {"d1": 1})], 1),
    ([({"d1": 1.0}, {})], None),
    ([({"d1": 1.0}, {"d1": 0})], 3),
    ([({"a": 1.0, "b": 1.0, "d1": 1.0}, {"d1": 2, "a": -1, "n": 1})], None),
    ([({"a": 1.0, "b": 1.0, "d1": 1.0}, {"d1": 2, "a": 0}), ({}, {"d2": 1})], 2),
]


def _example(rnd: random.Random, ks: Sequence[int | None]) -> tuple[list[Query], int | None]:
    return [_query(rnd) for _ in range(rnd.randint(1, 3))], rnd.choice(ks)


def _query(rnd: random.Random) -> Query:
    """One query: up to 7 retrieved docs in tie groups of 1 to 3, most judged."""
    n = rnd.choice((0, 1, 2, 3, 4, 5, 6, 7))
    docs = [f"d{i}" for i in rnd.sample(range(12), n)]
    scores: dict[str, float] = {}
    level = 10.0
    while len(scores) < n:
        size = rnd.randint(1, min(3, n - len(scores)))
        for doc in docs[len(scores) : len(scores) + size]:
            scores[doc] = level
        level -= rnd.choice((0.5, 1.0))
    qrels: dict[str, float] = {}
    for doc in docs:
        grade = rnd.choice(_GRADES)
        if grade is not None:
            qrels[doc] = grade
    for j in range(rnd.choice((0, 0, 1, 2))):  # judged, never retrieved
        qrels[f"n{j}"] = rnd.choice((0, 1, 2))
    return scores, qrels


def _ranked(scores: Mapping[str, float]) -> list[str]:
    """trec_eval's order: score descending, then doc id descending (the scores here are
    halves, the same as float32)."""
    return scored_order(scores)


def _fail(metric: RetrievalMetric, what: str) -> AssertionError:
    return AssertionError(f"retrieval metric {metric.name!r}: {what}")


def _check_declaration(metric: RetrievalMetric, given: Mapping[str, Any]) -> dict[str, Any]:
    """Names, aliases, synonyms and parameters; returns the keyword arguments to pass."""
    _check_names(metric)
    keywords: dict[str, Any] = {}
    for param in metric.params:
        _check_param(metric, param)
        value = param.convert(given[param.name]) if param.name in given else param.default
        keywords[param.name] = param.as_argument(value)
    unknown = set(given) - {p.name for p in metric.params}
    if unknown:
        raise ValueError(f"{metric.name!r} has no parameter {', '.join(sorted(unknown))}")
    return keywords


def _check_names(metric: RetrievalMetric) -> None:
    """The name and aliases: each a valid name, none repeated; each synonym's syntax known."""
    for name in (metric.name, *metric.aliases):
        if not isinstance(name, str) or not NAME_PATTERN.match(name):
            raise _fail(metric, f"the name {name!r} does not match {NAME_PATTERN.pattern}")
    names = [metric.name, *metric.aliases]
    if len(set(names)) != len(names):
        raise _fail(metric, f"its name and aliases repeat a name: {names}")
    for synonym in metric.synonyms:
        if synonym.syntax not in SYNTAXES:
            raise _fail(metric, f"synonym {synonym.name!r} has an unknown syntax")


def _check_param(metric: RetrievalMetric, param: MetricParam) -> None:
    """A parameter's name is valid and not reserved, and its default passes its own check."""
    if not _PARAM_NAME.match(param.name) or param.name in _RESERVED_PARAMS:
        raise _fail(metric, f"the parameter name {param.name!r} is not valid")
    if param.default is None:
        return
    try:
        param.convert(param.default)
    except ValueError as exc:
        raise _fail(
            metric, f"parameter {param.name!r}'s default fails its own check: {exc}"
        ) from exc


class _Checker:
    def __init__(
        self,
        metric: RetrievalMetric,
        keywords: dict[str, Any],
        value_range: tuple[float, float] | None,
        ks: tuple[int | None, ...],
    ) -> None:
        self.metric = metric
        self.keywords = keywords
        self.range = value_range
        self.ks = ks

    def _where(self, ranked: Sequence[str], qrels: Mapping[str, float], k: int | None) -> str:
        args = "".join(f", {n}={v!r}" for n, v in self.keywords.items())
        return f"on ranking {list(ranked)!r} with judgements {dict(qrels)!r} at k={k!r}{args}"

    def _value(self, form: str, value: object, where: str) -> float:
        if not is_score(value):
            raise _fail(self.metric, f"{form} gave {value!r}, not a finite number, {where}")
        number = float(value)  # type: ignore[arg-type]
        if self.range is not None and not self.range[0] <= number <= self.range[1]:
            low, high = self.range
            raise _fail(
                self.metric, f"{form} gave {number!r}, outside its range [{low}, {high}], {where}"
            )
        return number

    def func(self, ranked: Sequence[str], qrels: Mapping[str, float], k: int | None) -> float:
        where = self._where(ranked, qrels, k)
        try:
            value = self.metric.func(list(ranked), dict(qrels), k, **self.keywords)
        except Exception as exc:
            raise _fail(self.metric, f"func raised {type(exc).__name__}: {exc} {where}") from exc
        return self._value("func", value, where)

    def check(self, queries: list[Query], k: int | None) -> None:
        rankings = [_ranked(scores) for scores, _ in queries]
        judgements = [qrels for _, qrels in queries]
        truth = [self.func(r, q, k) for r, q in zip(rankings, judgements, strict=True)]
        forms = (self.metric.batch, self.metric.expected, self.metric.batch_cutoffs)
        if all(form is None for form in forms):
            return
        from .._hits import JudgedHits

        if self.metric.batch is not None:
            hits = JudgedHits.from_rankings(rankings, judgements)
            self._compare("batch", self.metric.batch, hits, k, queries, truth)
        if self.metric.batch_cutoffs is not None:
            self._check_cutoffs(JudgedHits.from_rankings(rankings, judgements), queries)
        if self.metric.expected is not None:
            averaged = [self._brute_force(scores, qrels, k) for scores, qrels in queries]
            hits = _tied_hits(queries)
            self._compare("expected", self.metric.expected, hits, k, queries, averaged)

    def _brute_force(
        self, scores: Mapping[str, float], qrels: Mapping[str, float], k: int | None
    ) -> float:
        """The mean of ``func`` over every order of every group of equal scores."""
        groups = [list(g) for _, g in itertools.groupby(_ranked(scores), key=scores.__getitem__)]
        values = [
            self.func([doc for group in orders for doc in group], qrels, k)
            for orders in itertools.product(*(itertools.permutations(g) for g in groups))
        ]
        return math.fsum(values) / len(values)

    def _check_cutoffs(self, hits: JudgedHits, queries: list[Query]) -> None:
        """``batch_cutoffs`` at every cutoff at once: a row each, equal to ``func``."""
        ks = self.ks
        try:
            rows = list(self.metric.batch_cutoffs(hits, ks, **self.keywords))  # type: ignore[misc]
        except Exception as exc:
            raise _fail(
                self.metric,
                f"batch_cutoffs raised {type(exc).__name__}: {exc} on {len(queries)} queries "
                f"(scores, judgements) {queries!r} at ks={ks!r}",
            ) from exc
        if len(rows) != len(ks):
            raise _fail(self.metric, f"batch_cutoffs gave {len(rows)} rows for the cutoffs {ks!r}")
        for k, row in zip(ks, rows, strict=True):
            want = [self.func(_ranked(scores), qrels, k) for scores, qrels in queries]
            self._agree("batch_cutoffs", list(row), k, queries, want)

    def _compare(  # noqa: PLR0917 - private, called twice
        self,
        form: str,
        function: Callable[..., Any],
        hits: JudgedHits,
        k: int | None,
        queries: list[Query],
        want: list[float],
    ) -> None:
        try:
            got = list(function(hits, k, **self.keywords))
        except Exception as exc:
            raise _fail(
                self.metric,
                f"{form} raised {type(exc).__name__}: {exc} on {len(queries)} queries "
                f"(scores, judgements) {queries!r} at k={k!r}",
            ) from exc
        self._agree(form, got, k, queries, want)

    def _agree(
        self, form: str, got: list[Any], k: int | None, queries: list[Query], want: list[float]
    ) -> None:
        """``form``'s values ``got`` are ``want``, one per query, to :data:`TOLERANCE`."""
        reference = (
            "the mean of func over every order of the ties" if form == "expected" else "func"
        )
        if len(got) != len(queries):
            raise _fail(
                self.metric,
                f"{form} gave {len(got)} values for {len(queries)} queries {queries!r} at k={k!r}",
            )
        for i, ((scores, qrels), value, expected) in enumerate(
            zip(queries, got, want, strict=True)
        ):
            where = (
                f"on query {i} of {len(queries)}, scores {scores!r} and judgements {qrels!r}, "
                f"at k={k!r}"
            )
            number = self._value(form, value, where)
            if not math.isclose(number, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
                raise _fail(
                    self.metric,
                    f"{form} gave {number!r} but {reference} gave {expected!r} {where}",
                )


def _tied_hits(queries: list[Query]) -> JudgedHits:
    """The hits of each query's trec_eval ranking, with its tie groups (above, tied)."""
    import attrs

    from .._hits import JudgedHits

    rankings = [_ranked(scores) for scores, _ in queries]
    hits = JudgedHits.from_rankings(rankings, [qrels for _, qrels in queries])
    above: list[int] = []
    tied: list[int] = []
    for query, rank in zip(hits.query.tolist(), hits.rank.tolist(), strict=True):
        scores = queries[query][0]
        score = scores[rankings[query][rank - 1]]
        above.append(sum(1 for s in scores.values() if s > score))
        tied.append(sum(1 for s in scores.values() if s == score))
    return attrs.evolve(hits, above=above, tied=tied)
