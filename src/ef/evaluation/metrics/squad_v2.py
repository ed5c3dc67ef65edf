"""The SQuAD v2.0 evaluation: the 13 outputs of its official script, on ef's 0 to 1 scale.

For each question ``q`` with gold answers ``A_q`` (empty for an unanswerable one), prediction
``p_q`` (``""`` is "no answer") and no-answer probability ``na_q``:

    exact_q, f1_q = max over the golds of EM and F1 under normalize=squad_v2
                    (the golds that normalise to nothing dropped; [""] if none is left)
    s_q = float(not has_ans_q) if na_q > na_prob_thresh else the raw score
    exact = mean of s_q (exact),  f1 = mean of s_q (f1),  total = the number of questions

``HasAns_*`` are the same over the answerable questions (``A_q`` not empty) and ``NoAns_*``
over the others; the script gives each group only when it has a question. ``best_exact`` and
``best_f1`` are the best score over every threshold: start with "no answer" everywhere
(``num_no_ans`` right), take the questions by ascending ``na_q`` and add, for each, its raw
score if it is answerable, -1 if it is not and ``p_q`` is not empty (the script reads the
prediction as given: any non-empty string is an answer there), else 0; keep the highest
running total, reached first, and the ``na_q`` where it was reached (``0.0`` when none beats
the start). ``best_*`` is that total over ``total``; ``best_*_thresh`` is that ``na_q``, on the
probability's own scale. The script gives the ``best_*`` keys only when it has no-answer
probabilities (its ``--na-prob-file``).

Source: ``evaluate-v2.0.py`` of https://rajpurkar.github.io/SQuAD-explorer/ (Rajpurkar, Jia
and Liang, "Know what you don't know: unanswerable questions for SQuAD", ACL 2018), whose
scores are percentages: every score here is the script's divided by 100.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .lexical import exact_match, token_f1

__all__ = ["SQUAD_V2_KEYS", "squad_v2_scores"]

#: The official script's output keys, in its order.
SQUAD_V2_KEYS = (
    "exact",
    "f1",
    "total",
    "HasAns_exact",
    "HasAns_f1",
    "HasAns_total",
    "NoAns_exact",
    "NoAns_f1",
    "NoAns_total",
    "best_exact",
    "best_exact_thresh",
    "best_f1",
    "best_f1_thresh",
)


def _group(prefix: str, exact: Sequence[float], f1: Sequence[float]) -> dict[str, float | int]:
    # The script's own sums, in question order: the same floats, to the last bit, before the
    # division (it divides 100 * sum, this the sum).
    total = len(exact)
    return {
        f"{prefix}exact": sum(exact) / total,
        f"{prefix}f1": sum(f1) / total,
        f"{prefix}total": total,
    }


def _best(
    raw: Sequence[float],
    has_ans: Sequence[bool],
    answered: Sequence[bool],
    na_probs: Sequence[float],
) -> tuple[float, float]:
    """The best score over every no-answer threshold, and the threshold that reaches it."""
    running: float = sum(not h for h in has_ans)
    best, thresh = running, 0.0
    # sorted() is stable: questions with the same probability keep their order, as the
    # script's do (it sorts its na_prob file's keys), and the running total is summed in
    # the script's order, so a tie between two totals is decided as it decides it.
    for i in sorted(range(len(raw)), key=na_probs.__getitem__):
        running += raw[i] if has_ans[i] else -float(answered[i])
        if running > best:
            best, thresh = running, na_probs[i]
    return best / len(raw), thresh


def squad_v2_scores(
    answers: Sequence[Sequence[str]],
    predictions: Sequence[str],
    na_probs: Sequence[float] | None = None,
    *,
    na_prob_thresh: float = 1.0,
) -> dict[str, float | int]:
    """The official SQuAD v2.0 script's outputs, its scores divided by 100.

    ``answers[i]`` are the gold answers of question ``i`` (none: unanswerable),
    ``predictions[i]`` its prediction (``""``: no answer) and ``na_probs[i]`` the
    probability that it has no answer. Without ``na_probs`` every probability is 0.0 and the
    ``best_*`` keys are left out, as the script does without ``--na-prob-file``.

    >>> squad_v2_scores([["Paris"], []], ["Paris", ""])
    {'exact': 1.0, 'f1': 1.0, 'total': 2, 'HasAns_exact': 1.0, 'HasAns_f1': 1.0, \
'HasAns_total': 1, 'NoAns_exact': 1.0, 'NoAns_f1': 1.0, 'NoAns_total': 1}
    >>> scores = squad_v2_scores([["Paris"], []], ["Paris", "Lyon"], [0.2, 0.7])
    >>> scores["exact"], scores["best_exact"], scores["best_exact_thresh"]
    (0.5, 1.0, 0.2)
    """
    _check_questions(answers, predictions, na_probs, na_prob_thresh)
    probs = [0.0] * len(answers) if na_probs is None else [float(p) for p in na_probs]
    has_ans = [bool(golds) for golds in answers]
    raw_exact, raw_f1 = _raw_scores(answers, predictions)
    exact = _thresholded(raw_exact, has_ans, probs, na_prob_thresh)
    f1 = _thresholded(raw_f1, has_ans, probs, na_prob_thresh)
    scores = _group("", exact, f1) | _answerable_groups(exact, f1, has_ans)
    if na_probs is not None:
        answered = [bool(p) for p in predictions]
        scores["best_exact"], scores["best_exact_thresh"] = _best(
            raw_exact, has_ans, answered, probs
        )
        scores["best_f1"], scores["best_f1_thresh"] = _best(raw_f1, has_ans, answered, probs)
    return scores


def _answerable_groups(
    exact: Sequence[float], f1: Sequence[float], has_ans: Sequence[bool]
) -> dict[str, float | int]:
    """The ``HasAns_*`` scores over the answerable questions and the ``NoAns_*`` over the
    others, each group only when it has a question."""
    scores: dict[str, float | int] = {}
    for prefix, wanted in (("HasAns_", True), ("NoAns_", False)):
        where = [i for i, h in enumerate(has_ans) if h is wanted]
        if where:
            scores |= _group(prefix, [exact[i] for i in where], [f1[i] for i in where])
    return scores


def _check_questions(
    answers: Sequence[Sequence[str]],
    predictions: Sequence[str],
    na_probs: Sequence[float] | None,
    na_prob_thresh: float,
) -> None:
    """Raise a ValueError unless there is a question, and each has its answers, prediction
    and probability, and the threshold is a number."""
    if not (
        len(answers) == len(predictions) and (na_probs is None or len(na_probs) == len(answers))
    ):
        raise ValueError(
            "answers, predictions and na_probs need one item per question; got "
            f"{len(answers)}, {len(predictions)} and "
            f"{'none' if na_probs is None else len(na_probs)}"
        )
    if not answers:
        raise ValueError("the SQuAD v2.0 evaluation needs at least one question")
    if math.isnan(na_prob_thresh):
        raise ValueError("na_prob_thresh is NaN; give a number (the script's default is 1.0)")


def _raw_scores(
    answers: Sequence[Sequence[str]], predictions: Sequence[str]
) -> tuple[list[float], list[float]]:
    """Each question's EM and F1 before the threshold: the script's get_raw_scores."""
    raw_exact, raw_f1 = [], []
    for given, prediction in zip(answers, predictions, strict=True):
        # Under squad_v2, exact_match and token_f1 drop the golds that normalise to nothing
        # and score against "" when none is left: the script's get_raw_scores.
        golds = list(given) or [""]
        raw_exact.append(exact_match(prediction, golds, normalize="squad_v2"))
        raw_f1.append(token_f1(prediction, golds, normalize="squad_v2"))
    return raw_exact, raw_f1


def _thresholded(
    raw: Sequence[float], has_ans: Sequence[bool], probs: Sequence[float], na_prob_thresh: float
) -> list[float]:
    """The scores after the threshold: a question whose no-answer probability is above it
    counts as "no answer", right when it is unanswerable."""
    return [
        float(not h) if p > na_prob_thresh else s
        for s, h, p in zip(raw, has_ans, probs, strict=True)
    ]
