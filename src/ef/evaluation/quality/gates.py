"""The gates behind the ``ef_quality`` fixture: thresholds, stored baselines, significance.

Each gate records a :class:`GateResult` per metric, then raises :class:`GateFailure` (an
``AssertionError``) listing every metric that failed. numpy and scipy are imported only
when :meth:`QualityGates.not_worse` runs :func:`~ef.evaluation.compare`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from .._reports import ComparisonReport, RagEvalReport, RetrievalEvalReport
from .saved import load_report, save_report
from .thresholds import parse_threshold

if TYPE_CHECKING:
    from .._store import Record
    from ..types import Correction, PairedTest

__all__ = ["GateFailure", "GateResult", "QualityGates", "metric_value", "resolve_metric"]

Scored = RetrievalEvalReport | RagEvalReport
# A baseline name is a file name in the baselines folder: no separators, no "..".
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
UPDATE_OPTION = "--ef-update-baselines"
RECORD_OPTION = "--ef-record"


class GateFailure(AssertionError):
    """A quality gate failed: the message names each failing metric, its value and the
    threshold or baseline it missed."""


@attrs.frozen(kw_only=True)
class GateResult:
    """One metric checked by one gate, for the terminal summary, JUnit and JSON.

    ``expected`` is the threshold (``">= 0.65"``) or what the baseline asked for;
    ``status`` is ``"pass"``, ``"fail"`` or ``"updated"`` (a baseline rewritten).

    >>> GateResult(test_id="t", gate="check", metric="ndcg@10", value=0.7,
    ...     expected=">= 0.65", status="pass").passed
    True
    """

    test_id: str
    gate: str
    metric: str
    value: float | None
    expected: str
    status: str
    detail: str = ""

    @property
    def passed(self) -> bool:
        """Whether the gate let this metric through."""
        return self.status != "fail"

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON; a NaN value is null."""
        value = self.value
        if value is not None and math.isnan(value):
            value = None
        return {**attrs.asdict(self), "value": value}


def _show(value: float | None) -> str:
    return "none (nothing scored)" if value is None else f"{value:.4f}"


def _no_number(value: float | None) -> str | None:
    """How a stored value that is no finite number reads, or None for a finite one.

    >>> _no_number(None), _no_number(float("nan")), _no_number(float("-inf")), _no_number(0.5)
    ('null (nothing scored)', 'NaN', '-Infinity', None)
    """
    if value is None:
        return "null (nothing scored)"
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return None


def resolve_metric(report: Scored, key: str) -> str:
    """The key under which ``report`` holds ``key``: the key itself, or the canonical key
    of a measure string in another syntax (``"P@5"``, ``"ndcg_cut_10"``) for a retrieval
    report.

    Raises:
        ValueError: if the report has no such metric, naming it and the report's metrics.

    >>> report = RetrievalEvalReport({'precision@5': 0.4}, {}, 1, (5,))
    >>> resolve_metric(report, 'P@5')
    'precision@5'
    """
    if not isinstance(key, str):
        raise TypeError(f"a metric is a string such as 'ndcg@10', got {key!r}")
    if key in report.metrics:
        return key
    if isinstance(report, RetrievalEvalReport):
        from .._engine.measures import parse_measure

        try:
            keys = [m.key for m in parse_measure(key, k_values=report.k_values)]
        except ValueError:
            keys = []
        if len(keys) == 1 and keys[0] in report.metrics:
            return keys[0]
    raise ValueError(
        f"unknown metric {key!r}: the report has {', '.join(report.metrics) or 'no metric'}"
    )


def metric_value(report: Scored, key: str) -> float | None:
    """The mean of ``key`` in ``report`` (see :func:`resolve_metric`)."""
    return report.metrics[resolve_metric(report, key)]


def _check_report(report: object, gate: str) -> Scored:
    if not isinstance(report, (RetrievalEvalReport, RagEvalReport)):
        raise TypeError(
            f"{gate} takes a RetrievalEvalReport or a RagEvalReport, got {type(report).__name__}"
        )
    return report


