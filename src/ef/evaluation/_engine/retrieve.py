"""retrieve(): run a retriever over many queries, in batches, on any executor.

The queries are cut into batches of ``batch_size``. Each batch is one task: it calls the
adapted retriever (one batch call, or one call per query when the adapter has no batch form),
maps the results to source doc ids, and returns them. Tasks run inline, on a thread pool, or
on any ``concurrent.futures.Executor`` (a process pool, a Dask client's executor), and
their results are put back by query position, so the outcome never depends on the executor.
"""

from __future__ import annotations

import concurrent.futures as cf
import pickle
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, NoReturn

import attrs

from .._formats.irds import read_irds
from .._formats.sources import is_irds
from .._plugin_engine.failures import plugin_call
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Phase, Progress, check_progress, phase
from ..adapters._ids import DocIdError
from ..errors import RetrieverError, RetrieverResultError
from ..interfaces import BatchSearchFunction, SearchFunction
from ..types import FrozenDict
from .results import DocIdFunction, ranked_ids

__all__ = ["ON_ERROR", "Retrieval", "Searcher", "retrieve", "searched", "searcher_for"]

#: What ``on_error`` may be: stop on the first failing query, or record it and go on.
ON_ERROR = ("raise", "skip")


def _frozen_rankings(value: Mapping[str, Sequence[str]]) -> Mapping[str, tuple[str, ...]]:
    return FrozenDict({qid: tuple(docs) for qid, docs in value.items()})


def _frozen_failures(value: Mapping[str, str]) -> Mapping[str, str]:
    return FrozenDict(value)


@attrs.frozen
class Retrieval:
    """What :func:`retrieve` returns: the ranked source doc ids of each query that was answered,
    and the failure of each query that was not (with ``on_error="skip"``).

    Both are read-only mappings in the order of the queries. ``rankings`` is a run
    ``{query_id: (doc_id, ...)}`` that :func:`~ef.evaluation.write_run` and
    :func:`~ef.evaluation.evaluate_run` accept as it is.

    >>> result = Retrieval(rankings={"q1": ["d2", "d1"]}, failures={"q2": "TimeoutError: slow"})
    >>> result.rankings["q1"]
    ('d2', 'd1')
    >>> dict(result.failures)
    {'q2': 'TimeoutError: slow'}
    """

    #: ``{query_id: (doc_id, ...)}``: the first ``limit`` results as source doc ids,
    #: each at its best rank.
    rankings: Mapping[str, tuple[str, ...]] = attrs.field(converter=_frozen_rankings)
    #: ``{query_id: "ExcType: message"}`` for each query whose retriever call raised.
    failures: Mapping[str, str] = attrs.field(factory=FrozenDict, converter=_frozen_failures)


@attrs.frozen
class Searcher:
    """A retriever as the engine calls it: a batch function, or a per-query one.

    It pickles when the adapted functions do, so a batch task can run in another process.
    """

    #: The name of the adapter that accepted the retriever.
    adapter: str
    batch: BatchSearchFunction | None = None
    single: SearchFunction | None = None

    def search(
        self, query_ids: Sequence[str], query_texts: Sequence[str], limit: int
    ) -> Sequence[Sequence[Any]]:
        """Results for every query, in order, in one call (or one call per query)."""
        if self.batch is not None:
            return self.batch(query_ids, query_texts, limit)
        assert self.single is not None  # searcher_for() sets one of the two
        return [self.single(text, limit) for text in query_texts]


def searcher_for(retriever: Any, registry: Registry) -> Searcher:
    """Ask the registry's adapters, in order, for the first that accepts ``retriever``.

    >>> from ef.evaluation import Registry
    >>> searcher = searcher_for(lambda query, *, limit: ["d1"], Registry.load(autoload=False))
    >>> searcher.adapter, searcher.search(["q1"], ["text"], 10)
    ('callable', [['d1']])
    """
    kind = type(retriever).__name__
    for adapter in registry.adapters:
        # The adapter plugin's own calls: what they raise is a PluginError naming it (the
        # retriever's failures, later, are RetrieverErrors naming the query).
        with plugin_call(registry, "adapter", adapter.name, "accepts()", f"a {kind} retriever"):
            accepted = adapter.accepts(retriever)
        if not accepted:
            continue
        with plugin_call(registry, "adapter", adapter.name, "adapt()", f"a {kind} retriever"):
            if adapter.adapt_batch is not None:
                return Searcher(adapter.name, batch=adapter.adapt_batch(retriever))
            assert adapter.adapt is not None  # RetrieverAdapter checks it
            return Searcher(adapter.name, single=adapter.adapt(retriever))
    tried = ", ".join(
        f"{a.name} ({a.description})" if a.description else a.name for a in registry.adapters
    )
    raise TypeError(
        f"no retriever adapter accepts {type(retriever).__name__} objects; tried: {tried}"
    )


