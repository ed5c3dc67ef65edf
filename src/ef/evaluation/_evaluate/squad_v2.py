"""evaluate_squad_v2(): the official SQuAD v2.0 evaluation of RAG samples, all 13 outputs."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._formats.files import read_samples
from ..errors import InvalidSampleError
from ..metrics.lexical import abstained
from ..metrics.rag import gold_answers, validate_sample
from ..metrics.squad_v2 import squad_v2_scores
from ..types import NA_PROB_KEY, RagSample, sample_where
from .rag import sample_id

__all__ = ["evaluate_squad_v2"]


def evaluate_squad_v2(
    samples: Iterable[RagSample | Mapping[str, Any]] | str | os.PathLike[str],
    *,
    na_prob_thresh: float = 1.0,
    abstain: Sequence[str] = (),
) -> dict[str, float | int]:
    """The official SQuAD v2.0 evaluation of the samples: the script's outputs, its keys.

    Each sample is a question: its gold answers are its ``reference`` and ``references``
    (``reference=""`` and no ``references``: unanswerable), its ``response`` the prediction
    (``""``: no answer), and the extra key ``na_prob`` the model's probability that the
    question has no answer. The outputs are those of ``evaluate-v2.0.py``, under its keys:
    ``exact``, ``f1`` and ``total``; ``HasAns_exact``, ``HasAns_f1``, ``HasAns_total`` (if
    some question has an answer); ``NoAns_exact``, ``NoAns_f1``, ``NoAns_total`` (if some
    has none); and, when the samples carry ``na_prob``, ``best_exact``,
    ``best_exact_thresh``, ``best_f1`` and ``best_f1_thresh``. Scores are the script's
    divided by 100 (ef's 0 to 1 scale), totals are counts, thresholds are ``na_prob`` values.

    A question whose ``na_prob`` exceeds ``na_prob_thresh`` is predicted "no answer", as the
    script's ``--na-prob-thresh`` does (1.0, its default, changes nothing for probabilities).
    A response that is one of the ``abstain`` phrases (after SQuAD normalisation:
    ``["unanswerable", "I don't know"]``) is the empty answer. See :doc:`/rag` for the
    formulas.

    Args:
        samples: RagSamples (or plain mappings of the same shape), or the path of a samples
            file (JSONL or CSV).
        na_prob_thresh: the no-answer probability above which a question counts as
            predicted unanswerable.
        abstain: phrases that mean "no answer" (each compared after normalisation).

    Returns:
        a dict of the script's outputs, in its order.

    Raises:
        InvalidSampleError: (a ``ValueError``) naming the sample, for a sample with no gold
            answer key (``reference``; ``""`` for an unanswerable question), no
            ``response``, an ``na_prob`` that is no finite number, ``na_prob`` on some samples
            only, or an id given twice; and if there is no sample.

    >>> samples = [
    ...     {"id": "q1", "response": "Paris", "reference": "Paris", "na_prob": 0.1},
    ...     {"id": "q2", "response": "Lyon", "reference": "", "na_prob": 0.8},
    ...     {"id": "q3", "response": "I don't know", "reference": "", "na_prob": 0.6},
    ... ]
    >>> scores = evaluate_squad_v2(samples, abstain=["I don't know"])
    >>> scores["exact"], scores["NoAns_exact"], scores["best_exact"], scores["best_exact_thresh"]
    (0.6666666666666666, 0.5, 1.0, 0.1)
    """
    if isinstance(samples, (str, os.PathLike)):
        samples = read_samples(Path(samples))
    if isinstance(samples, Mapping):
        raise TypeError("evaluate_squad_v2(samples): pass a list of samples, not one dict")
    checked = [validate_sample(sample, index) for index, sample in enumerate(samples)]
    if not checked:
        raise InvalidSampleError("samples is empty; evaluate_squad_v2 needs at least one sample")
    _check_ids(checked)
    answers, predictions = [], []
    for index, sample in enumerate(checked):
        golds, response = _question(sample, index)
        answers.append(golds)
        predictions.append(abstained(response, abstain, normalize="squad_v2"))
    return squad_v2_scores(answers, predictions, _na_probs(checked), na_prob_thresh=na_prob_thresh)


def _question(sample: RagSample, index: int) -> tuple[list[str], str]:
    """The sample's gold answers (blank ones are "no answer") and its response."""
    if sample.get("reference") is None and sample.get("references") is None:
        raise InvalidSampleError(
            f"{sample_where(sample, index)}: no gold answer key; evaluate_squad_v2 reads "
            "'reference' (\"\" for an unanswerable question) and 'references' (a CSV "
            'file cannot hold "": its empty cell is no value; use JSONL)'
        )
    response = sample.get("response")
    if response is None:
        raise InvalidSampleError(
            f"{sample_where(sample, index)}: no 'response'; the SQuAD v2.0 script needs a "
            'prediction for every question ("" for no answer; a CSV file cannot hold "": '
            "use JSONL)"
        )
    return [gold for gold in gold_answers(sample) if gold.strip()], response


def _na_probs(samples: Sequence[RagSample]) -> list[float] | None:
    """Every sample's ``na_prob``, or None when none has one."""
    given = [sample.get(NA_PROB_KEY) for sample in samples]
    if all(value is None for value in given):
        return None
    probs = []
    for index, value in enumerate(given):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok or not math.isfinite(value):  # type: ignore[arg-type]  # checked: a number
            where = sample_where(samples[index], index)
            what = "none" if value is None else repr(value)
            raise InvalidSampleError(
                f"{where}: {NA_PROB_KEY!r} is {what}; it must be a finite number on every "
                "sample, or on none (the script's na_prob file covers every question)"
            )
        probs.append(float(value))  # type: ignore[arg-type]  # checked: a number
    return probs


def _check_ids(samples: Sequence[RagSample]) -> None:
    seen: dict[str, int] = {}
    for index, sample in enumerate(samples):
        if sample.get("id") is None:
            continue
        name = sample_id(sample, index)
        if name in seen:
            raise InvalidSampleError(
                f"{sample_where(sample, index)}: the id {name!r} is also sample {seen[name]}'s; "
                "SQuAD v2.0 scores each question once, by its id"
            )
        seen[name] = index
