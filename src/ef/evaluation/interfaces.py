"""What plugins return from the hooks: frozen values with a stable ``name``.

A plugin builds these and returns them from a hook of :mod:`ef.evaluation.hookspecs`::

    from ef.evaluation import RetrievalMetric, hookimpl

    def hits_at_k(ranked, relevant, k):
        return float(any(relevant.get(doc, 0) > 0 for doc in ranked[:k]))

    @hookimpl
    def ef_evaluation_metrics():
        return [RetrievalMetric(name="hits", func=hits_at_k)]
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

if TYPE_CHECKING:
    from .dataset import Dataset, Document
    from .metrics.batch import JudgedHits
    from .types import Qrels, Queries, RagSample, Run, RunInput

__all__ = [
    "BatchSearchFunction",
    "DatasetFormat",
    "RagMetric",
    "RetrievalMetric",
    "RetrieverAdapter",
    "SearchFunction",
]

#: Names are lower-case identifiers, optionally dotted for a namespace (``ragas.bleu``).
#: ``@`` is reserved for cut-offs in report keys (``ndcg@10``).
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")

#: ``(query, limit) -> results``: what an adapter turns a retriever into, one query at a time.
SearchFunction = Callable[[str, int], Sequence[Any]]

#: ``(query_ids, query_texts, limit) -> results per query``, in the order of the queries: what
#: an adapter turns a retriever into when it answers many queries in one call. The ids let a
#: precomputed run answer by query id; a search engine uses the texts.
BatchSearchFunction = Callable[[Sequence[str], Sequence[str], int], Sequence[Sequence[Any]]]


def _check_name(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        raise ValueError(
            f"{type(instance).__name__} name must match {NAME_PATTERN.pattern} "
            f"(lower-case, digits, '_', dots for a namespace), got {value!r}"
        )


def _check_callable(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not callable(value):
        raise TypeError(
            f"{type(instance).__name__}.{attribute.name} must be callable, got {value!r}"
        )


def _check_optional_callable(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None:
        _check_callable(instance, attribute, value)


def is_score(value: object) -> bool:
    """True for what a metric may return: a real number that is not NaN (``bool`` is not).

    >>> is_score(0.5), is_score(float("nan")), is_score(None), is_score(True)
    (True, False, False, False)
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)


def _first_docstring_line(func: object) -> str:
    doc = getattr(func, "__doc__", None) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


@attrs.frozen
class RetrievalMetric:
    """A per-query retrieval metric, computed at every cut-off ``k`` of an evaluation.

    ``func(ranked, relevant, k) -> float`` gets the ranked doc ids, the query's judgements
    ``{doc_id: grade}`` and the cut-off. Reports key it as ``"<name>@<k>"``.

    ``batch(hits, k) -> array``, optional, computes the metric for every query at once from a
    :class:`~ef.evaluation.metrics.batch.JudgedHits` (where each query's judged docs landed)
    and returns one value per query, in query order. It must equal ``func``; evaluations use
    it when it is there and call ``func`` query by query when it is not.

    >>> from ef.evaluation import precision_at_k
    >>> metric = RetrievalMetric(name="p", func=precision_at_k)
    >>> metric.description
    'Fraction of the top ``k`` results that are relevant.'
    """

    name: str = attrs.field(validator=_check_name)
    func: Callable[[Sequence[str], Mapping[str, float], int], float] = attrs.field(
        validator=_check_callable
    )
    #: One line for catalogues; defaults to the first line of ``func``'s docstring.
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.func), takes_self=True)
    )
    #: The vectorised form of ``func`` over every query at once, or None.
    batch: Callable[[JudgedHits, int], Iterable[float]] | None = attrs.field(
        default=None, validator=_check_optional_callable, kw_only=True
    )

    kind: ClassVar[str] = "retrieval"


@attrs.frozen
class RagMetric:
    """A per-sample RAG metric.

    ``func(sample) -> float | None`` gets one validated :class:`~ef.evaluation.RagSample` and
    returns ``None`` when the metric does not apply to it (for example, no ``reference``): the
    sample is then left out of that metric's mean and of its ``coverage``.

    >>> metric = RagMetric(name="answer_length", func=lambda s: float(len(s.get("response", ""))))
    >>> metric.func({"response": "Paris"})
    5.0
    """

    name: str = attrs.field(validator=_check_name)
    func: Callable[[RagSample], float | None] = attrs.field(validator=_check_callable)
    description: str = attrs.field(
        default=attrs.Factory(lambda self: _first_docstring_line(self.func), takes_self=True)
    )

    kind: ClassVar[str] = "rag"


