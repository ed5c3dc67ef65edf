"""RetrievalEvalReport: the outcome of evaluate_retrieval() and evaluate_run()."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .._engine.syntax import resolve_key
from .._engine.syntax.ours import split_key
from .._engine.ties import TieDiagnostic
from .._render import Table, number, pandas_module, plain_text, some
from ..types import frozen_deep, plain
from .fields import (
    brief_metrics,
    field_of,
    frozen_mapping,
    frozen_nested,
    int_tuple,
    mapping_of,
    numbers_of,
    str_tuple,
    tie_diagnostic_of,
)
from .rendered import Summarized

__all__ = ["RetrievalEvalReport", "per_query_table", "tie_note"]

_KEY = re.compile(r"^(?P<name>.+)@(?P<k>\d+|all)$")


def _plural(count: int) -> str:
    return f"{count} query" if count == 1 else f"{count} queries"


def per_query_table(
    per_query: Mapping[str, Mapping[str, float | None]],
    keys: Sequence[str],
    cell: Callable[[float | None], str],
) -> Table:
    """The ``per query`` table: a row per query, its value of each of ``keys`` shown by
    ``cell`` (a key the query lacks is ``cell(None)``).

    >>> per_query_table({"q1": {"ndcg@10": 0.5}}, ["ndcg@10", "map@all"], number).rows
    (('q1', '0.5000', '-'),)
    """
    rows = [[qid, *(cell(values.get(key)) for key in keys)] for qid, values in per_query.items()]
    return Table(["query", *keys], rows, title="per query")


def tie_note(ties: TieDiagnostic, *, cli: bool = False) -> str | None:
    """What to say of the ties, or None if no number depends on them: the counts, the
    queries affected (the first five), and with a policy that picks one order, the policy
    that does not (``--ties expected`` in the shell, ``tie_policy="expected"`` in Python).

    >>> print(tie_note(TieDiagnostic(tied=["q1", "q2"], at_cutoff=["q2"]), cli=True))
    ties (trec_eval): 2 queries with tied scores, 1 across a cutoff, 0 at a relevant doc \
