"""Registers the built-in fusion methods: rrf, sum, mnz, max, min, anz, wsum and isr (ranx's
names), each declared in its own module of :mod:`ef.evaluation.fusion`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..interfaces import FusionMethod


@hookimpl
def ef_evaluation_fusion_methods() -> list[FusionMethod]:
    from ..fusion import BUILTIN  # when a fusion method is first resolved

    return list(BUILTIN)
