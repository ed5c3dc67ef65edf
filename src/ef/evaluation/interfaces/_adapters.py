"""The value of a retriever-adapter plugin: :class:`RetrieverAdapter`. Users import it from
:mod:`ef.evaluation.interfaces`, which loads this module on its first use (scoring a run
adapts no retriever).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from . import BatchSearchFunction, SearchFunction, _callable, _name, _optional_callable

__all__ = ["RetrieverAdapter"]


def _check_adapt_given(
    instance: RetrieverAdapter, attribute: attrs.Attribute[Any], value: Any
) -> None:
    if value is None and instance.adapt is None:
        raise TypeError(
            f"RetrieverAdapter {instance.name!r} needs adapt= (one query at a time), "
            "adapt_batch= (many queries per call), or both"
        )


@attrs.frozen
class RetrieverAdapter:
    """Turns "whatever answers a query" into a
    :data:`~ef.evaluation.interfaces.SearchFunction` or a
    :data:`~ef.evaluation.interfaces.BatchSearchFunction`.

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

    name: str = attrs.field(validator=_name)
    accepts: Callable[[Any], bool] = attrs.field(validator=_callable)
    adapt: Callable[[Any], SearchFunction] | None = attrs.field(
        default=None, validator=_optional_callable
    )
    description: str = ""
    #: ``adapt_batch(obj) -> search_batch(query_ids, query_texts, limit)``, or None.
    adapt_batch: Callable[[Any], BatchSearchFunction] | None = attrs.field(
        default=None, validator=[_optional_callable, _check_adapt_given], kw_only=True
    )

    kind: ClassVar[str] = "adapter"
