"""RETRIEVAL_METRICS: a read-only, lazily loaded name -> function view of the registry."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from .registry import get_registry

__all__ = ["RetrievalMetricsView"]

MetricFunction = Callable[[Sequence[str], Mapping[str, float], int], float]


class RetrievalMetricsView(Mapping[str, MetricFunction]):
    """The retrieval metrics of the default registry, built-ins and plugins alike.

    Reading it loads the plugins on first use (``import ef.evaluation`` does not). It is a
    ``Mapping``: there is no way to assign into it; add a metric with a plugin instead.

    >>> from ef.evaluation import RETRIEVAL_METRICS, ndcg_at_k
    >>> RETRIEVAL_METRICS["ndcg"] is ndcg_at_k
    True
    """

    def _functions(self) -> dict[str, MetricFunction]:
        return {name: m.func for name, m in get_registry().retrieval_metrics.items()}

    def __getitem__(self, name: str) -> MetricFunction:
        return get_registry().retrieval_metrics[name].func

    def __iter__(self) -> Iterator[str]:
        return iter(get_registry().retrieval_metrics)

    def __len__(self) -> int:
        return len(get_registry().retrieval_metrics)

    def __repr__(self) -> str:
        return repr(self._functions())
