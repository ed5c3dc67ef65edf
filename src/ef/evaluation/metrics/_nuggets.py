"""Nugget evaluation: the AutoNuggetizer scores of an answer from its nugget assignments.

A query has nuggets, atomic facts a good answer holds, each ``vital`` or ``okay``; an
assignment says whether an answer holds each one: ``support``, ``partial_support`` or
``not_support``. Each nugget ``i`` of an answer earns the credit

    s_i = 1 for support, 0.5 for partial_support (0 when strict), 0 for not_support

and the three scores of the TREC RAG track are

    All      A = sum_i s_i / n                          over every nugget
    Vital    V = sum_(i vital) s_i / n_vital            over the vital nuggets
    Weighted W = sum_i w_i s_i / sum_i w_i,  w_i = 1 (vital), 0.5 (okay)

An answer with no nugget of a score's kind scores 0.0 on it (so does castorini's
``calculate_nugget_scores``, the track's scorer, for a query without vital nuggets).

Pradeep et al., Initial Nugget Evaluation Results for the TREC 2024 RAG Track with the
AutoNuggetizer Framework, arXiv:2411.09607 (2024); Pradeep et al., The Great Nugget Recall:
Automating Fact Extraction and RAG Evaluation with Large Language Models, SIGIR 2025 (the
Weighted score). All and Vital equal castorini/nuggetizer's ``calculate_nugget_scores``
(``nuggetizer/core/metrics.py``), which has no Weighted score; the tests compare.

A sample carries its query's nuggets in the extra key ``nuggets`` (the track's JSONL shape:
``{"text": ..., "importance": "vital" | "okay"}``), and its answer's assignments in each
nugget's ``assignment``. :func:`lexical_assignments` is a deterministic baseline that assigns
by word overlap; it is no judge of meaning (see ``docs/rag.md``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidSampleError
from ..interfaces import MetricParam, RagMetric
from ..types import ASSIGNMENTS, IMPORTANCES, NUGGETS_KEY, RagSample, checked_nuggets
from .normalize import unicode_normalize

__all__ = [
    "ASSIGNMENTS",
    "IMPORTANCES",
    "NUGGETS_KEY",
    "NUGGET_METRICS",
    "all_score",
    "checked_nuggets",
    "lexical_assignments",
    "nugget_credit",
    "sample_nugget_score",
    "vital_score",
    "weighted_score",
]

#: The weight of each importance in the Weighted score.
WEIGHTS = {"vital": 1.0, "okay": 0.5}


def nugget_credit(assignment: str, *, strict: bool = False) -> float:
    """The credit ``s_i`` of one assignment: 1, 0.5 for partial support (0 when
    ``strict``), 0.

    >>> nugget_credit("partial_support"), nugget_credit("partial_support", strict=True)
    (0.5, 0.0)
    """
    if assignment == "support":
        return 1.0
    if assignment == "partial_support":
        return 0.0 if strict else 0.5
    return 0.0


def _mean_credit(nuggets: Sequence[Mapping[str, Any]], strict: bool) -> float:
    if not nuggets:
        return 0.0
    return math.fsum(nugget_credit(n["assignment"], strict=strict) for n in nuggets) / len(nuggets)


def all_score(nuggets: Sequence[Mapping[str, Any]], *, strict: bool = False) -> float:
    """All: the mean credit over every nugget; 0.0 without nuggets.

    >>> nuggets = [{"importance": "vital", "assignment": "support"},
    ...            {"importance": "okay", "assignment": "partial_support"}]
    >>> all_score(nuggets), all_score(nuggets, strict=True)
    (0.75, 0.5)
    """
    return _mean_credit(nuggets, strict)


def vital_score(nuggets: Sequence[Mapping[str, Any]], *, strict: bool = False) -> float:
    """Vital: the mean credit over the vital nuggets; 0.0 without one.

    >>> vital_score([{"importance": "vital", "assignment": "partial_support"},
    ...              {"importance": "okay", "assignment": "support"}])
    0.5
    """
    return _mean_credit([n for n in nuggets if n["importance"] == "vital"], strict)


def weighted_score(nuggets: Sequence[Mapping[str, Any]], *, strict: bool = False) -> float:
    """Weighted: credits weighted 1 for a vital nugget and 0.5 for an okay one, over the
    sum of the weights; 0.0 without nuggets.

    >>> weighted_score([{"importance": "vital", "assignment": "support"},
    ...                 {"importance": "okay", "assignment": "not_support"}])  # 1 / 1.5
    0.6666666666666666
    """
    total = math.fsum(WEIGHTS[n["importance"]] for n in nuggets)
    if not total:
        return 0.0
    gained = math.fsum(
        WEIGHTS[n["importance"]] * nugget_credit(n["assignment"], strict=strict) for n in nuggets
    )
    return gained / total


def _tokens(text: str) -> set[str]:
    # The unicode mode of the lexical metrics: NFKC, lower case, no punctuation or articles.
    return set(unicode_normalize(text).split())


def lexical_assignments(response: str | None, nuggets: Sequence[Mapping[str, Any]]) -> list[str]:
    """A deterministic baseline assignment by word overlap, never a judge of meaning.

    A nugget is ``support`` when every one of its distinct words (normalised as the lexical
    metrics do) is in the response, ``partial_support`` when at least half are, else
    ``not_support``; a nugget with no word, and any nugget of an empty response, is
    ``not_support``. It cannot see a paraphrase, nor a negation.

    >>> nuggets = [{"text": "Paris is the capital", "importance": "vital"},
    ...            {"text": "France has 68 million people", "importance": "okay"},
    ...            {"text": "Paris hosted the 2024 Olympics", "importance": "okay"}]
    >>> lexical_assignments("Paris is the capital of France.", nuggets)
    ['support', 'not_support', 'not_support']
    >>> lexical_assignments("Paris, the capital, hosted the Olympics in 2024.", nuggets)
    ['partial_support', 'not_support', 'support']
    """
    words = _tokens(response) if response else set()
    labels = []
    for nugget in nuggets:
        needed = _tokens(nugget["text"])
        found = len(needed & words)
        if needed and found == len(needed):
            labels.append("support")
        elif needed and 2 * found >= len(needed):
            labels.append("partial_support")
        else:
            labels.append("not_support")
    return labels


_SCORES = {"nugget_all": all_score, "nugget_vital": vital_score, "nugget_weighted": weighted_score}


def _assigned(sample: RagSample, assigner: str) -> list[Mapping[str, Any]] | None:
    """The sample's nuggets, each with its assignment: the sample's own, or the lexical
    baseline's; ``None`` for a sample without nuggets or (``assigner="sample"``) without
    assignments."""
    value: Any = sample.get(NUGGETS_KEY)  # an extra key
    if value is None:
        return None
    if assigner == "lexical":
        nuggets = checked_nuggets(value, assigned=False)
        labels = lexical_assignments(sample.get("response"), nuggets)
        return [{**n, "assignment": label} for n, label in zip(nuggets, labels, strict=True)]
    if not isinstance(value, (list, tuple)):
        checked_nuggets(value, assigned=False)  # says what a list of nuggets is
    has = [isinstance(n, Mapping) and n.get("assignment") is not None for n in value]
    if value and not any(has):
        return None  # not assigned yet: assign_nuggets() writes them
    if not all(has):
        missing = has.index(False)
        raise InvalidSampleError(
            f"nuggets[{missing}] has no 'assignment' while others have one; assign "
            "every nugget (assign_nuggets) or none"
        )
    return checked_nuggets(value, assigned=True)


def sample_nugget_score(
    sample: RagSample, *, score: str, strict: bool = False, assigner: str = "sample"
) -> float | None:
    """The nugget score ``score`` (``nugget_all``, ``nugget_vital`` or ``nugget_weighted``)
    of one sample; ``None`` without nuggets, or without assignments when ``assigner`` is
    ``"sample"``.

    >>> sample = {"nuggets": [{"text": "Paris", "importance": "vital", "assignment": "support"},
    ...                       {"text": "France", "importance": "okay",
    ...                        "assignment": "partial_support"}]}
    >>> sample_nugget_score(sample, score="nugget_weighted")  # (1 + 0.5 * 0.5) / 1.5
    0.8333333333333334
    """
    nuggets = _assigned(sample, assigner)
    return None if nuggets is None else _SCORES[score](nuggets, strict=strict)


STRICT = MetricParam(
    "strict", bool, False, "count only full support (partial support earns 0.5 when not strict)"
)
ASSIGNER = MetricParam(
    "assigner",
    str,
    "sample",
    "sample: the assignments each nugget carries; lexical: the word-overlap baseline (no judge)",
    choices=("sample", "lexical"),
)


def _declared(name: str, description: str, formula: str) -> RagMetric:
    def func(sample: RagSample, *, strict: bool = False, assigner: str = "sample") -> float | None:
        return sample_nugget_score(sample, score=name, strict=strict, assigner=assigner)

    func.__name__ = func.__qualname__ = f"sample_{name}"
    return RagMetric(
        name=name,
        func=func,
        description=description,
        params=(STRICT, ASSIGNER),
        formula=formula,
        citation="Pradeep et al., TREC 2024 RAG Track (arXiv:2411.09607) and SIGIR 2025; "
        "as castorini/nuggetizer's calculate_nugget_scores",
    )


#: The three nugget scores, as the RAG metrics of the registry.
NUGGET_METRICS = (
    _declared(
        "nugget_all",
        "Nugget recall of the answer over all of its query's nuggets (AutoNuggetizer's All).",
        "sum of credits / number of nuggets; support 1, partial support 0.5 (0 when strict)",
    ),
    _declared(
        "nugget_vital",
        "Nugget recall of the answer over its query's vital nuggets (AutoNuggetizer's Vital).",
        "sum of the vital nuggets' credits / number of vital nuggets",
    ),
    _declared(
        "nugget_weighted",
        "Nugget recall weighted 1 per vital and 0.5 per okay nugget (AutoNuggetizer's Weighted).",
        "sum of weight x credit / sum of weights; weight 1 vital, 0.5 okay",
    ),
)