(affected: q2); --ties expected averages each metric over every order of the tied docs
    """
    affected = list(dict.fromkeys((*ties.at_cutoff, *ties.at_relevant)))
    if not affected:
        return None
    text = f"{ties} (affected: {some(affected)})"
    if ties.policy != "expected":  # one order of many was scored: say how to average them
        option = "--ties expected" if cli else 'tie_policy="expected"'
        text += f"; {option} averages each metric over every order of the tied docs"
    return text


@attrs.frozen(repr=False)  # attrs' repr would print every query's values
class RetrievalEvalReport(Summarized):
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

    metrics: Mapping[str, float] = attrs.field(converter=frozen_mapping)
    per_query: Mapping[str, Mapping[str, float]] = attrs.field(converter=frozen_nested)
    n_queries: int
    k_values: tuple[int, ...] = attrs.field(converter=int_tuple)
    #: Judged queries that were not scored, each with the reason.
    skipped: Mapping[str, str] = attrs.field(factory=dict, converter=frozen_mapping, kw_only=True)
    #: Judged queries the run did not answer (scored 0, or skipped under the intersection).
    missing: tuple[str, ...] = attrs.field(default=(), converter=str_tuple, kw_only=True)
    #: Queries the run answered that have no judgements (never scored).
    extra: tuple[str, ...] = attrs.field(default=(), converter=str_tuple, kw_only=True)
    #: How the report was made, to make it again: versions, metric parameters, policies and
    #: the sha256 of the input files (see :doc:`/compare`). Empty for a report built by hand;
    #: not compared by ``==`` (two reports with the same numbers are equal).
    manifest: Mapping[str, Any] = attrs.field(
        factory=dict, converter=frozen_deep, kw_only=True, eq=False
    )
    #: Which queries tied scores could change, and the tie policy used (:doc:`/semantics`);
    #: like the manifest, not compared by ``==``.
    ties: TieDiagnostic = attrs.field(
        factory=TieDiagnostic, converter=tie_diagnostic_of, kw_only=True, eq=False
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

    def metric_key(self, name: str) -> str:
        """The key of :attr:`metrics` that ``name`` stands for, spelled as ef-evaluation,
        ir_measures (``nDCG@10``), trec_eval or pytrec_eval (``ndcg_cut.10``,
        ``ndcg_cut_10``, ``P_5``, ``map``), ranx (``map@100-l2``) or BEIR (``NDCG@10``,
        ``R_cap@10``) spell it.

        Raises:
            KeyError: if ``name`` stands for none of the keys, or for several; the message
                gives its key in our spelling and the keys the report holds.

        >>> report = RetrievalEvalReport({'ndcg@10': 0.5, 'map@all': 0.25}, {}, 1, (10,))
        >>> report.metric_key('ndcg_cut_10'), report.metric_key('map')
        ('ndcg@10', 'map@all')
        """
        from .._engine._diversity import is_diversity_spec  # for this lookup only

        if is_diversity_spec(name) and name not in self.metrics:  # alpha_nDCG@20, NRBP
            return self._diversity_key(name)
        return resolve_key(name, list(self.metrics), k_values=self.k_values)

    def _diversity_key(self, name: str) -> str:
        """The key of the diversity measure ``name`` (ir_measures' or ndeval's spelling)."""
        from .._engine._diversity import parse_diversity_measure

        try:
            keys = [spec.key for spec in parse_diversity_measure(name, self.k_values)]
        except ValueError as exc:
            raise KeyError(f"{name!r} names no measure ({exc})") from None
        found = [key for key in keys if key in self.metrics]
        if len(found) == 1:
            return found[0]
        holds = ", ".join(self.metrics) or "no metric"
        if found:
            raise KeyError(f"{name!r} could be any of {', '.join(found)} in this report")
        raise KeyError(
            f"{name!r} is {', '.join(keys)} in ef-evaluation's spelling, which this report "
            f"does not hold; it holds {holds}"
        )

    def metric(self, name: str, query_id: str | None = None) -> float:
        """The mean of the measure ``name`` stands for in any tool's spelling (see
        :meth:`metric_key`), or its value for ``query_id``; :attr:`metrics` keeps our keys.

        >>> report = RetrievalEvalReport({'ndcg@10': 0.5}, {'q1': {'ndcg@10': 0.5}}, 1, (10,))
        >>> report.metric('nDCG@10'), report.metric('ndcg_cut.10', 'q1')
        (0.5, 0.5)
        >>> report.metric('P@5')
        Traceback (most recent call last):
            ...
        KeyError: "'P@5' is precision@5 in ef-evaluation's spelling, which this report does \
not hold; it holds ndcg@10"
        """
        key = self.metric_key(name)
        if query_id is None:
            return self.metrics[key]
        if query_id not in self.per_query:
            raise KeyError(
                f"no query {query_id!r} in this report's per_query ({len(self.per_query)} queries)"
            )
        return self.per_query[query_id][key]

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``.

        >>> RetrievalEvalReport({'ndcg@1': 0.5}, {'q1': {'ndcg@1': 0.5}}, 1, (1,)).to_dict()
        {'metrics': {'ndcg@1': 0.5}, 'per_query': {'q1': {'ndcg@1': 0.5}}, 'n_queries': 1, \
'k_values': [1], 'skipped': {}, 'missing': [], 'extra': [], 'manifest': {}, \
'ties': {'policy': 'trec_eval', 'tied': [], 'at_cutoff': [], 'at_relevant': []}}
        """
        return {
            "metrics": plain(self.metrics),
            "per_query": plain(self.per_query),
            "n_queries": self.n_queries,
            "k_values": list(self.k_values),
            "skipped": plain(self.skipped),
            "missing": list(self.missing),
            "extra": list(self.extra),
            "manifest": plain(self.manifest),
            "ties": self.ties.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RetrievalEvalReport:
        """The report of a :meth:`to_dict` form, or of its JSON (where NaN is null).

        >>> report = RetrievalEvalReport({'ndcg@1': 0.5}, {'q1': {'ndcg@1': 0.5}}, 1, (1,))
        >>> RetrievalEvalReport.from_dict(report.to_dict()) == report
        True
        """
        what = "RetrievalEvalReport"
        per_query = mapping_of(field_of(data, "per_query", what), "per_query")
        return cls(
            metrics=numbers_of(field_of(data, "metrics", what), "metrics"),
            per_query={q: numbers_of(v, f"per_query[{q!r}]") for q, v in per_query.items()},
            n_queries=field_of(data, "n_queries", what),
            k_values=field_of(data, "k_values", what),
            skipped=data.get("skipped", {}),
            missing=data.get("missing", ()),
            extra=data.get("extra", ()),
            manifest=data.get("manifest", {}),
            ties=data.get("ties", {}),
        )

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
        # In numeric order, whatever order the measures were asked in (@5 @30 @100, not
        # @5 @100 @30); a cutoff only a key names (k_values given by hand) is shown too.
        cutoffs = {
            *self.k_values,
            *(int(k) for cells in table.values() for k in cells if k != "all"),
        }
        columns = [str(k) for k in sorted(cutoffs)]
        if any("all" in cells for cells in table.values()):
            columns.append("all")
        return columns, table

    def tables(self, *, details: bool = False) -> list[Table]:
        """The tables that show this report: the means (a row per metric, a column per
        cutoff), then with ``details`` the values per query.

        >>> report = RetrievalEvalReport({"ndcg@10": 0.5}, {"q1": {"ndcg@10": 0.5}}, 1, (10,))
        >>> [table.title for table in report.tables(details=True)]
        ['Retrieval evaluation: 1 queries scored', 'per query']
        """
        return self._tables(details, number)

    def _tables(self, details: bool, cell: Callable[[float | None], str]) -> list[Table]:
        columns, by_name = self.grid()
        summary = Table(
            ["metric", *(f"@{k}" if k != "all" else "all" for k in columns)],
            [[name, *(cell(v.get(k)) for k in columns)] for name, v in by_name.items()],
            title=str(self).splitlines()[0],
            # the numbers depend on the tie policy: every output says so, as str() does
            notes=[*self.coverage_notes(), *self._notes(), *filter(None, [tie_note(self.ties)])],
        )
        if not details:
            return [summary]
        return [summary, per_query_table(self.per_query, self.ordered_keys(), cell)]

    def coverage_notes(self, *, unjudged: bool = True) -> list[str]:
        """The judged queries that were not scored, or scored 0, and the unjudged ones:
        the first few ids (with the reason of a skip), then how many more. ``unjudged=False``
        leaves out the unjudged queries, which change no number.

        >>> RetrievalEvalReport({}, {}, 1, (), missing=["q2"]).coverage_notes()
        ['Missing from the run: 1 query: q2.']
        """
        averaging = self.manifest.get("averaging")
        fate = {None: "", "qrels": " (scored 0)"}.get(averaging, " (not scored)")
        skipped = [f"{qid} ({why})" for qid, why in self.skipped.items()]
        notes = []
        for items, label in (
            (skipped, "Skipped (not scored)"),
            (list(self.missing), f"Missing from the run{fate}"),
            (list(self.extra) if unjudged else [], "Unjudged in the run (never scored)"),
        ):
            if items:
                notes.append(f"{label}: {_plural(len(items))}: {some(items)}.")
        return notes

    def _notes(self) -> list[str]:
        """What the evaluation noted of its inputs (the grades read from subtopic qrels)."""
        return [str(note) for note in self.manifest.get("notes", ())]

    def ordered_keys(self) -> list[str]:
        """The metric keys as the tables show them: by metric, each metric's cutoffs in
        numeric order, ``@all`` (or none) last.

        >>> RetrievalEvalReport({"p@100": 1, "ndcg@30": 1, "p@5": 1}, {}, 1, ()).ordered_keys()
        ['p@5', 'p@100', 'ndcg@30']
        """
        names: dict[str, None] = {}
        order = []
        for key in self.metrics:
            match = _KEY.match(key)
            name, k = (match["name"], match["k"]) if match else (key, "all")
            names.setdefault(name)
            rank = math.inf if k == "all" else int(k)
            order.append((list(names).index(name), rank, key))
        return [key for *_, key in sorted(order)]

    def to_pandas(self, *, details: bool = False) -> Any:
        """The means as a :class:`pandas.DataFrame` (a row per metric, a column per cutoff),
        or with ``details`` the values per query, a row each. Needs pandas."""
        pd = pandas_module()
        if details:
            frame = pd.DataFrame.from_dict(dict(self.per_query), orient="index")
            return frame.rename_axis("query_id")
        cells: dict[str, dict[str, float]] = {}
        for key, value in self.metrics.items():
            name, k = split_key(key)
            cells.setdefault(name, {})[f"@{k}"] = value
        return pd.DataFrame.from_dict(cells, orient="index").rename_axis("metric")

    def __repr__(self) -> str:
        # A few lines whatever the size: str() (and the tables) hold the rest.
        counts = [
            f"{len(values)} {label}"
            for values, label in ((self.skipped, "skipped"), (self.missing, "missing"))
            if values
        ]
        size = f"{self.n_queries} queries" + (f" ({', '.join(counts)})" if counts else "")
        policies = [f"ties {self.ties.policy}"]
        if "averaging" in self.manifest:
            policies.append(f"averaging {self.manifest['averaging']}")
        means = brief_metrics(self.metrics, first="ndcg@10")
        return f"<RetrievalEvalReport: {size}, {means}; {'; '.join(policies)}>"

    def __str__(self) -> str:
        lines = [self._title()]
        grid = self._grid_table()
        if grid is not None:
            lines.append(plain_text(grid))
        lines += self.coverage_notes()
        lines += self._notes()
        ties = tie_note(self.ties)
        if ties is not None:
            lines.append(ties)  # the numbers depend on the tie policy: say so
        return "\n".join(lines)

    def _title(self) -> str:
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
        return f"Retrieval evaluation: {self.n_queries} queries scored{extra}"

    def _grid_table(self) -> Table | None:
        """One row per metric, one column per cutoff, and "all" for the whole ranking; None
        without a metric."""
        columns, table = self.grid()
        if not table:
            return None
        header = ("metric", *(f"@{k}" if k != "all" else "all" for k in columns))
        rows = [
            (name, *("-" if v is None else f"{v:.4f}" for v in (values.get(k) for k in columns)))
            for name, values in table.items()
        ]
        return Table(header, rows)
