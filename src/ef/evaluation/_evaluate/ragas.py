"""as_ragas_dataset(): the hand-over to Ragas, provided by the ef-evaluation-ragas plugin."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from .._plugin_engine.loading import DISABLE_PLUGINS_ENV, env_list
from ..errors import MissingDependencyError
from ..types import RagSample

__all__ = ["RAGAS_INSTALL_COMMAND", "as_ragas_dataset", "from_ragas_dataset"]

#: The exact command that installs the bridge (and Ragas with it), from the root of a clone of
#: the repository: the bridge is not on PyPI yet.
RAGAS_INSTALL_COMMAND = "pip install ./plugins/ef-evaluation-ragas"
_BRIDGE_MODULE = "ef_evaluation_ragas"


def _bridge(caller: str) -> Any:
    """The ef_evaluation_ragas module, or an ImportError that says how to get it."""
    if "ragas" in env_list(DISABLE_PLUGINS_ENV):
        raise MissingDependencyError(
            f"{caller}() needs the Ragas bridge, which {DISABLE_PLUGINS_ENV} disables; "
            "remove 'ragas' from it."
        )
    try:
        return importlib.import_module(_BRIDGE_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != _BRIDGE_MODULE:
            raise  # the bridge is there but something it needs is not: show that
        raise MissingDependencyError(
            f"{caller}() needs the Ragas bridge and Ragas; it is not on PyPI yet, so install "
            f"it from the root of a clone of the ef-evaluation repository with: "
            f"{RAGAS_INSTALL_COMMAND}"
        ) from None


def as_ragas_dataset(samples: Iterable[RagSample | Mapping[str, Any]]) -> Any:
    """Convert RagSamples into a Ragas ``EvaluationDataset``.

    The hookpoint for the LLM-judged RAG metrics ef deliberately does not compute itself
    (faithfulness, answer relevancy, ...). RagSample already mirrors Ragas' SingleTurnSample
    field for field, so this is a thin, lossless adapter, provided by the separate
    ``ef-evaluation-ragas`` distribution. Run the evaluation with your own LLM::

        from ragas import evaluate
        from ragas.metrics import faithfulness, answer_relevancy

        dataset = as_ragas_dataset(samples)
        result = evaluate(dataset, metrics=[faithfulness, answer_relevancy], llm=my_llm)

    Args:
        samples: an iterable of RagSamples (or plain mappings).

    Returns:
        a ``ragas.EvaluationDataset``.

    Raises:
        ImportError: if the optional Ragas bridge is not installed (or is disabled); the
            message gives the exact install command.
    """
    return _bridge("as_ragas_dataset").as_ragas_dataset(samples)


def from_ragas_dataset(dataset: Any) -> list[dict[str, Any]]:
    """Convert a Ragas ``EvaluationDataset`` back into RagSample dicts: the reverse of
    :func:`as_ragas_dataset`, restoring the keys (sample ids) Ragas cannot hold.

    Raises:
        ImportError: if the Ragas bridge is not installed (or is disabled).
    """
    result: list[dict[str, Any]] = _bridge("from_ragas_dataset").from_ragas_dataset(dataset)
    return result
