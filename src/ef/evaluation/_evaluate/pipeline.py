"""evaluate_pipeline(): a retriever and the caller's generator, scored in one report."""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, cast

from .._engine.id_forms import shown_ids
from .._engine.manifest import file_entry
from .._engine.measures import DEFAULT_K_VALUES, DEFAULT_METRICS
from .._engine.results import DocIdFunction
from .._formats.irds import read_irds_dataset
from .._formats.sources import is_irds
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Progress
from .._reports import PipelineEvalReport
from ..errors import GeneratorError
from ._labels import with_nuggets
from .irds_level import irds_inputs
from .rag import DEFAULT_RAG_METRICS, evaluate_rag
from .report import pipeline_report
from .retrieval import check_arguments, retrieved, scored_retrieval

__all__ = ["Generate", "evaluate_pipeline"]

#: The caller's generator: ``generate(question, contexts) -> answer``.
Generate = Callable[[str, list[str]], str]


def evaluate_pipeline(
    retriever: Any,
    qrels: Mapping[str, Mapping[str, float]] | str | None,
    queries: Mapping[str, str] | str,
    *,
    generate: Generate | Mapping[str, str],
    corpus: Mapping[str, str] | str,
    references: Mapping[str, str | Sequence[str]] | None = None,
    nuggets: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    n_contexts: int = 5,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    metrics: Sequence[str] = DEFAULT_METRICS,
    rag_metrics: Sequence[str] = DEFAULT_RAG_METRICS,
    limit: int | None = None,
    registry: Registry | None = None,
    executor: int | cf.Executor | None = None,
    batch_size: int = 32,
    progress: Progress = False,
    on_error: Literal["raise", "skip"] = "raise",
    ignore_identical_ids: bool = False,
    doc_id: DocIdFunction | None = None,
    check_doc_ids: bool = True,
) -> PipelineEvalReport:
    """Run a retriever, hand each query's top documents to your generator, and score both.

    The retriever runs as in :func:`~ef.evaluation.evaluate_retrieval` (same engine, same
    options, same numbers), over the queries qrels judges (with a positive grade), or over
    every query of ``queries`` when ``qrels`` is None. For each query, the texts of its first
    ``n_contexts`` documents (from ``corpus``) go to ``generate(question, contexts)``, and
    the answer is scored with :func:`~ef.evaluation.evaluate_rag`. ef never generates an
    answer itself: ``generate`` is yours (an LLM call, an extractive baseline, ...).

    Each query becomes one :class:`~ef.evaluation.RagSample`: ``id`` (the query id),
    ``user_input`` (the query text), ``retrieved_contexts`` and ``retrieved_context_ids``,
    ``reference_context_ids`` (the docs qrels grades above 0, in qrels' order), ``response``
    and, from ``references``, ``reference`` (the first gold answer) and the extra key
    ``references`` (the others); from ``nuggets``, the extra key ``nuggets``.

    Args:
        retriever: what answers a query, as for :func:`~ef.evaluation.evaluate_retrieval`
            (a stored run too: a path, or ``{query_id: {doc_id: score}}``).
        qrels: the relevance judgements, or None to score the answers only; an
            ``irds:<dataset-id>`` reads the dataset's (its relevance level applies to the
            binary measures, as in :func:`~ef.evaluation.evaluate_run`).
        queries: ``{query_id: query_text}``, or an ``irds:<dataset-id>``.
        generate: ``generate(question, contexts) -> str``, called once per query in query
            order (on ``executor`` when it is given); or the answers made beforehand,
            ``{query_id: response}`` (:func:`~ef.evaluation.read_answers`
            reads them from JSONL): a query without one is unanswered.
        corpus: ``{doc_id: text}`` (``read_beir``'s or ``read_dataset``'s corpus), where the
            contexts' texts come from; an ``irds:<dataset-id>`` reads the dataset's docs.
        references: the gold answers, ``{query_id: answer}`` or ``{query_id: [answer,
            ...]}``. A query without one has no ``reference``, and the metrics that need one
            skip it (``coverage`` counts the others).
        nuggets: the nuggets of each query, ``{query_id: [{"text", "importance"}, ...]}``
            (:func:`~ef.evaluation.read_nuggets`), for the metrics ``nugget_all``,
            ``nugget_vital`` and ``nugget_weighted``: with ``assigner=lexical`` they are
            assigned by the word-overlap baseline; else they score the ``assignment`` each
            nugget carries. No model is called: :func:`~ef.evaluation.assign_nuggets` runs
            an LLM assigner on ``report.samples``, and ``evaluate_rag`` scores its output.
        n_contexts: how many of each ranking's first documents are the contexts.
        k_values: as for :func:`~ef.evaluation.evaluate_retrieval`, as are ``metrics``,
            ``limit``, ``executor``, ``batch_size``, ``progress``, ``on_error``,
            ``ignore_identical_ids``, ``doc_id`` and ``check_doc_ids``; without qrels,
            ``limit`` defaults to ``n_contexts``.
        rag_metrics: the RAG metrics, as ``metrics=`` of :func:`~ef.evaluation.evaluate_rag`.
        registry: the plugins to use; ``None`` is the default registry of installed plugins.

    Returns:
        a :class:`~ef.evaluation.PipelineEvalReport`: ``per_query[query_id]`` holds the
        retrieval values and the RAG values of each query side by side.

    Raises:
        ValueError: for a bad option, a document the retriever returned that ``corpus``
            lacks, ``references`` or answers keyed by ids that are not queries, or that
            share no id with the queries run; and what the two evaluations raise.
        GeneratorError: if ``generate`` raises, or returns something other than a str;
            the message names the query id.

    >>> corpus = {'d1': 'Paris is the capital of France. It is big.', 'd2': 'Rome is old.'}
    >>> queries = {'q1': 'capital of France', 'q2': 'an old city'}
    >>> qrels = {'q1': {'d1': 1}, 'q2': {'d2': 1}}
    >>> def retriever(query, *, limit=10):
    ...     return {'capital of France': ['d1', 'd2'], 'an old city': ['d1', 'd2']}[query]
    >>> def generate(question, contexts):
    ...     return contexts[0].split('.')[0]        # the first sentence of the top context
    >>> report = evaluate_pipeline(
    ...     retriever, qrels, queries, generate=generate, corpus=corpus,
    ...     references={'q1': 'Paris', 'q2': ['Rome', 'the city of Rome']}, k_values=(1,))
    >>> report.per_query['q1']['ndcg@1'], report.per_query['q2']['ndcg@1']
    (1.0, 0.0)
    >>> report.samples[0]['response'], round(report.per_query['q1']['token_f1'], 4)
    ('Paris is the capital of France', 0.3333)
    """
    registry = registry_or_default(registry)
    # ir_datasets ids read here: the dataset's relevance level applies to the measures
    judged, queries, metrics = irds_inputs(qrels, queries, metrics, k_values, registry)
    qrels = cast("Mapping[str, Mapping[str, float]] | None", judged)  # a str: refused below
    # A dataset's docs stream from ir_datasets; a text looked up loads them all.
    texts = (
        read_irds_dataset(corpus, note=False)[0]
        if is_irds(corpus)
        else cast("Mapping[str, str]", corpus)
    )
    check_arguments("evaluate_pipeline(retriever, qrels, queries, ...)", retriever, qrels, queries)
    _check_generation(n_contexts, generate)
    gold = _gold_answers(references, queries)
    if nuggets is not None:
        _check_ids("nuggets", nuggets, queries)
    if isinstance(generate, Mapping):
        _check_ids("the answers", generate, queries)
    if qrels is None:
        retrieval_report = None
        run, skipped = retrieved(
            retriever,
            queries,
            limit=n_contexts if limit is None else limit,
            executor=executor,
            batch_size=batch_size,
            progress=progress,
            on_error=on_error,
            registry=registry,
            doc_id=doc_id,
            ignore_identical_ids=ignore_identical_ids,
        )
    else:
        run, retrieval_report = scored_retrieval(
            retriever,
            qrels,
            queries,
            k_values=k_values,
            metrics=metrics,
            limit=limit,
            registry=registry,
            executor=executor,
            batch_size=batch_size,
            progress=progress,
            on_error=on_error,
            ignore_identical_ids=ignore_identical_ids,
            doc_id=doc_id,
            check_doc_ids=check_doc_ids,
            stacklevel=2,  # a warning points at evaluate_pipeline's caller
        )
        skipped = dict(retrieval_report.skipped)
    query_ids = list(run.query_ids)
    _check_shared_ids(query_ids, references=gold, answers=generate, nuggets=nuggets)
    top = {q: run.ranking(q)[:n_contexts] for q in query_ids}
    contexts = {q: _contexts(q, top[q], texts) for q in query_ids}
    responses = _responses(generate, query_ids, queries, contexts, executor)
    samples = [
        _sample(
            q,
            question=queries[q],
            doc_ids=top[q],
            contexts=contexts[q],
            response=responses.get(q),
            gold=gold.get(q),
            judged=None if qrels is None else qrels[q],
        )
        for q in query_ids
    ]
    if nuggets is not None:
        samples = with_nuggets(samples, nuggets)
    rag = evaluate_rag(samples, metrics=rag_metrics, registry=registry, k_values=k_values)
    manifest: dict[str, Any] = {
        "n_contexts": n_contexts,
        "generate": _name_of(generate),
        "inputs": (
            {"run": file_entry(retriever)} if isinstance(retriever, (str, os.PathLike)) else {}
        ),
    }
    return pipeline_report(retrieval_report, rag, samples, skipped=skipped, manifest=manifest)


