"""RAG metric strings: ``token_f1``, ``has_answer@5``, ``has_answer(match=regex)@5``, and
``ids.`` before a retrieval measure string (``ids.ndcg@10``).

A RAG metric string is a RAG metric's name, then its parameters in brackets, then, for a
metric of the top k retrieved contexts (``RagMetric.cutoff``), ``@k`` or ``@all`` (every
context); the bare name of such a metric stands for every cutoff of ``k_values``, as a
retrieval metric's does. A parameter's value is a literal (``2``, ``True``, ``'regex'``) or a
bare word, read as a string (``regex``).

``ids.`` followed by a retrieval measure string, in any syntax of
:mod:`~ef.evaluation.engine.measures` (``ids.ndcg@10``, ``ids.P.5,10``, ``ids.nDCG@10``), is
that retrieval metric over each sample's ``retrieved_context_ids`` (in rank order) against its
``reference_context_ids``. Its key is ``ids.`` and the retrieval measure's canonical key.

>>> [m.key for m in parse_rag_measures(["has_answer(match=regex)@5", "ids.P.5,10"])]
["has_answer(match='regex')@5", 'ids.precision@5', 'ids.precision@10']
>>> [m.key for m in parse_rag_measures(["has_answer", "token_f1"], k_values=(1, 20))]
['has_answer@1', 'has_answer@20', 'token_f1']
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import DuplicateNameError, UnknownNameError
from ..interfaces import RagMetric
from .measures import DEFAULT_K_VALUES, Measure, check_k_values, format_value, parse_measure

if TYPE_CHECKING:
    from ..plugin_engine.registry import Registry

__all__ = [
    "IDS_PREFIX",
    "ContextIdMeasure",
    "RagMeasure",
    "parse_rag_measure",
    "parse_rag_measures",
]

#: The namespace of the retrieval metrics over context ids.
IDS_PREFIX = "ids."

_SPEC = re.compile(r"^(?P<name>[^()@\s]+)(?:\((?P<params>.*)\))?(?:@(?P<k>[^()@]*))?$", re.S)


def _pairs(value: Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple(value)


@attrs.frozen
class RagMeasure:
    """One RAG metric with its parameters set and, for a metric of the top k contexts, its
    cutoff ``k`` (``None``: every context). ``params`` holds the parameters that differ from
    their defaults, in declaration order.

    >>> from ef.evaluation import get_registry
    >>> has_answer = get_registry().rag_metric("has_answer")
    >>> RagMeasure(has_answer, 5, (("match", "regex"),)).key
    "has_answer(match='regex')@5"
    >>> RagMeasure(has_answer, 5).kwargs
    {'match': 'string', 'k': 5}
    """

    metric: RagMetric
    k: int | None = None
    params: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)

    @property
    def key(self) -> str:
        """The canonical spelling: the name, ``(params)``, then ``@k`` or ``@all`` if it cuts."""
        text = self.metric.name
        if self.params:
            text += "(" + ",".join(f"{n}={format_value(v)}" for n, v in self.params) + ")"
        if not self.metric.cutoff:
            return text
        return f"{text}@all" if self.k is None else f"{text}@{self.k}"

    @property
    def kwargs(self) -> dict[str, Any]:
        """Every declared parameter at its value here or its default, and ``k`` if it cuts:
        the keyword arguments of the metric's ``func``."""
        set_here = dict(self.params)
        kwargs = {
            p.name: p.as_argument(set_here.get(p.name, p.default)) for p in self.metric.params
        }
        if self.metric.cutoff:
            kwargs["k"] = self.k
        return kwargs

    @property
    def entry(self) -> tuple[str, str, int | None, dict[str, Any]]:
        """What the manifest records: key, metric name, cutoff, every parameter's value."""
        params = {n: v for n, v in self.kwargs.items() if n != "k"}
        return self.key, self.metric.name, self.k, params


@attrs.frozen
class ContextIdMeasure:
    """A retrieval measure over the samples' context ids (``ids.ndcg@10``).

    >>> [m] = parse_rag_measure("ids.nDCG@10")
    >>> m.key, m.measure.key
    ('ids.ndcg@10', 'ndcg@10')
    """

    measure: Measure

    @property
    def key(self) -> str:
        """``ids.`` and the retrieval measure's canonical key."""
        return IDS_PREFIX + self.measure.key

    @property
    def entry(self) -> tuple[str, str, int | None, dict[str, Any]]:
        """What the manifest records: key, retrieval metric name, cutoff, its parameters."""
        return self.key, self.measure.metric.name, self.measure.k, self.measure.kwargs


