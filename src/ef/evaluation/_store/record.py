"""One recorded evaluation: the value the store writes, and the one its readers return.

The store, the leaderboard and history reads, the static site and the quality gates all
exchange this one value, so what a record holds is written down here only.

>>> from datetime import datetime, timezone
>>> from ef.evaluation import evaluate_run
>>> report = evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, metrics=["ndcg@10"])
>>> record = Record(system="bm25", dataset="demo", report=report,
...                 recorded_at=datetime(2026, 12, 2, tzinfo=timezone.utc))
>>> record.report.metrics["ndcg@10"]
1.0
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from .._reports.fields import str_tuple
from .._reports.retrieval import RetrievalEvalReport


def _aware(_instance: object, attribute: attrs.Attribute[Any], value: datetime) -> None:
    # A naive time read back on another machine would shift by its offset: refuse it.
    if value.tzinfo is None:
        raise ValueError(f"{attribute.name} must carry a time zone, got {value.isoformat()}")


@attrs.frozen(kw_only=True)
class Record:
    """An evaluation as the store keeps it.

    ``report`` carries the metrics, the per-query values and the manifest (the run and qrels
    digests, the parameters, the ties note and the skipped queries). ``id`` is the store's key,
    ``None`` before the record is written.
    """

    system: str = attrs.field(
        validator=attrs.validators.and_(
            attrs.validators.instance_of(str), attrs.validators.min_len(1)
        )
    )
    dataset: str = attrs.field(
        validator=attrs.validators.and_(
            attrs.validators.instance_of(str), attrs.validators.min_len(1)
        )
    )
    report: RetrievalEvalReport = attrs.field(
        validator=attrs.validators.instance_of(RetrievalEvalReport)
    )
    recorded_at: datetime = attrs.field(
        validator=attrs.validators.and_(attrs.validators.instance_of(datetime), _aware)
    )
    commit: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(str))
    )
    tags: tuple[str, ...] = attrs.field(
        default=(),
        converter=str_tuple,
        validator=attrs.validators.deep_iterable(attrs.validators.instance_of(str)),
    )
    id: int | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(int))
    )
