"""Reports: the frozen outcomes of an evaluation, with a dict form and their own tables.

Each report gives its tables (``report.tables()``), which :mod:`ef.evaluation._render` turns
into text, Markdown, LaTeX, CSV, HTML or rich output; ``str()`` is the plain-text table.
Each report's module loads when its name is first asked for (PEP 562): scoring a run loads
the retrieval report's, not the comparison's, the pipeline's or the pool's.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._engine.ties import TieDiagnostic
    from .comparison import ComparisonReport, PairComparison
    from .fusion import FusionOptimization
    from .pipeline import PipelineEvalReport
    from .pool import Pool
    from .rag import RagEvalReport
    from .retrieval import RetrievalEvalReport

#: Each name, and the module that defines it (relative to this package).
_WHERE = {
    "ComparisonReport": ".comparison",
    "FusionOptimization": ".fusion",
    "PairComparison": ".comparison",
    "PipelineEvalReport": ".pipeline",
    "Pool": ".pool",
    "RagEvalReport": ".rag",
    "RetrievalEvalReport": ".retrieval",
    "TieDiagnostic": ".._engine.ties",
}

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


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value  # once: later lookups find it here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
