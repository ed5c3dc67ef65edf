"""ComparisonReport and PairComparison: the outcome of compare()."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import attrs

from .._engine._timing import Latency
from .._engine.syntax import resolve_key
from .._render import Table, exact_number, number, p_value, pandas_module, plain_text, some
from ..types import FrozenDict, frozen_deep, plain
from .fields import (
    BRIEF_METRICS,
    field_of,
    frozen_groups,
    frozen_means,
    frozen_scores,
    mapping_of,
    number_of,
    numbers_of,
    optional_number_of,
    pairs,
    str_tuple,
)
from .rendered import Rendered

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["ComparisonReport", "PairComparison"]

_TEST_NAMES = {
    "paired-t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "randomization": "randomization test",
    "bootstrap": "bootstrap test",
    "tukey": "Tukey's HSD test",
}
# The float fields of a PairComparison: JSON writes their NaN as null.
_PAIR_FLOATS = (
    "mean_a", "mean_b", "difference", "ci_low", "ci_high", "p_value", "p_corrected", "effect_size"
)  # fmt: skip
_CORRECTION_NAMES = {
    None: "no correction",
    "bonferroni": "Bonferroni correction",
    "holm": "Holm correction",
    "bh": "Benjamini-Hochberg correction",
}


#: How an experiment's report says a system was not cached for want of a version; the
#: latency table's notes then say why that matters.
NO_VERSION = "not cached: no version"


def _latencies(value: Mapping[str, Latency | Mapping[str, Any]]) -> Mapping[str, Latency]:
    return FrozenDict(
        {
            system: latency if isinstance(latency, Latency) else Latency.from_dict(latency)
            for system, latency in value.items()
        }
    )


def _notes(value: Mapping[str, str]) -> Mapping[str, str]:
    return FrozenDict({str(system): str(note) for system, note in value.items()})


def _latency_cells(latency: Latency | None, *, batched: bool, width: int) -> list[str]:
    """A system's latency columns: per query, per call when the table has ``batched``
    columns, and the number of queries; ``width`` dashes for a system that did not run."""
    if latency is None:
        return ["-"] * width
    cells = [_milliseconds(v) for v in (latency.mean, latency.p50, latency.p95)]
    if batched:
        cells += [
            _milliseconds(v) for v in (latency.batch_mean, latency.batch_p50, latency.batch_p95)
        ]
        cells.append(str(latency.calls) if latency.batched else "-")
    cells.append(str(latency.queries))
    return cells


def _milliseconds(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.3f}"


def _exact(value: object) -> str:
    # A float at full precision, NaN an empty cell; names, counts and flags as they are.
    return exact_number(value) if isinstance(value, float) else str(value)


@attrs.frozen(kw_only=True)
class PairComparison:
    """One metric compared between two systems ``a`` and ``b``: is ``b`` better than ``a``?

    ``difference`` is ``mean_b - mean_a`` over the ``n`` paired queries, and ``ci_low`` to
    ``ci_high`` its confidence interval (level ``1 - alpha``). ``p_value`` is the test's
    two-sided p; ``p_corrected`` is adjusted for the whole family of comparisons in the report,
    and ``reject`` is ``p_corrected <= alpha``. Under Tukey's HSD both are its p, adjusted
    over the pairs of systems, and the interval is its simultaneous one. ``effect_size`` is
    the paired Cohen's d (mean difference over the standard deviation of the differences; NaN
    if they have none and are not all 0). ``wins``, ``ties`` and ``losses`` count the queries
    where ``b`` scores higher than, the same as, or lower than ``a``.
    """

    metric: str
    a: str
    b: str
    n: int
    mean_a: float
    mean_b: float
    difference: float
    ci_low: float
    ci_high: float
    p_value: float
    p_corrected: float
    reject: bool
    effect_size: float
    wins: int
    ties: int
    losses: int

    def flipped(self) -> PairComparison:
        """The same comparison seen from the other side: ``a`` and ``b`` swapped.

        >>> pair = PairComparison(metric="ndcg@10", a="x", b="y", n=3, mean_a=0.5,
        ...     mean_b=0.6, difference=0.1, ci_low=0.05, ci_high=0.15, p_value=0.01,
        ...     p_corrected=0.01, reject=True, effect_size=1.2, wins=2, ties=1, losses=0)
        >>> flipped = pair.flipped()
        >>> flipped.a, flipped.difference, flipped.ci_low, flipped.losses
        ('y', -0.1, -0.15, 2)
        """
        return attrs.evolve(
            self,
            a=self.b,
            b=self.a,
            mean_a=self.mean_b,
            mean_b=self.mean_a,
            difference=-self.difference,
            ci_low=-self.ci_high,
            ci_high=-self.ci_low,
            effect_size=-self.effect_size,
            wins=self.losses,
            losses=self.wins,
        )

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict; NaN stays NaN (JSON output writes it as null)."""
        return attrs.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PairComparison:
        """The comparison of a :meth:`to_dict` form, or of its JSON (where NaN is null).

        >>> pair = PairComparison(metric="ndcg@10", a="x", b="y", n=3, mean_a=0.5,
        ...     mean_b=0.6, difference=0.1, ci_low=0.05, ci_high=0.15, p_value=0.01,
        ...     p_corrected=0.01, reject=True, effect_size=1.2, wins=2, ties=1, losses=0)
        >>> PairComparison.from_dict(pair.to_dict()) == pair
        True
        """
        values = {f.name: field_of(data, f.name, "PairComparison") for f in attrs.fields(cls)}
        for name in _PAIR_FLOATS:
            values[name] = number_of(values[name], f"comparison {name}")
        return cls(**values)


