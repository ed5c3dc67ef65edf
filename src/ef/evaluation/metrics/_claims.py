"""Claim-level diagnostics: RAGChecker's metrics, computed from the entailment labels a
sample carries.

A claim checker splits the response and the gold answer into claims and labels, for each
claim, whether a text entails it. The sample carries those labels in the extra key ``claims``,
under RAGChecker's names (``r`` the response claims, ``g`` the gold answer's, ``c`` the
retrieved contexts):

* ``answer2response``: per response claim, whether the gold answer entails it;
* ``response2answer``: per gold claim, whether the response entails it;
* ``retrieved2response``: per response claim, per context, whether the context entails it;
* ``retrieved2answer``: per gold claim, per context, whether the context entails it.

A label is RAGChecker's ``"Entailment"``, ``"Neutral"`` or ``"Contradiction"`` (only
``"Entailment"`` counts), or a bool. With ``correct(r)`` = answer2response, ``found(g)`` =
response2answer, ``g in c`` = retrieved2answer and ``r in c`` = retrieved2response:

    precision        mean over r of correct(r)
    recall           mean over g of found(g)
    f1               2 P R / (P + R), 0 when either is 0
    claim_recall     mean over g of [g in some c]
    context_precision  mean over c of [some g in c]            (a relevant context)
    context_utilization  #{g in some c and found(g)} / #{g in some c}
    noise_sensitivity_in_relevant    mean over r of [not correct(r), r in a relevant c]
    noise_sensitivity_in_irrelevant  mean over r of [not correct(r), r in an irrelevant c
                                                     and in no relevant c]
    hallucination    mean over r of [not correct(r), r in no c]
    self_knowledge   mean over r of [correct(r), r in no c]
    faithfulness     mean over r of [r in some c]

Where a list is empty (no claim, or no context) a metric is 0.0, as RAGChecker scores it; a
metric whose labels the sample lacks is not computed for it (``None``). RAGChecker reports the
mean over samples times 100, rounded to one decimal.

Ru et al., RAGChecker: A Fine-grained Framework for Diagnosing Retrieval-Augmented
Generation, NeurIPS 2024 Datasets and Benchmarks; the arithmetic of amazon-science/RAGChecker's
``ragchecker/computation.py``, which the tests restate and compare on its example output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import InvalidSampleError
from ..interfaces import RagMetric
from ..types import CLAIMS_KEY, RagSample

__all__ = [
    "CLAIMS_KEY",
    "CLAIM_METRICS",
    "CLAIM_METRIC_NAMES",
    "LABEL_KEYS",
    "REQUIREMENTS",
    "checked_labels",
    "claim_scores",
]

#: The label lists of ``claims``: the two lists, then the two matrices.
LABEL_KEYS = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")
_LABELS = ("Entailment", "Neutral", "Contradiction")

#: Each metric and the labels it needs (RAGChecker's METRIC_REQUIREMENTS).
REQUIREMENTS: dict[str, tuple[str, ...]] = {
    "precision": ("answer2response",),
    "recall": ("response2answer",),
    "f1": ("answer2response", "response2answer"),
    "claim_recall": ("retrieved2answer",),
    "context_precision": ("retrieved2answer",),
    "context_utilization": ("retrieved2answer", "response2answer"),
    "noise_sensitivity_in_relevant": ("retrieved2response", "answer2response", "retrieved2answer"),
    "noise_sensitivity_in_irrelevant": (
        "retrieved2response",
        "answer2response",
        "retrieved2answer",
    ),
    "hallucination": ("retrieved2response", "answer2response"),
    "self_knowledge": ("retrieved2response", "answer2response"),
    "faithfulness": ("retrieved2response",),
}
#: The report names of the claim metrics: ``claims.`` and RAGChecker's name.
CLAIM_METRIC_NAMES = tuple(f"{CLAIMS_KEY}.{name}" for name in REQUIREMENTS)


def _entailed(label: object, at: str) -> bool:
    if isinstance(label, bool):
        return label
    if label in _LABELS:
        return label == "Entailment"
    raise InvalidSampleError(
        f"{at}: a label is one of {', '.join(map(repr, _LABELS))} or a bool, got {label!r}"
    )


def _vector(value: object, at: str) -> list[bool]:
    if not isinstance(value, (list, tuple)):
        raise InvalidSampleError(f"{at} must be a list of labels, got {type(value).__name__}")
    return [_entailed(label, f"{at}[{i}]") for i, label in enumerate(value)]


def _matrix(value: object, at: str) -> list[list[bool]]:
    if not isinstance(value, (list, tuple)):
        raise InvalidSampleError(
            f"{at} must be a list (a claim each) of lists (a context each) of labels, "
            f"got {type(value).__name__}"
        )
    rows = [_vector(row, f"{at}[{i}]") for i, row in enumerate(value)]
    if len({len(row) for row in rows}) > 1:
        raise InvalidSampleError(f"{at}: every claim needs a label per context, in one order")
    return rows


def checked_labels(value: object, n_contexts: int | None = None) -> dict[str, Any]:
    """The labels of a ``claims`` value as bools, checked: the lists are lists of labels,
    the matrices one row of labels per claim with a label per context, and the lists and
    matrices of one side of the same length (one label per claim).

    >>> checked_labels({"answer2response": ["Entailment", "Neutral"]})
    {'answer2response': [True, False]}
    >>> checked_labels({"answer2response": [True], "retrieved2response": [[True], [False]]})
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: claims: answer2response labels 1 response claims and \
retrieved2response 2; one label per claim
    """
    labels = _parsed_labels(value)
    _check_claim_counts(labels)
    _check_context_counts(labels, n_contexts)
    return labels


def _parsed_labels(value: object) -> dict[str, Any]:
    """The label lists and matrices ``value`` gives, as bools; the others left out."""
    if not isinstance(value, Mapping):
        raise InvalidSampleError(
            f"{CLAIMS_KEY!r} must be a mapping of label lists ({', '.join(LABEL_KEYS)}), "
            f"got {type(value).__name__}"
        )
    labels: dict[str, Any] = {}
    for key in LABEL_KEYS:
        if value.get(key) is not None:
            at = f"{CLAIMS_KEY}.{key}"
            labels[key] = (_matrix if key.startswith("retrieved") else _vector)(value[key], at)
    return labels


#: Each side's claims, and the list and the matrix that label them, one label (row) a claim.
_SIDES = (
    ("response", "answer2response", "retrieved2response"),
    ("gold", "response2answer", "retrieved2answer"),
)


def _check_claim_counts(labels: Mapping[str, Any]) -> None:
    """A side's list and matrix, when both are given, label as many claims."""
    for side, vector, matrix in _SIDES:
        if vector in labels and matrix in labels and len(labels[vector]) != len(labels[matrix]):
            raise InvalidSampleError(
                f"{CLAIMS_KEY}: {vector} labels {len(labels[vector])} {side} claims and "
                f"{matrix} {len(labels[matrix])}; one label per claim"
            )


