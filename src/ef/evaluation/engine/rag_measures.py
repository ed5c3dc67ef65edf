"""RAG metric strings: ``token_f1``, ``token_f1(normalize=squad)``, resolved to one form.

A RAG metric string is a metric name of the registry with its parameters in brackets, as in
our retrieval measure syntax (:mod:`ef.evaluation.engine.measures`, whose parser this
reuses): ``token_f1(normalize=mlqa, lang=zh)``. A value is a literal or a bare name, which
stands for that string. :attr:`RagMeasure.key` is the canonical spelling reports use: the
name, then the parameters that differ from their defaults, in declaration order:

>>> [m.key for m in parse_rag_metrics(["token_f1", "exact_match(normalize='squad')"])]
['token_f1', "exact_match(normalize='squad')"]

Parsing a key gives back the same measure, so keys can be stored and read again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from ..interfaces import RagMetric
from .measures import SPEC, canonical_params, literal_params, params_text

if TYPE_CHECKING:
    from ..plugin_engine.registry import Registry

__all__ = ["RagMeasure", "parse_rag_metric", "parse_rag_metrics"]


def _pairs(value: Iterable[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple(value)


@attrs.frozen
class RagMeasure:
    """One RAG metric with its parameters set: what a RAG report key stands for.

    ``params`` holds the parameters that differ from their defaults, in the metric's
    declaration order, as ``(name, value)`` pairs.

    >>> from ef.evaluation import get_registry
    >>> f1 = get_registry().rag_metric("token_f1")
    >>> RagMeasure(f1, (("normalize", "squad"),)).key
    "token_f1(normalize='squad')"
    """

    metric: RagMetric
    params: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)

    @property
    def key(self) -> str:
        """The canonical spelling: the name, then ``(params)`` when any is not the default."""
        return self.metric.name + params_text(self.params)

    @property
    def kwargs(self) -> dict[str, Any]:
        """Every declared parameter, at its value here or its default, for ``func``."""
        set_here = dict(self.params)
        return {p.name: p.as_argument(set_here.get(p.name, p.default)) for p in self.metric.params}


def parse_rag_metric(spec: str, *, registry: Registry | None = None) -> RagMeasure:
    """The RAG metric one string names, with its parameters checked.

    Raises:
        UnknownNameError: (a ``ValueError``) for an unknown metric or parameter, listing the
            valid ones.
        ValueError: for a malformed string, a bad parameter value (an unknown mode lists
            the valid ones), or parameters that do not go together.

    >>> parse_rag_metric("token_f1(normalize=mlqa, lang=zh)").key
    "token_f1(normalize='mlqa',lang='zh')"
    >>> parse_rag_metric("token_f1(normalize=squad1)")
    Traceback (most recent call last):
        ...
    ValueError: 'token_f1(normalize=squad1)': parameter 'normalize' must be one of 'unicode', \
'squad', 'squad_v2', 'mlqa', got 'squad1'
    """
    from ..plugin_engine.registry import registry_or_default

    if not isinstance(spec, str):
        raise TypeError(f"a RAG metric is a string such as 'token_f1', got {spec!r}")
    registry = registry_or_default(registry)
    text = spec.strip()
    match = SPEC.match(text)
    if match is None:
        raise ValueError(
            f"{spec!r}: a RAG metric is a name with optional parameters in brackets, e.g. "
            "token_f1(normalize=squad)"
        )
    metric = registry.rag_metric(match["name"])
    if match["k"] is not None:
        raise ValueError(f"{spec!r}: the RAG metric {metric.name!r} takes no cutoff ('@')")
    params = match["params"]
    given = [] if params is None else literal_params(spec, params, bare_names=True)
    measure = RagMeasure(metric, canonical_params(spec, metric, given))
    if metric.check is not None:
        try:
            metric.check(measure.kwargs)
        except ValueError as exc:
            raise ValueError(f"{spec!r}: {exc}") from None
    return measure


def parse_rag_metrics(
    specs: Iterable[str], *, registry: Registry | None = None
) -> list[RagMeasure]:
    """The RAG metrics of several strings, each once (by key), in order.

    >>> [m.key for m in parse_rag_metrics(["token_f1", "token_f1(normalize=unicode)"])]
    ['token_f1']
    """
    if isinstance(specs, str):
        raise TypeError(f"metrics must be a sequence of names, e.g. ({specs!r},), not a str")
    measures: dict[str, RagMeasure] = {}
    for spec in specs:
        measure = parse_rag_metric(spec, registry=registry)
        measures.setdefault(measure.key, measure)
    return list(measures.values())