# -- one batch: what a worker runs --------------------------------------------------------


@attrs.frozen
class _Failed:
    """The retriever raised for this query (or for its batch, and for none of its queries
    alone: then ``batch`` holds the batch's query ids)."""

    message: str
    error: BaseException | None
    batch: tuple[str, ...] = ()


@attrs.frozen
class _BadResult:
    """The retriever answered, but not with results that map to doc ids: always an error."""

    message: str


_Outcome = tuple[str, ...] | _Failed | _BadResult


def _portable(error: BaseException, ship: bool) -> BaseException | None:
    # An exception crossing a process boundary must pickle; many custom ones do not.
    if not ship:
        return error
    try:
        copy: BaseException = pickle.loads(pickle.dumps(error))
    except Exception:
        return None
    return copy


def _failed(error: Exception, ship: bool, batch: tuple[str, ...] = ()) -> _Failed:
    return _Failed(f"{type(error).__name__}: {error}", _portable(error, ship), batch)


def _outcomes(
    results: Sequence[Sequence[Any]], n: int, limit: int, doc_id: DocIdFunction | None
) -> list[_Outcome]:
    if (
        results is None
        or isinstance(results, (str, bytes, Mapping))
        or not hasattr(results, "__len__")
    ):  # a batch call's answer is one list of results per query, in order
        got = "None" if results is None else f"a {type(results).__name__}"
        message = f"the retriever returned {got} for {n} queries, not one result list each"
        return [_BadResult(message)] * n
    if len(results) != n:
        message = f"the retriever returned {len(results)} result lists for {n} queries"
        return [_BadResult(message)] * n
    outcomes: list[_Outcome] = []
    for answer in results:
        try:
            outcomes.append(ranked_ids(answer, limit, doc_id))
        except TypeError as exc:  # RetrieverResultError, or an adapter's DocIdError
            outcomes.append(_BadResult(str(exc)))
    return outcomes


def _one(
    searcher: Searcher, qid: str, text: str, limit: int, ship: bool, *, doc_id: DocIdFunction | None
) -> _Outcome:
    try:
        results = searcher.search([qid], [text], limit)
    except DocIdError as exc:
        return _BadResult(str(exc))
    except Exception as exc:
        return _failed(exc, ship)
    return _outcomes(results, 1, limit, doc_id)[0]


def _run_batch(
    searcher: Searcher,
    query_ids: Sequence[str],
    query_texts: Sequence[str],
    limit: int,
    ship: bool,
    *,
    doc_id: DocIdFunction | None = None,
) -> list[_Outcome]:
    """Answer one batch; a failing batch call is re-run one query at a time to find the query."""
    if searcher.batch is None or len(query_ids) == 1:
        return [
            _one(searcher, qid, text, limit, ship, doc_id=doc_id)
            for qid, text in zip(query_ids, query_texts, strict=True)
        ]
    try:
        results = searcher.search(query_ids, query_texts, limit)
    except Exception as exc:
        alone = [
            _one(searcher, qid, text, limit, ship, doc_id=doc_id)
            for qid, text in zip(query_ids, query_texts, strict=True)
        ]
        if any(isinstance(o, (_Failed, _BadResult)) for o in alone):
            return alone
        failure = _failed(exc, ship, tuple(query_ids))
        return [failure] * len(query_ids)
    return _outcomes(results, len(query_ids), limit, doc_id)


# -- the engine -----------------------------------------------------------------------------