@attrs.frozen
class QualityGates:
    """The ``ef_quality`` fixture: :meth:`check`, :meth:`baseline` and :meth:`not_worse`.

    ``baselines_dir`` holds the stored baselines; with ``update`` (``--ef-update-baselines``)
    :meth:`baseline` rewrites them. ``record`` receives every :class:`GateResult`.

    >>> report = RetrievalEvalReport({'ndcg@10': 0.7}, {}, 1, (10,))
    >>> results = []
    >>> gates = QualityGates(Path('baselines'), record=results.append)
    >>> gates.check(report, {'ndcg@10': '>= 0.65'})
    >>> results[0].status
    'pass'
    """

    baselines_dir: Path
    update: bool = False
    record: Callable[[GateResult], None] = lambda result: None
    test_id: str = ""
    #: The store of evaluations :meth:`record_evaluation` writes to and ``not_worse(...,
    #: recorded=)`` reads: a URL, or None for ``EF_EVALUATION_STORE``, else the default file.
    store: str | None = None
    #: Whether :meth:`record_evaluation` records (``pytest --ef-record``).
    recording: bool = False

    def _result(
        self, gate: str, metric: str, value: float | None, expected: str, *, ok: bool,
        detail: str = "",
    ) -> GateResult:  # fmt: skip
        result = GateResult(
            test_id=self.test_id,
            gate=gate,
            metric=metric,
            value=value,
            expected=expected,
            status="pass" if ok else "fail",
            detail=detail,
        )
        self.record(result)
        return result

    def check(self, report: Scored, thresholds: Mapping[str, str]) -> None:
        """Fail unless every metric passes its threshold, e.g.
        ``{"ndcg@10": ">= 0.65", "recall@100": ">= 0.9"}``; the failure lists every metric
        that missed, with its value and threshold.

        Raises:
            GateFailure: if some metric misses its threshold.
            ValueError: for a bad threshold string or a metric the report lacks (before
                anything is checked).
        """
        __tracebackhide__ = True
        report = _check_report(report, "check")
        if not isinstance(thresholds, Mapping) or not thresholds:
            raise ValueError(
                "check needs a mapping of metric to threshold, e.g. {'ndcg@10': '>= 0.65'}"
            )
        # Every threshold and key is checked before any gate runs: a typo is no half-pass.
        parsed = {
            resolve_metric(report, key): parse_threshold(text, metric=key)
            for key, text in thresholds.items()
        }
        failures = []
        for key, threshold in parsed.items():
            value = report.metrics[key]
            ok = threshold.holds(value)
            self._result("check", key, value, str(threshold), ok=ok)
            if not ok:
                failures.append(f"{key} = {_show(value)}, expected {threshold}")
        if failures:
            raise GateFailure(_listing("quality gate failed", failures))

    def baseline_path(self, name: str) -> Path:
        """Where the baseline ``name`` is stored: ``<baselines_dir>/<name>.json``."""
        if not isinstance(name, str) or not _NAME.fullmatch(name) or ".." in name:
            raise ValueError(
                f"bad baseline name {name!r}: use letters, digits, '_', '-' and '.', "
                "e.g. 'bm25-scifact'"
            )
        return self.baselines_dir / f"{name}.json"

    def _stored(self, name: str, gate: str, metric: str) -> Scored:
        __tracebackhide__ = True
        path = self.baseline_path(name)
        if not path.exists():
            hint = f"no baseline {name!r} at {path}; run pytest {UPDATE_OPTION} to create it"
            self._result(gate, metric, None, f"baseline {name}", ok=False, detail=hint)
            raise GateFailure(hint)
        try:
            stored = load_report(path)
        except ValueError as error:  # a gate is never dropped: the unreadable file fails it
            hint = f"{error}; re-create it with pytest {UPDATE_OPTION}"
            self._result(gate, metric, None, f"baseline {name}", ok=False, detail=hint)
            raise GateFailure(hint) from None
        if not isinstance(stored, (RetrievalEvalReport, RagEvalReport)):
            raise ValueError(f"{path}: the baseline is a {type(stored).__name__}, not a report")
        return stored

    def baseline(
        self,
        name: str,
        report: Scored,
        tolerance: float = 0.01,
        metrics: Sequence[str] | None = None,
    ) -> None:
        """Fail when a metric of ``report`` drops more than ``tolerance`` (absolute) below
        the stored baseline ``name``; every metric of the baseline by default, or those of
        ``metrics``. Higher is better for every metric gated this way.

        With ``--ef-update-baselines`` the baseline is written from ``report`` instead. A
        missing baseline is a failure that says how to create it, and so is a metric that
        the baseline lacks or holds no finite number for (null, NaN, an infinity): each
        metric asked for is a gate, and none is dropped.

        Raises:
            GateFailure: if a metric dropped too far, the baseline is missing, or it holds
                no number for a metric.
        """
        __tracebackhide__ = True
        report = _check_report(report, "baseline")
        _check_baseline_arguments(tolerance, metrics)
        if self.update:
            self._write_baseline(name, report, metrics)
            return
        path = self.baseline_path(name)
        stored = self._stored_like(report, name, metrics)
        keys = (
            list(stored.metrics) if metrics is None else [_key(stored, report, m) for m in metrics]
        )
        drops: list[str] = []
        unusable: list[str] = []  # metrics the baseline holds no number for
        if not keys:  # a baseline of no metric would check nothing, and pass
            self._fail_no_metric(name, path)
        for key in keys:
            held = _held(stored, key)
            if held is not None:
                line = f"{key}: the baseline {path} {held}, no number to hold the report to"
                unusable.append(line)
                detail = f"{line}; {_rewrite_hint(metrics is None)}"
                value = report.metrics.get(key)
                expected = f"baseline {name}: a number"
                self._result("baseline", key, value, expected, ok=False, detail=detail)
                continue
            drop = self._held_to(name, stored, report, key, tolerance)
            if drop is not None:
                drops.append(drop)
        _raise_baseline_failures(name, drops, unusable, every=metrics is None)

    def _stored_like(self, report: Scored, name: str, metrics: Sequence[str] | None) -> Scored:
        """The stored baseline ``name``, refused unless it is a report of ``report``'s type."""
        stored = self._stored(name, "baseline", "-" if metrics is None else ",".join(metrics))
        if type(stored) is not type(report):
            raise ValueError(
                f"{self.baseline_path(name)}: the baseline is a {type(stored).__name__}, the "
                f"report a {type(report).__name__}"
            )
        return stored

    def _fail_no_metric(self, name: str, path: Path) -> NoReturn:
        __tracebackhide__ = True
        line = (
            f"the baseline {path} holds no metric, so no gate would be checked: re-save "
            f"it from a report that has metrics (pytest {UPDATE_OPTION})"
        )
        self._result("baseline", "-", None, f"baseline {name}: a metric", ok=False, detail=line)
        raise GateFailure(f"baseline {name!r} cannot gate anything: {line}")

    def _write_baseline(self, name: str, report: Scored, metrics: Sequence[str] | None) -> None:
        """``--ef-update-baselines``: store ``report`` as the baseline ``name``, unless a
        metric it would gate is no finite number there: such a baseline would fail every
        later run, so nothing is written and the gate fails now, naming the metrics."""
        path = self.baseline_path(name)
        keys = list(report.metrics) if metrics is None else list(metrics)
        values = {key: metric_value(report, key) for key in keys}
        unusable = [
            f"{key} = {value}"
            for key, value in values.items()
            if value is None or not math.isfinite(value)
        ]
        if unusable:
            self._fail_unwritable(name, path, values, unusable)
        save_report(report, path)
        for key, value in values.items():
            self.record(
                GateResult(
                    test_id=self.test_id,
                    gate="baseline",
                    metric=resolve_metric(report, key),
                    value=value,
                    expected=f"baseline {name}",
                    status="updated",
                    detail=f"written to {path}",
                )
            )

    def _fail_unwritable(
        self, name: str, path: Path, values: Mapping[str, float | None], unusable: list[str]
    ) -> NoReturn:
        """Fail the baseline gate that would be written from a report holding no number for
        the ``unusable`` metrics, recording each metric's gate."""
        __tracebackhide__ = True
        detail = (
            f"not written to {path}: the report holds no number for "
            f"{', '.join(unusable)}, and a baseline of it would fail every later run; "
            "gate the metrics the report scores (metrics=...), or find why it is not a number"
        )
        for key, value in values.items():
            ok = value is not None and math.isfinite(value)
            expected = f"baseline {name}: a number"
            self._result("baseline", key, value, expected, ok=ok, detail="" if ok else detail)
        raise GateFailure(f"baseline {name!r} {detail}")

    def _held_to(
        self, name: str, stored: Scored, report: Scored, key: str, tolerance: float
    ) -> str | None:
        """Check ``key`` of ``report`` against the baseline's finite value: what failed, or
        None if it held."""
        base = stored.metrics[key]
        assert base is not None  # _held: a finite number
        value = report.metrics.get(key)
        floor = base - tolerance
        ok = value is not None and not math.isnan(value) and value >= floor
        expected = f">= {floor:.4f} (baseline {name} {base:.4f} - {tolerance:g})"
        self._result("baseline", key, value, expected, ok=ok)
        if ok:
            return None
        if key not in report.metrics:
            return f"{key}: missing from the report (baseline {base:.4f})"
        drop = "" if value is None else f", a drop of {base - value:.4f}"
        return f"{key} = {_show(value)}, baseline {base:.4f}{drop} > tolerance {tolerance:g}"

    def record_evaluation(
        self,
        report: RetrievalEvalReport,
        *,
        system: str | None = None,
        dataset: str | None = None,
        tags: Sequence[str] = (),
    ) -> Record | None:
        """Record ``report`` in the store of evaluations as ``system`` on ``dataset`` when
        pytest runs with ``--ef-record``; do nothing otherwise (and return None). The names
        default to those of the run and qrels files in the report's manifest, as
        ``evaluate_run(..., record=True)`` names them.

        Raises:
            ValueError: (an ``ArgumentError``) under ``--ef-record``, when a name is neither
                given nor found in the manifest.
        """
        if not isinstance(report, RetrievalEvalReport):
            raise TypeError(
                f"record_evaluation takes a RetrievalEvalReport, got {type(report).__name__}"
            )
        if not self.recording:
            return None
        from .._store.recording import record_evaluation

        run, qrels = _input_paths(report)
        return record_evaluation(
            report,
            system=system,
            dataset=dataset,
            tags=tags,
            store=self.store,
            run=run,
            qrels=qrels,
        )

    def not_worse(
        self,
        report: Scored,
        baseline: Scored | str | None = None,
        *,
        recorded: str | None = None,
        dataset: str | None = None,
        metric: str | Sequence[str] = "ndcg@10",
        alpha: float = 0.05,
        test: PairedTest = "paired-t",
        correction: Correction | None = "holm",
        seed: int = 0,
    ) -> ComparisonReport:
        """Fail only when ``report`` is significantly worse than ``baseline`` (a report, or
        the name of a stored baseline), or than the last evaluation of the system
        ``recorded`` on ``dataset`` in the store of evaluations (one of the two):
        :func:`~ef.evaluation.compare` tests the per-query
        differences on each metric, corrects the p-values of all of them together
        (``correction``), and a metric fails when its corrected p-value is at most ``alpha``
        and the mean dropped. Returns the comparison.

        A metric that the baseline lacks, or whose mean in either report is no finite
        number (null, NaN, an infinity), cannot be compared: its gate fails, never passes
        for want of a p-value.

        ``recorded="bm25"`` gates on history: the store (``--ef-store``, else
        ``EF_EVALUATION_STORE``, else the default file) gives bm25's last record on
        ``dataset``, which defaults to the name of the report's qrels file (as recording
        names it). No such record fails the gate, saying how to record one.

        Raises:
            GateFailure: naming each metric that is significantly worse, with the
                difference, the p-values and the effect size, and each that cannot be
                compared.
        """
        __tracebackhide__ = True
        from .._evaluate.compare import compare

        report = _check_report(report, "not_worse")
        names = [metric] if isinstance(metric, str) else list(metric)
        if (baseline is None) == (recorded is None):
            raise TypeError(
                "not_worse compares with one baseline: give a report or a baseline's name, "
                "or recorded= the name of a recorded system, not both nor neither"
            )
        if recorded is not None:
            baseline, label, where = self._recorded_baseline(report, recorded, dataset, names)
        else:
            if dataset is not None:
                raise TypeError("dataset= names the dataset of recorded=, which is not given")
            assert baseline is not None  # checked above
            baseline, label, where = self._compared_baseline(baseline, names)
        how = f"{test}, {correction or 'no'} correction, alpha {alpha:g}"
        expected = f"not worse than {label} ({how})"
        keys, unusable = self._comparable(baseline, report, names, where, expected)
        sections = []
        if unusable:
            lines = [*unusable, _rewrite_hint(every=False, option="metric")]
            sections.append(_listing(f"cannot compare with {label}", lines))
        if not keys:
            raise GateFailure("\n".join(sections))
        comparison = compare(
            {"baseline": baseline, "report": report},
            metrics=keys,
            baseline="baseline",
            test=test,
            correction=correction,
            alpha=alpha,
            seed=seed,
        )
        failures = self._significantly_worse(comparison, keys, expected, label)
        if failures:
            sections.insert(0, _listing(f"significantly worse ({how})", failures))
        if sections:
            raise GateFailure("\n".join(sections))
        return comparison

    def _compared_baseline(
        self, baseline: Scored | str, names: list[str]
    ) -> tuple[Scored, str, str]:
        """The baseline report ``not_worse`` compares with (stored, if ``baseline`` is a
        name), the label its gates name it by, and how messages name where it is."""
        if isinstance(baseline, str):
            label = f"baseline {baseline}"
            where = f"the baseline {self.baseline_path(baseline)}"
            return self._stored(baseline, "not_worse", ",".join(names)), label, where
        return _check_report(baseline, "not_worse"), "the baseline", "the baseline"

    def _recorded_baseline(
        self, report: Scored, system: str, dataset: str | None, names: list[str]
    ) -> tuple[Scored, str, str]:
        """The last record of ``system`` on ``dataset`` (its report), its label and where
        it is; a failed gate if the store has none."""
        __tracebackhide__ = True
        from .._store import open_store
        from .._store.location import shown, store_url
        from .._store.recording import dataset_name

        if not isinstance(system, str) or not system:
            raise TypeError(f"recorded= names a recorded system, got {system!r}")
        if dataset is None:
            dataset = (
                dataset_name(_input_paths(report)[1])
                if isinstance(report, RetrievalEvalReport)
                else None
            )
            if dataset is None:
                raise ValueError(
                    "not_worse(recorded=...) cannot tell the report's dataset (its qrels were "
                    "not read from a file): name it with dataset="
                )
        with open_store(self.store) as store:
            last = store.last(system, dataset)
        where = f"{shown(store_url(self.store))}"
        if last is None:
            hint = (
                f"no recorded evaluation of {system!r} on {dataset!r} in the store {where}: "
                "record one with evaluate_run(..., record=True), ef-eval evaluate --record, or "
                f"ef_quality.record_evaluation under pytest {RECORD_OPTION}"
            )
            self._result("not_worse", ",".join(names), None, f"recorded {system}", ok=False,
                         detail=hint)  # fmt: skip
            raise GateFailure(hint)
        label = f"recorded {system} on {dataset} (record {last.id}, {last.recorded_at:%Y-%m-%d})"
        return last.report, label, f"the {label}"

    def _comparable(
        self, baseline: Scored, report: Scored, names: list[str], where: str, expected: str
    ) -> tuple[list[str], list[str]]:
        """The keys of the metrics ``names`` that can be compared, and why each other one
        cannot (its gate failed and recorded here)."""
        keys, unusable = [], []
        for key in dict.fromkeys(resolve_metric(report, name) for name in names):
            why = _not_comparable(baseline, report, key, where)
            if why is None:
                keys.append(key)
                continue
            value = report.metrics.get(key)
            self._result("not_worse", key, value, expected, ok=False, detail=why)
            unusable.append(why)
        return keys, unusable

    def _significantly_worse(
        self, comparison: ComparisonReport, keys: list[str], expected: str, label: str
    ) -> list[str]:
        """Record each metric's gate from ``comparison``; a line for each that failed."""
        failures = []
        for key in keys:
            pair = comparison.pair("baseline", "report", key)
            worse = pair.reject and pair.difference < 0
            detail = (
                f"difference {pair.difference:+.4f} (mean {pair.mean_b:.4f} vs {pair.mean_a:.4f}"
                f" over {pair.n}), p = {pair.p_value:.4g}, corrected p = {pair.p_corrected:.4g},"
                f" effect size d = {pair.effect_size:+.3f}"
            )
            self._result("not_worse", key, pair.mean_b, expected, ok=not worse, detail=detail)
            if worse:
                failures.append(f"{key}: significantly worse than {label}: {detail}")
        return failures


