"""Fusion: pure kernels that turn several runs' results for one query into one ranking.

Each built-in method is one module, with its formula and citation in the docstring (as
ranx's layout): ``rrf`` (reciprocal rank fusion), ``comb_sum``, ``comb_mnz``, ``comb_max``,
``comb_min``, ``comb_anz``, ``wsum`` (the weighted sum) and ``isr`` (inverse square rank).
Each holds the per-query function and its :class:`~ef.evaluation.FusionMethod` declaration;
:data:`BUILTIN` lists them in registration order. The names are ranx's (``rrf``, ``sum``,
``mnz``, ``max``, ``min``, ``anz``, ``wsum``, ``isr``). :mod:`.normalize` holds the score
normalisations. Nothing here imports pluggy or numpy: ``default_plugins/fusion.py``
registers the declarations, and :func:`ef.evaluation.fuse` runs them over whole runs.
"""

from __future__ import annotations

from ..interfaces import FusionMethod
from .comb_anz import COMB_ANZ, comb_anz
from .comb_max import COMB_MAX, comb_max
from .comb_min import COMB_MIN, comb_min
from .comb_mnz import COMB_MNZ, comb_mnz
from .comb_sum import COMB_SUM, comb_sum
from .isr import ISR, inverse_square_rank
from .rrf import RRF, reciprocal_rank_fusion
from .wsum import WSUM, weighted_sum

__all__ = [
    "BUILTIN",
    "comb_anz",
    "comb_max",
    "comb_min",
    "comb_mnz",
    "comb_sum",
    "inverse_square_rank",
    "reciprocal_rank_fusion",
    "weighted_sum",
]

#: The built-in fusion methods, in registration order.
BUILTIN: tuple[FusionMethod, ...] = (
    RRF,
    COMB_SUM,
    COMB_MNZ,
    COMB_MAX,
    COMB_MIN,
    COMB_ANZ,
    WSUM,
    ISR,
)
