"""A built-in metric's tie-averaged values as evaluations compute them, for the checks that
call an ``expected`` form directly: a metric without one is averaged by the engine."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ef.evaluation import RetrievalMetric
from ef.evaluation._engine.measures import Measure
from ef.evaluation._engine.scoring import score_all
from ef.evaluation._hits import JudgedHits


def through_engine(metric: RetrievalMetric) -> Callable[..., list[float]]:
    """``metric``'s values as ``tie_policy="expected"`` scores them, for a metric without an
    expected form: the engine averages its batch form over the orders of the ties. Called as
    an expected form is, ``(hits, k, **params)``, and with the batch form's signature."""

    def expected(hits: JudgedHits, k: int | None, **params: object) -> list[float]:
        measure = Measure(metric, k).with_params(**params)
        ids = [f"q{i}" for i in range(hits.n_queries)]
        judged: list[dict[str, float]] = [{}] * hits.n_queries  # read by func forms only
        values = score_all([measure], ids, judged, hits, list, expected=True)
        return [float(v) for v in values.column(measure.key).tolist()]

    assert metric.expected is None, metric.name
    assert metric.batch is not None, metric.name
    expected.__name__ = f"{metric.name}_through_the_engine"
    expected.__signature__ = inspect.signature(metric.batch)  # type: ignore[attr-defined]
    return expected
