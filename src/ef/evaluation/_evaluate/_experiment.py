"""Experiment: several named systems on one dataset, compared, timed, and their runs cached.

An experiment holds what PyTerrier's ``pt.Experiment`` takes (the systems, the topics and
qrels, the measures, a baseline, a test and a correction) and ``save_dir``'s job is done by a
run cache keyed by what decides a run (``_evaluate/_run_cache``). Each system that runs here
is timed around its retriever's call only (``_engine/_timing``); the result is
:func:`~ef.evaluation.compare`'s :class:`~ef.evaluation.ComparisonReport` with each system's
latency and where its run came from.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from .._engine._timing import Calls, Clock, Latency, timed
from .._engine.significance import Significance
from .._formats.irds import read_irds_dataset
from .._formats.sources import is_irds
from .._reports import ComparisonReport, PipelineEvalReport, RetrievalEvalReport
from .._reports.comparison import NO_VERSION
from .._reports.fields import str_tuple
from ..types import Correction, SignificanceTest, plain
from ._run_cache import RunCache, digest_of
from .irds_level import irds_metrics

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from .._progress import Progress

__all__ = ["Experiment", "System", "SystemResult"]


def _name(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"a system's {attribute.name} must be a non-empty str, got {value!r}")


def _version(value: object) -> str | None:
    # An int version (a counter) is as good as a str; anything else is a mistake.
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"a system's version must be a str, an int or None, got {value!r}")


def _check_version(instance: object, attribute: attrs.Attribute[Any], value: str | None) -> None:
    if value is not None and not value.strip():
        raise ValueError("a system's version must not be empty; give None for no version")


@attrs.frozen
class System:
    """One named system of an :class:`Experiment`: a retriever, a function that ``build``\\ s
    one, or a stored ``run``. Give exactly one.

    ``version`` declares what the system is; an experiment's cache files its run under it,
    so change it whenever the retriever changes. Without it, a retriever's own ``version``
    attribute (a str or an int) is its version; a system with neither is never cached. A
    stored run is read each time: its version is its sha256.

    ``build`` is called with no argument, and only when the run is not in the cache: a
    retriever that takes long to index costs nothing on a re-run. With ``generate`` the
    system is a pipeline, scored as :func:`~ef.evaluation.evaluate_pipeline` scores it.

    >>> System("bm25", lambda query, *, limit: ["d1"], version="k1=0.9").declared_version
    'k1=0.9'
    >>> System("stored", run="run.trec").kind
    'run'
    >>> System("both", lambda q, *, limit: [], run="run.trec")
    Traceback (most recent call last):
        ...
    ValueError: system 'both': give one of retriever, build or run, not 2
    """

    name: str = attrs.field(validator=_name)
    retriever: Any = attrs.field(default=None, repr=False)
    version: str | None = attrs.field(
        default=None, kw_only=True, converter=_version, validator=_check_version
    )
    build: Callable[[], Any] | None = attrs.field(default=None, kw_only=True, repr=False)
    run: Any = attrs.field(default=None, kw_only=True, repr=False)
    #: For a pipeline: ``generate(question, contexts) -> answer``, or the answers
    #: ``{query_id: answer}`` (with a stored ``run``), as :func:`~ef.evaluation.evaluate_pipeline`
    #: takes it.
    generate: Any = attrs.field(default=None, kw_only=True, repr=False)

    def __attrs_post_init__(self) -> None:
        given = sum(x is not None for x in (self.retriever, self.build, self.run))
        if given != 1:
            raise ValueError(
                f"system {self.name!r}: give one of retriever, build or run, not {given}"
            )
        if self.build is not None and not callable(self.build):
            raise TypeError(f"system {self.name!r}: build must be a function of no argument")
        if self.generate is not None and not (
            callable(self.generate) or isinstance(self.generate, Mapping)
        ):
            raise TypeError(
                f"system {self.name!r}: generate must be a function (question, contexts) "
                "-> answer, or the answers {query_id: answer}"
            )

    @property
    def kind(self) -> Literal["retriever", "run"]:
        """``"run"`` for a stored run, else ``"retriever"``."""
        return "run" if self.run is not None else "retriever"

    @property
    def pipeline(self) -> bool:
        """Whether the system answers too (it has ``generate``)."""
        return self.generate is not None

    @property
    def declared_version(self) -> str | None:
        """``version``, else the retriever's ``version`` attribute (a str or an int)."""
        if self.version is not None or self.retriever is None:
            return self.version
        own = getattr(self.retriever, "version", None)
        if isinstance(own, str) and own.strip():
            return own
        if isinstance(own, int) and not isinstance(own, bool):
            return str(own)
        return None