def _check_context_counts(labels: Mapping[str, Any], n_contexts: int | None) -> None:
    """The matrices label as many contexts as each other, and as the sample retrieved."""
    widths = {len(rows[0]) for k in LABEL_KEYS[2:] if (rows := labels.get(k))}
    if n_contexts is not None and widths - {n_contexts}:
        raise InvalidSampleError(
            f"{CLAIMS_KEY}: the retrieved2* labels cover {sorted(widths)[0]} contexts and the "
            f"sample retrieved {n_contexts}"
        )
    if len(widths) > 1:
        raise InvalidSampleError(
            f"{CLAIMS_KEY}: retrieved2response and retrieved2answer "
            "label different numbers of contexts"
        )


def _mean(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags)


def _overall(labels: Mapping[str, Any]) -> dict[str, float]:
    out = {}
    if "answer2response" in labels:
        correct = labels["answer2response"]
        out["precision"] = _mean(correct) if correct else 0.0
    if "response2answer" in labels:
        found = labels["response2answer"]
        out["recall"] = _mean(found) if found else 0.0
    if "precision" in out and "recall" in out:
        p, r = out["precision"], out["recall"]
        out["f1"] = 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0
    return out


def _entailments(
    labels: Mapping[str, Any], key: str
) -> tuple[Sequence[Sequence[bool]], bool, list[bool]] | None:
    """The claims-by-contexts entailments ``labels[key]`` (None without them), whether they
    hold a claim and a context (without, RAGChecker scores each metric of them 0), and per
    claim whether some context entails it."""
    if key not in labels:
        return None
    entails = labels[key]
    return entails, bool(entails and entails[0]), [any(row) for row in entails]


