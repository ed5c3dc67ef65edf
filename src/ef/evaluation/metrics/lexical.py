"""Deterministic, reference-based lexical RAG metrics (no LLM, no model).

Text is compared after a normalisation (:mod:`ef.evaluation.metrics.normalize`), chosen by
``normalize=``: ``unicode`` (the default), or ``squad``, ``squad_v2`` and ``mlqa`` (with
``lang=``), which give exactly the numbers of those official scripts. A ``reference`` is one
gold answer or a sequence of them; exact match and F1 take the maximum over them, as the
SQuAD and MLQA scripts do (``metric_max_over_ground_truths``).

The modes differ in F1 beyond normalisation: when both sides have no token, F1 is 1.0 under
``unicode`` and ``squad_v2`` (SQuAD v2.0: "if either is no-answer, then F1 is 1 if they
agree") and 0.0 under ``squad`` and ``mlqa`` (v1.1: no token in common). ``squad_v2`` also
drops the gold answers that normalise to nothing, and scores against ``""`` when none is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from .normalize import Normalization

__all__ = [
    "abstained",
    "check_abstain",
    "context_precision",
    "context_recall",
    "exact_match",
    "normalize_answer",
    "token_f1",
]

#: F1 of two texts that both have no token, per mode (the v1.1 scripts' rule is 0.0).
_BOTH_EMPTY_F1 = {"unicode": 1.0, "squad_v2": 1.0, "squad": 0.0, "mlqa": 0.0}


def normalize_answer(text: str, normalize: str = "unicode", lang: str | None = None) -> str:
    """``text`` normalised in the mode ``normalize`` (``lang`` for ``mlqa``).

    >>> normalize_answer('The  Eiffel-Tower!')
    'eiffeltower'
    >>> normalize_answer('«Où est la gare ?»'), normalize_answer('«Où est la gare ?»', 'squad')
    ('où est la gare', '«où est la gare »')
    """
    return Normalization(normalize, lang)(text)


def _golds(reference: str | Sequence[str], call: str) -> list[str]:
    if isinstance(reference, Mapping) or not isinstance(reference, (str, Iterable)):
        raise TypeError(
            f"{call}: reference is {_a(reference)}; expected a gold answer (a str) or a list "
            "of them"
        )
    golds = [reference] if isinstance(reference, str) else list(reference)
    if not golds:
        raise ValueError(f"{call}: reference is an empty list; give at least one gold answer")
    for gold in golds:
        if not isinstance(gold, str):
            raise TypeError(f"{call}: a reference is a str, got {_a(gold)}, {gold!r}")
    return golds


def _a(value: object) -> str:
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _check_response(call: str, response: object, reference: object) -> None:
    """Refuse a response that is no str, naming ``call``: Normalization would fail on it
    with an AttributeError that names neither the function nor the argument."""
    if isinstance(response, str):
        return
    swapped = isinstance(response, (list, tuple)) and isinstance(reference, str)
    raise TypeError(
        f"{call}: response is {_a(response)}; expected the answer, a str"
        + (
            "; are the arguments swapped? The answer comes first, then the gold answers"
            if swapped
            else ""
        )
    )


def _check_contexts(call: str, retrieved_contexts: object, reference: object) -> None:
    """Refuse contexts that are no sequence of str, naming ``call``: a str would be read one
    character at a time, each a context (and score a number that means nothing)."""
    if isinstance(retrieved_contexts, str):
        swapped = isinstance(reference, (list, tuple))
        raise TypeError(
            f"{call}: retrieved_contexts is a str; expected a list of passages "
            + (
                "(are the arguments swapped? The gold answer comes first, then the contexts)"
                if swapped
                else f"([{_short(retrieved_contexts)}] for one)"
            )
        )
    if isinstance(retrieved_contexts, Mapping) or not isinstance(retrieved_contexts, Iterable):
        raise TypeError(
            f"{call}: retrieved_contexts is {_a(retrieved_contexts)}; expected a list of "
            "passages (str)"
        )
    if isinstance(retrieved_contexts, Sequence):  # an iterator is not read twice
        for position, context in enumerate(retrieved_contexts):
            if not isinstance(context, str):
                raise TypeError(
                    f"{call}: retrieved_contexts[{position}] is {_a(context)}; every context "
                    "is a str"
                )


def _short(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _scored_golds(golds: list[str], mode: Normalization) -> list[str]:
    if mode.mode != "squad_v2":
        return golds
    # SQuAD v2.0's get_raw_scores: a gold answer that normalises to nothing is dropped, and an
    # unanswerable question's only correct answer is the empty string.
    return [gold for gold in golds if mode(gold)] or [""]


def _abstentions(abstain: Sequence[str], mode: Normalization, call: str) -> set[str]:
    """The normalised forms of the ``abstain`` phrases, each checked."""
    if isinstance(abstain, str) or not isinstance(abstain, Iterable):
        raise TypeError(
            f"{call}: abstain is {_a(abstain)}; expected a list of phrases that mean no answer, "
            'e.g. ["unanswerable", "I don\'t know"]'
        )
    forms = set()
    for phrase in abstain:
        if not isinstance(phrase, str):
            raise TypeError(f"{call}: an abstain phrase is a str, got {_a(phrase)}, {phrase!r}")
        form = mode(phrase)
        if not form:
            # It would match every answer that normalises to nothing: surely not meant.
            raise ValueError(
                f"{call}: the abstain phrase {phrase!r} normalises to nothing "
                f"(normalize={mode.mode!r}); give the words that mean no answer"
            )
        forms.add(form)
    return forms


def check_abstain(abstain: Sequence[str], normalize: str, lang: str | None = None) -> None:
    """Refuse ``abstain`` phrases that are no list of strings, or that normalise to nothing
    in the mode ``normalize``."""
    _abstentions(abstain, Normalization(normalize, lang), "abstain")


def abstained(
    response: str,
    abstain: Sequence[str],
    *,
    normalize: str = "unicode",
    lang: str | None = None,
) -> str:
    """``""`` (the empty answer) if ``response`` is one of the ``abstain`` phrases after
    normalisation in the mode ``normalize``, else ``response`` unchanged.

    A model told to abstain says "unanswerable" or "I don't know" rather than nothing; these
    phrases are its "no answer", which SQuAD v2.0 scores as the empty prediction.

    >>> abstained("I don't know.", ["I don't know", "unanswerable"])
    ''
    >>> abstained("Paris", ["unanswerable"])
    'Paris'
    """
    mode = Normalization(normalize, lang)
    forms = _abstentions(abstain, mode, "abstained(response, abstain)")
    return "" if forms and mode(response) in forms else response


def _f1(predicted: list[str], gold: list[str], both_empty: float) -> float:
    if not predicted or not gold:
        return both_empty if predicted == gold else 0.0
    common = sum((Counter(predicted) & Counter(gold)).values())
    if common == 0:
        return 0.0
    precision = common / len(predicted)
    recall = common / len(gold)
    return 2 * precision * recall / (precision + recall)


def _answer(response: str, abstain: Sequence[str], mode: Normalization, call: str) -> str:
    """The normalised response, ``""`` for an abstention."""
    predicted = mode(response)
    return "" if predicted in _abstentions(abstain, mode, call) else predicted


def exact_match(
    response: str,
    reference: str | Sequence[str],
    *,
    normalize: str = "unicode",
    lang: str | None = None,
    abstain: Sequence[str] = (),
) -> float:
    """1.0 if ``response`` equals ``reference`` after normalization, else 0.0.

    ``reference`` may be several gold answers: the best match counts. ``normalize`` names the
    normalisation (``unicode``, ``squad``, ``squad_v2``, ``mlqa`` with ``lang``). A response
    that is one of the ``abstain`` phrases (after normalisation) is scored as the empty
    answer, in every mode (``abstained``).

    >>> exact_match('The Eiffel Tower', 'eiffel tower')
    1.0
    >>> exact_match('Paris', 'London')
    0.0
    >>> exact_match('«The Eiffel Tower!»', 'eiffel tower', normalize='squad')
    0.0
    >>> exact_match('Paris', ['London', 'paris'])
    1.0
    >>> exact_match('Unanswerable.', '', normalize='squad_v2', abstain=['unanswerable'])
    1.0
    """
    call = "exact_match(response, reference)"
    _check_response(call, response, reference)
    mode = Normalization(normalize, lang)
    predicted = _answer(response, abstain, mode, call)
    golds = _scored_golds(_golds(reference, call), mode)
    return max(float(predicted == mode(gold)) for gold in golds)


def token_f1(
    response: str,
    reference: str | Sequence[str],
    *,
    normalize: str = "unicode",
    lang: str | None = None,
    abstain: Sequence[str] = (),
) -> float:
    """Token-overlap F1 of ``response`` against ``reference`` (the SQuAD F1).

    The harmonic mean of token precision and recall over the normalized token bags, a graded
    credit where :func:`exact_match` is all-or-nothing; the best over several gold answers.
    When either side has no tokens the score is 0.0, and when both have none it is 1.0 under
    ``unicode`` and ``squad_v2``, 0.0 under ``squad`` and ``mlqa`` (their scripts' rules).
    A response that is one of the ``abstain`` phrases is the empty answer, as in
    :func:`exact_match`.

    >>> token_f1('the quick brown fox', 'a quick brown fox')
    1.0
    >>> round(token_f1('quick brown fox', 'quick brown dog'), 4)
    0.6667
    >>> token_f1('北京是中国的首都', '北京')
    0.4
    >>> token_f1('the', 'a'), token_f1('the', 'a', normalize='squad')
    (1.0, 0.0)
    """
    call = "token_f1(response, reference)"
    _check_response(call, response, reference)
    mode = Normalization(normalize, lang)
    predicted = _answer(response, abstain, mode, call).split()
    both_empty = _BOTH_EMPTY_F1[mode.mode]
    return max(
        _f1(predicted, mode.tokens(gold), both_empty)
        for gold in _scored_golds(_golds(reference, call), mode)
    )


def context_recall(
    reference: str | Sequence[str],
    retrieved_contexts: Sequence[str],
    *,
    normalize: str = "unicode",
    lang: str | None = None,
) -> float:
    """Lexical recall of the reference tokens by the retrieved contexts.

    The fraction of the (normalized) reference's distinct tokens that appear anywhere in
    ``retrieved_contexts``: a deterministic proxy for "did retrieval surface the information
    the answer needs". A reference with no tokens scores 0.0; of several gold answers, the
    best recalled counts. For the LLM-judged context recall, use
    :func:`~ef.evaluation.as_ragas_dataset` and Ragas.

    >>> context_recall('paris france', ['Paris is the capital of France.'])
    1.0
    >>> context_recall('paris france', ['London is in England.'])
    0.0
    >>> context_recall('北京', ['北京是中国的首都'])
    1.0
    """
    call = "context_recall(reference, retrieved_contexts)"
    _check_contexts(call, retrieved_contexts, reference)
    mode = Normalization(normalize, lang)
    found: set[str] = set()
    for context in retrieved_contexts:
        found.update(mode.tokens(context))
    best = 0.0
    for gold in _golds(reference, call):
        wanted = set(mode.tokens(gold))
        if wanted:
            best = max(best, len(wanted & found) / len(wanted))
    return best


def context_precision(
    reference: str | Sequence[str],
    retrieved_contexts: Sequence[str],
    *,
    normalize: str = "unicode",
    lang: str | None = None,
) -> float:
    """Fraction of the retrieved contexts that lexically overlap the reference.

    A deterministic proxy for retrieval precision: a context counts as useful if it shares at
    least one (normalized) token with the reference answer, or with any of several. No
    contexts scores 0.0.

    >>> context_precision('paris', ['Paris is in France.', 'Unrelated text.'])
    0.5
    >>> context_precision(['paris', 'lyon'], ['Paris is in France.', 'So is Lyon.'])
    1.0
    """
    call = "context_precision(reference, retrieved_contexts)"
    _check_contexts(call, retrieved_contexts, reference)
    mode = Normalization(normalize, lang)
    wanted = {token for gold in _golds(reference, call) for token in mode.tokens(gold)}
    if not retrieved_contexts:
        return 0.0
    useful = sum(1 for context in retrieved_contexts if wanted.intersection(mode.tokens(context)))
    return useful / len(retrieved_contexts)
