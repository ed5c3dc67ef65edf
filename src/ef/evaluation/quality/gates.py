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
from typing import Any, Literal

import attrs

from ..reports import ComparisonReport, RagEvalReport, RetrievalEvalReport
from .saved import load_report, save_report
from .thresholds import parse_threshold

__all__ = ["GateFailure", "GateResult", "QualityGates", "metric_value", "resolve_metric"]

Scored = RetrievalEvalReport | RagEvalReport
# A baseline name is a file name in the baselines folder: no separators, no "..".
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
UPDATE_OPTION = "--ef-update-baselines"


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
        from ..engine.measures import parse_measure

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
        stored = load_report(path)
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
        missing baseline is a failure that says how to create it.

        Raises:
            GateFailure: if a metric dropped too far, or the baseline is missing.
        """
        __tracebackhide__ = True
        report = _check_report(report, "baseline")
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
            raise ValueError(f"tolerance must be a number >= 0, got {tolerance!r}")
        if not tolerance >= 0:
            raise ValueError(f"tolerance must be a number >= 0, got {tolerance!r}")
        if isinstance(metrics, str):
            raise TypeError(f"metrics must be a sequence of names, e.g. ({metrics!r},)")
        path = self.baseline_path(name)
        if self.update:
            save_report(report, path)
            keys = list(report.metrics) if metrics is None else metrics
            for key in keys:
                value = metric_value(report, key)
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
            return
        stored = self._stored(name, "baseline", "-" if metrics is None else ",".join(metrics))
        if type(stored) is not type(report):
            raise ValueError(
                f"{path}: the baseline is a {type(stored).__name__}, the report a "
                f"{type(report).__name__}"
            )
        keys = (
            list(stored.metrics)
            if metrics is None
            else [resolve_metric(stored, m) for m in metrics]
        )
        failures = []
        for key in keys:
            base = stored.metrics[key]
            value = report.metrics.get(key)
            if base is None or math.isnan(base):
                continue  # the baseline scored nothing here: nothing to hold on to
            floor = base - tolerance
            ok = value is not None and not math.isnan(value) and value >= floor
            expected = f">= {floor:.4f} (baseline {name} {base:.4f} - {tolerance:g})"
            self._result("baseline", key, value, expected, ok=ok)
            if not ok:
                if key not in report.metrics:
                    failures.append(f"{key}: missing from the report (baseline {base:.4f})")
                    continue
                drop = "" if value is None else f", a drop of {base - value:.4f}"
                failures.append(
                    f"{key} = {_show(value)}, baseline {base:.4f}{drop} > tolerance {tolerance:g}"
                )
        if failures:
            failures.append(f"if the drop is intended, run pytest {UPDATE_OPTION}")
            raise GateFailure(_listing(f"quality dropped below baseline {name!r}", failures))

    def not_worse(
        self,
        report: Scored,
        baseline: Scored | str,
        *,
        metric: str | Sequence[str] = "ndcg@10",
        alpha: float = 0.05,
        test: Literal["paired-t", "wilcoxon", "randomization", "bootstrap"] = "paired-t",
        correction: Literal["bonferroni", "holm", "bh"] | None = "holm",
        seed: int = 0,
    ) -> ComparisonReport:
        """Fail only when ``report`` is significantly worse than ``baseline`` (a report, or
        the name of a stored baseline): :func:`~ef.evaluation.compare` tests the per-query
        differences on each metric, corrects the p-values of all of them together
        (``correction``), and a metric fails when its corrected p-value is at most ``alpha``
        and the mean dropped. Returns the comparison.

        Raises:
            GateFailure: naming each metric that is significantly worse, with the
                difference, the p-values and the effect size.
        """
        __tracebackhide__ = True
        from ..evaluate.compare import compare

        report = _check_report(report, "not_worse")
        names = [metric] if isinstance(metric, str) else list(metric)
        if isinstance(baseline, str):
            label = f"baseline {baseline}"
            baseline = self._stored(baseline, "not_worse", ",".join(names))
        else:
            label = "the baseline"
            baseline = _check_report(baseline, "not_worse")
        keys = [resolve_metric(report, name) for name in names]
        for key in keys:
            resolve_metric(baseline, key)
        comparison = compare(
            {"baseline": baseline, "report": report},
            metrics=keys,
            baseline="baseline",
            test=test,
            correction=correction,
            alpha=alpha,
            seed=seed,
        )
        how = f"{test}, {correction or 'no'} correction, alpha {alpha:g}"
        failures = []
        for key in keys:
            pair = comparison.pair("baseline", "report", key)
            worse = pair.reject and pair.difference < 0
            detail = (
                f"difference {pair.difference:+.4f} (mean {pair.mean_b:.4f} vs {pair.mean_a:.4f}"
                f" over {pair.n}), p = {pair.p_value:.4g}, corrected p = {pair.p_corrected:.4g},"
                f" effect size d = {pair.effect_size:+.3f}"
            )
            expected = f"not worse than {label} ({how})"
            self._result("not_worse", key, pair.mean_b, expected, ok=not worse, detail=detail)
            if worse:
                failures.append(f"{key}: significantly worse than {label}: {detail}")
        if failures:
            raise GateFailure(_listing(f"significantly worse ({how})", failures))
        return comparison


def _listing(title: str, lines: Sequence[str]) -> str:
    return "\n".join([f"{title}:", *(f"  {line}" for line in lines)])
