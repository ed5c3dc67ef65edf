"""Registers the built-in fusion methods, ranx 0.3.21's 25 under ranx's names (rrf, sum, mnz,
max, min, anz, wsum, isr, bordafuse, w_bordafuse, condorcet, w_condorcet, med, wmnz, gmnz,
log_isr, logn_isr, rbc, mixed, probfuse, segfuse, slidefuse, bayesfuse, mapfuse, posfuse),
each declared in its own module of :mod:`ef.evaluation._fusion`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..interfaces import FusionMethod


@hookimpl
def ef_evaluation_fusion_methods() -> list[FusionMethod]:
    from .._fusion import BUILTIN  # when a fusion method is first resolved

    return list(BUILTIN)