@attrs.frozen
class DatasetFormat:
    """A dataset format: how to recognise, read and write evaluation data on disk.

    Every capability is an optional callable; leave out what the format cannot hold:

    * ``read_qrels(path) -> Qrels`` and ``write_qrels(path, qrels)``;
    * ``read_run(path) -> {qid: {doc: score}}`` and ``write_run(path, run)`` (``run`` may
      also map query ids to ranked lists of doc ids);
    * ``read_queries(path) -> Queries`` and ``write_queries(path, queries)``;
    * ``read_corpus(path) -> Iterable[Document]`` and ``write_corpus(path, documents)``;
    * ``read_dataset(path) -> Dataset`` and ``write_dataset(path, dataset)``;
    * ``read_samples(path) -> list[dict]`` and ``write_samples(path, samples)``.

    ``detect(path) -> bool`` says whether ``path`` looks like this format. When a format is
    not named, the formats that have the wanted capability are asked (plugins' first, then the
    built-ins) and the first that says yes reads the file. Readers raise
    :class:`~ef.evaluation.DatasetFormatError` naming the file and line of bad input; writers
    write through a temporary file, so that an error leaves nothing half-written.

    >>> from pathlib import Path
    >>> def read_pairs(path):
    ...     lines = Path(path).read_text().split()
    ...     return {q: {d: 1} for q, d in (line.split(",") for line in lines)}
    >>> fmt = DatasetFormat(name="pairs", read_qrels=read_pairs)
    >>> fmt.capabilities
    ('read_qrels',)
    """

    name: str = attrs.field(validator=_check_name)
    read_dataset: Callable[[Path], Dataset] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    write_dataset: Callable[[Path, Dataset], None] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    read_samples: Callable[[Path], list[dict[str, Any]]] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    write_samples: Callable[[Path, Iterable[Mapping[str, Any]]], None] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    detect: Callable[[Path], bool] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    description: str = ""
    read_qrels: Callable[[Path], Qrels] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    write_qrels: Callable[[Path, Qrels], None] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    read_run: Callable[[Path], Run] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    write_run: Callable[[Path, RunInput], None] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    read_queries: Callable[[Path], Queries] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    write_queries: Callable[[Path, Queries], None] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    read_corpus: Callable[[Path], Iterable[Document]] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    write_corpus: Callable[[Path, Iterable[Document]], None] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )

    kind: ClassVar[str] = "format"

    @property
    def capabilities(self) -> tuple[str, ...]:
        """The names of the capabilities this format has, e.g. ``('read_run', 'write_run')``."""
        return tuple(
            field.name
            for field in attrs.fields(type(self))
            if field.name.startswith(("read_", "write_")) and getattr(self, field.name) is not None
        )


def _check_adapt_given(
    instance: RetrieverAdapter, attribute: attrs.Attribute[Any], value: Any
) -> None:
    _check_optional_callable(instance, attribute, value)
    if value is None and instance.adapt is None:
        raise TypeError(
            f"RetrieverAdapter {instance.name!r} needs adapt= (one query at a time), "
            "adapt_batch= (many queries per call), or both"
        )


@attrs.frozen
class RetrieverAdapter:
    """Turns "whatever answers a query" into a :data:`SearchFunction` or a
    :data:`BatchSearchFunction`.

    ``accepts(obj) -> bool`` says whether this adapter handles ``obj``. ``adapt(obj)`` returns
    ``search(query, limit) -> results``; ``adapt_batch(obj)`` returns
    ``search_batch(query_ids, query_texts, limit) -> [results, ...]``, one list per query in
    the order given. Give either or both: the engine uses ``adapt_batch`` when it is there and
    otherwise calls ``adapt``'s function one query at a time. Adapters are tried in hook-call
    order (a plugin's ``@hookimpl(tryfirst=True)`` goes first; the built-ins are ``trylast``)
    and the first that accepts wins.

    The returned functions should be picklable (module-level functions or instances of
    module-level classes, not lambdas or closures) so that process pools and Dask can ship
    them to their workers; inline and thread runs do not need it.

    >>> adapter = RetrieverAdapter(
    ...     name="echo", accepts=lambda obj: obj == "echo", adapt=lambda obj: lambda q, n: [q])
    >>> adapter.adapt("echo")("d1", 10)
    ['d1']
    >>> batched = RetrieverAdapter(
    ...     name="echo_batch",
    ...     accepts=lambda obj: obj == "echo",
    ...     adapt_batch=lambda obj: lambda ids, texts, n: [[t] for t in texts],
    ... )
    >>> batched.adapt_batch("echo")(["q1", "q2"], ["d1", "d2"], 10)
    [['d1'], ['d2']]
    >>> RetrieverAdapter(name="nothing", accepts=callable)
    Traceback (most recent call last):
        ...
    TypeError: RetrieverAdapter 'nothing' needs adapt= (one query at a time), adapt_batch= \
(many queries per call), or both
    """

    name: str = attrs.field(validator=_check_name)
    accepts: Callable[[Any], bool] = attrs.field(validator=_check_callable)
    adapt: Callable[[Any], SearchFunction] | None = attrs.field(
        default=None, validator=_check_optional_callable
    )
    description: str = ""
    #: ``adapt_batch(obj) -> search_batch(query_ids, query_texts, limit)``, or None.
    adapt_batch: Callable[[Any], BatchSearchFunction] | None = attrs.field(
        default=None, validator=_check_adapt_given, kw_only=True
    )

    kind: ClassVar[str] = "adapter"
