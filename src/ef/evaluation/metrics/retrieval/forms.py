"""A metric's tie-averaged form, made from its batch form and its part for tied docs.

Every tie-averaged (``expected``) form starts alike: it drops the docs ``judged_only`` drops
and, where no docs tie, gives the batch form's values (one order: its value is the mean).
:func:`tie_averaged` does that once, with the batch form's signature; a metric module gives
only what reads the ties. numpy-free: a metric module builds its form at import.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["tie_averaged"]


def tie_averaged(
    batch: Callable[..., Floats], tied: Callable[..., Floats], doc: str
) -> Callable[..., Floats]:
    """The tie-averaged form of ``batch``, with its signature: ``batch``'s values where no
    docs tie, else ``tied(hits, k, **keywords)``, the hits without the docs ``judged_only``
    drops and every other keyword of ``batch`` (at its default unless given). Named after
    ``batch`` (``ndcg_batch``: ``ndcg_expected``), in its module, ``doc`` its docstring.

    >>> import attrs
    >>> from ef.evaluation._hits import JudgedHits
    >>> def hits_batch(hits, k, *, judged_only=False):
    ...     return [0.0] * hits.n_queries
    >>> hits_expected = tie_averaged(hits_batch, lambda hits, k: [0.5], "Expected hits.")
    >>> hits_expected.__name__, str(inspect.signature(hits_expected))
    ('hits_expected', '(hits, k, *, judged_only=False)')
    >>> hits = JudgedHits.from_rankings([["d1", "x"]], [{"d1": 1}])
    >>> hits_expected(hits, 1), hits_expected(attrs.evolve(hits, above=[0], tied=[2]), 1)
    ([0.0], [0.5])
    """
    signature = inspect.signature(batch)

    def expected(hits: JudgedHits, k: int | None, **params: Any) -> Floats:
        from .kernels import prepared, untied

        keywords = signature.bind(hits, k, **params)
        keywords.apply_defaults()
        given = keywords.kwargs
        hits = prepared(hits, given.pop("judged_only", False))
        if untied(hits):
            return batch(hits, k, **given)
        return tied(hits, k, **given)

    expected.__name__ = expected.__qualname__ = f"{batch.__name__.removesuffix('_batch')}_expected"
    expected.__module__ = batch.__module__
    expected.__doc__ = doc
    expected.__signature__ = signature  # type: ignore[attr-defined]
    return expected
