"""The outcome of an evaluation: frozen values with a dict form and a readable ``str()``."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import attrs

from .render import Rendered

__all__ = ["RagEvalReport", "RetrievalEvalReport", "TieDiagnostic"]

_KEY = re.compile(r"^(?P<name>.+)@(?P<k>\d+|all)$")


class FrozenDict(dict[str, Any]):
    """A dict that refuses changes: reports never change after they are made.

    It prints, compares and serialises (``json.dumps``) like the dict it copies.

    >>> metrics = FrozenDict({"ndcg@10": 0.5})
    >>> metrics
    {'ndcg@10': 0.5}
    >>> metrics["ndcg@10"] = 1.0
    Traceback (most recent call last):
        ...
    TypeError: report values are read-only; build a new report instead
    """

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("report values are read-only; build a new report instead")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict is unhashable; this one is not
        return hash(tuple(self.items()))

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, Any]]]:
        # Rebuilt from a plain dict: pickle and copy would otherwise set items one by one.
        return (type(self), (dict(self),))


def _frozen_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return FrozenDict(value)


def _frozen_nested(value: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    return FrozenDict({key: FrozenDict(inner) for key, inner in value.items()})


def _frozen_series(
    value: Mapping[str, Iterable[float | None]],
) -> Mapping[str, tuple[float | None, ...]]:
    return FrozenDict({key: tuple(series) for key, series in value.items()})


def _frozen_deep(value: Any) -> Any:
    """Mappings as FrozenDicts and lists as tuples, all the way down (a manifest)."""
    if isinstance(value, Mapping):
        return FrozenDict({key: _frozen_deep(inner) for key, inner in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen_deep(inner) for inner in value)
    return value


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _plain(value: Any) -> Any:
    """Mappings and tuples as dicts and lists: what ``json.dumps`` accepts."""
    if isinstance(value, Mapping):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(inner) for inner in value]
    return value


def _table(rows: Iterable[tuple[str, ...]]) -> str:
    rows = list(rows)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    )


@attrs.frozen
class TieDiagnostic:
    """Where tied scores could change a retrieval report: which scored queries have docs with
    equal scores (``tied``), ties across one of the report's cutoffs (``at_cutoff``: the docs
    at ranks ``k`` and ``k + 1`` tie, so which one counts depends on the tie policy), and
    ties between a relevant doc and a doc of another grade or an unjudged one
    (``at_relevant``). ``policy`` is the tie policy the report used.

    >>> ties = TieDiagnostic(policy="trec_eval", tied=["q1", "q2"], at_cutoff=["q2"])
    >>> str(ties)
    'ties (trec_eval): 2 queries with tied scores, 1 across a cutoff, 0 at a relevant doc'
    """

    policy: str = "trec_eval"
    tied: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    at_cutoff: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    at_relevant: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``."""
        return {
            "policy": self.policy,
            "tied": list(self.tied),
            "at_cutoff": list(self.at_cutoff),
            "at_relevant": list(self.at_relevant),
        }

    def __str__(self) -> str:
        return (
            f"ties ({self.policy}): {len(self.tied)} queries with tied scores, "
            f"{len(self.at_cutoff)} across a cutoff, {len(self.at_relevant)} at a relevant doc"
        )


def _tie_diagnostic(value: TieDiagnostic | Mapping[str, Any]) -> TieDiagnostic:
    return value if isinstance(value, TieDiagnostic) else TieDiagnostic(**value)


