"""The latency of a retriever: its calls timed, and their mean, median and 95th percentile.

An experiment times the retriever's own call and nothing else: not the adapter's mapping of
results to doc ids, not the scoring. :func:`timed` wraps the batch or per-query function of
a :class:`~ef.evaluation._engine.retrieve.Searcher` so that each call records how many
queries it answered and how long it took, by a clock (``time.perf_counter`` unless one is
given, so that tests can inject theirs). :meth:`Latency.of_calls` turns those records into
the numbers a report shows.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:  # reports import Latency: the engine's retrieving is imported by timed() only
    from .retrieve import Searcher

__all__ = ["Calls", "Clock", "Latency", "percentile", "timed"]

#: A clock in seconds: ``time.perf_counter`` unless a test gives its own.
Clock = Callable[[], float]


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0 to 100) of ``ordered``, sorted ascending, by linear
    interpolation between the closest ranks: numpy's default method (``"linear"``) and
    ``statistics.quantiles(method="inclusive")``.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 95)
    (2.5, 3.85)
    """
    if not ordered:
        raise ValueError("percentile of no values")
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _summary(values: Sequence[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    return math.fsum(ordered) / len(ordered), percentile(ordered, 50), percentile(ordered, 95)


def _non_negative(instance: object, attribute: attrs.Attribute[Any], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError(f"{attribute.name} must be a number of seconds >= 0, got {value!r}")


def _optional_non_negative(
    instance: object, attribute: attrs.Attribute[Any], value: float | None
) -> None:
    if value is not None:
        _non_negative(instance, attribute, value)


_count = attrs.validators.and_(attrs.validators.instance_of(int), attrs.validators.ge(1))


@attrs.frozen(kw_only=True)
class Latency:
    """How long a retriever took, per query: the mean, the median (``p50``) and the 95th
    percentile (``p95``), in seconds, over ``queries`` queries.

    Each query timed alone (``batch_size`` 1, ``executor`` None) is the plain case. A call
    that answers a batch of ``n`` queries gives each of them ``1/n`` of its time; then
    ``batch_mean``, ``batch_p50`` and ``batch_p95`` hold the time per call, over ``calls``
    calls. ``executor`` says where the calls ran (``None``: one after another here), since
    calls that overlap on threads share the machine.

    >>> latency = Latency.of_calls([(1, 0.010), (1, 0.030), (1, 0.020)], batch_size=1)
    >>> round(latency.mean, 6), round(latency.p50, 6), latency.queries, latency.batched
    (0.02, 0.02, 3, False)
    >>> batched = Latency.of_calls([(2, 0.040), (1, 0.010)], batch_size=2)
    >>> round(batched.mean, 6), round(batched.batch_mean, 6), batched.describe()
    (0.016667, 0.025, 'in batches of 2, one call after another')
    """

    mean: float = attrs.field(validator=_non_negative)
    p50: float = attrs.field(validator=_non_negative)
    p95: float = attrs.field(validator=_non_negative)
    queries: int = attrs.field(validator=_count)
    calls: int = attrs.field(validator=_count)
    batch_size: int = attrs.field(default=1, validator=_count)
    #: ``None`` (inline), or how the calls ran: ``"4 threads"``, ``"ThreadPoolExecutor"``.
    executor: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(str))
    )
    batch_mean: float | None = attrs.field(default=None, validator=_optional_non_negative)
    batch_p50: float | None = attrs.field(default=None, validator=_optional_non_negative)
    batch_p95: float | None = attrs.field(default=None, validator=_optional_non_negative)

    @property
    def batched(self) -> bool:
        """Whether the calls were not each one query timed alone: batches or an executor."""
        return self.batch_mean is not None

    @classmethod
    def of_calls(
        cls,
        calls: Sequence[tuple[int, float]],
        *,
        batch_size: int,
        executor: str | None = None,
    ) -> Latency:
        """The latency of ``calls``, each ``(queries answered, seconds)``."""
        if not calls:
            raise ValueError("no retriever call was timed")
        per_query = [seconds / n for n, seconds in calls for _ in range(n)]
        mean, p50, p95 = _summary(per_query)
        batch: tuple[float | None, ...] = (None, None, None)
        if executor is not None or any(n > 1 for n, _ in calls):
            batch = _summary([seconds for _, seconds in calls])
        return cls(
            mean=mean,
            p50=p50,
            p95=p95,
            queries=len(per_query),
            calls=len(calls),
            batch_size=batch_size,
            executor=executor,
            batch_mean=batch[0],
            batch_p50=batch[1],
            batch_p95=batch[2],
        )

    def describe(self) -> str:
        """How the queries were timed, in words."""
        if not self.batched:
            return "each query timed alone"
        how = "each query alone" if self.batch_size == 1 else f"in batches of {self.batch_size}"
        where = "one call after another" if self.executor is None else f"on {self.executor}"
        return f"{how}, {where}"

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict."""
        return attrs.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Latency:
        """The latency of a :meth:`to_dict` form; a ``TypeError`` or ``ValueError`` for
        anything else.

        >>> latency = Latency.of_calls([(1, 0.5)], batch_size=1)
        >>> Latency.from_dict(latency.to_dict()) == latency
        True
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"a latency is a mapping, got {type(data).__name__}")
        names = {field.name for field in attrs.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"a latency has no field {sorted(unknown)[0]!r}")
        return cls(**data)


class Calls:
    """The ``(queries, seconds)`` of each timed call; threads may add to it at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: list[tuple[int, float]] = []

    def add(self, queries: int, seconds: float) -> None:
        with self._lock:
            self._calls.append((queries, seconds))

    def recorded(self) -> list[tuple[int, float]]:
        with self._lock:
            return list(self._calls)


def timed(searcher: Searcher, calls: Calls, clock: Clock) -> Searcher:
    """``searcher`` with each call of its retriever timed by ``clock`` into ``calls``. A call
    that raises is not recorded: it answered nothing.

    >>> from ef.evaluation._engine.retrieve import Searcher
    >>> ticks = iter([1.0, 1.25])
    >>> calls = Calls()
    >>> searcher = timed(Searcher("callable", single=lambda text, limit: ["d1"]), calls,
    ...                  lambda: next(ticks))
    >>> searcher.search(["q1"], ["text"], 10), calls.recorded()
    ([['d1']], [(1, 0.25)])
    """
    from .retrieve import Searcher

    batch, single = searcher.batch, searcher.single
    if batch is not None:

        def timed_batch(ids: Sequence[str], texts: Sequence[str], limit: int) -> Any:
            start = clock()
            answer = batch(ids, texts, limit)
            calls.add(len(ids), clock() - start)
            return answer

        return Searcher(searcher.adapter, batch=timed_batch)
    assert single is not None  # searcher_for() sets one of the two

    def timed_single(text: str, limit: int) -> Any:
        start = clock()
        answer = single(text, limit)
        calls.add(1, clock() - start)
        return answer

    return Searcher(searcher.adapter, single=timed_single)