def _params(spec: str, text: str) -> list[tuple[str, Any]]:
    """``match=regex, x=2`` -> ``[("match", "regex"), ("x", 2)]``: literals, or bare words."""
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError as exc:
        raise ValueError(
            f"{spec!r}: cannot read the parameters {text!r} ({exc.msg}); write them as "
            "name=value, e.g. has_answer(match=regex)@5"
        ) from None
    assert isinstance(call, ast.Call)
    if call.args or any(kw.arg is None for kw in call.keywords):
        raise ValueError(f"{spec!r}: parameters are name=value pairs, e.g. has_answer(match=regex)")
    params = []
    for keyword in call.keywords:
        node = keyword.value
        if isinstance(node, ast.Name):  # a bare word is a string: match=regex
            params.append((str(keyword.arg), node.id))
            continue
        try:
            value = ast.literal_eval(node)
        except ValueError:
            raise ValueError(
                f"{spec!r}: the value of {keyword.arg!r} must be a literal or a word, got "
                f"{ast.unparse(node)!r}"
            ) from None
        params.append((str(keyword.arg), value))
    return params


def _canonical(
    spec: str, metric: RagMetric, given: Iterable[tuple[str, Any]]
) -> tuple[tuple[str, Any], ...]:
    values: dict[str, Any] = {}
    for name, value in given:
        param = metric.param(name)
        try:
            values[name] = param.convert(value)
        except ValueError as exc:
            raise ValueError(f"{spec!r}: {exc}") from None
    return tuple(
        (p.name, values[p.name])
        for p in metric.params
        if p.name in values and values[p.name] != p.default
    )


def _rag_metric(name: str, registry: Registry) -> RagMetric:
    try:
        return registry.rag_metric(name)
    except UnknownNameError as exc:
        if name in registry.retrieval_metrics:  # ndcg: the hint to score it over context ids
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


def parse_rag_measure(
    spec: str,
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> list[RagMeasure | ContextIdMeasure]:
    """The measures one RAG metric string names (several for a bare name that cuts).

    Raises:
        UnknownNameError: (a ``ValueError``) for an unknown metric or parameter, with the
            valid ones.
        ValueError: for a malformed string, a bad parameter value, a cutoff on a metric that
            takes none, or an ``ids.`` metric summed over queries (``num_ret``).

    >>> [m.key for m in parse_rag_measure("has_answer@all")]
    ['has_answer@all']
    >>> parse_rag_measure("token_f1@5")
    Traceback (most recent call last):
        ...
    ValueError: 'token_f1@5': token_f1 takes no cutoff (it scores the response, not the top k \
contexts)
    """
    from ..plugin_engine.registry import registry_or_default

    if not isinstance(spec, str):
        raise TypeError(f"a RAG metric is a string such as 'token_f1', got {spec!r}")
    registry = registry_or_default(registry)
    text = spec.strip()
    if text.startswith(IDS_PREFIX):
        return list(_context_id_measures(spec, text, k_values, registry))
    match = _SPEC.match(text)
    metric = _rag_metric(match["name"] if match else text, registry)
    assert match is not None  # a name the registry knows matches the pattern
    params = _canonical(spec, metric, _params(spec, match["params"] or ""))
    cut = match["k"]
    if cut is not None and not metric.cutoff:
        raise ValueError(
            f"{spec!r}: {metric.name} takes no cutoff (it scores the response, not the top k "
            "contexts)"
        )
    if cut is None:
        ks: list[int | None] = list(check_k_values(k_values)) if metric.cutoff else [None]
    elif cut == "all":
        ks = [None]
    elif cut.isdigit() and int(cut) >= 1:
        ks = [int(cut)]
    else:
        raise ValueError(f"{spec!r}: the cutoff after '@' must be a positive int or 'all'")
    return [RagMeasure(metric, k, params) for k in ks]


def parse_rag_measures(
    specs: Iterable[str],
    *,
    k_values: Sequence[int] = DEFAULT_K_VALUES,
    registry: Registry | None = None,
) -> list[RagMeasure | ContextIdMeasure]:
    """The measures of several RAG metric strings, each once, in order.

    >>> [m.key for m in parse_rag_measures(["ids.ndcg@10", "ids.nDCG@10", "token_f1"])]
    ['ids.ndcg@10', 'token_f1']
    """
    if isinstance(specs, str):
        raise TypeError(f"metrics must be a sequence of names, e.g. ({specs!r},), not a str")
    measures: dict[str, RagMeasure | ContextIdMeasure] = {}
    for spec in specs:
        for measure in parse_rag_measure(spec, k_values=k_values, registry=registry):
            measures.setdefault(measure.key, measure)
    return list(measures.values())
