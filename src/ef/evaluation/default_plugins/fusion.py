"""Registers the built-in fusion methods: rrf, sum, mnz, max, min, anz, wsum and isr (ranx's
names), each declared in its own module of :mod:`ef.evaluation.fusion`."""

from __future__ import annotations

from ..fusion import BUILTIN
from ..hookspecs import hookimpl
from ..interfaces import FusionMethod


@hookimpl
def ef_evaluation_fusion_methods() -> list[FusionMethod]:
    return list(BUILTIN)