def _retriever(labels: Mapping[str, Any]) -> dict[str, float]:
    entailed = _entailments(labels, "retrieved2answer")
    if entailed is None:
        return {}
    g_in_c, scored, recalled = entailed
    out = {
        "claim_recall": _mean(recalled) if scored else 0.0,
        "context_precision": _mean(_relevant(g_in_c)) if scored else 0.0,
    }
    if "response2answer" in labels:
        found = labels["response2answer"]
        out["context_utilization"] = _utilization(recalled, found) if scored else 0.0
    return out


def _relevant(g_in_c: Sequence[Sequence[bool]]) -> list[bool]:
    """Per context, whether it entails some gold claim: whether it is relevant."""
    return [any(column) for column in zip(*g_in_c, strict=True)]


def _utilization(recalled: Sequence[bool], found: Sequence[bool]) -> float:
    """The share of the gold claims some context entails that the response entails."""
    used = sum(r and f for r, f in zip(recalled, found, strict=True))
    return used / sum(recalled) if any(recalled) else 0.0


def _generator(labels: Mapping[str, Any]) -> dict[str, float]:
    entailed = _entailments(labels, "retrieved2response")
    if entailed is None:
        return {}
    _, has_contexts, supported = entailed
    out = {"faithfulness": _mean(supported) if has_contexts else 0.0}
    if "answer2response" in labels:
        out |= _wrong_or_right(labels, supported, has_contexts=has_contexts)
    return out


def _wrong_or_right(
    labels: Mapping[str, Any], supported: Sequence[bool], *, has_contexts: bool
) -> dict[str, float]:
    """The generator's metrics that need to know which response claims are correct: 0
    each without a response claim or a context, as RAGChecker scores them."""
    correct = labels["answer2response"]
    ok = bool(correct) and has_contexts
    out = _unsupported(supported, correct) if ok else dict(_NO_UNSUPPORTED)
    if "retrieved2answer" in labels:
        g_in_c = labels["retrieved2answer"]
        r_in_c = labels["retrieved2response"]
        out.update(_noise(r_in_c, correct, g_in_c) if ok and g_in_c else _NO_NOISE)
    return out


_NO_UNSUPPORTED = {"hallucination": 0.0, "self_knowledge": 0.0}
_NO_NOISE = {"noise_sensitivity_in_relevant": 0.0, "noise_sensitivity_in_irrelevant": 0.0}


def _unsupported(supported: Sequence[bool], correct: Sequence[bool]) -> dict[str, float]:
    """The shares of response claims no context entails, wrong (hallucinated) and right
    (from the generator's own knowledge)."""
    return {
        "hallucination": _mean([not s and not c for s, c in zip(supported, correct, strict=True)]),
        "self_knowledge": _mean([not s and c for s, c in zip(supported, correct, strict=True)]),
    }


def _noise(
    r_in_c: Sequence[Sequence[bool]], correct: Sequence[bool], g_in_c: Sequence[Sequence[bool]]
) -> dict[str, float]:
    in_relevant, in_irrelevant = _by_relevance(r_in_c, _relevant(g_in_c))
    return {
        "noise_sensitivity_in_relevant": _wrong_share(in_relevant, correct),
        "noise_sensitivity_in_irrelevant": _wrong_share(in_irrelevant, correct),
    }


