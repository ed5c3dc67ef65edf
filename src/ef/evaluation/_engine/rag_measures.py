"""RAG metric strings: ``token_f1``, ``token_f1(normalize=squad)``, ``has_answer@5``, and
``ids.`` before a retrieval measure string (``ids.ndcg@10``), resolved to one form.

A RAG metric string is a metric name of the registry with its parameters in brackets, as in
our retrieval measure syntax (:mod:`ef.evaluation._engine.measures`, whose parser this
reuses): ``token_f1(normalize=mlqa, lang=zh)``. A value is a literal or a bare name, which
stands for that string. A metric of the top k retrieved contexts (``RagMetric.cutoff``) takes
``@k`` or ``@all`` (every context), and its bare name stands for every cutoff of ``k_values``,
as a retrieval metric's does. :attr:`RagMeasure.key` is the canonical spelling reports use: the
name, then the parameters that differ from their defaults, in declaration order, then the
cutoff:

>>> [m.key for m in parse_rag_metrics(["token_f1", "exact_match(normalize='squad')"])]
['token_f1', "exact_match(normalize='squad')"]
>>> specs = ["has_answer(match=regex)@5", "has_answer"]
>>> [m.key for m in parse_rag_metrics(specs, k_values=(1, 20))]
["has_answer(match='regex')@5", 'has_answer@1', 'has_answer@20']

``ids.`` followed by a retrieval measure string in any syntax of
:mod:`~ef.evaluation._engine.measures` (``ids.ndcg@10``, ``ids.P.5,10``, ``ids.nDCG@10``) is that
retrieval metric over each sample's ``retrieved_context_ids`` (in rank order) against its
``reference_context_ids``: a :class:`ContextIdMeasure`, keyed ``ids.`` and the retrieval
measure's key.

>>> [m.key for m in parse_rag_metrics(["ids.P.5,10", "ids.nDCG@10"])]
['ids.precision@5', 'ids.precision@10', 'ids.ndcg@10']

Parsing a key gives back the same measure, so keys can be stored and read again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import DuplicateNameError, UnknownNameError
from ..interfaces import RagMetric
from .measures import (
    DEFAULT_K_VALUES,
    SPEC,
    Measure,
    canonical_params,
    check_k_values,
    check_metric_names,
    literal_params,
    params_text,
    parse_cutoff,
    parse_measure,
)

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry

__all__ = [
    "IDS_PREFIX",
    "ContextIdMeasure",
    "RagMeasure",
    "parse_rag_metric",
    "parse_rag_metrics",
]

#: The namespace of the retrieval metrics over context ids.
IDS_PREFIX = "ids."

#: What the manifest records of a metric: key, metric name, cutoff, every parameter's value.
Entry = tuple[str, str, "int | None", dict[str, Any]]


def _pairs(value: Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple(value)


@attrs.frozen
class RagMeasure:
    """One RAG metric with its parameters set and, for a metric of the top k contexts, its
    cutoff ``k`` (``None``: every context): what a RAG report key stands for.

    ``params`` holds the parameters that differ from their defaults, in the metric's
    declaration order, as ``(name, value)`` pairs.

    >>> from ef.evaluation import get_registry
    >>> f1 = get_registry().rag_metric("token_f1")
    >>> RagMeasure(f1, (("normalize", "squad"),)).key
    "token_f1(normalize='squad')"
    >>> has_answer = get_registry().rag_metric("has_answer")
    >>> RagMeasure(has_answer, (("match", "regex"),), k=5).key
    "has_answer(match='regex')@5"
    >>> RagMeasure(has_answer, k=5).kwargs
    {'match': 'string', 'k': 5}
    """

    metric: RagMetric
    params: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)
    k: int | None = attrs.field(default=None, kw_only=True)

    @property
    def key(self) -> str:
        """The canonical spelling: the name, ``(params)`` when any is not the default, then
        ``@k`` or ``@all`` for a metric of the top k contexts."""
        text = self.metric.name + params_text(self.params)
        if not self.metric.cutoff:
            return text
        return f"{text}@all" if self.k is None else f"{text}@{self.k}"

    @property
    def kwargs(self) -> dict[str, Any]:
        """Every declared parameter, at its value here or its default, and ``k`` for a metric
        of the top k contexts: the keyword arguments of ``func``."""
        set_here = dict(self.params)
        kwargs = {
            p.name: p.as_argument(set_here.get(p.name, p.default)) for p in self.metric.params
        }
        if self.metric.cutoff:
            kwargs["k"] = self.k
        return kwargs

    @property
    def entry(self) -> Entry:
        """What the manifest records: key, metric name, cutoff, every parameter's value."""
        params = {name: v for name, v in self.kwargs.items() if name != "k"}
        return self.key, self.metric.name, self.k, params

    @property
    def corpus(self) -> bool:
        """True for a corpus score (``bleu(level=corpus)``): the metric's ``corpus`` form over
        all samples at once, one value and no value per sample.

        >>> from ef.evaluation import get_registry
        >>> bleu = get_registry().rag_metric("bleu")
        >>> RagMeasure(bleu, (("level", "corpus"),)).corpus, RagMeasure(bleu).corpus
        (True, False)
        """
        return self.metric.corpus is not None and self.kwargs.get("level") == "corpus"


