"""Reports: the frozen outcomes of an evaluation, with a dict form and their own tables.

Each report gives its tables (``report.tables()``), which :mod:`ef.evaluation._render` turns
into text, Markdown, LaTeX, CSV, HTML or rich output; ``str()`` is the plain-text table.
"""

from __future__ import annotations

from .._engine.ties import TieDiagnostic
from .comparison import ComparisonReport, PairComparison
from .fusion import FusionOptimization
from .pipeline import PipelineEvalReport
from .pool import Pool
from .rag import RagEvalReport
from .retrieval import RetrievalEvalReport

__all__ = [
    "ComparisonReport",
    "FusionOptimization",
    "PairComparison",
    "PipelineEvalReport",
    "Pool",
    "RagEvalReport",
    "RetrievalEvalReport",
    "TieDiagnostic",
]
