"""The parameters most retrieval metrics share, and the checks of parameter values.

Every binary metric takes ``rel`` (the lowest grade that counts as relevant, trec_eval's
``-l``) and ``judged_only`` (trec_eval's ``-J``): :data:`BINARY`. A metric's own parameters
(nDCG's ``gains``, RBP's ``p``, ...) sit in its module.
"""

from __future__ import annotations

from collections.abc import Callable

from ...interfaces import MetricParam

__all__ = ["BINARY", "CITE_TREC", "IRM", "JUDGED_ONLY", "REL", "TREC", "positive"]


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
