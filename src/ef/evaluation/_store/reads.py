"""What the store's reads give: :class:`History` and :class:`Leaderboard`, reports like the
others (``tables()``, ``to_markdown()``, ``to_csv()``, ``to_json()``, ``to_pandas()``).

>>> from datetime import datetime, timezone
>>> when = datetime(2026, 12, 2, tzinfo=timezone.utc)
>>> board = Leaderboard.ranked(dataset="scifact", metric="ndcg@10", rows=[
...     Row(id=1, system="bm25", dataset="scifact", recorded_at=when, value=0.66),
...     Row(id=2, system="dense", dataset="scifact", recorded_at=when, value=0.70)])
>>> print(board.to_markdown(), end="")
**Leaderboard: ndcg@10 on scifact**
<BLANKLINE>
| rank | system | ndcg@10 | recorded | commit |
|---|---|---|---|---|
| 1 | dense | 0.7000 | 2026-12-02 00:00:00+00:00 | - |
| 2 | bm25 | 0.6600 | 2026-12-02 00:00:00+00:00 | - |
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import attrs

from .._render import Table, exact_number, number, pandas_module
from .._reports.fields import str_tuple
from .._reports.rendered import Rendered
from .schema import row_fields

__all__ = ["History", "Leaderboard", "Row", "resolve_key"]


def _rows(rows: Iterable[Row]) -> tuple[Row, ...]:
    return tuple(rows)


def _nan(value: float | None) -> float:
    return math.nan if value is None else float(value)


@attrs.frozen(kw_only=True)
class Row:
    """One recorded value of a metric: which record, system and dataset, when, and at which
    commit, with its tags."""

    id: int
    system: str
    dataset: str
    recorded_at: datetime
    value: float = attrs.field(converter=_nan)
    commit: str | None = None
    tags: tuple[str, ...] = attrs.field(default=(), converter=str_tuple)

    @classmethod
    def of(cls, row: Sequence[Any]) -> Row:
        """The row of the store's query (id, system, dataset, time, commit, tags, value)."""
        fields, value = row_fields(row)
        return cls(**fields, value=value)

    def to_dict(self) -> dict[str, Any]:
        """Plain values; the time as ISO 8601."""
        return {
            "id": self.id,
            "system": self.system,
            "dataset": self.dataset,
            "recorded_at": self.recorded_at.isoformat(),
            "value": self.value,
            "commit": self.commit,
            "tags": list(self.tags),
        }