def _systems(value: Mapping[str, Any] | Sequence[System]) -> tuple[System, ...]:
    if isinstance(value, Mapping):
        systems = tuple(_system(str(name), item) for name, item in value.items())
    else:
        systems = _system_sequence(value)
    names = [system.name for system in systems]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"two systems are called {repeated[0]!r}")
    if len(systems) < 2:
        raise ValueError(f"an experiment compares two or more systems, got {len(systems)}")
    return systems


def _system_sequence(value: object) -> tuple[System, ...]:
    """``value`` as systems, if it is a sequence (not a str or a path) of System values."""
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Sequence):
        raise TypeError(
            "systems must be {name: retriever, run or System} or a sequence of System values"
        )
    for item in value:
        if not isinstance(item, System):
            raise TypeError(
                f"a sequence of systems holds System values; got a {type(item).__name__}: "
                "name it, System(name, retriever), or give {name: retriever}"
            )
    return tuple(value)


def _system(name: str, item: Any) -> System:
    """A mapping's value as a System: a System (renamed to its key), a stored run (a path,
    a mapping), or a retriever."""
    if isinstance(item, System):
        return item if item.name == name else attrs.evolve(item, name=name)
    if isinstance(item, (str, os.PathLike, Mapping)) or _is_run_value(item):
        return System(name, run=item)
    return System(name, item)


def _is_run_value(item: object) -> bool:
    from .._runs.table import RunTable

    return isinstance(item, RunTable) or hasattr(item, "columns")  # a DataFrame


def _check_dataset(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, (str, os.PathLike)):
        return
    if (
        isinstance(value, tuple)
        and len(value) in (2, 3)
        and all(isinstance(part, Mapping) for part in value[-2:])
    ):
        return
    raise TypeError(
        "dataset must be a dataset folder or irds: id, (queries, qrels), or "
        f"(corpus, queries, qrels); got {type(value).__name__}"
    )


def _check_executor(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None or isinstance(value, cf.Executor):
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            f"executor must be None, a positive int (threads) or an Executor, got {value!r}"
        )


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{attribute.name} must be a positive int, got {value!r}")


def _names(value: Sequence[str]) -> tuple[str, ...]:
    if isinstance(value, str):  # one metric, not its letters
        return (value,)
    return tuple(value)


def _cutoffs(value: Sequence[int]) -> tuple[int, ...]:
    return tuple(value)


def _optional_path(value: str | os.PathLike[str] | None) -> Path | None:
    return None if value is None else Path(value)


@attrs.frozen
class SystemResult:
    """What an :class:`Experiment` made of one system: its report, its latency (None for
    a stored run, or a retriever run in other processes), where its run came from, and the
    version it was filed under."""

    name: str
    #: A :class:`~ef.evaluation.PipelineEvalReport` for a pipeline.
    report: RetrievalEvalReport | PipelineEvalReport
    latency: Latency | None
    #: In words: computed here, read from the cache (and when it was computed), a stored
    #: run, or why it was not cached.
    source: str
    version: str | None


