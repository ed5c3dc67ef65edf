"""evaluate_rag(): score RAG samples with deterministic, reference-based lexical metrics."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .._engine.manifest import rag_manifest
from .._engine.measures import DEFAULT_K_VALUES
from .._engine.rag_measures import ContextIdMeasure, RagMeasure, parse_rag_metrics
from .._formats.files import read_samples
from .._formats.rag_samples import check_sample_keys
from .._plugin_engine.failures import PLUGIN_FAILURES, owner_of, plugin_failure
from .._plugin_engine.registry import Registry, registry_or_default
from .._reports import RagEvalReport
from ..errors import ArgumentError, InvalidSampleError, Keyword, PluginError
from ..interfaces import is_score
from ..metrics.rag import is_unanswered, validate_sample
from ..types import SAMPLE_FIELDS, RagSample, sample_where
from .context_ids import context_id_values

__all__ = ["DEFAULT_RAG_METRICS", "evaluate_rag"]

#: The metrics evaluate_rag() computes when none are named: the lexical ones.
DEFAULT_RAG_METRICS = (
    "exact_match",
    "token_f1",
    "context_recall",
    "context_precision",
    "non_empty_rate",
)


def _scores(
    measure: RagMeasure, samples: Sequence[RagSample], registry: Registry
) -> list[float | None]:
    """``measure`` on every sample; what its plugin raises or returns amiss names the sample."""
    values: list[object] = []
    append, func, kwargs = values.append, measure.metric.func, measure.kwargs
    try:
        for sample in samples:
            append(func(sample, **kwargs))
    except InvalidSampleError as exc:  # a metric refusing the sample's data: say which sample
        where = sample_where(samples[len(values)], len(values))
        raise InvalidSampleError(f"{where}: {exc}") from exc
    except PLUGIN_FAILURES as exc:
        where = sample_where(samples[len(values)], len(values))
        name = measure.metric.name
        error = plugin_failure(exc, registry, "metric", name, "its func", where=where)
        if error is None:
            raise
        raise error from exc
    return [_checked(measure, v, samples, i, registry) for i, v in enumerate(values)]


def _checked(
    measure: RagMeasure,
    value: object,
    samples: Sequence[RagSample],
    index: int,
    registry: Registry,
) -> float | None:
    if value is None:
        return None
    if not is_score(value):
        # A NaN or an inf would poison the mean silently; say which metric, whose, and where.
        name, where = measure.metric.name, sample_where(samples[index], index)
        raise PluginError(
            f"RAG metric {measure.key!r} returned {value!r} for {where}"
            f" (the metric of {owner_of(registry, 'metric', name)}); a metric must "
            "return a finite number, or None when the sample lacks what it needs"
        )
    return float(value)  # type: ignore[arg-type]  # is_score checked it


def evaluate_rag(
    samples: Iterable[RagSample | Mapping[str, Any]] | str | os.PathLike[str],
    *,
    metrics: Sequence[str] = DEFAULT_RAG_METRICS,
    registry: Registry | None = None,
    samples_format: str | None = None,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
) -> RagEvalReport:
    """Score RAG samples with deterministic, reference-based lexical metrics.

    Each sample is a :class:`RagSample`: ``(user_input, response, retrieved_contexts,
    reference)``, and optionally ``references``, a list of further gold answers. The built-in
    metrics need no LLM: :func:`exact_match`, :func:`token_f1`, :func:`context_recall`,
    :func:`context_precision` (each the best over the gold answers) and ``non_empty_rate``
    (the share of samples that retrieved any context; one without ``retrieved_contexts``
    retrieved none). A metric skips the samples that lack a field it needs (the
    reference-based ones skip samples with no gold answer); ``coverage`` counts the samples
    each metric scored, and a metric that scored none has the mean ``None``. A sample with a
    gold answer and no response (or a blank one) scores 0 on exact match and F1, and the
    report lists it in ``unanswered``.

    Two more families read what the retriever returned, in rank order:

    * ``has_answer@k``: 1 if one of the top ``k`` ``retrieved_contexts`` contains a gold
      answer, matched as DPR does (DrQA tokens); its mean is open-domain QA's top-k retrieval
      accuracy. ``has_answer(match=regex)@k`` takes the answers as regular expressions.
    * ``ids.`` before any retrieval measure string (``ids.ndcg@10``, ``ids.recall@5``,
      ``ids.P.5,10``): that metric over each sample's ``retrieved_context_ids`` against its
      ``reference_context_ids``, graded by the extra key ``reference_context_grades``
      (``{id: grade}``; 1 for an id it does not grade), scored as :func:`evaluate_run` scores
      ranked lists. A sample without both id fields, or with no positive grade, is skipped.

    Two more score labels the samples carry, made beforehand by a judge (a person, or an LLM
    in a separate call that names it: :func:`~ef.evaluation.assign_nuggets`,
    :func:`~ef.evaluation.label_claims`); evaluate_rag never calls a model:

    * ``nugget_all``, ``nugget_vital`` and ``nugget_weighted`` (``strict=``): the TREC RAG
      track's nugget scores of the assignments in the extra key ``nuggets``; with
      ``assigner=lexical`` the deterministic word-overlap baseline assigns them instead.
    * ``claims.<name>``: RAGChecker's claim metrics (``claims.precision``,
      ``claims.hallucination``, ...) of the entailment labels in the extra key ``claims``
      (:func:`~ef.evaluation.evaluate_claims` computes all eleven).

    For the LLM-judged metrics (faithfulness, answer relevancy, ...) pass the same samples to
    :func:`as_ragas_dataset` and run Ragas with your own LLM.

    Args:
        samples: an iterable of RagSamples (or plain mappings of the same shape), or the
            path of a samples file (JSONL or CSV; :func:`~ef.evaluation.read_samples`), which
            the manifest then records.
        metrics: which metrics to compute: any of ``exact_match``, ``token_f1``,
            ``context_recall``, ``context_precision``, ``non_empty_rate``, or a RAG metric a
            plugin provides, with parameters in brackets: the text metrics take
            ``normalize=`` (``unicode``, the default, or exactly the official ``squad``,
            ``squad_v2`` or ``mlqa`` script) and, for ``mlqa``, ``lang=``
            (``token_f1(normalize=mlqa, lang=zh)``). The report keys a metric by its name and
            the parameters that are not the default (``token_f1(normalize='squad')``); and
            ``has_answer@k`` or ``ids.<retrieval measure>`` (see
            ``ef.evaluation._engine.rag_measures``).
        registry: the plugins to use; ``None`` is the default registry of installed plugins.
        samples_format: the format of a samples file (``rag_jsonl``, ``rag_csv`` or a
            plugin's); ``None`` detects it from the name.
        k_values: the cutoffs of a metric of the top k named without one (``has_answer``,
            ``ids.ndcg``).

    Returns:
        a :class:`RagEvalReport`.

    Raises:
        ValueError: for an unknown metric name, parameter or mode (the message lists the
            valid ones), if ``samples`` (or the file) is empty, if no
            sample has any RagSample field (Ragas' old names ``question``, ``answer``, ...:
            the message says what to rename), or for a malformed sample
            (:class:`~ef.evaluation.InvalidSampleError`, naming the sample's index and id;
            a metric's refusal too, such as an empty answer for ``has_answer``).
        PluginError: if a metric's plugin raises, or returns NaN or an infinity; the message
            names the metric, its plugin and the sample (its ``id``, else its index).

    A key that is not a RagSample field but looks like a misspelt one (``refrence``, or an old
    Ragas name beside the new ones) gives a ``UserWarning``: no metric reads it.

    >>> samples = [
    ...     {'user_input': 'capital of France?', 'response': 'Paris',
    ...      'reference': 'Paris',
    ...      'retrieved_contexts': ['Paris is the capital of France.']},
    ...     {'user_input': '2 + 2?', 'response': 'five', 'reference': 'four',
    ...      'retrieved_contexts': []},
    ... ]
    >>> report = evaluate_rag(samples)
    >>> report.metrics['exact_match']
    0.5
    >>> report.metrics['non_empty_rate']
    0.5
    >>> samples[0].update(retrieved_context_ids=['d1'], reference_context_ids=['d1'])
    >>> evaluate_rag(samples, metrics=['has_answer@1', 'ids.ndcg@10']).metrics
    {'has_answer@1': 0.5, 'ids.ndcg@10': 1.0}
    """
    registry = registry_or_default(registry)
    chosen = parse_rag_metrics(metrics, k_values=k_values, registry=registry)
    if not chosen:
        raise ArgumentError(
            "metrics is empty; name at least one, e.g. ", Keyword("metrics", ("token_f1",))
        )
    checked, inputs = _checked_samples(samples, samples_format, registry)
    ids = [sample_id(sample, i) for i, sample in enumerate(checked)]
    per_sample, corpus = _all_scores(chosen, checked, ids, registry)
    unanswered = [ids[i] for i, sample in enumerate(checked) if is_unanswered(sample)]
    report = RagEvalReport.from_values(
        per_sample, ids, unanswered=unanswered, corpus=corpus, order=[m.key for m in chosen]
    )
    manifest = rag_manifest(registry, [m.entry for m in chosen], inputs=inputs)
    return attrs.evolve(report, manifest=manifest)


def _checked_samples(
    samples: Iterable[RagSample | Mapping[str, Any]] | str | os.PathLike[str],
    samples_format: str | None,
    registry: Registry,
) -> tuple[list[RagSample], dict[str, str | os.PathLike[str]]]:
    """The samples, read from their file when ``samples`` names one, and checked; and the
    inputs the manifest records (the file)."""
    inputs: dict[str, str | os.PathLike[str]] = {}
    source = "samples"
    _check_samples_argument(samples)
    if isinstance(samples, (str, os.PathLike)):
        inputs["samples"] = samples
        source = str(samples)
        samples = read_samples(Path(samples), samples_format, registry=registry)
    checked = [validate_sample(sample, index) for index, sample in enumerate(samples)]
    _check_not_empty(checked, source, from_file=bool(inputs))
    check_sample_keys(checked, source, stacklevel=3)  # its warning names evaluate_rag's caller
    return checked, inputs


def _all_scores(
    chosen: Sequence[RagMeasure | ContextIdMeasure],
    checked: Sequence[RagSample],
    ids: Sequence[str],
    registry: Registry,
) -> tuple[dict[str, list[float | None]], dict[str, tuple[float | None, int]]]:
    """Each metric's values per sample, and each corpus metric's value and count, by key."""
    corpus_measures = [m for m in chosen if isinstance(m, RagMeasure) and m.corpus]
    per_sample = _per_sample(
        [m for m in chosen if m not in corpus_measures], checked, ids, registry
    )
    corpus = {m.key: _corpus_score(m, checked, registry) for m in corpus_measures}
    return per_sample, corpus


def _corpus_score(
    measure: RagMeasure, samples: Sequence[RagSample], registry: Registry
) -> tuple[float | None, int]:
    """``measure``'s corpus form over all the samples: its value and how many it scored."""
    corpus, name = measure.metric.corpus, measure.metric.name
    if corpus is None:  # RagMeasure.corpus is True only for a metric with a corpus form
        raise TypeError(f"RAG metric {name!r} has no corpus form")
    try:
        result = corpus(samples, **measure.kwargs)
    except PLUGIN_FAILURES as exc:
        error = plugin_failure(exc, registry, "metric", name, "its corpus form")
        if error is None:
            raise
        raise error from exc
    scored = _corpus_result(result, len(samples))
    if scored is None:
        raise PluginError(
            f"RAG metric {measure.key!r} returned {result!r} from its corpus form (the metric "
            f"of {owner_of(registry, 'metric', name)}); it must return (value, count): a "
            "finite number and how many samples it scored (0 to the number of samples), or "
            "(None, 0) when it scored none"
        )
    return scored


def _corpus_result(result: Any, n_samples: int) -> tuple[float | None, int] | None:
    """A corpus form's result as ``(value, count)``, the value a float; ``None`` unless it
    is a pair of a finite number and how many samples it scored (0 to ``n_samples``), the
    value ``None`` when that is 0."""
    value, count = result if isinstance(result, tuple) and len(result) == 2 else (result, None)
    if not (
        isinstance(count, int)
        and not isinstance(count, bool)
        and 0 <= count <= n_samples
        and (value is None if count == 0 else is_score(value))
    ):
        return None
    return (None if value is None else float(value)), count


def _check_not_empty(checked: Sequence[object], source: str, *, from_file: bool) -> None:
    if not checked:
        raise InvalidSampleError(
            f"{source}: no sample in it; evaluate_rag needs at least one"
            if from_file
            else "samples is empty; evaluate_rag needs at least one sample"
        )


def _per_sample(
    chosen: Sequence[RagMeasure | ContextIdMeasure],
    checked: Sequence[RagSample],
    ids: Sequence[str],
    registry: Registry,
) -> dict[str, list[float | None]]:
    """Each metric's value per sample, by its key: the context-id measures scored together as
    ranked lists, every other metric sample by sample."""
    over_ids = [m for m in chosen if isinstance(m, ContextIdMeasure)]
    by_ids = context_id_values(checked, ids, over_ids, registry) if over_ids else {}
    return {
        m.key: by_ids[m.key] if isinstance(m, ContextIdMeasure) else _scores(m, checked, registry)
        for m in chosen
    }


def _check_samples_argument(samples: object) -> None:
    """Refuse, saying what to pass, one sample where a list of them belongs (iterated, a
    dict gives its keys), a dict of samples, and a str that names no file (a str is read as
    the path of a samples file)."""
    call = "evaluate_rag(samples)"
    if isinstance(samples, Mapping):
        if any(key in SAMPLE_FIELDS for key in samples):
            raise TypeError(
                f"{call}: samples is one sample (a dict); pass a list of them: "
                "evaluate_rag([sample])"
            )
        raise TypeError(
            f"{call}: samples is a dict; pass a list of samples, e.g. list(samples.values())"
        )
    if isinstance(samples, str) and not Path(samples).exists():
        raise FileNotFoundError(
            f"{call}: no such samples file: {samples!r} (a str is read as the path of a JSONL "
            "or CSV samples file; samples in memory are a list of dicts)"
        )


def sample_id(sample: Mapping[str, Any], index: int) -> str:
    """A sample's ``id`` key as a string, or its index in the input when it has none."""
    value = sample.get("id")
    return str(index) if value is None else str(value)
