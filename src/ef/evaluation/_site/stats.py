"""What the site shows, computed once when it is built: the leaderboards, the regressions and
the drill-downs, each from the per-query values of the recorded reports, by :func:`compare`.

Nothing here is HTML: these are the numbers the pages print, so a test can hold them equal
to a ``compare`` called directly.

>>> from datetime import datetime, timezone
>>> from ef.evaluation import evaluate_run
>>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
>>> def record(system, run, day):
...     report = evaluate_run(run, qrels, metrics=["mrr@10"])
...     when = datetime(2026, 12, day, tzinfo=timezone.utc)
...     return Record(system=system, dataset="demo", report=report, recorded_at=when)
>>> records = [record("a", {"q1": ["d1"], "q2": ["d2"], "q3": ["x", "d3"]}, 1),
...            record("b", {"q1": ["x", "d1"], "q2": ["d2"], "q3": ["d3"]}, 2)]
>>> board = leaderboard(records, "demo", options=Options(baseline="a"))
>>> [(row.record.system, round(row.record.report.metrics["mrr@10"], 4)) for row in board.rows]
[('a', 0.8333), ('b', 0.8333)]
>>> board.comparison.pair("a", "b").wins, board.comparison.pair("a", "b").losses
(1, 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .._store.record import Record

if TYPE_CHECKING:
    from .._reports import ComparisonReport, PairComparison
    from ..types import Correction, SignificanceTest

__all__ = [
    "Board",
    "History",
    "Options",
    "Pair",
    "Step",
    "drill_down",
    "history",
    "leaderboard",
    "shared_metrics",
]


@attrs.frozen(kw_only=True)
class Options:
    """The choices of a site's statistics, passed to :func:`compare` as they are."""

    baseline: str | None = None
    metric: str | None = None
    test: SignificanceTest = "paired-t"
    correction: Correction | None = None
    alpha: float = 0.05
    n_resamples: int = 10_000
    seed: int = 0  # a fixed seed: the same records build the same site, byte for byte


def shared_metrics(records: Sequence[Record]) -> tuple[str, ...]:
    """The metric keys every record's report has, in the first report's order.

    >>> from datetime import datetime, timezone
    >>> from ef.evaluation import RetrievalEvalReport
    >>> when = datetime(2026, 12, 2, tzinfo=timezone.utc)
    >>> one = RetrievalEvalReport({"ndcg@10": 0.5, "map@all": 0.4}, {}, 1, (10,))
    >>> two = RetrievalEvalReport({"map@all": 0.3}, {}, 1, (10,))
    >>> shared_metrics([Record(system=s, dataset="d", report=r, recorded_at=when)
    ...                 for s, r in (("a", one), ("b", two))])
    ('map@all',)
    """
    if not records:
        return ()
    first = records[0].report.metrics
    return tuple(key for key in first if all(key in r.report.metrics for r in records[1:]))


def _compared(
    reports: Mapping[str, Any], keys: Sequence[str], baseline: str, options: Options
) -> tuple[ComparisonReport | None, str | None]:
    """``compare`` of ``reports`` against ``baseline`` on ``keys``, or why it could not run
    (a report without per-query values, fewer than two paired queries)."""
    from .._evaluate.compare import compare
    from ..errors import MissingDependencyError

    if len(reports) < 2:
        return None, None
    if not keys:
        return None, "the reports share no metric"
    try:
        return (
            compare(
                dict(reports),
                metrics=tuple(keys),
                baseline=baseline,
                test=options.test,
                correction=options.correction,
                alpha=options.alpha,
                n_resamples=options.n_resamples,
                seed=options.seed,
            ),
            None,
        )
    except MissingDependencyError:
        raise  # scipy absent: no site without its statistics
    except ValueError as exc:
        return None, str(exc)


@attrs.frozen(kw_only=True)
class Board:
    """A dataset's leaderboard: each system's latest record, and ``compare`` of them all
    against the baseline (``None`` with the ``reason`` when it could not run)."""

    dataset: str
    baseline: str
    metric: str
    metrics: tuple[str, ...]
    tested: tuple[str, ...]
    rows: tuple[Row, ...]
    comparison: ComparisonReport | None
    reason: str | None

    def against_baseline(self, system: str, key: str) -> PairComparison | None:
        """The baseline's test against ``system`` on ``key``, if one ran."""
        if self.comparison is None or system == self.baseline or key not in self.tested:
            return None
        return self.comparison.pair(self.baseline, system, metric=key)