@attrs.frozen(kw_only=True, repr=False)  # attrs' repr would print every query's scores
class ComparisonReport(Rendered):
    """The outcome of :func:`compare`: means per system and the paired tests between them.

    ``comparisons`` holds a :class:`PairComparison` per pair of systems and metric (metric by
    metric, pairs in order); with a ``baseline``, ``a`` is always the baseline. ``scores``
    keeps every system's value per query, aligned with ``query_ids`` (``None`` where a RAG
    metric did not score a sample). ``missing`` maps each system to the queries it did not
    answer (scored 0 under ``averaging="qrels"``); ``dropped`` lists the queries left out of
    every comparison (``"intersection"``, or RAG samples that some report lacks).

    Render it with ``str()``, ``to_markdown()``, ``to_latex()``, ``to_csv()``,
    ``to_json()``, ``to_pandas()``, ``rich.print(report)`` or in a notebook; plot it
    with :meth:`plot_differences` and :meth:`plot_distribution`.
    """

    systems: tuple[str, ...] = attrs.field(converter=str_tuple)
    metrics: tuple[str, ...] = attrs.field(converter=str_tuple)
    means: Mapping[str, Mapping[str, float]] = attrs.field(converter=frozen_means)
    comparisons: tuple[PairComparison, ...] = attrs.field(converter=pairs)
    query_ids: tuple[str, ...] = attrs.field(converter=str_tuple)
    scores: Mapping[str, Mapping[str, tuple[float | None, ...]]] = attrs.field(
        converter=frozen_scores
    )
    baseline: str | None = None
    test: str = "paired-t"
    correction: str | None = None
    alpha: float = 0.05
    n_resamples: int = 10_000
    #: The seed the resampling tests used: the one given, or the one drawn when it was None.
    seed: int | None = None
    averaging: str = "qrels"
    #: ``"retrieval"`` (queries), ``"rag"`` (samples) or ``"pipeline"`` (queries).
    kind: str = "retrieval"
    missing: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, converter=frozen_groups)
    dropped: tuple[str, ...] = attrs.field(default=(), converter=str_tuple)
    #: Versions, test settings, and each system's own manifest (see :doc:`/compare`); not
    #: compared by ``==``.
    manifest: Mapping[str, Any] = attrs.field(factory=dict, converter=frozen_deep, eq=False)
    #: The retriever's latency per query of each system that ran here (an
    #: :class:`~ef.evaluation.Experiment`); a system read from the cache keeps the latency
    #: measured when its run was computed. Not compared by ``==``: timings differ by run.
    latency: Mapping[str, Latency] = attrs.field(factory=dict, converter=_latencies, eq=False)
    #: Where each system's run came from, in words (an :class:`~ef.evaluation.Experiment`):
    #: computed here, read from the cache and when it was computed, a stored run, or why
    #: it was not cached.
    runs: Mapping[str, str] = attrs.field(factory=dict, converter=_notes, eq=False)

    def pair(self, a: str, b: str, metric: str | None = None) -> PairComparison:
        """The comparison of ``b`` with ``a`` on ``metric`` (the first metric by default, or
        the one ``metric`` names in any tool's spelling, ``nDCG@10`` or ``ndcg_cut_10``),
        flipped if the report holds it the other way round."""
        metric = self.metrics[0] if metric is None else self.metric_key(metric)
        for found in self.comparisons:
            if found.metric == metric and (found.a, found.b) == (a, b):
                return found
            if found.metric == metric and (found.a, found.b) == (b, a):
                return found.flipped()
        raise KeyError(f"no comparison of {b!r} with {a!r} on {metric!r} in this report")

    def metric_key(self, name: str) -> str:
        """The metric of :attr:`metrics` that ``name`` stands for, in ours, ir_measures',
        trec_eval's, ranx's or BEIR's spelling; a KeyError saying what is there otherwise
        (see :meth:`RetrievalEvalReport.metric_key
        <ef.evaluation.RetrievalEvalReport.metric_key>`)."""
        if name in self.metrics:  # a RAG metric's name, or ours
            return name
        return resolve_key(name, self.metrics)

    def significant(self) -> tuple[PairComparison, ...]:
        """The comparisons whose corrected p-value is at most ``alpha``."""
        return tuple(pair for pair in self.comparisons if pair.reject)

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps`` (``to_json()`` writes NaN as null)."""
        return {
            "systems": list(self.systems),
            "metrics": list(self.metrics),
            "baseline": self.baseline,
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "averaging": self.averaging,
            "kind": self.kind,
            "means": plain(self.means),
            "comparisons": [pair.to_dict() for pair in self.comparisons],
            "missing": plain(self.missing),
            "dropped": list(self.dropped),
            "query_ids": list(self.query_ids),
            "scores": plain(self.scores),
            "manifest": plain(self.manifest),
            "latency": {system: value.to_dict() for system, value in self.latency.items()},
            "runs": dict(self.runs),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ComparisonReport:
        """The report of a :meth:`to_dict` form, or of its JSON: NaN is null in the means
        and the tests, and ``"NaN"`` in ``scores``, where null is a sample not scored.

        >>> pair = PairComparison(metric="m", a="x", b="y", n=1, mean_a=0.5, mean_b=0.5,
        ...     difference=0.0, ci_low=0.0, ci_high=0.0, p_value=1.0, p_corrected=1.0,
        ...     reject=False, effect_size=float("nan"), wins=0, ties=1, losses=0)
        >>> report = ComparisonReport(systems=["x", "y"], metrics=["m"],
        ...     means={"x": {"m": 0.5}, "y": {"m": 0.5}}, comparisons=[pair],
        ...     query_ids=["q1"], scores={"x": {"m": [0.5]}, "y": {"m": [0.5]}})
        >>> ComparisonReport.from_dict(report.to_dict()).comparisons[0].effect_size
        nan
        """
        what = "ComparisonReport"
        means = mapping_of(field_of(data, "means", what), "means")
        scores = mapping_of(field_of(data, "scores", what), "scores")
        return cls(
            systems=field_of(data, "systems", what),
            metrics=field_of(data, "metrics", what),
            means={s: numbers_of(v, f"means[{s!r}]") for s, v in means.items()},
            comparisons=[
                PairComparison.from_dict(pair) for pair in field_of(data, "comparisons", what)
            ],
            query_ids=field_of(data, "query_ids", what),
            scores={
                system: {
                    metric: [optional_number_of(v, f"scores[{system!r}]") for v in values]
                    for metric, values in mapping_of(inner, f"scores[{system!r}]").items()
                }
                for system, inner in scores.items()
            },
            baseline=data.get("baseline"),
            test=data.get("test", "paired-t"),
            correction=data.get("correction"),
            alpha=number_of(data.get("alpha", 0.05), "alpha"),
            n_resamples=data.get("n_resamples", 10_000),
            seed=data.get("seed"),
            averaging=data.get("averaging", "qrels"),
            kind=data.get("kind", "retrieval"),
            missing=data.get("missing", {}),
            dropped=data.get("dropped", ()),
            manifest=data.get("manifest", {}),
            latency=mapping_of(data.get("latency", {}), "latency"),
            runs=mapping_of(data.get("runs", {}), "runs"),
        )

    # --- Tables -------------------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        letters = "abcdefghijklmnopqrstuvwxyz"
        return {
            system: letters[i] if i < len(letters) else f"s{i + 1}"
            for i, system in enumerate(self.systems)
        }

    def _describe_test(self) -> str:
        if self.test == "tukey":  # adjusted within each metric, over every pair of systems
            systems = len(self.systems)
            return (
                f"{_TEST_NAMES[self.test]}, family-wise over the {systems} systems of each "
                f"metric, alpha = {self.alpha:g}"
            )
        family = len(self.comparisons)
        if self.correction is None and family == 1:  # one test: nothing to correct
            return f"{_TEST_NAMES[self.test]}, alpha = {self.alpha:g}"
        correction = _CORRECTION_NAMES[self.correction]
        if self.correction is not None:
            correction += f" over {family} test{'s' if family != 1 else ''}"
        return f"{_TEST_NAMES[self.test]}, {correction}, alpha = {self.alpha:g}"

    def _power_notes(self) -> list[str]:
        """A test on so few pairs that its smallest p exceeds alpha can never reject: say so,
        or "not significant" reads as evidence of no difference."""
        from .._engine.stats import min_attainable_p

        notes = []
        # wins + losses: the nonzero differences, the only ones these tests can use.
        for n, differ in sorted({(p.n, p.wins + p.losses) for p in self.comparisons}):
            smallest = min_attainable_p(self.test, differ, n_resamples=self.n_resamples)
            if smallest > self.alpha:
                pairs = f"n = {n} pairs" + (f" ({differ} that differ)" if differ != n else "")
                notes.append(
                    f"With {pairs} the {_TEST_NAMES[self.test]} cannot reach alpha = "
                    f"{self.alpha:g} (its smallest p is {smallest:.4g})."
                )
        return notes

    def _means_table(self) -> Table:
        labels = self._labels()
        rows = [
            [self._row_name(system, labels), *(number(self.means[system][m]) for m in self.metrics)]
            for system in self.systems
        ]
        unit = "samples" if self.kind == "rag" else "queries"
        title = f"Comparison of {len(self.systems)} systems on {len(self.query_ids)} {unit}"
        return Table(
            ["system", *self.metrics],
            rows,
            title=title,
            bold=self._best_cells(),
            marks=self._significance_marks(labels),
            notes=self._means_notes(),
        )

    def _row_name(self, system: str, labels: Mapping[str, str]) -> str:
        """A system's row: after its label (without a baseline), or marked as the baseline."""
        if self.baseline is None:
            return f"({labels[system]}) {system}"
        return f"{system} (baseline)" if system == self.baseline else system

    def _best_cells(self) -> set[tuple[int, int]]:
        """The (row, column) cells of each metric's best mean, ties all."""
        bold = set()
        for column, metric in enumerate(self.metrics, start=1):
            best = max(self.means[s][metric] for s in self.systems)
            bold |= {
                (row, column)
                for row, system in enumerate(self.systems)
                if self.means[system][metric] == best
            }
        return bold

    def _significance_marks(self, labels: Mapping[str, str]) -> dict[tuple[int, int], str]:
        """The superscripts of the significant differences: against a baseline, ``*`` for
        better and ``†`` for worse on the other system's cell; else, on the better system's
        cell, the labels of the systems it beats."""
        marks: dict[tuple[int, int], str] = {}
        row_of = {system: row for row, system in enumerate(self.systems)}
        column_of = {metric: column for column, metric in enumerate(self.metrics, start=1)}
        for pair in self.significant():
            if pair.difference == 0:
                continue
            cell_of = (row_of[pair.b], column_of[pair.metric])
            if self.baseline is not None:
                marks[cell_of] = marks.get(cell_of, "") + ("*" if pair.difference > 0 else "†")
                continue
            better, worse = (pair.b, pair.a) if pair.difference > 0 else (pair.a, pair.b)
            cell = (row_of[better], column_of[pair.metric])
            marks[cell] = "".join(sorted(marks.get(cell, "") + labels[worse]))
        return marks

    def _means_notes(self) -> list[str]:
        how = self._describe_test()
        if self.baseline is not None:
            notes = [
                f"* significantly better than the baseline {self.baseline}, † significantly "
                f"worse ({how})."
            ]
        else:
            notes = [f"Superscripts: significantly better than that system ({how})."]
        notes.append("Bold: the best mean of each metric.")
        notes += self._power_notes()
        notes += self._coverage_notes()
        return notes

    def _coverage_notes(self) -> list[str]:
        unit = "samples" if self.kind == "rag" else "queries"
        notes = []
        gaps = {system: ids for system, ids in self.missing.items() if ids}
        if gaps:
            fate = (
                "scored 0" if self.kind == "retrieval" and self.averaging == "qrels" else "left out"
            )
            listed = ", ".join(f"{system} {len(ids)}" for system, ids in gaps.items())
            notes.append(f"Missing {unit} ({fate}): {listed}.")
            notes += [f"Missing from {system}: {some(ids)}." for system, ids in gaps.items()]
        if self.dropped:
            notes.append(f"{len(self.dropped)} {unit} not in every system were left out.")
            notes.append(f"Left out: {some(self.dropped)}.")
        return notes

    def _latency_table(self) -> Table | None:
        """Each system's time per query (and per call, when calls held batches or ran on
        an executor), and where its run came from; None when there is neither."""
        if not self.latency and not self.runs:
            return None
        batched = any(latency.batched for latency in self.latency.values())
        header = ["system", "run", "mean ms", "p50 ms", "p95 ms"]
        if batched:
            header += ["call mean ms", "call p50 ms", "call p95 ms", "calls"]
        header.append("queries")
        width = len(header) - 2  # the columns after the system and its run
        rows = [
            [
                system,
                self.runs.get(system, ""),
                *_latency_cells(self.latency.get(system), batched=batched, width=width),
            ]
            for system in self.systems
        ]
        return Table(
            header,
            rows,
            title="Latency per query",
            text_columns=2,
            notes=self._latency_notes(batched=batched),
        )

    def _latency_notes(self, *, batched: bool) -> list[str]:
        """How the systems were timed; why one without a version ran again; what the call
        columns are, when there are."""
        modes = sorted({latency.describe() for latency in self.latency.values()})
        notes = [
            "Latency: timed around the retriever's call only, per query "
            f"({'; '.join(modes) or 'no system ran here'})."
        ]
        if any(NO_VERSION in note for note in self.runs.values()):
            notes.append(
                "A system without a declared version (System(..., version=...), or a version "
                "attribute on the retriever) is never cached: a retriever edited between two "
                "runs would otherwise get its stale run."
            )
        if batched:
            notes.append(
                "A call that answers a batch gives each of its queries an equal share of "
                "its time; the call columns are the time per call."
            )
        return notes

    def _pairs_table(self, *, exact: bool = False) -> Table:
        if exact:
            fields = [field.name for field in attrs.fields(PairComparison)]
            rows = [[_exact(pair.to_dict()[name]) for name in fields] for pair in self.comparisons]
            return Table(fields, rows, text_columns=3)
        level = f"{(1 - self.alpha) * 100:g}% CI"
        header = ["metric", "A", "B", "mean A", "mean B", "B-A", level, "p"]
        if self.correction is not None:
            header.append(f"p ({self.correction})")
        header += ["sig", "d", "W/T/L", "n"]
        rows = []
        for pair in self.comparisons:
            row = [
                pair.metric,
                pair.a,
                pair.b,
                number(pair.mean_a),
                number(pair.mean_b),
                f"{pair.difference:+.4f}",
                f"[{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]",
                p_value(pair.p_value),
            ]
            if self.correction is not None:
                row.append(p_value(pair.p_corrected))
            row += [
                "*" if pair.reject else "",
                "-" if math.isnan(pair.effect_size) else f"{pair.effect_size:+.3f}",
                f"{pair.wins}/{pair.ties}/{pair.losses}",
                str(pair.n),
            ]
            rows.append(row)
        title = f"Pairwise tests: {self._describe_test()}"
        return Table(header, rows, title=title, text_columns=3)

    def _per_query_table(self, cell: Callable[[float | None], str] = number) -> Table:
        rows = [
            [query_id, metric, *(cell(self.scores[s][metric][i]) for s in self.systems)]
            for metric in self.metrics
            for i, query_id in enumerate(self.query_ids)
        ]
        unit = "sample" if self.kind == "rag" else "query"
        return Table([unit, "metric", *self.systems], rows, title=f"per {unit}", text_columns=2)

    def tables(self, *, details: bool = False) -> list[Table]:
        """The tables that show this comparison: the means per system (best bold, marks for
        significance), the pairwise tests, and with ``details`` every system's value per
        query."""
        tables = [self._means_table(), self._pairs_table()]
        latency = self._latency_table()
        if latency is not None:
            tables.append(latency)
        return [*tables, self._per_query_table()] if details else tables

    def csv_table(self, *, details: bool = False) -> Table:
        """The one table CSV holds: the pairwise tests at full precision, or with
        ``details`` the values per query."""
        return self._per_query_table(exact_number) if details else self._pairs_table(exact=True)

    def to_pandas(self, *, details: bool = False) -> Any:
        """The pairwise tests as a :class:`pandas.DataFrame` (a row per pair and metric, the
        columns of :class:`PairComparison`), or with ``details`` the values per query with
        ``(metric, system)`` columns. Needs pandas."""
        pd = pandas_module()
        if details:
            columns = {
                (metric, system): list(self.scores[system][metric])
                for metric in self.metrics
                for system in self.systems
            }
            frame = pd.DataFrame(columns, index=pd.Index(self.query_ids, name="query_id"))
            frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["metric", "system"])
            return frame
        return pd.DataFrame([pair.to_dict() for pair in self.comparisons])

    def __repr__(self) -> str:
        # A few lines whatever the size: str() (and the tables) hold the rest.
        systems = ", ".join(self.systems[:BRIEF_METRICS])
        if len(self.systems) > BRIEF_METRICS:
            systems += ", ..."
        unit = "samples" if self.kind == "rag" else "queries"
        metrics = ", ".join(self.metrics[:BRIEF_METRICS])
        if len(self.metrics) > BRIEF_METRICS:
            metrics += ", ..."
        metric_word = "metric" if len(self.metrics) == 1 else "metrics"
        baseline = f"; baseline {self.baseline}" if self.baseline is not None else ""
        return (
            f"<ComparisonReport: {len(self.systems)} systems ({systems}), "
            f"{len(self.query_ids)} {unit}, {len(self.metrics)} {metric_word} ({metrics}); "
            f"{self.test}, correction {self.correction or 'none'}, alpha {self.alpha:g}"
            f"{baseline}; {len(self.significant())} significant of {len(self.comparisons)}; "
            f"averaging {self.averaging}>"
        )

    def __str__(self) -> str:
        return "\n\n".join(plain_text(t) for t in self.tables())

    # --- Plots --------------------------------------------------------------------------

    def plot_differences(
        self,
        a: str | None = None,
        b: str | None = None,
        metric: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
    ) -> Figure:
        """The per-query difference ``b - a`` on ``metric``, sorted; see
        :func:`~ef.evaluation.plot_differences`."""
        from .._render.plots import plot_differences

        return plot_differences(self, a, b, metric, path=path)

    def plot_distribution(
        self,
        metric: str | None = None,
        *,
        kind: Literal["box", "violin"] = "box",
        path: str | os.PathLike[str] | None = None,
    ) -> Figure:
        """Each system's per-query values of ``metric`` as a box (or violin) plot; see
        :func:`~ef.evaluation.plot_distribution`."""
        from .._render.plots import plot_distribution

        return plot_distribution(self, metric, kind=kind, path=path)
