"""The hooks a plugin can implement, and the markers to implement them with.

One name is used everywhere: :data:`NAME` is the pluggy project name, the entry-point group
(``[project.entry-points.ef_evaluation]``), the hook prefix ``ef_evaluation_`` and the
environment-variable prefix ``EF_EVALUATION_``.

All hooks are *list* hooks with no arguments: every plugin contributes, and the host collects
each plugin's results separately, so it knows which plugin provided each item. Arguments may be
added in later versions (pluggy lets an implementation ignore arguments it does not name);
none will ever be removed.

Implementations must be cheap and free of side effects: they run once each time a registry is
built (the default one is built on first use, and again when the plugin environment changes),
and should import heavy libraries lazily inside the returned callables. A plugin is found
through its entry point, or registered in process (``Registry.load(plugins=...)``,
``registry.with_plugins(...)``); :mod:`ef.evaluation.testing` is the kit for its tests.
Hook wrappers are not supported on these hooks, because the host calls the implementations one
by one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .interfaces import (
        ClaimLabeler,
        DatasetFormat,
        FusionMethod,
        NuggetAssigner,
        RagMetric,
        RetrievalMetric,
        RetrieverAdapter,
    )

__all__ = [
    "NAME",
    "ef_evaluation_claim_labelers",
    "ef_evaluation_formats",
    "ef_evaluation_fusion_methods",
    "ef_evaluation_metrics",
    "ef_evaluation_nugget_assigners",
    "ef_evaluation_retriever_adapters",
    "hookimpl",
    "hookspec",
]

#: The pluggy project name, the entry-point group and the hook prefix.
NAME = "ef_evaluation"

#: Marks the hook specifications below.
hookspec = pluggy.HookspecMarker(NAME)

#: Marks a plugin's hook implementations; re-exported as ``ef.evaluation.hookimpl``.
hookimpl = pluggy.HookimplMarker(NAME)


@hookspec
def ef_evaluation_metrics() -> Iterable[RetrievalMetric | RagMetric]:
    """Return the metrics this plugin provides.

    Return :class:`~ef.evaluation.RetrievalMetric` objects (``func(ranked, relevant, k)``,
    computed at every cut-off and reported as ``"<name>@<k>"``) and
    :class:`~ef.evaluation.RagMetric` objects (``func(sample) -> float | None``). A single
    object instead of a list is accepted too.

    Names are lower-case identifiers (``hits``, ``answer_length``), optionally namespaced with
    dots (``ragas.bleu``); namespacing third-party metrics with the plugin's name avoids clashes.
    Retrieval and RAG metrics share one namespace. Two plugins providing the same name is an
    error that names both; block one with ``EF_EVALUATION_DISABLE_PLUGINS``, or choose the
    plugins to load with ``EF_EVALUATION_PLUGINS``. A retrieval metric's own tests can run
    :func:`ef.evaluation.testing.check_retrieval_metric` on it.

    Example::

        @hookimpl
        def ef_evaluation_metrics():
            return [RetrievalMetric(name="hits", func=hits_at_k)]

    .. versionadded:: 0.1
    """
    raise NotImplementedError  # pragma: no cover - a specification, never called


@hookspec
def ef_evaluation_formats() -> Iterable[DatasetFormat]:
    """Return the dataset formats this plugin provides.

    Each :class:`~ef.evaluation.DatasetFormat` says how to detect, read and write an
    evaluation triple (corpus, queries, qrels) in its layout. Names follow the metric rules
    and must be unique across plugins.

    Example::

        @hookimpl
        def ef_evaluation_formats():
            return [DatasetFormat(name="mycsv", read_dataset=read_mycsv, detect=looks_like_mycsv)]

    .. versionadded:: 0.1
    """
    raise NotImplementedError  # pragma: no cover - a specification, never called


@hookspec
def ef_evaluation_retriever_adapters() -> Iterable[RetrieverAdapter]:
    """Return the retriever adapters this plugin provides.

    A :class:`~ef.evaluation.RetrieverAdapter` turns an object (a LangChain retriever, an
    index, a stored run, ...) into a search function: ``adapt(obj)`` returns
    ``search(query, limit) -> results`` for one query at a time, and ``adapt_batch(obj)``
    returns ``search_batch(query_ids, query_texts, limit) -> [results, ...]`` for many queries
    per call (one result list per query, in order). Give either or both; the engine batches
    through ``adapt_batch`` when it is there and otherwise calls ``adapt``'s function once per
    query. Return picklable functions (instances of module-level classes, not lambdas) so that
    process pools and Dask can run them.

    When a retriever is evaluated, the adapters are asked in hook-call order and the first
    whose ``accepts(obj)`` is true wins. The built-in adapters (``.search_batch``, ``.search``
    and ``.retrieve`` objects, precomputed runs, plain callables) are registered with
    ``trylast=True``, so any plugin's adapter is asked before them; use
    ``@hookimpl(tryfirst=True)`` to go before other plugins. ``accepts`` should not import a
    library the object cannot come from: check ``type(obj).__mro__``'s module names, or
    ``sys.modules``, instead.

    Example::

        @hookimpl
        def ef_evaluation_retriever_adapters():
            return [RetrieverAdapter(name="myindex", accepts=is_my_index, adapt=MySearch)]

    .. versionadded:: 0.1
    """
    raise NotImplementedError  # pragma: no cover - a specification, never called


@hookspec
def ef_evaluation_fusion_methods() -> Iterable[FusionMethod]:
    """Return the fusion methods this plugin provides.

    A :class:`~ef.evaluation.FusionMethod` says how the results of several runs for one query
    become one ranking: ``func(results, **params) -> {doc_id: score}``, with the runs' scores
    after normalisation (``uses="scores"``) or their rankings (``uses="ranks"``).
    :func:`~ef.evaluation.fuse`, :func:`~ef.evaluation.optimize_fusion` and ``ef-eval fuse``
    find it by name; ``ef-eval fusions`` lists it. Names follow the metric rules and must be
    unique across plugins.

    Example::

        @hookimpl
        def ef_evaluation_fusion_methods():
            return [FusionMethod(name="first", func=comb_first)]

    .. versionadded:: 0.1
    """
    raise NotImplementedError  # pragma: no cover - a specification, never called


@hookspec
def ef_evaluation_nugget_assigners() -> Iterable[NuggetAssigner]:
    """Return the nugget assigners this plugin provides.

    A :class:`~ef.evaluation.NuggetAssigner` labels whether each sample's response holds each
    nugget of its query (``support``, ``partial_support``, ``not_support``), with an LLM or
    otherwise. It runs only when :func:`~ef.evaluation.assign_nuggets` names it (never inside
    ``evaluate_rag``, never chosen by hook order); the core then scores the labels with
    ``nugget_all``, ``nugget_vital`` and ``nugget_weighted``. The built-in ``lexical``
    baseline is registered through this hook. Names follow the metric rules.

    Example::

        @hookimpl
        def ef_evaluation_nugget_assigners():
            return [NuggetAssigner(name="mine.llm", assign=assign_with_my_llm)]

    .. versionadded:: 0.2
    """
    raise NotImplementedError  # pragma: no cover - a specification, never called


@hookspec
def ef_evaluation_claim_labelers() -> Iterable[ClaimLabeler]:
    """Return the claim labelers this plugin provides.

    A :class:`~ef.evaluation.ClaimLabeler` extracts the claims of each sample's response and
    gold answer and labels their entailment by the other text and by each retrieved context,
    as RAGChecker does. It runs only when :func:`~ef.evaluation.label_claims` names it; the
    core then scores the labels with the ``claims.*`` metrics. Names follow the metric rules.

    Example::

        @hookimpl
        def ef_evaluation_claim_labelers():
            return [ClaimLabeler(name="mine.llm", label=label_with_my_llm)]

    .. versionadded:: 0.2
    """
    raise NotImplementedError  # pragma: no cover - a specification, never called