def _by_relevance(
    r_in_c: Sequence[Sequence[bool]], relevant: Sequence[bool]
) -> tuple[list[bool], list[bool]]:
    """Per response claim, whether a relevant context entails it, and whether an irrelevant
    one does and no relevant one: a claim in a relevant context counts there only."""
    in_relevant = [any(x and rel for x, rel in zip(row, relevant, strict=True)) for row in r_in_c]
    in_irrelevant = [
        any(x and not rel for x, rel in zip(row, relevant, strict=True)) and not in_rel
        for row, in_rel in zip(r_in_c, in_relevant, strict=True)
    ]
    return in_relevant, in_irrelevant


def _wrong_share(flags: Sequence[bool], correct: Sequence[bool]) -> float:
    """The share of response claims that are flagged and wrong."""
    return _mean([i and not c for i, c in zip(flags, correct, strict=True)])


def claim_scores(labels: Mapping[str, Any], n_contexts: int | None = None) -> dict[str, float]:
    """Every claim metric the labels allow, by RAGChecker's name (not times 100).

    >>> scores = claim_scores({
    ...     "answer2response": ["Entailment", "Neutral"],          # r1 correct, r2 not
    ...     "response2answer": ["Entailment", "Neutral", "Neutral"],
    ...     "retrieved2response": [["Entailment", "Neutral"], ["Neutral", "Neutral"]],
    ...     "retrieved2answer": [["Entailment", "Neutral"], ["Neutral", "Neutral"],
    ...                          ["Neutral", "Neutral"]]})
    >>> scores["precision"], scores["recall"], scores["hallucination"], scores["claim_recall"]
    (0.5, 0.3333333333333333, 0.5, 0.3333333333333333)
    """
    checked = checked_labels(labels, n_contexts)
    return {**_overall(checked), **_retriever(checked), **_generator(checked)}


def _sample_claim_metric(name: str) -> Callable[[RagSample], float | None]:
    needs = REQUIREMENTS[name]

    def func(sample: RagSample) -> float | None:
        value: Any = sample.get(CLAIMS_KEY)  # an extra key
        if value is None:
            return None
        if not isinstance(value, Mapping) or any(value.get(k) is None for k in needs):
            checked_labels(value)  # says what a claims value is
            return None
        contexts = sample.get("retrieved_contexts")
        return claim_scores(value, None if contexts is None else len(contexts))[name]

    func.__name__ = func.__qualname__ = f"sample_claims_{name}"
    func.__doc__ = f"RAGChecker's {name.replace('_', ' ')} from the sample's claim labels."
    return func


_FORMULAS = {
    "precision": "share of response claims the gold answer entails",
    "recall": "share of gold claims the response entails",
    "f1": "2PR / (P + R) of claim precision and recall",
    "claim_recall": "share of gold claims some retrieved context entails",
    "context_precision": "share of retrieved contexts that entail some gold claim",
    "context_utilization": "share of the retrieved gold claims the response entails",
    "noise_sensitivity_in_relevant": "share of response claims that are wrong and entailed "
    "by a relevant context",
    "noise_sensitivity_in_irrelevant": "share of response claims that are wrong and entailed "
    "by an irrelevant context only",
    "hallucination": "share of response claims that are wrong and entailed by no context",
    "self_knowledge": "share of response claims that are right and entailed by no context",
    "faithfulness": "share of response claims some retrieved context entails",
}

#: RAGChecker's eleven metrics, as the RAG metrics ``claims.<name>`` of the registry.
CLAIM_METRICS = tuple(
    RagMetric(
        name=f"{CLAIMS_KEY}.{name}",
        func=_sample_claim_metric(name),
        formula=_FORMULAS[name],
        citation="Ru et al., NeurIPS 2024 (RAGChecker); as its ragchecker/computation.py",
    )
    for name in REQUIREMENTS
)
