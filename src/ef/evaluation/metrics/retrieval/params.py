"""The parameters most retrieval metrics share, and the checks of parameter values.

Every binary metric takes ``rel`` (the lowest grade that counts as relevant, trec_eval's
``-l``) and ``judged_only`` (trec_eval's ``-J``): :data:`BINARY`. A metric's own parameters
(nDCG's ``gains``, RBP's ``p``, ...) sit in its module.
"""

from __future__ import annotations

from collections.abc import Callable

from ...interfaces import MetricParam

__all__ = [
    "BINARY",
    "CITE_TREC",
    "IRM",
    "JUDGED_ONLY",
    "REL",
    "TREC",
    "check_arguments",
    "positive",
]


def positive(name: str) -> Callable[[float], None]:
    """A check that refuses a value of parameter ``name`` that is not > 0."""

    def check(value: float) -> None:
        if value <= 0:
            raise ValueError(f"parameter {name!r} must be > 0, got {value!r}")

    return check


REL = MetricParam(
    "rel",
    float,
    None,
    "the lowest grade that counts as relevant (trec_eval's -l); unset: any grade > 0",
    check=positive("rel"),
)

JUDGED_ONLY = MetricParam(
    "judged_only",
    bool,
    False,
    "drop the docs without a judgement of 0 or more from the ranking first (trec_eval's -J)",
)

BINARY = (REL, JUDGED_ONLY)

TREC = "trec_eval"

IRM = "ir_measures"

CITE_TREC = "trec_eval (NIST), usnistgov/trec_eval"


def check_arguments(call: str, *given: tuple[MetricParam, object]) -> None:
    """Refuse, naming ``call``, a keyword argument of a metric function that its measure
    string would refuse: ``iprec_at_recall(..., recall=2)`` would give 0 and
    ``ndcg_at_k(..., dcg="exp_log2")`` log2 gains, with no word. A value at its default is
    not looked at.

    >>> check_arguments("precision_at_k(ranked, relevant, k)", (REL, 2), (JUDGED_ONLY, False))
    >>> check_arguments("precision_at_k(ranked, relevant, k)", (REL, -1))
    Traceback (most recent call last):
        ...
    ValueError: precision_at_k(ranked, relevant, k): parameter 'rel' must be > 0, got -1.0
    """
    for param, value in given:
        if value is param.default:
            continue
        try:
            param.convert(value)
        except ValueError as exc:
            raise ValueError(f"{call}: {exc}") from None