def _input_paths(report: RetrievalEvalReport) -> tuple[str | None, str | None]:
    """The paths of the run and qrels files in the report's manifest (None for inputs held
    in memory)."""
    inputs = report.manifest.get("inputs") or {}

    def path(entry: Any) -> str | None:
        return entry.get("path") if isinstance(entry, Mapping) else None

    return path(inputs.get("run")), path(inputs.get("qrels"))


def _check_baseline_arguments(tolerance: object, metrics: object) -> None:
    # An infinite tolerance would let any drop through: a gate switched off.
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, (int, float))
        or not 0 <= tolerance < math.inf
    ):
        raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a sequence of names, e.g. ({metrics!r},)")


def _key(stored: Scored, report: Scored, metric: str) -> str:
    """The key of ``metric`` in the baseline, or in the report where the baseline lacks it
    (that gate then fails); a ValueError if neither has it (a typo, not a gate)."""
    try:
        return resolve_metric(stored, metric)
    except ValueError:
        try:
            return resolve_metric(report, metric)
        except ValueError:
            raise ValueError(
                f"unknown metric {metric!r}: neither the report nor the baseline has it; the "
                f"report has {', '.join(report.metrics) or 'no metric'}"
            ) from None


def _held(stored: Scored, key: str) -> str | None:
    """What the baseline holds for ``key`` when it is no finite number to gate on, or None.

    >>> _held(RetrievalEvalReport({"ndcg@10": float("nan")}, {}, 1, (10,)), "ndcg@10")
    'holds ndcg@10 = NaN'
    """
    if key not in stored.metrics:
        return f"has no {key}"
    why = _no_number(stored.metrics[key])
    return None if why is None else f"holds {key} = {why}"


