"""What the overlap metrics share: their libraries, imported on demand."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from ...errors import MissingDependencyError
from ...interfaces import RAG_LEVELS, MetricParam
from ...types import RagSample
from ..rag import gold_answers

__all__ = ["LEVEL", "corpus_streams", "library"]

LEVEL = MetricParam(
    "level",
    str,
    "sentence",
    "sentence: the score of each sample, and their mean; corpus: one score over all the "
    "samples' n-gram counts together (sacrebleu's corpus_score), with no value per sample",
    choices=RAG_LEVELS,
)


def corpus_streams(samples: Sequence[RagSample]) -> tuple[list[str], list[list[str | None]]]:
    """The responses of the samples with a gold answer, and their gold answers as
    sacrebleu's reference streams: stream ``j`` holds each sample's ``j``-th gold answer, or
    ``None`` (sacrebleu's "no reference here") for a sample with fewer.

    >>> corpus_streams([{"response": "a", "reference": "b", "references": ["c"]},
    ...                 {"reference": "d"}, {"response": "e"}])
    (['a', ''], [['b', 'd'], ['c', None]])
    """
    scored = [(s.get("response") or "", gold) for s in samples if (gold := gold_answers(s))]
    width = max((len(gold) for _, gold in scored), default=0)
    streams: list[list[str | None]] = [
        [gold[j] if j < len(gold) else None for _, gold in scored] for j in range(width)
    ]
    return [response for response, _ in scored], streams


def library(module: str, distribution: str) -> ModuleType:
    """Import ``module``, or say that the ``text`` extra installs ``distribution``.

    >>> library("no_such_module_here", "no-such-dist")
    Traceback (most recent call last):
        ...
    ef.evaluation.MissingDependencyError: this metric needs no-such-dist, which is not \
installed: pip install "ef-evaluation[text]"
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.partition(".")[0] != exc.name.partition(".")[0]:
            raise  # the library is there but one of its own imports is missing
        raise MissingDependencyError(
            f"this metric needs {distribution}, which is not installed: "
            'pip install "ef-evaluation[text]"'
        ) from exc