def resolve_key(metric: str, known: Sequence[str]) -> str:
    """The stored key of ``metric``: itself, or the canonical key of the same measure in
    another syntax (``"nDCG@10"``, ``"ndcg_cut.10"``) when the store holds that one.

    Raises:
        ValueError: when the store holds metrics, and none is ``metric``: naming the
            closest and listing them (an empty store has no metric to name).

    >>> resolve_key("nDCG@10", ["ndcg@10", "recall@100"])
    'ndcg@10'
    >>> resolve_key("ndgc@10", ["ndcg@10", "recall@100"])
    Traceback (most recent call last):
        ...
    ValueError: no record holds the metric 'ndgc@10' (did you mean 'ndcg@10'?); the store \
holds ndcg@10, recall@100
    """
    if not isinstance(metric, str) or not metric:
        raise TypeError(f"a metric is a string such as 'ndcg@10', got {metric!r}")
    if metric in known or not known:
        return metric
    from .._engine.measures import parse_measure

    try:
        keys = [measure.key for measure in parse_measure(metric, k_values=(10,))]
    except ValueError:
        keys = []  # a typo, or a plugin's metric this process has not loaded
    if len(keys) == 1 and keys[0] in known:
        return keys[0]
    close = difflib.get_close_matches(metric, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    shown = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
    raise ValueError(f"no record holds the metric {metric!r}{hint}; the store holds {shown}")


def _commit(commit: str | None) -> str:
    return commit[:12] if commit else "-"


def _when(moment: datetime) -> str:
    return moment.isoformat(sep=" ", timespec="seconds")


def _frame(rows: Sequence[Row], columns: Sequence[str]) -> Any:
    pd = pandas_module()
    frame = pd.DataFrame([row.to_dict() for row in rows], columns=list(columns))
    frame["recorded_at"] = pd.to_datetime(frame["recorded_at"], utc=True, format="ISO8601")
    return frame


class _OneTable(Rendered):
    """A read's report: one table, drawn by ``_table(cell)`` with numbers written by
    ``cell``: rounded to show, at full precision for CSV."""

    __slots__ = ()

    def _table(self, cell: Any) -> Table:
        raise NotImplementedError

    def tables(self, *, details: bool = False) -> list[Table]:
        """One table: a row per record (:class:`History`) or per system, best first
        (:class:`Leaderboard`)."""
        return [self._table(number)]

    def csv_table(self, *, details: bool = False) -> Table:
        """The table at full precision."""
        return self._table(exact_number)

    def __str__(self) -> str:
        from .._render import plain_text

        return plain_text(self._table(number))


@attrs.frozen(kw_only=True)
class History(_OneTable):
    """A metric's recorded values over time (:meth:`Store.history`), oldest first."""

    metric: str
    system: str | None = None
    dataset: str | None = None
    rows: tuple[Row, ...] = attrs.field(converter=_rows)

    @property
    def title(self) -> str:
        scope = "".join(
            f" {word} {value}"
            for word, value in (("of", self.system), ("on", self.dataset))
            if value is not None
        )
        return f"History: {self.metric}{scope}, {len(self.rows)} records"

    def _table(self, cell: Any) -> Table:
        header = ["recorded", "system", "dataset", self.metric, "commit", "tags", "id"]
        rows = [
            [
                _when(row.recorded_at),
                row.system,
                row.dataset,
                cell(row.value),
                _commit(row.commit),
                ", ".join(row.tags),
                str(row.id),
            ]
            for row in self.rows
        ]
        return Table(header, rows, title=self.title, numeric=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain values: the metric, the filters, and a dict per record."""
        return {
            "metric": self.metric,
            "system": self.system,
            "dataset": self.dataset,
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_pandas(self) -> Any:
        """A :class:`pandas.DataFrame`, a row per record (``recorded_at`` a UTC time). Needs
        pandas."""
        return _frame(
            self.rows, ["recorded_at", "system", "dataset", "value", "commit", "tags", "id"]
        )


def _best_first(row: Row) -> tuple[bool, float, str]:
    return (math.isnan(row.value), -row.value if not math.isnan(row.value) else 0.0, row.system)


@attrs.frozen(kw_only=True)
class Leaderboard(_OneTable):
    """Each system's last recorded value of a metric on a dataset, best first
    (:meth:`Store.leaderboard`); a NaN (nothing scored) ranks last."""

    dataset: str
    metric: str
    rows: tuple[Row, ...] = attrs.field(converter=_rows)

    @classmethod
    def ranked(cls, *, dataset: str, metric: str, rows: Iterable[Row]) -> Leaderboard:
        """The leaderboard of ``rows`` (one per system), sorted best first."""
        return cls(dataset=dataset, metric=metric, rows=sorted(rows, key=_best_first))

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems, best first."""
        return tuple(row.system for row in self.rows)

    def _table(self, cell: Any) -> Table:
        header = ["rank", "system", self.metric, "recorded", "commit"]
        rows = [
            [str(rank), row.system, cell(row.value), _when(row.recorded_at), _commit(row.commit)]
            for rank, row in enumerate(self.rows, 1)
        ]
        title = f"Leaderboard: {self.metric} on {self.dataset}"
        return Table(header, rows, title=title, text_columns=2, numeric=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain values: the dataset, the metric, and a dict per system, best first."""
        return {
            "dataset": self.dataset,
            "metric": self.metric,
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_pandas(self) -> Any:
        """A :class:`pandas.DataFrame`, a row per system, best first. Needs pandas."""
        return _frame(self.rows, ["system", "value", "recorded_at", "commit", "tags", "id"])
