"""The forms a metric module makes from others: a batch form from its form at several
cutoffs, a tie-averaged form from its batch form and its part for tied docs, and a
geometric-mean variant from its parent.

Every tie-averaged (``expected``) form starts alike: it drops the docs ``judged_only`` drops
and, where no docs tie, gives the batch form's values (one order: its value is the mean).
:func:`tie_averaged` does that once, with the batch form's signature; a metric module gives
only what reads the ties. A ``gm_`` variant (trec_eval's ``gm_map``, ``gm_bpref``) is its
parent per query, summarised by the geometric mean: :func:`geometric` declares it. numpy-free:
a metric module builds these at import.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...interfaces import RetrievalMetric, Synonym
from .params import REL, TREC, check_arguments

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = ["geometric", "one_cutoff", "tie_averaged"]


def one_cutoff(cutoffs: Callable[..., Floats], doc: str) -> Callable[..., Floats]:
    """The batch form of a metric with a form at several cutoffs: that form's row at one
    cutoff ``k``, with its keywords. Named after ``cutoffs`` (``ndcg_cutoffs``:
    ``ndcg_batch``), in its module, ``doc`` its docstring.

    >>> def hits_cutoffs(hits, ks, *, judged_only=False):
    ...     return [[float(k or 0)] for k in ks]
    >>> hits_batch = one_cutoff(hits_cutoffs, "Hits.")
    >>> hits_batch.__name__, str(inspect.signature(hits_batch)), hits_batch(None, 3)
    ('hits_batch', '(hits, k, *, judged_only=False)', [3.0])
    """
    signature = inspect.signature(cutoffs)
    hits, ks, *keywords = signature.parameters.values()

    def batch(hits: JudgedHits, k: int | None, **params: Any) -> Floats:
        row: Floats = cutoffs(hits, (k,), **params)[0]
        return row

    batch.__name__ = batch.__qualname__ = f"{cutoffs.__name__.removesuffix('_cutoffs')}_batch"
    batch.__module__ = cutoffs.__module__
    batch.__doc__ = doc
    typed = ks.annotation is not inspect.Parameter.empty
    one = ks.replace(name="k", annotation="int | None" if typed else ks.annotation)
    batch.__signature__ = signature.replace(parameters=[hits, one, *keywords])  # type: ignore[attr-defined]
    return batch


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


def geometric(metric: RetrievalMetric, *, of: str, doc: str, citation: str) -> RetrievalMetric:
    """``metric`` per query, summarised by its geometric mean over queries: trec_eval's
    ``gm_<name>``, with ``metric``'s parameters and its batch and tie-averaged forms, of the
    whole ranking. Its function, ``gm_<function>`` (``doc`` its docstring, in ``metric``'s
    module), is ``metric``'s, but for a ``rel`` it refuses naming itself. ``of`` names the
    per-query value in its formula.

    >>> from .bpref import BPREF
    >>> gm = geometric(BPREF, of="bpref", doc="bpref, its geometric mean.", citation="")
    >>> gm.name, gm.func.__name__, gm.aggregate, gm.formula
    ('gm_bpref', 'gm_bpref', 'geometric', 'exp(mean(log(max(bpref, 0.00001)))) over queries; \
per query, bpref')
    >>> gm.func(["d1"], {"d1": 1}, rel=-1)
    Traceback (most recent call last):
        ...
    ValueError: gm_bpref(ranked, relevant, k): parameter 'rel' must be > 0, got -1.0
    """
    parent = metric.func
    name = f"gm_{parent.__name__}"
    call = f"{name}(ranked, relevant, k)"

    def per_query(ranked: object, relevant: object, *args: Any, **keywords: Any) -> float:
        if "rel" in keywords:
            check_arguments(call, (REL, keywords["rel"]))
        return parent(ranked, relevant, *args, **keywords)

    per_query.__name__ = per_query.__qualname__ = name
    per_query.__module__ = parent.__module__
    per_query.__doc__ = doc
    per_query.__signature__ = inspect.signature(parent)  # type: ignore[attr-defined]
    return RetrievalMetric(
        name=f"gm_{metric.name}",
        func=per_query,
        batch=metric.batch,
        expected=metric.expected,
        params=metric.params,
        cutoff=False,
        aggregate="geometric",
        synonyms=(Synonym(TREC, f"gm_{metric.name}", cutoff=False),),
        formula=f"exp(mean(log(max({of}, 0.00001)))) over queries; per query, {of}",
        citation=citation,
    )