def _check_generation(n_contexts: object, generate: object) -> None:
    """``n_contexts`` is a positive int, ``generate`` a function or the answers."""
    if isinstance(n_contexts, bool) or not isinstance(n_contexts, int) or n_contexts < 1:
        raise ValueError(f"n_contexts must be a positive int, got {n_contexts!r}")
    if not (callable(generate) or isinstance(generate, Mapping)):
        raise TypeError(
            "generate must be a function (question, contexts) -> str, or a mapping of query "
            f"id to answer, got {type(generate).__name__}"
        )


def _check_shared_ids(
    query_ids: list[str], *, references: object, answers: object, nuggets: object = None
) -> None:
    """References, answers or nuggets given as a mapping share an id with the queries run."""
    for name, keyed in (("references", references), ("the answers", answers), ("nuggets", nuggets)):
        if isinstance(keyed, Mapping) and keyed and not set(keyed) & set(query_ids):
            raise ValueError(
                f"{name} share no id with the {len(query_ids)} queries run "
                f"{shown_ids(query_ids)}: {name} has {shown_ids(keyed)}; are they of the "
                "same collection?"
            )


def _gold_answers(
    references: Mapping[str, str | Sequence[str]] | None, queries: Mapping[str, str]
) -> dict[str, list[str]]:
    if references is None:
        return {}
    if not isinstance(references, Mapping):
        raise TypeError(
            "references must map query ids to a gold answer or a list of them, got "
            f"{type(references).__name__}"
        )
    gold: dict[str, list[str]] = {}
    for query_id, value in references.items():
        answers = [value] if isinstance(value, str) else value
        if (
            not isinstance(answers, (list, tuple))
            or not answers
            or not all(isinstance(answer, str) for answer in answers)
        ):
            raise ValueError(
                f"references[{query_id!r}] must be a str or a non-empty list of str, got "
                f"{value!r:.80}"
            )
        gold[query_id] = list(answers)
    _check_ids("references", gold, queries)
    return gold


