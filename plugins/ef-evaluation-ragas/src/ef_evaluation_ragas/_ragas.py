"""The one place that imports Ragas: quietly, lazily, and with telemetry off by default."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

__all__ = ["quiet", "ragas_module"]


@contextmanager
def quiet() -> Iterator[None]:
    """Silence the DeprecationWarnings Ragas 0.4 emits for its own legacy API.

    ``ragas.metrics.X`` imports and ``ragas.evaluate()`` warn that they will move in Ragas 1.0;
    they are still the only API ``evaluate()`` accepts, and the bridge absorbs that churn so
    its users have nothing to act on.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def ragas_module(name: str = "ragas") -> ModuleType:
    """Import ``name`` (a Ragas module), with Ragas' usage telemetry off unless you chose.

    Ragas reads ``RAGAS_DO_NOT_TRACK`` once; only the exact value ``true`` turns tracking off
    (``1`` does not). An explicit setting of yours is left alone.
    """
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
    import importlib

    with quiet():
        return importlib.import_module(name)
