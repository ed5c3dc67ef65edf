"""The one place that imports Ragas: quietly, lazily, and with telemetry off by default."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from ef.evaluation import MissingDependencyError

__all__ = ["REQUIREMENTS", "missing_dependency", "quiet", "ragas_module", "telemetry_off"]

#: What the bridge needs at run time, by top-level module (its pyproject's dependencies).
REQUIREMENTS = {
    "ragas": "ragas==0.4.3",
    "langchain_community": "langchain-community>=0.4.1,<0.4.2",
    "rapidfuzz": "rapidfuzz>=3.0",
    "rouge_score": "rouge-score>=0.1.2",
    "sacrebleu": "sacrebleu>=2.0",
}

_TRACKING_ENV = "RAGAS_DO_NOT_TRACK"
_TRUE_WORDS = frozenset({"1", "yes", "true", "on"})


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


def telemetry_off() -> None:
    """Set ``RAGAS_DO_NOT_TRACK=true`` unless the user turned tracking on.

    Ragas turns tracking off only for the exact value ``true`` (case-insensitive), so a user's
    ``1``, ``yes`` or ``on`` would still send: those become ``true``. Unset is ``true`` too; a
    false-ish value (``0``, ``false``, ...) is the user's choice and is left alone.

    >>> import os
    >>> os.environ["RAGAS_DO_NOT_TRACK"] = "1"
    >>> telemetry_off(); os.environ["RAGAS_DO_NOT_TRACK"]
    'true'
    """
    value = os.environ.get(_TRACKING_ENV)
    if value is None or value.strip().lower() in _TRUE_WORDS:
        os.environ[_TRACKING_ENV] = "true"


def missing_dependency(exc: ImportError) -> MissingDependencyError:
    """The error for a package the bridge needs and cannot import, with the pip command."""
    name = (exc.name or "").partition(".")[0]
    if name not in REQUIREMENTS:
        # Ragas' own message for a metric's extra names it: "sacrebleu is required for ...".
        name = next((module for module in REQUIREMENTS if module in str(exc)), name)
    wanted = [REQUIREMENTS[name]] if name in REQUIREMENTS else list(REQUIREMENTS.values())
    command = "pip install " + " ".join(f'"{r}"' if "<" in r or ">" in r else r for r in wanted)
    return MissingDependencyError(
        f"the Ragas bridge (ef-evaluation-ragas) needs {name or 'a package'}, which is not "
        f"installed ({type(exc).__name__}: {exc}); install it with: {command}"
    )


def ragas_module(name: str = "ragas") -> ModuleType:
    """Import ``name`` (a Ragas module), with Ragas' usage telemetry off unless you chose.

    Ragas reads ``RAGAS_DO_NOT_TRACK`` once; :func:`telemetry_off` sees to it first. Ragas
    missing is a :class:`~ef.evaluation.MissingDependencyError` with the pip command.
    """
    telemetry_off()
    import importlib

    try:
        with quiet():
            return importlib.import_module(name)
    except ImportError as exc:
        raise missing_dependency(exc) from exc
