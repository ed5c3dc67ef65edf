"""The values of the RAG plugins: :class:`RagMetric`, :class:`NuggetAssigner` and
:class:`ClaimLabeler`. Users import them from :mod:`ef.evaluation.interfaces` (or
:mod:`ef.evaluation`), which loads this module on the first use of one of its names, so that
scoring a run builds none of these classes (attrs compiles each class's methods).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import attrs

from . import (
    _V,
    MetricParam,
    _callable,
    _check_unique,
    _first_docstring_line,
    _name,
    _optional_callable,
    _param_named,
    _params_tuple,
    _qualified,
)

__all__ = ["RAG_LEVELS", "ClaimLabeler", "NuggetAssigner", "RagMetric"]


def _check_rag_params(
    instance: RagMetric, attribute: attrs.Attribute[Any], value: tuple[Any, ...]
) -> None:
    if "sample" in _check_unique(f"RAG metric {instance.name!r}", value):
        raise ValueError(
            f"RAG metric {instance.name!r}: 'sample' cannot name a parameter, the metric "
            "function already takes it"
        )


#: The values of a RAG metric's ``level`` parameter: ``func`` per sample, or ``corpus`` once.
RAG_LEVELS = ("sentence", "corpus")


def _check_corpus(
    instance: RagMetric, attribute: attrs.Attribute[Any], value: Callable[..., Any] | None
) -> None:
    if value is None:
        return
    level = [p for p in instance.params if p.name == "level"]
    if not level or "corpus" not in level[0].choices:
        raise ValueError(
            f"RAG metric {instance.name!r} has a corpus form, which the metric string asks "
            "for with level=corpus: declare MetricParam('level', str, 'sentence', "
            "choices=RAG_LEVELS) among its params"
        )
    if instance.cutoff:
        raise ValueError(
            f"RAG metric {instance.name!r}: a metric of the top k contexts (cutoff=True) has "
            "no corpus form"
        )


@attrs.frozen
class RagMetric:
    """A per-sample RAG metric.

    ``func(sample) -> float | None`` gets one validated :class:`~ef.evaluation.RagSample` and
    returns ``None`` when the metric does not apply to it (for example, no ``reference``): the
    sample is then left out of that metric's mean and of its ``coverage``.

    The keyword-only fields are optional:

    * ``params``: the :class:`MetricParam` objects it takes. A metric string sets them
      (``token_f1(normalize=squad)``) and ``func`` receives every one as a keyword argument,
      at its default when the string does not set it; the report keys the metric by its
      name and the parameters that differ from their defaults, as retrieval measures are
      keyed (``token_f1(normalize='squad')``).
    * ``check(params)``: a check of the parameters together (every one, defaults included),
      raising ``ValueError`` for a combination that makes no sense; it runs when a metric
      string is read, before any sample is scored.
    * ``cutoff``: ``True`` for a metric of the top ``k`` retrieved contexts
      (``has_answer@5``): ``func`` then receives ``k`` too (``None`` for ``@all``, every
      context), and the bare name means every cutoff of ``k_values``.
    * ``corpus(samples, **params) -> (value, count)``: the metric over all the samples at
      once (a corpus score, such as corpus BLEU), and how many samples it scored; ``value``
      is ``None`` when it scored none. The metric string asks for it with ``level=corpus``,
      so a metric with ``corpus`` declares the parameter ``level`` (choices
      ``RAG_LEVELS``, ``sentence`` the default: ``func`` on each sample and the mean).
      A corpus score has no value per sample: the report shows it without one, and
      :func:`~ef.evaluation.compare` does not test it.
    * ``formula`` and ``citation``: one line each, for the metric catalogue.

    >>> metric = RagMetric(name="answer_length", func=lambda s: float(len(s.get("response", ""))))
    >>> metric.func({"response": "Paris"})
    5.0
    """

    name: str = attrs.field(validator=_name)
    func: Callable[..., float | None] = attrs.field(validator=_callable)
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.func), takes_self=True)
    )
    params: tuple[MetricParam, ...] = attrs.field(
        default=(),
        converter=_params_tuple,
        validator=[_qualified(_V.deep_iterable(_V.instance_of(MetricParam))), _check_rag_params],
        kw_only=True,
    )
    check: Callable[[Mapping[str, Any]], None] | None = attrs.field(
        default=None, validator=_optional_callable, kw_only=True
    )
    cutoff: bool = attrs.field(default=False, kw_only=True)
    corpus: Callable[..., tuple[float | None, int]] | None = attrs.field(
        default=None, validator=[_optional_callable, _check_corpus], kw_only=True
    )
    formula: str = attrs.field(default="", kw_only=True)
    citation: str = attrs.field(default="", kw_only=True)

    kind: ClassVar[str] = "rag"

    def param(self, name: str) -> MetricParam:
        """The parameter called ``name``; ``UnknownNameError`` lists the valid ones.

        >>> from ef.evaluation import get_registry
        >>> get_registry().rag_metric("token_f1").param("normalize").default
        'unicode'
        """
        return _param_named(f"RAG metric {self.name!r}", self.params, name)


@attrs.frozen
class NuggetAssigner:
    """Labels, for each sample, whether its response holds each nugget of its query.

    ``assign(samples, **options) -> [[label, ...], ...]`` gets validated samples that carry
    ``nuggets`` (``{"text": ..., "importance": "vital" | "okay"}``) and returns, for each
    sample in order, one label per nugget in order: ``"support"``, ``"partial_support"`` or
    ``"not_support"``. ``options`` are what the caller passed to
    :func:`~ef.evaluation.assign_nuggets` (the user's LLM, say). ef writes the labels into
    copies of the samples, and the metrics ``nugget_all``, ``nugget_vital`` and
    ``nugget_weighted`` score them with exact arithmetic.

    An assigner runs only when :func:`~ef.evaluation.assign_nuggets` names it: never inside
    :func:`~ef.evaluation.evaluate_rag`, and never chosen by the order of the plugins.

    >>> assigner = NuggetAssigner(
    ...     name="all_support", assign=lambda samples: [["support"] * len(s["nuggets"])
    ...                                                 for s in samples])
    >>> assigner.assign([{"nuggets": [{"text": "Paris", "importance": "vital"}]}])
    [['support']]
    """

    name: str = attrs.field(validator=_name)
    assign: Callable[..., Sequence[Sequence[str]]] = attrs.field(validator=_callable)
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.assign), takes_self=True)
    )
    kind: ClassVar[str] = "nugget_assigner"


@attrs.frozen
class ClaimLabeler:
    """Extracts claims and labels their entailment, for RAGChecker's claim metrics.

    ``label(samples, **options) -> [claims, ...]`` gets validated samples and returns, for
    each in order, a mapping of RAGChecker's fields: ``response_claims`` and
    ``reference_claims`` (the claims, as text, optional) and the labels ``answer2response``,
    ``response2answer``, ``retrieved2response`` and ``retrieved2answer`` (``"Entailment"``,
    ``"Neutral"``, ``"Contradiction"``, or bools; see :doc:`/rag`). ef writes each mapping
    into a copy of its sample under the key ``claims``; the ``claims.*`` metrics score it.

    A labeler runs only when :func:`~ef.evaluation.label_claims` names it: never inside
    :func:`~ef.evaluation.evaluate_rag`.

    >>> labeler = ClaimLabeler(
    ...     name="none", label=lambda samples: [{"answer2response": []} for _ in samples])
    >>> labeler.label([{"response": "Paris"}])
    [{'answer2response': []}]
    """

    name: str = attrs.field(validator=_name)
    label: Callable[..., Sequence[Mapping[str, Any]]] = attrs.field(validator=_callable)
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.label), takes_self=True)
    )

    kind: ClassVar[str] = "claim_labeler"
