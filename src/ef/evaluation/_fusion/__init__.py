"""Fusion: pure kernels that turn several runs' results for one query into one ranking.

Each built-in method is one module, with its formula and citation in the docstring (as
ranx's layout), and together they are ranx 0.3.21's 25: ``rrf`` (reciprocal rank fusion),
``comb_sum``, ``comb_mnz``, ``comb_max``, ``comb_min``, ``comb_anz``, ``wsum`` (the weighted
sum), ``isr`` (inverse square rank), ``bordafuse``, ``w_bordafuse``, ``condorcet``,
``w_condorcet``, ``comb_med``, ``wmnz``, ``comb_gmnz``, ``log_isr``, ``logn_isr``, ``rbc``
(rank-biased centroid), ``mixed``, and the supervised ``probfuse``, ``segfuse``,
``slidefuse``, ``bayesfuse``, ``mapfuse`` and ``posfuse``, whose ``train`` learns their
parameters from training runs and qrels. Each holds the per-query function and its
:class:`~ef.evaluation.FusionMethod` declaration; :data:`BUILTIN` lists them in
registration order. The names are ranx's (``rrf``, ``sum``, ``mnz``, ``max``, ``min``,
``anz``, ``wsum``, ``isr``, ``bordafuse``, ``w_bordafuse``, ``condorcet``, ``w_condorcet``,
``med``, ``wmnz``, ``gmnz``, ``log_isr``, ``logn_isr``, ``rbc``, ``mixed``, ``probfuse``,
``segfuse``, ``slidefuse``, ``bayesfuse``, ``mapfuse``, ``posfuse``). :mod:`.normalize`
holds the score normalisations. Nothing here imports pluggy or numpy: ``_default_plugins/fusion.py``
registers the declarations, and :func:`ef.evaluation.fuse` runs them over whole runs.
"""

from __future__ import annotations

from ..interfaces import FusionMethod
from .bayesfuse import BAYESFUSE, bayesfuse
from .bordafuse import BORDAFUSE, bordafuse
from .comb_anz import COMB_ANZ, comb_anz
from .comb_gmnz import COMB_GMNZ, comb_gmnz
from .comb_max import COMB_MAX, comb_max
from .comb_med import COMB_MED, comb_med
from .comb_min import COMB_MIN, comb_min
from .comb_mnz import COMB_MNZ, comb_mnz
from .comb_sum import COMB_SUM, comb_sum
from .condorcet import CONDORCET, condorcet
from .isr import ISR, inverse_square_rank
from .log_isr import LOG_ISR, log_isr
from .logn_isr import LOGN_ISR, logn_isr
from .mapfuse import MAPFUSE, mapfuse
from .mixed import MIXED, mixed
from .posfuse import POSFUSE, posfuse
from .probfuse import PROBFUSE, probfuse
from .rbc import RBC, rank_biased_centroid
from .rrf import RRF, reciprocal_rank_fusion
from .segfuse import SEGFUSE, segfuse
from .slidefuse import SLIDEFUSE, slidefuse
from .w_bordafuse import W_BORDAFUSE, weighted_bordafuse
from .w_condorcet import W_CONDORCET, weighted_condorcet
from .wmnz import WMNZ, weighted_mnz
from .wsum import WSUM, weighted_sum

__all__ = [
    "BUILTIN",
    "bayesfuse",
    "bordafuse",
    "comb_anz",
    "comb_gmnz",
    "comb_max",
    "comb_med",
    "comb_min",
    "comb_mnz",
    "comb_sum",
    "condorcet",
    "inverse_square_rank",
    "log_isr",
    "logn_isr",
    "mapfuse",
    "mixed",
    "posfuse",
    "probfuse",
    "rank_biased_centroid",
    "reciprocal_rank_fusion",
    "segfuse",
    "slidefuse",
    "weighted_bordafuse",
    "weighted_condorcet",
    "weighted_mnz",
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
    BORDAFUSE,
    W_BORDAFUSE,
    CONDORCET,
    W_CONDORCET,
    COMB_MED,
    WMNZ,
    COMB_GMNZ,
    LOG_ISR,
    LOGN_ISR,
    RBC,
    MIXED,
    PROBFUSE,
    SEGFUSE,
    SLIDEFUSE,
    BAYESFUSE,
    MAPFUSE,
    POSFUSE,
)