@attrs.frozen
class Experiment:
    """Several named systems run on one dataset and compared: the metrics of each, paired
    tests against a baseline (or between every pair), the latency of each retriever, and
    a cache of their runs so that a re-run computes only what changed.

    ``systems`` is ``{name: system}`` (a retriever, a stored run's path or mapping, or a
    :class:`System`) or a sequence of :class:`System` values. ``dataset`` is a dataset
    folder (BEIR, TREC or MS MARCO, read with :func:`~ef.evaluation.read_dataset`;
    ``split`` picks its qrels), an ``irds:`` id, ``(queries, qrels)`` or
    ``(corpus, queries, qrels)``. Every judged query is run through each retriever to
    ``limit`` results (default: the largest cutoff) and scored as
    :func:`~ef.evaluation.evaluate_retrieval` scores it; a stored run is scored as
    :func:`~ef.evaluation.evaluate_run` scores it; a pipeline (a system with ``generate``)
    as :func:`~ef.evaluation.evaluate_pipeline` scores it, against ``references``, with
    ``n_contexts`` and ``rag_metrics``. ``metrics``, ``k_values``, ``baseline``,
    ``test``, ``correction``, ``alpha``, ``n_resamples`` and ``seed`` are
    :func:`~ef.evaluation.compare`'s.

    Latency is taken by ``clock`` (``time.perf_counter``) around each call of the retriever,
    nothing else. By default each query is timed alone (``batch_size=1``, ``executor=None``);
    with batches or an executor (threads) the report says so and gives the time per call
    beside the time per query. A retriever run on another kind of executor (processes) is
    not timed.

    With ``cache``, a folder, each retriever's run is filed under a key of the system's name,
    its declared version, the depth and the digest of the queries, and read back instead of
    computed while they are unchanged. A system without a declared version is never cached
    (the report says why): an edited retriever would otherwise get its stale run. A run
    with failed queries (``on_error="skip"``) is not cached, so they are tried again.

    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
    >>> queries = {"q1": "one", "q2": "two", "q3": "three"}
    >>> def exact(query, *, limit):
    ...     return {"one": ["d1"], "two": ["d2"], "three": ["d3"]}[query]
    >>> def shifted(query, *, limit):
    ...     return {"one": ["d2", "d1"], "two": ["d2"], "three": ["d1", "d2", "d3"]}[query]
    >>> ticks = iter(range(100))
    >>> experiment = Experiment({"exact": exact, "shifted": shifted}, (queries, qrels),
    ...     metrics=("mrr@10",), baseline="exact", clock=lambda: next(ticks))
    >>> report = experiment.run()
    >>> report.means["shifted"]["mrr@10"], report.latency["exact"].mean
    (0.611111111111111, 1.0)
    """

    systems: tuple[System, ...] = attrs.field(converter=_systems)
    dataset: Any = attrs.field(validator=_check_dataset, repr=False)
    metrics: tuple[str, ...] = attrs.field(default=("ndcg@10",), kw_only=True, converter=_names)
    k_values: tuple[int, ...] = attrs.field(default=(10,), kw_only=True, converter=_cutoffs)
    baseline: str | None = attrs.field(default=None, kw_only=True)
    test: SignificanceTest = attrs.field(default="paired-t", kw_only=True)
    correction: Correction | None = attrs.field(default=None, kw_only=True)
    alpha: float = attrs.field(default=0.05, kw_only=True)
    n_resamples: int = attrs.field(default=10_000, kw_only=True)
    seed: int | None = attrs.field(default=None, kw_only=True)
    split: str | None = attrs.field(default=None, kw_only=True)
    limit: int | None = attrs.field(default=None, kw_only=True)
    batch_size: int = attrs.field(default=1, kw_only=True, validator=_positive)
    executor: int | cf.Executor | None = attrs.field(
        default=None, kw_only=True, validator=_check_executor, repr=False
    )
    on_error: Literal["raise", "skip"] = attrs.field(
        default="raise", kw_only=True, validator=attrs.validators.in_(("raise", "skip"))
    )
    cache: Path | None = attrs.field(default=None, kw_only=True, converter=_optional_path)
    #: Pipelines only: the gold answers ``{query_id: answer or [answers]}``, the contexts
    #: handed to each generator, and the answer metrics (evaluate_pipeline's defaults).
    references: Mapping[str, Any] | None = attrs.field(default=None, kw_only=True, repr=False)
    n_contexts: int = attrs.field(default=5, kw_only=True, validator=_positive)
    rag_metrics: tuple[str, ...] | None = attrs.field(
        default=None, kw_only=True, converter=attrs.converters.optional(_names)
    )
    registry: Registry | None = attrs.field(default=None, kw_only=True, repr=False, eq=False)
    clock: Clock = attrs.field(default=time.perf_counter, kw_only=True, repr=False, eq=False)
    #: Record each retrieval system's report in the store (``store``: a Store, a URL, or the
    #: default), as ``evaluate_run(record=True)`` does, under its name on ``dataset_name``
    #: (default: the dataset folder's name or the ``irds:`` id), with ``tags``.
    record: bool = attrs.field(
        default=False, kw_only=True, validator=attrs.validators.instance_of(bool)
    )
    store: Any = attrs.field(default=None, kw_only=True, repr=False, eq=False)
    dataset_name: str | None = attrs.field(
        default=None,
        kw_only=True,
        validator=attrs.validators.optional(attrs.validators.instance_of(str)),
    )
    tags: tuple[str, ...] = attrs.field(
        default=(),
        kw_only=True,
        converter=str_tuple,
        validator=attrs.validators.deep_iterable(attrs.validators.instance_of(str)),
    )

    def __attrs_post_init__(self) -> None:
        names = [system.name for system in self.systems]
        if self.baseline is not None and self.baseline not in names:
            raise ValueError(
                f"baseline {self.baseline!r} is not a system; the systems are {', '.join(names)}"
            )
        pipelines = [system.name for system in self.systems if system.pipeline]
        if pipelines:
            self._check_pipelines(pipelines, names)
        if self.record:
            if pipelines:
                raise ValueError("record=True records retrieval systems; pipelines are not")
            self._recorded_dataset()  # a dataset without a name: refused before any run

    def _check_pipelines(self, pipelines: Sequence[str], names: Sequence[str]) -> None:
        """An experiment of pipelines: every system is one, a failed query raises, and the
        dataset has the corpus the contexts come from."""
        if len(pipelines) != len(self.systems):
            others = [name for name in names if name not in pipelines]
            raise ValueError(
                f"pipelines ({', '.join(pipelines)}) are compared with pipelines only: give "
                f"{', '.join(others)} a generate= too, or run them in another experiment"
            )
        if self.on_error == "skip":
            raise ValueError(
                "on_error='skip' is for retrievers only: a pipeline's failed query would be "
                "answered from no contexts"
            )
        if isinstance(self.dataset, tuple) and len(self.dataset) == 2:
            raise ValueError(
                "pipelines need the corpus for their contexts: give (corpus, queries, qrels) "
                "or a dataset folder"
            )

    def clear_cache(self) -> int:
        """Remove the runs the cache folder holds (other files stay); how many."""
        return 0 if self.cache is None else RunCache(self.cache).clear()

    def run(self, *, progress: Progress = False) -> ComparisonReport:
        """Run (or read from the cache) every system, score it, and compare them: a
        :class:`~ef.evaluation.ComparisonReport` with each system's ``latency`` and, in
        ``runs``, where its run came from."""
        return self.compared(self.results(progress=progress), progress=progress)

    def evaluate(
        self, *, progress: Progress = False
    ) -> dict[str, RetrievalEvalReport | PipelineEvalReport]:
        """Each system's :class:`~ef.evaluation.RetrievalEvalReport` (a
        :class:`~ef.evaluation.PipelineEvalReport` for a pipeline), by name, without the
        comparison."""
        return {result.name: result.report for result in self.results(progress=progress)}

    def results(self, *, progress: Progress = False) -> tuple[SystemResult, ...]:
        """Each system's :class:`SystemResult`, in order: its report, latency and source."""
        from .._engine.measures import check_metric_names
        from .._engine.scoring import resolve_measures
        from .._plugin_engine.registry import registry_or_default
        from .inputs import check_qrels
        from .retrieval import retrieval_limit, runnable_queries

        check_metric_names(self.metrics)
        registry = registry_or_default(self.registry)
        corpus, queries, qrels = self._read()
        metrics: Sequence[str] = self.metrics
        if is_irds(self.dataset):  # the dataset's relevance level applies to the measures
            qrels, metrics = irds_metrics(self.dataset, metrics, self.k_values, registry)
        measures = resolve_measures(metrics, self.k_values, registry)
        check_qrels(qrels)
        limit = retrieval_limit(self.limit, measures, self.k_values)
        runnable, unavailable, _ = runnable_queries(qrels, queries)
        step = _Step(
            registry=registry,
            qrels=qrels,
            metrics=tuple(metrics),
            measures=measures,
            runnable=runnable,
            unavailable=unavailable,
            limit=limit,
            queries_digest=digest_of(runnable),
            cache=None if self.cache is None else RunCache(self.cache),
            progress=progress,
            corpus=corpus,
            queries=queries,
        )
        results = tuple(
            self._stored(system, step) if system.kind == "run" else self._retrieved(system, step)
            for system in self.systems
        )
        if self.record:
            self._record(results)
        return results

    def _recorded_dataset(self) -> str:
        """The dataset's name in the store: given, or its folder's or ``irds:`` id's; refused
        (before anything runs) for a dataset held in memory."""
        from .._store.recording import recorded_names

        source = None if isinstance(self.dataset, tuple) else self.dataset
        return recorded_names("experiment", self.dataset_name, None, source)[1]

    def _record(self, results: Sequence[SystemResult]) -> None:
        """Each retrieval system's report, recorded; a pipeline's is not a retrieval report."""
        from .._store.recording import record_evaluation

        dataset = self._recorded_dataset()
        for result in results:
            if isinstance(result.report, RetrievalEvalReport):
                record_evaluation(
                    result.report,
                    system=result.name,
                    dataset=dataset,
                    tags=self.tags,
                    store=self.store,
                )

    def compared(
        self, results: Sequence[SystemResult], *, progress: Progress = False
    ) -> ComparisonReport:
        """The comparison of ``results`` (from :meth:`results`), with their latency and
        sources."""
        from .compare import compare

        report = compare(
            {result.name: result.report for result in results},
            metrics=self._compared_metrics(results),
            k_values=self.k_values,
            baseline=self.baseline,
            **attrs.asdict(Significance.of(self)),
            registry=self.registry,
            progress=progress,
        )
        manifest = dict(plain(report.manifest))
        manifest["experiment"] = {
            "cache": None if self.cache is None else str(self.cache),
            "batch_size": self.batch_size,
            "executor": _executor_name(self.executor),
            "systems": {
                result.name: {"version": result.version, "source": result.source}
                for result in results
            },
        }
        return attrs.evolve(
            report,
            latency={r.name: r.latency for r in results if r.latency is not None},
            runs={result.name: result.source for result in results},
            manifest=manifest,
        )

    def _compared_metrics(self, results: Sequence[SystemResult]) -> tuple[str, ...]:
        """The metrics to compare: ``metrics``; for pipelines, their report keys and every
        answer metric."""
        first = results[0].report if results else None
        # The keys the reports hold name an ir_datasets id's level where it was applied.
        levelled = is_irds(self.dataset) and first is not None
        if not isinstance(first, PipelineEvalReport):
            return tuple(first.metrics) if levelled and first is not None else self.metrics
        from .compare import _metric_keys

        retrieval = first.retrieval
        if levelled and retrieval is not None:
            keys = tuple(retrieval.metrics)
        else:
            keys = _metric_keys(self.metrics, self.k_values, self.registry)
        return (*keys, *(key for key in first.rag.metrics if key not in keys))

    # --- each system ----------------------------------------------------------------------

    def _read(
        self,
    ) -> tuple[Mapping[str, str] | None, Mapping[str, str], Mapping[str, Mapping[str, float]]]:
        """The corpus (None if not given), the queries and the qrels."""
        if isinstance(self.dataset, tuple):
            corpus = self.dataset[0] if len(self.dataset) == 3 else None
            return corpus, self.dataset[-2], self.dataset[-1]
        from .._formats.files import read_dataset

        if is_irds(self.dataset):  # its qrels are read again by results(), with the level
            return read_irds_dataset(self.dataset, note=False)
        return read_dataset(self.dataset, split=self.split, registry=self.registry)

    def _answered(self, system: System, run: Any, step: _Step) -> PipelineEvalReport:
        """A pipeline's report: its run (a stored run, or the retriever's rankings) handed
        to :func:`~ef.evaluation.evaluate_pipeline` with its generator."""
        from .pipeline import evaluate_pipeline
        from .rag import DEFAULT_RAG_METRICS

        assert step.corpus is not None  # __attrs_post_init__ refuses pipelines without one
        return evaluate_pipeline(
            run,
            step.qrels,
            step.queries,
            generate=system.generate,
            corpus=step.corpus,
            references=self.references,
            n_contexts=self.n_contexts,
            k_values=self.k_values,
            metrics=step.metrics,
            rag_metrics=DEFAULT_RAG_METRICS if self.rag_metrics is None else self.rag_metrics,
            limit=step.limit,
            registry=step.registry,
        )

    def _stored(self, system: System, step: _Step) -> SystemResult:
        from .._engine.manifest import file_entry
        from .run import evaluate_run

        report: RetrievalEvalReport | PipelineEvalReport
        if system.pipeline:
            report = self._answered(system, system.run, step)
        else:
            report = evaluate_run(
                system.run,
                step.qrels,
                metrics=step.metrics,
                k_values=self.k_values,
                registry=step.registry,
            )
        if isinstance(system.run, (str, os.PathLike)):
            version = file_entry(system.run)["sha256"]
        elif isinstance(system.run, Mapping):
            version = digest_of(_plain_run(system.run))
        else:
            version = None
        shown = f" (sha256 {version[:12]})" if version else ""
        return SystemResult(system.name, report, None, f"stored run{shown}", version)

    def _retrieved(self, system: System, step: _Step) -> SystemResult:
        version = system.declared_version
        key = None
        if step.cache is not None and version is not None:
            key = step.cache.key(
                name=system.name, version=version, limit=step.limit, queries=step.queries_digest
            )
            hit = step.cache.get(key)
            if hit is not None:
                report = self._scored(system, hit.rankings, step.unavailable, step)
                source = f"from the cache (computed {_when(hit.written)})"
                return SystemResult(system.name, report, hit.latency, source, version)
        rankings, failures, latency = self._computed(system, step)
        if step.cache is None:
            source = "computed"
        elif key is None:
            source = f"computed; {NO_VERSION}"
        elif failures:
            source = f"computed; not cached: {len(failures)} queries failed (tried again next run)"
        else:
            step.cache.put(key, rankings, failures, latency)
            source = "computed; cached"
        if latency is None and not isinstance(self.executor, (type(None), int)):
            source += f"; not timed: it ran on {type(self.executor).__name__}"
        unavailable = dict(step.unavailable)
        unavailable.update({q: f"retriever raised: {m}" for q, m in failures.items()})
        report = self._scored(system, rankings, unavailable, step)
        return SystemResult(system.name, report, latency, source, version)

    def _scored(
        self,
        system: System,
        rankings: Mapping[str, Sequence[str]],
        unavailable: Mapping[str, str],
        step: _Step,
    ) -> RetrievalEvalReport | PipelineEvalReport:
        """A retriever's rankings scored as evaluate_retrieval scores them, or for a
        pipeline handed on with its generator."""
        from .._runs.ranked import RankedLists
        from .retrieval import scored_rankings

        if system.pipeline:
            return self._answered(system, {q: list(docs) for q, docs in rankings.items()}, step)
        return scored_rankings(
            RankedLists(rankings, checked=True),
            step.qrels,
            step.measures,
            step.registry,
            unavailable=unavailable,
        )

    def _computed(
        self, system: System, step: _Step
    ) -> tuple[Mapping[str, tuple[str, ...]], Mapping[str, str], Latency | None]:
        from .._engine.retrieve import searched, searcher_for

        retriever = system.retriever if system.build is None else system.build()
        searcher = searcher_for(retriever, step.registry)
        calls = Calls()
        # Threads share this process's clock and memory; other executors' calls happen
        # elsewhere, where a timed function would neither pickle nor report back.
        timing = self.executor is None or isinstance(self.executor, (int, cf.ThreadPoolExecutor))
        retrieval = searched(
            timed(searcher, calls, self.clock) if timing else searcher,
            list(step.runnable),
            list(step.runnable.values()),
            limit=step.limit,
            executor=self.executor,
            batch_size=self.batch_size,
            progress=step.progress,
            on_error=self.on_error,
            doc_id=None,
        )
        recorded = calls.recorded()
        latency = (
            Latency.of_calls(
                recorded, batch_size=self.batch_size, executor=_executor_name(self.executor)
            )
            if recorded
            else None
        )
        return retrieval.rankings, retrieval.failures, latency


