"""BEIR's (and MTEB's) names of the keys of its own metrics (``R_cap@10``), where they are
neither ours nor ir_measures'; loaded only by
:func:`~ef.evaluation._engine.syntax.resolve_key`.

>>> our_spelling("R_cap@10"), our_spelling("Accuracy@5"), our_spelling("NDCG@10")
('r_cap@10', 'success@5', None)
"""

from __future__ import annotations

__all__ = ["BEIR_NAMES", "our_spelling"]


#: BEIR's and MTEB's names of its own metrics' keys (``R_cap@10``), where they are neither
#: ours nor ir_measures' (``NDCG@10``, ``MAP@10``, ``Recall@10``, ``P@10``, ``MRR@10`` are).
BEIR_NAMES = {"R_cap": "r_cap", "Hole": "hole", "Accuracy": "success"}


def our_spelling(name: str) -> str | None:
    """Our measure string for BEIR's key ``name``; None if it is not one of BEIR's own names."""
    base, at, rest = name.partition("@")
    return BEIR_NAMES[base] + at + rest if base in BEIR_NAMES else None
