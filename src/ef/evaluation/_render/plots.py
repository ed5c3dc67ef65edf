"""Plots of a :class:`~ef.evaluation.ComparisonReport`, for people who would rather look.

* :func:`plot_differences`: the per-query difference between two systems, sorted, so that
  the wins, ties and losses show as the bars above, on and below the zero line;
* :func:`plot_distribution`: each system's per-query values of a metric as a box or violin
  plot, with the mean marked.

Both return a :class:`matplotlib.figure.Figure` and write it to ``path`` if one is given
(the format follows the suffix: ``.png``, ``.pdf``, ``.svg``). They build the figure without
pyplot, so no GUI backend is touched and nothing is left open. matplotlib is optional:
``pip install "ef-evaluation[plot]"``.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..errors import MissingDependencyError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from matplotlib.figure import Figure

__all__ = ["plot_differences", "plot_distribution"]


class Compared(Protocol):
    """What the plots read of a :class:`~ef.evaluation.ComparisonReport` (they know no
    report class: the report calls them)."""

    @property
    def systems(self) -> Sequence[str]: ...

    @property
    def metrics(self) -> Sequence[str]: ...

    @property
    def kind(self) -> str: ...

    @property
    def comparisons(self) -> Sequence[Any]: ...

    @property
    def scores(self) -> Mapping[str, Mapping[str, Sequence[float | None]]]: ...

    def pair(self, a: str, b: str, metric: str | None = None) -> Any: ...


_UP, _DOWN, _EVEN = "#2a7f62", "#c0392b", "#7f8c8d"


def _figure(width: float, height: float) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingDependencyError(
            'plots need matplotlib: pip install "ef-evaluation[plot]" '
            f"(or pip install 'matplotlib>=3.8'); importing it failed: {exc}"
        ) from exc
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(figure: Figure, path: str | os.PathLike[str] | None) -> Figure:
    if path is not None:
        figure.savefig(os.fspath(path))
    return figure


def _metric(report: Compared, metric: str | None) -> str:
    if metric is None:
        return report.metrics[0]
    if metric not in report.metrics:
        raise ValueError(
            f"metric {metric!r} is not in the report; its metrics are {', '.join(report.metrics)}"
        )
    return metric


def _system(report: Compared, name: str) -> str:
    if name not in report.systems:
        raise ValueError(
            f"system {name!r} is not in the report; its systems are {', '.join(report.systems)}"
        )
    return name


def _paired(report: Compared, metric: str, names: list[str]) -> list[list[float]]:
    """The values of ``names`` over the ids where all of them have one."""
    columns = [report.scores[name][metric] for name in names]
    rows = [values for values in zip(*columns, strict=True) if None not in values]
    return [[float(row[i]) for row in rows] for i in range(len(names))]


def plot_differences(
    report: Compared,
    a: str | None = None,
    b: str | None = None,
    metric: str | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
) -> Figure:
    """The per-query difference ``b - a`` on ``metric``, one bar per query, sorted.

    Defaults: the first comparison of the report (the baseline and the first other system,
    or the first two systems) on its first metric. The title gives the mean difference, the
    wins, ties and losses, and the test's p-value if the report tested that pair.

    >>> from ef.evaluation import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
    >>> report = compare({"x": {"q1": ["d1"], "q2": ["d2", "x"], "q3": ["x", "d3"]},
    ...                   "y": {"q1": ["x", "d1"], "q2": ["d2"], "q3": ["d3"]}},
    ...                  qrels, metrics=("mrr@10",), seed=0)
    >>> figure = plot_differences(report)
    >>> figure.axes[0].get_ylabel()
    'mrr@10: y - x'
    """
    metric = _metric(report, metric)
    a, b = _two_systems(report, a, b)
    values_a, values_b = _paired(report, metric, [a, b])
    differences = sorted(y - x for x, y in zip(values_a, values_b, strict=True))
    colours = [_UP if d > 0 else _DOWN if d < 0 else _EVEN for d in differences]
    figure = _figure(8, 4.5)
    axes = figure.add_subplot()
    axes.bar(range(len(differences)), differences, width=1.0, color=colours, linewidth=0)
    axes.axhline(0, color="black", linewidth=0.8)
    mean = sum(differences) / len(differences)
    axes.axhline(mean, color=_UP if mean > 0 else _DOWN, linewidth=1, linestyle="--")
    unit = "samples" if report.kind == "rag" else "queries"
    axes.set_xlabel(f"{unit}, sorted by difference ({len(differences)})")
    axes.set_ylabel(f"{metric}: {b} - {a}")
    axes.set_xlim(-0.5, len(differences) - 0.5)
    axes.set_title(_differences_title(report, a, b, metric, differences), fontsize="medium")
    return _save(figure, path)


def _two_systems(report: Compared, a: str | None, b: str | None) -> tuple[str, str]:
    """The systems ``a`` and ``b`` (by default, those of the report's first comparison),
    refused if they are one."""
    first = report.comparisons[0]
    a = first.a if a is None else _system(report, a)
    b = first.b if b is None else _system(report, b)
    if a == b:
        raise ValueError(f"plot_differences needs two different systems, got {a!r} twice")
    return a, b


def _differences_title(
    report: Compared, a: str, b: str, metric: str, differences: list[float]
) -> str:
    """The mean difference, the wins, ties and losses, and the p-value if the pair was tested."""
    mean = sum(differences) / len(differences)
    counts = [sum(d > 0 for d in differences), sum(d == 0 for d in differences)]
    title = (
        f"{b} vs {a} on {metric}: mean {mean:+.4f}, {counts[0]} up / {counts[1]} tied / "
        f"{len(differences) - sum(counts)} down"
    )
    with contextlib.suppress(KeyError):  # a pair the report did not test: no p-value
        title += f", p = {report.pair(a, b, metric).p_value:.3g}"
    return title


def plot_distribution(
    report: Compared,
    metric: str | None = None,
    *,
    kind: Literal["box", "violin"] = "box",
    path: str | os.PathLike[str] | None = None,
) -> Figure:
    """Each system's per-query values of ``metric`` (the first by default), side by side,
    as a ``"box"`` or ``"violin"`` plot; a diamond marks each mean.

    >>> from ef.evaluation import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
    >>> report = compare({"x": {"q1": ["d1"], "q2": ["d2", "x"], "q3": ["x", "d3"]},
    ...                   "y": {"q1": ["x", "d1"], "q2": ["d2"], "q3": ["d3"]}},
    ...                  qrels, metrics=("mrr@10",), seed=0)
    >>> [label.get_text() for label in plot_distribution(report).axes[0].get_xticklabels()]
    ['x', 'y']
    """
    metric = _metric(report, metric)
    if kind not in ("box", "violin"):
        raise ValueError(f"kind must be 'box' or 'violin', got {kind!r}")
    names = list(report.systems)
    columns = _paired(report, metric, names)
    figure = _figure(max(4.0, 1.2 * len(names) + 2), 4.5)
    axes = figure.add_subplot()
    positions = list(range(1, len(names) + 1))
    options: dict[str, Any] = {"positions": positions}
    if kind == "box":
        axes.boxplot(columns, **options, tick_labels=names, showfliers=True)
    else:
        axes.violinplot(columns, **options, showmedians=True)
        axes.set_xticks(positions, names)
    axes.scatter(
        positions,
        [sum(c) / len(c) for c in columns],
        marker="D",
        color="black",
        zorder=3,
        label="mean",
    )
    axes.set_ylabel(metric)
    axes.set_title(f"{metric} per {'sample' if report.kind == 'rag' else 'query'}")
    axes.legend(loc="best", fontsize="small")
    if len(names) > 4:
        axes.tick_params(axis="x", labelrotation=20)
    return _save(figure, path)