@attrs.frozen(kw_only=True)
class _Step:
    """What every system of one run of an experiment shares."""

    registry: Registry
    qrels: Mapping[str, Mapping[str, float]]
    #: ``metrics``, with an ir_datasets id's relevance level applied (``map(rel=2)@10``).
    metrics: tuple[str, ...]
    measures: Sequence[Any]
    runnable: Mapping[str, str]
    unavailable: Mapping[str, str]
    limit: int
    queries_digest: str
    cache: RunCache | None
    progress: Progress
    corpus: Mapping[str, str] | None
    queries: Mapping[str, str]


def _when(written: str) -> str:
    """``2026-12-02T11:19:21+00:00`` as ``2026-12-02 11:19 UTC``, to the minute."""
    return f"{written[:16].replace('T', ' ')} UTC" if written.endswith("+00:00") else written


def _executor_name(executor: int | cf.Executor | None) -> str | None:
    if executor is None:
        return None
    if isinstance(executor, int):
        return f"{executor} thread{'s' if executor != 1 else ''}"
    return type(executor).__name__


def _plain_run(run: Mapping[str, Any]) -> Any:
    """A run in memory as JSON values, for its digest: lists stay lists, scores floats."""
    return {
        str(query): (
            {str(doc): float(score) for doc, score in docs.items()}
            if isinstance(docs, Mapping)
            else [str(doc) for doc in docs]
        )
        for query, docs in run.items()
    }