@attrs.frozen(kw_only=True)
class Row:
    record: Record


def leaderboard(records: Sequence[Record], dataset: str, *, options: Options) -> Board:
    """The leaderboard of ``dataset``: every system's latest record (``records`` are in time
    order), first recorded first, tested against the baseline: ``options.baseline`` if it has
    a record here, else the system recorded first on the dataset."""
    latest: dict[str, Record] = {}
    for record in records:
        if record.dataset == dataset:
            latest[record.system] = record  # a later record replaces an earlier one
    if not latest:
        raise ValueError(f"no record of dataset {dataset!r}")
    baseline = options.baseline if options.baseline in latest else next(iter(latest))
    rows = tuple(Row(record=record) for record in latest.values())
    metrics = tuple(dict.fromkeys(k for row in rows for k in row.record.report.metrics))
    tested = shared_metrics([row.record for row in rows])
    comparison, reason = _compared(
        {name: record.report for name, record in latest.items()}, tested, baseline, options
    )
    return Board(
        dataset=dataset,
        baseline=baseline,
        metric=_sort_metric(options.metric, metrics),
        metrics=metrics,
        tested=tested,
        rows=rows,
        comparison=comparison,
        reason=reason,
    )


def _sort_metric(chosen: str | None, metrics: Sequence[str]) -> str:
    """The metric a leaderboard is sorted by: the chosen one, else nDCG@10, else the first."""
    if chosen is not None and chosen in metrics:
        return chosen
    return "ndcg@10" if "ndcg@10" in metrics or not metrics else metrics[0]


@attrs.frozen(kw_only=True)
class Step:
    """A record in a system's history, and its test against the record before it: a
    regression is a drop that the test finds significant."""

    record: Record
    comparison: ComparisonReport | None = None
    reason: str | None = None

    def drop(self, key: str) -> PairComparison | None:
        """The test of ``key`` against the previous record, if it found a significant drop."""
        if self.comparison is None or key not in self.comparison.metrics:
            return None
        pair = self.comparison.pair("previous", "current", metric=key)
        return pair if pair.reject and pair.difference < 0 else None


@attrs.frozen(kw_only=True)
class History:
    """One system's records on one dataset, oldest first, each tested against the one
    before."""

    system: str
    dataset: str
    metrics: tuple[str, ...]
    steps: tuple[Step, ...]


def history(records: Sequence[Record], system: str, dataset: str, *, options: Options) -> History:
    """The history of ``system`` on ``dataset``; each record is compared with the previous
    (``compare({"previous": ..., "current": ...}, baseline="previous")``) on the metrics both
    have."""
    own = [r for r in records if r.system == system and r.dataset == dataset]
    steps = [Step(record=own[0])] if own else []
    for previous, current in itertools.pairwise(own):
        keys = shared_metrics([previous, current])
        comparison, reason = _compared(
            {"previous": previous.report, "current": current.report}, keys, "previous", options
        )
        steps.append(Step(record=current, comparison=comparison, reason=reason))
    metrics = tuple(dict.fromkeys(k for r in own for k in r.report.metrics))
    return History(system=system, dataset=dataset, metrics=metrics, steps=tuple(steps))


@attrs.frozen(kw_only=True)
class Pair:
    """Two systems' latest records on a dataset, query by query: ``compare``'s values and
    tests, ``b`` against ``a``."""

    dataset: str
    a: Record
    b: Record
    comparison: ComparisonReport | None
    reason: str | None


def drill_down(board: Board, a: str, b: str, *, options: Options) -> Pair:
    """The drill-down of ``b`` against ``a`` on ``board``'s dataset, tested as a pair on the
    metrics both have."""
    latest = {row.record.system: row.record for row in board.rows}
    first, second = latest[a], latest[b]
    comparison, reason = _compared(
        {a: first.report, b: second.report}, shared_metrics([first, second]), a, options
    )
    return Pair(dataset=board.dataset, a=first, b=second, comparison=comparison, reason=reason)