def _check_options(limit: int, batch_size: int, on_error: str, executor: object) -> None:
    for name, value in (("limit", limit), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be one of {ON_ERROR}, got {on_error!r}")
    if executor is None or isinstance(executor, cf.Executor):
        return
    if isinstance(executor, bool) or not isinstance(executor, int) or executor < 1:
        raise ValueError(
            "executor must be None (run inline), a positive int (that many threads) or a "
            f"concurrent.futures.Executor, got {executor!r}"
        )


def _batches(
    query_ids: Sequence[str], query_texts: Sequence[str], batch_size: int
) -> Iterator[tuple[int, Sequence[str], Sequence[str]]]:
    for start in range(0, len(query_ids), batch_size):
        stop = start + batch_size
        yield start, query_ids[start:stop], query_texts[start:stop]


def _raise_for(qid: str, outcome: _Failed | _BadResult) -> NoReturn:
    """Raise for a query whose outcome is a bad result or a failure."""
    if isinstance(outcome, _BadResult):
        raise RetrieverResultError(f"query {qid!r}: {outcome.message}")
    if outcome.batch:
        names = ", ".join(map(repr, outcome.batch))
        where = f"a batch of queries ({names}), but on none of them alone"
    else:
        where = f"query {qid!r}"
    raise RetrieverError(f"the retriever raised on {where}: {outcome.message}") from outcome.error


def _check_picklable(searcher: Searcher, doc_id: DocIdFunction | None) -> None:
    # A process pool pickles each task in a background thread, where a failure surfaces late
    # and says nothing of the retriever: check once, up front.
    shipped = (
        (f"the retriever (adapted by {searcher.adapter!r})", searcher),
        (f"the doc_id= function {doc_id!r}", doc_id),
    )
    for what, value in shipped:
        try:
            pickle.dumps(value)
        except Exception as exc:
            raise TypeError(
                f"{what} cannot be sent to a process pool: it does not pickle "
                f"({type(exc).__name__}: {exc}). Define it at module level, or use threads "
                "(executor=n)"
            ) from exc


def _stops(outcomes: Sequence[_Outcome | None], on_error: str) -> bool:
    if all(type(o) is tuple for o in outcomes):  # every query answered: the common case
        return False
    bad = (_BadResult,) if on_error == "skip" else (_BadResult, _Failed)
    return any(isinstance(o, bad) for o in outcomes)


def _check_queries(queries: object) -> None:
    """Refuse queries that are no mapping, as ``retrieve(queries, retriever)`` gives them."""
    if isinstance(queries, Mapping):
        return
    kind = "a function" if callable(queries) else f"a {type(queries).__name__}"
    order = ": the retriever comes first" if callable(queries) else ""
    raise TypeError(
        f"retrieve(retriever, queries): queries is {kind}; expected {{query_id: text}}{order}"
    )


def _check_texts(query_ids: Sequence[str], query_texts: Sequence[object]) -> None:
    for qid, text in zip(query_ids, query_texts, strict=True):
        if not isinstance(text, str):
            raise TypeError(f"query {qid!r}: the query text is {type(text).__name__}, not a str")


def retrieve(
    retriever: Any,
    queries: Mapping[str, str] | str,
    *,
    limit: int = 100,
    executor: int | cf.Executor | None = None,
    batch_size: int = 32,
    progress: Progress = False,
    on_error: Literal["raise", "skip"] = "raise",
    registry: Registry | None = None,
    doc_id: DocIdFunction | None = None,
) -> Retrieval:
    """Run a retriever over ``queries`` and return each query's ranked source doc ids.

    The retriever is adapted as :func:`~ef.evaluation.evaluate_retrieval` adapts it (the first
    retriever adapter that accepts it). The queries are cut into batches of ``batch_size``; a
    batch is one call when the adapter has a batch form (``.search_batch``, LangChain's
    ``.batch``, a precomputed run, ...) and one call per query otherwise. Each query keeps its
    first ``limit`` results, mapped to source doc ids and de-duplicated at their best rank.

    The result is the same whatever ``executor`` and ``batch_size`` are: batches are put back
    by query position.

    Args:
        retriever: what answers a query (see :func:`~ef.evaluation.evaluate_retrieval`).
        queries: ``{query_id: query_text}``, or an ``irds:<dataset-id>`` whose queries
            ir_datasets reads.
        limit: how many results to ask for, and keep, per query.
        executor: ``None`` runs the batches inline, in order; an int ``n`` runs them on a
            thread pool of ``n`` workers made (and shut down) here; any
            ``concurrent.futures.Executor`` is used as it is and never shut down here: a
            ``ProcessPoolExecutor`` (the adapted retriever must pickle) or a Dask client's
            ``client.get_executor()`` to spread the queries over a cluster.
        batch_size: how many queries go into one task (and one batch call).
        progress: ``True`` shows a progress bar on stderr; a callable gets
            ``progress(done, total)`` (counts of queries) as batches finish, from the calling
            thread, starting with ``(0, total)``.
        on_error: ``"raise"`` stops at the first query whose retriever call raises, with a
            :class:`~ef.evaluation.RetrieverError` naming it; ``"skip"`` records the failure
            in :attr:`Retrieval.failures` and goes on.
        registry: the plugins to use; ``None`` is the default registry.
        doc_id: a function of one result that returns its doc id (a str or an int), or None
            to leave it to the default rules: ``doc_id`` / ``source_id``, then
            ``metadata['doc_id']`` / ``metadata['source_id']``, then ``segment.doc_id`` /
            ``segment.source_id``, then the result's own ``id`` / ``_id``
            (``result_doc_id()``). For passage-level qrels,
            return the passage's own id: ``doc_id=lambda hit: hit.segment.id``. It must
            pickle for a process pool.

    Raises:
        ValueError: for a bad ``limit``, ``batch_size``, ``on_error``, ``executor`` or
            ``doc_id``.
        TypeError: if no adapter accepts ``retriever`` or a query text is not a str.
        RetrieverResultError: (a ``RetrieverError`` and a ``TypeError``) if an answer is not
            a list of results, or a result has no doc id or two different ones at one level,
            whatever ``on_error`` says; the message names the query.
        RetrieverError: if the retriever raises and ``on_error="raise"``. When a batch call
            raises, its queries are re-run one at a time to find the one that fails; if
            none fails alone, the message names the batch's query ids.

    >>> index = {"alpha": ["d1", "d2", "d1"], "beta": ["d3"]}
    >>> def search(query, *, limit):
    ...     return index[query][:limit]
    >>> result = retrieve(search, {"q1": "alpha", "q2": "beta"}, limit=10, executor=2)
    >>> dict(result.rankings)
    {'q1': ('d1', 'd2'), 'q2': ('d3',)}
    >>> retrieve(search, {"q3": "gamma"}, on_error="skip").failures
    {'q3': "KeyError: 'gamma'"}
    """
    _check_options(limit, batch_size, on_error, executor)
    check_progress(progress)
    if doc_id is not None and not callable(doc_id):
        raise ValueError(f"doc_id must be a function of one result, or None, got {doc_id!r}")
    # An ir_datasets id reads its queries (formats.irds); anything else is checked as given.
    texts = read_irds(queries, "read_queries") if is_irds(queries) else queries
    _check_queries(texts)
    query_ids = list(texts)
    query_texts = [texts[qid] for qid in query_ids]
    _check_texts(query_ids, query_texts)
    searcher = searcher_for(retriever, registry_or_default(registry))
    return searched(
        searcher,
        query_ids,
        query_texts,
        limit=limit,
        executor=executor,
        batch_size=batch_size,
        progress=progress,
        on_error=on_error,
        doc_id=doc_id,
    )


def searched(
    searcher: Searcher,
    query_ids: Sequence[str],
    query_texts: Sequence[str],
    *,
    limit: int,
    executor: int | cf.Executor | None,
    batch_size: int,
    progress: Progress,
    on_error: str,
    doc_id: DocIdFunction | None,
) -> Retrieval:
    """What :func:`retrieve` does once the retriever is adapted and its options checked: the
    queries run through ``searcher`` (an experiment's timed one, ``_engine/_timing``)."""
    batches = list(_batches(query_ids, query_texts, batch_size))
    # Retrieving is slow by nature: the bar shows at once (delay=0).
    with phase(progress, "retrieving", len(query_ids), delay=0) as retrieving:
        run = _Run(searcher, limit, on_error, retrieving, doc_id)
        outcomes = run.on_executor(executor, batches)
        # Inside the phase: a run stopped by a failure must not end as complete.
        return _retrieval(query_ids, outcomes, on_error)


def _retrieval(
    query_ids: Sequence[str], outcomes: Sequence[_Outcome | None], on_error: str
) -> Retrieval:
    """The rankings of the queries answered and the messages of those that failed, in one
    pass; it raises for the first query, in query order, whose outcome is a bad result, or
    a failure under ``on_error="raise"`` (``None``: a query not run after a stop)."""
    rankings: dict[str, tuple[str, ...]] = {}
    failures: dict[str, str] = {}
    for qid, outcome in zip(query_ids, outcomes, strict=True):
        if isinstance(outcome, tuple):
            rankings[qid] = outcome
        elif isinstance(outcome, _BadResult) or (outcome is not None and on_error == "raise"):
            _raise_for(qid, outcome)
        elif outcome is not None:
            failures[qid] = outcome.message
    return Retrieval(rankings=rankings, failures=failures)


_Batch = tuple[int, Sequence[str], Sequence[str]]


class _Run:
    """Runs the batches and puts their outcomes back by query position."""

    def __init__(
        self,
        searcher: Searcher,
        limit: int,
        on_error: str,
        progress: Phase,
        doc_id: DocIdFunction | None = None,
    ) -> None:
        self.searcher = searcher
        self.doc_id = doc_id
        self.limit = limit
        self.on_error = on_error
        self.progress = progress
        self.outcomes: list[_Outcome | None] = []
        self.done = 0

    def _start(self, batches: Sequence[_Batch]) -> None:
        self.outcomes = [None] * sum(len(ids) for _, ids, _ in batches)

    def _store(self, start: int, batch: Sequence[_Outcome]) -> bool:
        """Keep one batch's outcomes; True if the run must stop."""
        self.outcomes[start : start + len(batch)] = batch
        self.done += len(batch)
        return _stops(batch, self.on_error)

    def _progress(self) -> None:
        self.progress.update(self.done)

    def inline(self, batches: Sequence[_Batch]) -> list[_Outcome | None]:
        """Every batch in order, in this thread; stop at the first failure."""
        self._start(batches)
        for start, ids, texts in batches:
            outcomes = _run_batch(self.searcher, ids, texts, self.limit, False, doc_id=self.doc_id)
            stop = self._store(start, outcomes)
            self._progress()
            if stop:
                break
        return self.outcomes

    def on_executor(
        self, executor: int | cf.Executor | None, batches: Sequence[_Batch]
    ) -> list[_Outcome | None]:
        """Every batch inline (``None``), on a thread pool of ``executor`` workers made here
        (an int), or on the given executor."""
        if executor is None:
            return self.inline(batches)
        if isinstance(executor, int):
            with cf.ThreadPoolExecutor(executor) as pool:
                return self.on(pool, batches)
        return self.on(executor, batches)

    def on(self, pool: cf.Executor, batches: Sequence[_Batch]) -> list[_Outcome | None]:
        """Every batch as a task of ``pool``; on a failure, cancel what has not started."""
        self._start(batches)
        # Threads share the caller's memory: exceptions need not survive pickling there.
        ship = not isinstance(pool, cf.ThreadPoolExecutor)
        if isinstance(pool, cf.ProcessPoolExecutor):
            _check_picklable(self.searcher, self.doc_id)
        futures: dict[cf.Future[list[_Outcome]], int] = {}
        try:
            for start, ids, texts in batches:
                task = pool.submit(
                    _run_batch, self.searcher, ids, texts, self.limit, ship, doc_id=self.doc_id
                )
                futures[task] = start
            pending = self._until_stop(futures)
            # After a stop: what has not started is cancelled, and what runs is let finish, so
            # that the error names the first failing query of all that ran.
            for future in pending:
                future.cancel()
            for future in cf.as_completed(pending):
                if not future.cancelled() and future.exception() is None:
                    self._store(futures[future], future.result())
        finally:
            for future in futures:
                future.cancel()  # a no-op for the finished ones
        return self.outcomes

    def _until_stop(
        self, futures: dict[cf.Future[list[_Outcome]], int]
    ) -> set[cf.Future[list[_Outcome]]]:
        """Keep the batches as they finish, until all have or one says stop; the futures
        still pending."""
        pending: set[cf.Future[list[_Outcome]]] = set(futures)
        stop = False
        while pending and not stop:
            finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                stop = self._store(futures[future], future.result()) or stop
            self._progress()
        return pending