def _not_comparable(baseline: Scored, report: Scored, key: str, where: str) -> str | None:
    """Why ``key`` cannot be tested between the two reports (``where`` names the baseline),
    or None."""
    held = _held(baseline, key)
    if held is not None:
        return f"{key}: {where} {held}, no number to compare the report with"
    why = _no_number(report.metrics[key])
    if why is not None:
        return f"{key}: the report holds {key} = {why}, no number to compare"
    return None


def _rewrite_hint(every: bool, option: str = "metrics") -> str:
    """How to rewrite a baseline that holds no number for a metric (``every``: the gate
    took every metric of the baseline; ``option``: the gate's argument naming them)."""
    leave = f"pass {option}= without it" if every else f"drop it from {option}="
    return (
        f"re-save the baseline from a report where the metric is a number (pytest "
        f"{UPDATE_OPTION}), or leave it out of the gate ({leave})"
    )


def _raise_baseline_failures(
    name: str, drops: Sequence[str], unusable: Sequence[str], *, every: bool
) -> None:
    """Raise one GateFailure that lists every drop and every metric the baseline cannot
    gate, if any."""
    sections = []
    if drops:
        lines = [*drops, f"if the drop is intended, run pytest {UPDATE_OPTION}"]
        sections.append(_listing(f"quality dropped below baseline {name!r}", lines))
    if unusable:
        count = f"{len(unusable)} metric{'' if len(unusable) == 1 else 's'}"
        lines = [*unusable, _rewrite_hint(every)]
        sections.append(_listing(f"baseline {name!r} cannot gate {count}", lines))
    if sections:
        raise GateFailure("\n".join(sections))


def _listing(title: str, lines: Sequence[str]) -> str:
    return "\n".join([f"{title}:", *(f"  {line}" for line in lines)])
