"""What the overlap metrics share: their libraries, imported on demand."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ...errors import MissingDependencyError
from ...interfaces import RAG_LEVELS, MetricParam
from ...types import RagSample
from ..rag import gold_answers

__all__ = [
    "LEVEL",
    "against_gold",
    "corpus_score",
    "corpus_streams",
    "library",
    "over_corpus",
    "sacrebleu_scorer",
    "sentence_score",
]

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


def against_gold(score: Callable[[str, Sequence[str]], float], sample: RagSample) -> float | None:
    """``score(response, gold answers)`` of one sample (no response: the empty one), or None
    for a sample with no gold answer: every overlap metric's value of a sample.

    >>> against_gold(lambda response, gold: len(gold), {"response": "a", "references": ["b"]})
    1
    >>> print(against_gold(lambda response, gold: 1.0, {"response": "a"}))
    None
    """
    gold = gold_answers(sample)
    return score(sample.get("response") or "", gold) if gold else None


def over_corpus(
    score: Callable[[list[str], list[list[str | None]]], float], samples: Sequence[RagSample]
) -> tuple[float | None, int]:
    """``score(responses, reference streams)`` over the samples with a gold answer
    (:func:`corpus_streams`), and how many they are; ``(None, 0)`` where none has one: the
    ``corpus`` form of an overlap metric.

    >>> over_corpus(lambda responses, streams: len(streams), [{"response": "a", "reference": "b"}])
    (1, 1)
    >>> over_corpus(lambda responses, streams: 1.0, [{"response": "a"}])
    (None, 0)
    """
    responses, streams = corpus_streams(samples)
    if not responses:
        return None, 0
    return score(responses, streams), len(responses)


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


@functools.cache
def sacrebleu_scorer(name: str, **options: Any) -> Any:
    """sacrebleu's metric object ``name`` (``BLEU``, ``CHRF``) with ``options``, made once:
    what sacrebleu's ``sentence_*`` and ``corpus_*`` functions build on every call."""
    return getattr(library("sacrebleu.metrics", "sacrebleu"), name)(**options)


def sentence_score(scorer: Any, response: str, references: Sequence[str]) -> float:
    """``scorer``'s sentence score of ``response`` against ``references``, on 0 to 1."""
    return float(scorer.sentence_score(response, list(references)).score) / 100


def corpus_score(
    scorer: Any, responses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> float:
    """``scorer``'s corpus score of ``responses`` against the reference streams, on 0 to 1."""
    streams = [list(stream) for stream in references]
    return float(scorer.corpus_score(list(responses), streams).score) / 100