@attrs.frozen
class ContextIdMeasure:
    """A retrieval measure over the samples' context ids (``ids.ndcg@10``).

    >>> [m] = parse_rag_metric("ids.nDCG@10")
    >>> m.key, m.measure.key
    ('ids.ndcg@10', 'ndcg@10')
    """

    measure: Measure

    @property
    def key(self) -> str:
        """``ids.`` and the retrieval measure's canonical key."""
        return IDS_PREFIX + self.measure.key

    @property
    def entry(self) -> Entry:
        """What the manifest records: key, retrieval metric name, cutoff, its parameters."""
        return self.key, self.measure.metric.name, self.measure.k, self.measure.kwargs


def _rag_metric(name: str, registry: Registry) -> RagMetric:
    try:
        return registry.rag_metric(name)
    except UnknownNameError as exc:
        if name in registry.retrieval_metrics:  # ndcg: say how to score it over context ids
            raise UnknownNameError(
                f"{exc} {IDS_PREFIX}{name} scores it over the samples' retrieved_context_ids "
                "against their reference_context_ids."
            ) from None
        raise


def _context_id_measures(
    spec: str, text: str, k_values: Sequence[int], registry: Registry
) -> list[ContextIdMeasure]:
    if text in registry.rag_metrics:
        raise DuplicateNameError(
            f"the RAG metric {text!r} of plugin {registry.provider(text).describe()} uses the "
            f"namespace {IDS_PREFIX!r}, which names the retrieval metrics over context ids"
        )
    measures = parse_measure(text[len(IDS_PREFIX) :], k_values=k_values, registry=registry)
    for m in measures:
        if m.metric.aggregate != "mean":
            raise ValueError(
                f"{spec!r}: {m.metric.name} is summed over queries (as trec_eval reports it), "
                "and a RAG report holds means over samples; evaluate_run gives the sum"
            )
    return [ContextIdMeasure(m) for m in measures]


def parse_rag_metric(
    spec: str,
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> list[RagMeasure | ContextIdMeasure]:
    """The measures one RAG metric string names, with its parameters checked: one, or one
    per cutoff of ``k_values`` for the bare name of a metric of the top k contexts.

    Raises:
        UnknownNameError: (a ``ValueError``) for an unknown metric or parameter, listing the
            valid ones.
        ValueError: for a malformed string, a bad parameter value (an unknown mode lists
            the valid ones), parameters that do not go together, a cutoff on a metric that
            takes none, or an ``ids.`` metric summed over queries (``num_ret``).

    >>> [m.key for m in parse_rag_metric("token_f1(normalize=mlqa, lang=zh)")]
    ["token_f1(normalize='mlqa',lang='zh')"]
    >>> parse_rag_metric("token_f1(normalize=squad1)")
    Traceback (most recent call last):
        ...
    ValueError: 'token_f1(normalize=squad1)': token_f1's parameter 'normalize' must be one of \
'unicode', 'squad', 'squad_v2', 'mlqa', got 'squad1'
    >>> parse_rag_metric("token_f1@5")
    Traceback (most recent call last):
        ...
    ValueError: 'token_f1@5': the RAG metric 'token_f1' takes no cutoff ('@'): it scores the \
response, not the top k contexts
    """
    from .._plugin_engine.registry import registry_or_default

    if not isinstance(spec, str):
        raise TypeError(f"a RAG metric is a string such as 'token_f1', got {spec!r}")
    registry = registry_or_default(registry)
    text = spec.strip()
    if text.startswith(IDS_PREFIX):
        return list(_context_id_measures(spec, text, k_values, registry))
    match = SPEC.match(text)
    if match is None:
        raise ValueError(
            f"{spec!r}: a RAG metric is a name with optional parameters in brackets, e.g. "
            "token_f1(normalize=squad)"
        )
    metric = _rag_metric(match["name"], registry)
    cutoff = parse_cutoff(spec, match["k"])
    if cutoff is not None and not metric.cutoff:
        raise ValueError(
            f"{spec!r}: the RAG metric {metric.name!r} takes no cutoff ('@'): it scores the "
            "response, not the top k contexts"
        )
    chosen = _checked_params(spec, metric, match["params"])
    return [RagMeasure(metric, chosen, k=k) for k in _cutoffs(metric, cutoff, k_values)]


def _checked_params(
    spec: str, metric: RagMetric, params: str | None
) -> tuple[tuple[str, Any], ...]:
    """The metric's parameters as ``spec`` gives them (in brackets, or none), canonical and
    checked by the metric's own ``check``."""
    given = [] if params is None else literal_params(spec, params, bare_names=True)
    chosen = canonical_params(spec, metric, given)
    if metric.check is not None:
        try:
            metric.check(RagMeasure(metric, chosen).kwargs)
        except ValueError as exc:
            raise ValueError(f"{spec!r}: {exc}") from None
    return chosen


def _cutoffs(
    metric: RagMetric, cutoff: int | str | None, k_values: Sequence[int]
) -> list[int | None]:
    """The cutoffs to score: the one given (``all``: none), else each of ``k_values`` for a
    metric of the top k contexts, else none."""
    if cutoff is None:
        return list(check_k_values(k_values)) if metric.cutoff else [None]
    return [None if cutoff == "all" else int(cutoff)]


def parse_rag_metrics(
    specs: Iterable[str],
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> list[RagMeasure | ContextIdMeasure]:
    """The measures of several RAG metric strings, each once (by key), in order.

    >>> [m.key for m in parse_rag_metrics(["token_f1", "token_f1(normalize=unicode)"])]
    ['token_f1']
    """
    check_metric_names(specs)
    measures: dict[str, RagMeasure | ContextIdMeasure] = {}
    for spec in specs:
        for measure in parse_rag_metric(spec, k_values=k_values, registry=registry):
            measures.setdefault(measure.key, measure)
    return list(measures.values())