def _check_ids(name: str, keyed: Iterable[str], queries: Mapping[str, str]) -> None:
    unknown = [q for q in keyed if q not in queries]
    if unknown:
        raise ValueError(
            f"{name} hold {len(unknown)} ids that are not queries {shown_ids(unknown)}; the "
            f"queries are {shown_ids(queries)}"
        )


def _contexts(query_id: str, doc_ids: Sequence[str], corpus: Mapping[str, str]) -> list[str]:
    texts = []
    for doc in doc_ids:
        try:
            text = corpus[doc]
        except KeyError:
            raise ValueError(
                f"query {query_id!r}: the retriever returned {doc!r}, which is not in corpus; "
                "the contexts' texts come from corpus"
            ) from None
        if not isinstance(text, str):
            raise TypeError(f"corpus[{doc!r}] is {type(text).__name__}, not a str")
        texts.append(text)
    return texts


def _answer(generate: Generate, query_id: str, question: str, contexts: list[str]) -> str:
    """One call of the caller's generator; what goes wrong names the query."""
    try:
        answer = generate(question, list(contexts))  # a copy: generate may change its list
    except Exception as exc:
        raise GeneratorError(
            f"generate raised on query {query_id!r}: {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(answer, str):
        raise GeneratorError(
            f"generate returned {type(answer).__name__} {answer!r:.60} for query "
            f"{query_id!r}; it must return the answer as a str"
        )
    return answer


def _responses(
    generate: Generate | Mapping[str, str],
    query_ids: Sequence[str],
    queries: Mapping[str, str],
    contexts: Mapping[str, list[str]],
    executor: int | cf.Executor | None,
) -> dict[str, str]:
    if isinstance(generate, Mapping):
        return _given_answers(generate, query_ids)
    calls = (
        [generate] * len(query_ids),
        query_ids,
        [queries[q] for q in query_ids],
        [contexts[q] for q in query_ids],
    )
    return dict(zip(query_ids, _mapped(_answer, calls, executor), strict=True))


def _given_answers(answers: Mapping[str, str], query_ids: Sequence[str]) -> dict[str, str]:
    """The answers given for ``query_ids``, checked: a str each, or none (``None``)."""
    for query_id in query_ids:
        answer = answers.get(query_id)
        if answer is not None and not isinstance(answer, str):
            raise GeneratorError(
                f"the answer of query {query_id!r} is {type(answer).__name__}, not a str"
            )
    return {q: answers[q] for q in query_ids if answers.get(q) is not None}


def _mapped(
    func: Callable[..., str], calls: tuple[Sequence[Any], ...], executor: int | cf.Executor | None
) -> list[str]:
    """``func`` over the arguments ``calls``, in order: here, in ``executor`` threads of a
    new pool, or in the executor given."""
    if executor is None:
        return list(map(func, *calls))
    if isinstance(executor, int):
        with cf.ThreadPoolExecutor(executor) as pool:
            return list(pool.map(func, *calls))
    return list(executor.map(func, *calls))  # keeps the order, raises the first failure


def _sample(
    query_id: str,
    *,
    question: str,
    doc_ids: list[str],
    contexts: list[str],
    response: str | None,
    gold: list[str] | None,
    judged: Mapping[str, float] | None,
) -> dict[str, Any]:
    """The RagSample of one query, its fields in Ragas' order."""
    sample: dict[str, Any] = {"id": query_id, "user_input": question}
    sample["retrieved_contexts"] = contexts
    sample["retrieved_context_ids"] = doc_ids
    if judged is not None:
        sample["reference_context_ids"] = [doc for doc, grade in judged.items() if grade > 0]
    if response is not None:
        sample["response"] = response
    if gold:
        sample["reference"] = gold[0]
        if len(gold) > 1:
            sample["references"] = gold[1:]
    return sample


def _name_of(generate: object) -> str:
    if isinstance(generate, Mapping):
        return "answers given beforehand"
    module = getattr(generate, "__module__", None)
    name = getattr(generate, "__qualname__", None) or type(generate).__qualname__
    return f"{module}.{name}" if module else name
