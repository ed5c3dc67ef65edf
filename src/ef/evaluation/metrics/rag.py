"""Sample-level RAG metrics: which fields each lexical metric needs (samples are validated
by :func:`ef.evaluation.types.validate_sample`, re-exported here).

Each function takes one validated :class:`~ef.evaluation.RagSample` and returns a float, or
``None`` when the sample lacks a field the metric needs (it is then skipped for that metric and
the report's ``coverage`` says how many samples were scored). The text metrics take the
parameters :data:`TEXT_PARAMS` (``normalize`` and ``lang``) as keyword arguments.

The gold answers of a sample are its ``reference`` and every string of its ``references``
(:func:`gold_answers`). A sample with a gold answer but no response, or a blank one, is
unanswered (:func:`is_unanswered`) and scores 0.0 on exact match and F1, as the SQuAD and
MLQA scripts score a question with no prediction; only ``normalize="squad_v2"`` scores a
blank response, its script's "no answer" prediction, by the v2.0 rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import InvalidSampleError
from ..interfaces import MetricParam
from ..types import SAMPLE_FIELDS, RagSample, validate_sample
from . import lexical
from .normalize import MLQA_LANGS, NORMALIZE_MODES, Normalization

__all__ = [
    "ABSTAIN",
    "ANSWER_PARAMS",
    "LANG",
    "NORMALIZE",
    "SAMPLE_FIELDS",
    "TEXT_PARAMS",
    "check_text_params",
    "gold_answers",
    "is_unanswered",
    "sample_context_precision",
    "sample_context_recall",
    "sample_exact_match",
    "sample_non_empty",
    "sample_token_f1",
    "validate_sample",
]

NORMALIZE = MetricParam(
    "normalize",
    str,
    "unicode",
    "how text becomes tokens: unicode (NFKC, Unicode punctuation, CJK characters one by one), "
    "or exactly the official squad (v1.1), squad_v2 or mlqa (with lang) script",
    choices=NORMALIZE_MODES,
)

LANG = MetricParam(
    "lang",
    str,
    None,
    "the answer language of normalize=mlqa (its articles, and Chinese's mixed segmentation)",
    choices=MLQA_LANGS,
)

ABSTAIN = MetricParam(
    "abstain",
    list,
    None,
    "phrases that mean no answer (['unanswerable', \"I don't know\"]): a response that is one "
    "of them after normalisation is scored as the empty answer",
)

#: The parameters of the text metrics: ``token_f1(normalize=mlqa, lang=zh)``.
TEXT_PARAMS = (NORMALIZE, LANG)

#: The parameters of the answer metrics (exact_match, token_f1): the text ones and abstain.
ANSWER_PARAMS = (NORMALIZE, LANG, ABSTAIN)


def check_text_params(params: Mapping[str, Any]) -> None:
    """Refuse a ``normalize`` and ``lang`` that do not go together (``lang`` is MLQA's), and
    an ``abstain`` phrase that normalises to nothing.

    >>> check_text_params({"normalize": "squad", "lang": "zh"})
    Traceback (most recent call last):
        ...
    ValueError: lang= applies to normalize='mlqa' only, not to 'squad'; drop lang='zh' or \
write normalize='mlqa'
    >>> check_text_params({"normalize": "squad", "lang": None, "abstain": ["the"]})
    Traceback (most recent call last):
        ...
    ValueError: abstain: the abstain phrase 'the' normalises to nothing (normalize='squad'); \
give the words that mean no answer
    """
    Normalization(params["normalize"], params["lang"])
    abstain = params.get("abstain")
    if abstain:
        lexical.check_abstain(abstain, params["normalize"], params["lang"])


def gold_answers(sample: RagSample | Mapping[str, Any]) -> list[str]:
    """The sample's gold answers: its ``reference``, then its ``references``.

    ``references`` is checked even so, for a sample that did not come through
    :func:`validate_sample`: as there, it must be a list (or tuple) of strings. A string
    would be read as one answer per character, an iterator emptied by the first metric.

    >>> gold_answers({"reference": "Paris", "references": ["City of Light"]})
    ['Paris', 'City of Light']
    >>> gold_answers({"response": "Paris"})
    []
    """
    reference = sample.get("reference")
    gold = [] if reference is None else [reference]
    more = sample.get("references")
    if more is not None:
        if not isinstance(more, (list, tuple)) or not all(isinstance(t, str) for t in more):
            raise InvalidSampleError(
                f"sample {sample.get('id', '')!r}: 'references' must be a list of strings "
                f"(the gold answers beside 'reference'), got {more!r:.80}"
            )
        gold += more
    return gold


def is_unanswered(sample: RagSample) -> bool:
    """True for a sample with a gold answer and no response, or a blank one.

    >>> is_unanswered({"reference": "Paris", "response": "  "}), is_unanswered({"response": ""})
    (True, False)
    """
    response = sample.get("response")
    return bool(gold_answers(sample)) and (response is None or not response.strip())


def _answer_score(
    sample: RagSample,
    score: Callable[..., float],
    normalize: str,
    lang: str | None,
    abstain: Sequence[str] | None,
) -> float | None:
    golds = gold_answers(sample)
    if not golds:
        return None
    response = sample.get("response")
    if response is not None and abstain:
        response = lexical.abstained(response, abstain, normalize=normalize, lang=lang)
    if response is None or (not response.strip() and normalize != "squad_v2"):
        return 0.0  # unanswered, or an abstention: the empty answer
    return score(response, golds, normalize=normalize, lang=lang)


def sample_exact_match(
    sample: RagSample,
    *,
    normalize: str = "unicode",
    lang: str | None = None,
    abstain: Sequence[str] | None = None,
) -> float | None:
    """1.0 if the response equals a gold answer after normalisation, else 0.0.

    >>> sample_exact_match({"response": "The Eiffel Tower", "references": ["eiffel tower"]})
    1.0
    """
    return _answer_score(sample, lexical.exact_match, normalize, lang, abstain)


def sample_token_f1(
    sample: RagSample,
    *,
    normalize: str = "unicode",
    lang: str | None = None,
    abstain: Sequence[str] | None = None,
) -> float | None:
    """Token-overlap F1 of the response against its best gold answer (the SQuAD F1).

    >>> sample_token_f1({"reference": "Paris"}), sample_token_f1({"response": "Paris"})
    (0.0, None)
    """
    return _answer_score(sample, lexical.token_f1, normalize, lang, abstain)


def sample_context_recall(
    sample: RagSample, *, normalize: str = "unicode", lang: str | None = None
) -> float | None:
    """Share of a gold answer's distinct tokens found in the retrieved contexts (the best).

    >>> sample_context_recall({"reference": "Paris", "retrieved_contexts": ["In Paris."]})
    1.0
    """
    golds, contexts = gold_answers(sample), sample.get("retrieved_contexts")
    if not golds or contexts is None:
        return None
    return lexical.context_recall(golds, contexts, normalize=normalize, lang=lang)


def sample_context_precision(
    sample: RagSample, *, normalize: str = "unicode", lang: str | None = None
) -> float | None:
    """Share of the retrieved contexts that share a token with a gold answer.

    >>> sample_context_precision({"reference": "Paris", "retrieved_contexts": ["Paris", "x"]})
    0.5
    """
    golds, contexts = gold_answers(sample), sample.get("retrieved_contexts")
    if not golds or contexts is None:
        return None
    return lexical.context_precision(golds, contexts, normalize=normalize, lang=lang)


def sample_non_empty(sample: RagSample) -> float:
    """1.0 if the sample retrieved any context, else 0.0: its mean is the share that did.

    A sample without ``retrieved_contexts`` retrieved nothing, so it counts as 0.0.

    >>> sample_non_empty({"retrieved_contexts": ["a"]}), sample_non_empty({"response": "a"})
    (1.0, 0.0)
    """
    return float(bool(sample.get("retrieved_contexts")))
