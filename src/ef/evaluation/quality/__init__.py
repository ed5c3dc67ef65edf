"""Quality gates: fail a test suite when retrieval or RAG quality drops.

:func:`save_report` and :func:`load_report` keep any report as JSON. The pytest plugin
(:mod:`ef.evaluation.quality.plugin`, registered through the ``pytest11`` entry point) gives
the ``ef_quality`` fixture: thresholds, stored baselines and a significance test against a
baseline (see :doc:`/quality-gates`). Importing this package imports no numpy or scipy.
"""

from __future__ import annotations

from .gates import GateFailure, GateResult, QualityGates
from .saved import load_report, save_report
from .thresholds import Threshold, parse_threshold

__all__ = [
    "GateFailure",
    "GateResult",
    "QualityGates",
    "Threshold",
    "load_report",
    "parse_threshold",
    "save_report",
]