@attrs.frozen
class RetrievalEvalReport(Rendered):
    """The outcome of :func:`~ef.evaluation.evaluate_retrieval`: metrics over a query set.

    ``metrics`` maps a ``"<name>@<k>"`` key (e.g. ``"ndcg@10"``) to the mean of that metric
    over every scored query; ``per_query`` keeps the same keys per query for drill-down.
    ``n_queries`` is how many queries were actually scored (a query with no positive
    judgement is skipped); ``skipped`` maps each judged query that was not scored to why.

    >>> report = RetrievalEvalReport(
    ...     metrics={'ndcg@10': 0.83}, per_query={}, n_queries=12, k_values=(10,))
    >>> report.primary
    0.83
    """

    metrics: Mapping[str, float] = attrs.field(converter=_frozen_mapping)
    per_query: Mapping[str, Mapping[str, float]] = attrs.field(converter=_frozen_nested)
    n_queries: int
    k_values: tuple[int, ...] = attrs.field(converter=_int_tuple)
    #: Judged queries that were not scored, each with the reason.
    skipped: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_mapping, kw_only=True)
    #: Judged queries the run did not answer (scored 0, or skipped under the intersection).
    missing: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple, kw_only=True)
    #: Queries the run answered that have no judgements (never scored).
    extra: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple, kw_only=True)
    #: How the report was made, to make it again: versions, metric parameters, policies and
    #: the sha256 of the input files (see :doc:`/compare`). Empty for a report built by hand;
    #: not compared by ``==`` (two reports with the same numbers are equal).
    manifest: Mapping[str, Any] = attrs.field(
        factory=dict, converter=_frozen_deep, kw_only=True, eq=False
    )
    #: Which queries tied scores could change, and the tie policy used (:doc:`/semantics`);
    #: like the manifest, not compared by ``==``.
    ties: TieDiagnostic = attrs.field(
        factory=TieDiagnostic, converter=_tie_diagnostic, kw_only=True, eq=False
    )

    @property
    def primary(self) -> float | None:
        """The headline number: mean NDCG@10, or None if it was not computed."""
        return self.primary_at(10)

    def primary_at(self, k: int) -> float | None:
        """Mean NDCG at cutoff ``k``; None if NDCG@``k`` was not computed.

        >>> RetrievalEvalReport({'ndcg@1': 0.5}, {}, 2, (1,)).primary_at(1)
        0.5
        """
        return self.metrics.get(f"ndcg@{k}")

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``.

        >>> RetrievalEvalReport({'ndcg@1': 0.5}, {'q1': {'ndcg@1': 0.5}}, 1, (1,)).to_dict()
        {'metrics': {'ndcg@1': 0.5}, 'per_query': {'q1': {'ndcg@1': 0.5}}, 'n_queries': 1, \
'k_values': [1], 'skipped': {}, 'missing': [], 'extra': [], 'manifest': {}, \
'ties': {'policy': 'trec_eval', 'tied': [], 'at_cutoff': [], 'at_relevant': []}}
        """
        return {
            "metrics": _plain(self.metrics),
            "per_query": _plain(self.per_query),
            "n_queries": self.n_queries,
            "k_values": list(self.k_values),
            "skipped": _plain(self.skipped),
            "missing": list(self.missing),
            "extra": list(self.extra),
            "manifest": _plain(self.manifest),
            "ties": self.ties.to_dict(),
        }

    def grid(self) -> tuple[list[str], dict[str, dict[str, float]]]:
        """The means as a grid: the columns (each cutoff, then ``"all"`` if some measure
        covers the whole ranking, as ``"map@all"`` or ``"rprec"``) and ``{name: {column:
        value}}``.

        >>> RetrievalEvalReport({"ndcg@10": 0.5, "rprec": 0.25}, {}, 1, (10,)).grid()
        (['10', 'all'], {'ndcg': {'10': 0.5}, 'rprec': {'all': 0.25}})
        """
        table: dict[str, dict[str, float]] = {}
        for key, value in self.metrics.items():
            match = _KEY.match(key)
            name, k = (match["name"], match["k"]) if match else (key, "all")
            table.setdefault(name, {})[k] = value
        columns = [str(k) for k in self.k_values]
        if any("all" in cells for cells in table.values()):
            columns.append("all")
        return columns, table

    def __str__(self) -> str:
        # One row per metric, one column per cutoff, and "all" for the whole ranking.
        columns, table = self.grid()
        header = ("metric", *(f"@{k}" if k != "all" else "all" for k in columns))
        rows = [header]
        for name, values in table.items():
            cells = [values.get(k) for k in columns]
            rows.append((name, *("-" if v is None else f"{v:.4f}" for v in cells)))
        names = table
        notes = [
            f"{len(values)} {label}"
            for values, label in (
                (self.skipped, "skipped"),
                (self.missing, "missing from the run"),
                (self.extra, "unjudged in the run"),
            )
            if values
        ]
        extra = f" ({', '.join(notes)})" if notes else ""
        title = f"Retrieval evaluation: {self.n_queries} queries scored{extra}"
        text = f"{title}\n{_table(rows)}" if names else title
        if self.ties.at_cutoff or self.ties.at_relevant:
            text += f"\n{self.ties}"  # the numbers depend on the tie policy: say so
        return text


@attrs.frozen
class RagEvalReport(Rendered):
    """The outcome of :func:`~ef.evaluation.evaluate_rag`: lexical RAG metrics over samples.

    ``metrics`` maps each metric to its mean over the samples it applied to; ``coverage``
    records how many samples that was (a metric needing a reference skips samples without
    one). ``n_samples`` is the total scored. ``per_sample`` holds each metric's value per
    sample, in input order, with ``None`` where the metric did not apply; ``sample_ids`` names
    the samples in that order (a sample's ``id`` key, else its index).

    >>> report = RagEvalReport(
    ...     metrics={'exact_match': 0.5}, coverage={'exact_match': 4}, n_samples=4)
    >>> report.metrics['exact_match']
    0.5
    """

    metrics: Mapping[str, float | None] = attrs.field(converter=_frozen_mapping)
    coverage: Mapping[str, int] = attrs.field(converter=_frozen_mapping)
    n_samples: int
    per_sample: Mapping[str, tuple[float | None, ...]] = attrs.field(
        factory=dict,
        converter=_frozen_series,
        kw_only=True,
    )
    sample_ids: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple, kw_only=True)
    #: How the report was made, to make it again: versions, metric parameters, policies and
    #: the sha256 of the input files (see :doc:`/compare`). Empty for a report built by hand;
    #: not compared by ``==`` (two reports with the same numbers are equal).
    manifest: Mapping[str, Any] = attrs.field(
        factory=dict, converter=_frozen_deep, kw_only=True, eq=False
    )

    @classmethod
    def from_values(
        cls, per_sample: Mapping[str, Sequence[float | None]], sample_ids: Sequence[str]
    ) -> RagEvalReport:
        """The report of per-sample values: ``None`` marks a sample a metric did not score.

        Each mean is over the scored samples only, and ``coverage`` counts them.

        >>> report = RagEvalReport.from_values({"token_f1": [1.0, None, 0.5]}, ["a", "b", "c"])
        >>> report.metrics["token_f1"], report.coverage["token_f1"], report.n_samples
        (0.75, 2, 3)
        """
        coverage = {name: sum(v is not None for v in values) for name, values in per_sample.items()}
        means = {
            name: math.fsum(v for v in values if v is not None) / coverage[name]
            if coverage[name]
            else None
            for name, values in per_sample.items()
        }
        return cls(
            metrics=means,
            coverage=coverage,
            n_samples=len(sample_ids),
            per_sample=per_sample,
            sample_ids=sample_ids,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``.

        >>> RagEvalReport({'token_f1': 1.0}, {'token_f1': 1}, 1).to_dict()['coverage']
        {'token_f1': 1}
        """
        return {
            "metrics": _plain(self.metrics),
            "coverage": _plain(self.coverage),
            "n_samples": self.n_samples,
            "per_sample": _plain(self.per_sample),
            "sample_ids": list(self.sample_ids),
            "manifest": _plain(self.manifest),
        }

    def __str__(self) -> str:
        rows = [("metric", "mean", "coverage")]
        for name, value in self.metrics.items():
            mean = "-" if value is None else f"{value:.4f}"
            rows.append((name, mean, f"{self.coverage.get(name, 0)}/{self.n_samples}"))
        return f"RAG evaluation: {self.n_samples} samples\n{_table(rows)}"
