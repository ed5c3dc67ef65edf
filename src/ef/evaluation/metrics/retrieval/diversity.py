"""Diversity (intent-aware) measures over subtopic judgements, as TREC's ndeval computes them.

A query has several intents (subtopics); its judgements are ``{subtopic: {doc_id: grade}}``
and a doc is relevant to a subtopic when its grade there is > 0 (or ``>= rel``). Only the
``A`` subtopics with at least one relevant doc count. The doc at rank ``i`` (0-based) gains
``g_i = sum((1 - alpha) ** c_j)`` over the subtopics ``j`` it is relevant to, ``c_j`` the
docs above it relevant to ``j``::

    alpha-DCG@k  = sum(g_i / log2(i + 2), i < k) / sum(A (1 - alpha) ** i / log2(i + 2), i < k)
    alpha-nDCG@k = sum(g_i / log2(i + 2), i < k) / the same sum over the ideal ranking
    ERR-IA@k     = sum(g_i / (i + 1), i < k) / sum(A (1 - alpha) ** i / (i + 1), i < k)
    nERR-IA@k    = sum(g_i / (i + 1), i < k) / the same sum over the ideal ranking
    NRBP         = (1 - (1 - alpha) beta) / A * sum(g_i beta ** i), the whole ranking
    nNRBP        = NRBP / NRBP of the ideal ranking
    AP-IA        = the mean over the A subtopics of each one's average precision
    P-IA@k       = sum over the top k of the subtopics each doc is relevant to / (k A)
    S-recall@k   = the subtopics with a relevant doc in the top k / A

The ideal ranking is ndeval's greedy approximation (finding the best one is NP-hard): rank by
rank, the judged doc with the largest gain ``g`` comes next, ties to the larger doc id
(``strcmp``). A query with no relevant judgement scores 0.0 on every measure.

Clarke et al., "Novelty and diversity in information retrieval evaluation", SIGIR 2008
(alpha-nDCG); Clarke, Kolla and Vechtomova, "An effectiveness measure for ambiguous and
underspecified queries", ICTIR 2009 (NRBP); Agrawal et al., "Diversifying search results",
WSDM 2009 (intent-aware measures); Chapelle et al., CIKM 2009 (ERR); as ndeval 4.5 (the TREC
Web track's tool) computes them. ndeval gives ERR-IA@1 and alpha-DCG@1 unnormalised (its
normalising loop starts at rank 2) and nNRBP as 0/0 = NaN for a query with no relevant
judgement; here every cutoff is normalised alike and that nNRBP is 0.0 (docs/metrics.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

__all__ = [
    "ALPHA",
    "BETA",
    "DIVERSITY_MEASURES",
    "DIVERSITY_NAMES",
    "DiversityMeasure",
    "IntentJudgements",
    "Intents",
    "alpha_dcg_at_k",
    "alpha_ndcg_at_k",
    "ap_ia",
    "check_nrbp",
    "err_ia_at_k",
    "intent_judgements",
    "nerr_ia_at_k",
    "nnrbp",
    "nrbp",
    "p_ia_at_k",
    "subtopic_recall_at_k",
]

#: One query's subtopic judgements: ``{subtopic_id: {doc_id: grade}}``.
Intents = Mapping[str, Mapping[str, float]]

#: ndeval's defaults: redundancy intolerance and patience.
ALPHA = 0.5
BETA = 0.5


@attrs.frozen
class IntentJudgements:
    """One query's judgements, read once: the subtopics each judged doc is relevant to (as
    indices in ndeval's order, the order gains are summed in), how many relevant docs each
    subtopic has, and ``A``, the number of subtopics with one."""

    covers: Mapping[str, tuple[int, ...]]
    n_relevant: tuple[int, ...]

    @property
    def n_intents(self) -> int:
        """``A``: the subtopics with at least one relevant doc."""
        return sum(1 for n in self.n_relevant if n)


def _subtopic_key(subtopic: str) -> tuple[int, int, str]:
    # ndeval numbers subtopics and sums their gains in that order: numbers sort as numbers.
    digits = subtopic.isascii() and subtopic.isdigit()
    return (0, int(subtopic), subtopic) if digits else (1, 0, subtopic)


def intent_judgements(intents: Intents, rel: float | None = None) -> IntentJudgements:
    """Read one query's subtopic judgements: a grade > 0 (or ``>= rel``) is relevant.

    >>> judged = intent_judgements({"1": {"a": 1, "b": 0}, "2": {"a": 2, "c": 1}, "3": {"b": 0}})
    >>> dict(judged.covers), judged.n_relevant, judged.n_intents
    ({'a': (0, 1), 'b': (), 'c': (1,)}, (1, 2, 0), 2)
    """
    subtopics = sorted(intents, key=_subtopic_key)
    covers: dict[str, list[int]] = {}
    n_relevant = []
    for j, subtopic in enumerate(subtopics):
        count = 0
        for doc, grade in intents[subtopic].items():
            hits = covers.setdefault(doc, [])
            if (grade > 0) if rel is None else (grade >= rel):
                hits.append(j)
                count += 1
        n_relevant.append(count)
    return IntentJudgements({d: tuple(js) for d, js in covers.items()}, tuple(n_relevant))


def _judged(intents: Intents | IntentJudgements, rel: float | None) -> IntentJudgements:
    if isinstance(intents, IntentJudgements):
        return intents
    return intent_judgements(intents, rel)


def _novelty(
    ranked: Iterable[str], judged: IntentJudgements, alpha: float, depth: int | None
) -> list[float]:
    """``g_i`` of each of the first ``depth`` docs of ``ranked`` (all with None): each
    subtopic's gain starts at 1 and shrinks by ``1 - alpha`` at each relevant doc."""
    gain = [1.0] * len(judged.n_relevant)
    out: list[float] = []
    seen: set[str] = set()
    for doc in ranked:
        if depth is not None and len(out) >= depth:
            break
        if doc in seen:  # a repeated doc counts at its first (best) rank only
            continue
        seen.add(doc)
        score = 0.0
        for j in judged.covers.get(doc, ()):
            score += gain[j]
            gain[j] *= 1.0 - alpha
        out.append(score)
    return out


def _ideal(judged: IntentJudgements, alpha: float, depth: int | None) -> list[float]:
    """``g_i`` of ndeval's greedy ideal ranking, to ``depth`` (all with None): the judged
    doc of largest gain next, ties to the larger doc id. Once no doc gains, none will."""
    gain = [1.0] * len(judged.n_relevant)
    left = {doc: subs for doc, subs in judged.covers.items() if subs}
    out: list[float] = []
    while left and (depth is None or len(out) < depth):
        scores = {}
        for doc, subs in left.items():
            score = 0.0
            for j in subs:
                score += gain[j]
            scores[doc] = score
        best = max(scores, key=lambda d: (scores[d], d))
        if scores[best] == 0.0:
            break
        out.append(scores[best])
        for j in left.pop(best):
            gain[j] *= 1.0 - alpha
    return out


def _discount(i: int) -> float:
    return math.log(2.0) / math.log(i + 2.0)  # ndeval's 1 / log2(i + 2), as it writes it


def _dcg(gains: Sequence[float], k: int) -> float:
    total = 0.0
    for i, g in enumerate(gains[:k]):
        total += g * _discount(i)
    return total


def _err(gains: Sequence[float], k: int) -> float:
    total = 0.0
    for i, g in enumerate(gains[:k]):
        total += g / (i + 1)
    return total


def _ideal_ideal(
    n_intents: int, alpha: float, k: int, weight: Callable[[Sequence[float], int], float]
) -> float:
    """Every subtopic covered at every rank: ndeval's collection-independent normaliser."""
    gains = []
    gain = float(n_intents)
    for _ in range(k):
        gains.append(gain)
        gain *= 1.0 - alpha
    return weight(gains, k)


def _check_k(call: str, k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"{call}: the cutoff k must be an int >= 1, got {k!r}")


def _check_unit(call: str, name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{call}: parameter {name!r} must be in [0, 1], got {value!r}")


def _alpha_judged(
    name: str, k: int, alpha: float, intents: Intents | IntentJudgements, rel: float | None
) -> IntentJudgements:
    """The checks of an alpha measure's cutoff and alpha (a message naming ``name``'s
    call), then its judgements."""
    call = f"{name}(ranked, intents, k)"
    _check_k(call, k)
    _check_unit(call, "alpha", alpha)
    return _judged(intents, rel)


def _alpha_measure(
    name: str,
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    alpha: float,
    rel: float | None,
    weight: Callable[[Sequence[float], int], float],
    greedy: bool,
) -> float:
    """The alpha measure ``name``: the novelty gains of ``ranked``'s top ``k`` summed under
    ``weight`` (:func:`_dcg`, :func:`_err`), over the same of ndeval's greedy ideal ranking
    (``greedy``: collection-dependent, 0.0 when nothing gains) or of the "ideal ideal",
    every subtopic at every rank (collection-independent, 0.0 without a subtopic)."""
    judged = _alpha_judged(name, k, alpha, intents, rel)
    if not greedy and not judged.n_intents:
        return 0.0
    value = weight(_novelty(ranked, judged, alpha, k), k)
    if not greedy:
        return value / _ideal_ideal(judged.n_intents, alpha, k, weight)
    if value == 0.0:
        return 0.0
    return value / weight(_ideal(judged, alpha, k), k)


def alpha_dcg_at_k(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    alpha: float = ALPHA,
    rel: float | None = None,
) -> float:
    """alpha-DCG@k, normalised by the "ideal ideal" (every subtopic at every rank), ndeval's
    collection-independent form.

    Each doc covers a new subtopic: ``(1 + 1 / log2(3)) / (2 + 1 / log2(3))``.

    >>> alpha_dcg_at_k(["a", "b"], {"1": {"a": 1}, "2": {"b": 1}}, 2)
    0.6199062332840657
    """
    return _alpha_measure(
        "alpha_dcg_at_k", ranked, intents, k, alpha=alpha, rel=rel, weight=_dcg, greedy=False
    )


def alpha_ndcg_at_k(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    alpha: float = ALPHA,
    rel: float | None = None,
) -> float:
    """alpha-nDCG@k (Clarke et al., 2008): alpha-DCG over that of ndeval's greedy ideal ranking.

    The ideal puts ``b`` first (gain 2), then ``c`` (gain 0.5, tied with ``a``, the larger id):

    >>> alpha_ndcg_at_k(["c", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}, 2)
    0.7043638493171503
    """
    return _alpha_measure(
        "alpha_ndcg_at_k", ranked, intents, k, alpha=alpha, rel=rel, weight=_dcg, greedy=True
    )


def err_ia_at_k(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    alpha: float = ALPHA,
    rel: float | None = None,
) -> float:
    """ERR-IA@k as ndeval computes it: each subtopic's doc gains ``(1 - alpha) ** c / rank``,
    normalised by the "ideal ideal" (collection-independent).

    >>> err_ia_at_k(["c", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}, 2)  # 1.5 / 2.5
    0.6
    """
    return _alpha_measure(
        "err_ia_at_k", ranked, intents, k, alpha=alpha, rel=rel, weight=_err, greedy=False
    )


def nerr_ia_at_k(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    alpha: float = ALPHA,
    rel: float | None = None,
) -> float:
    """nERR-IA@k: ERR-IA over that of ndeval's greedy ideal ranking (collection-dependent).

    >>> nerr_ia_at_k(["c", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}, 2)  # 1.5 / 2.25
    0.6666666666666666
    """
    return _alpha_measure(
        "nerr_ia_at_k", ranked, intents, k, alpha=alpha, rel=rel, weight=_err, greedy=True
    )


def check_nrbp(call: str, alpha: float, beta: float) -> None:
    _check_unit(call, "alpha", alpha)
    _check_unit(call, "beta", beta)
    if (1.0 - alpha) * beta == 1.0:
        raise ValueError(
            f"{call}: alpha=0 with beta=1 gives NRBP's normaliser 1 - (1 - alpha) beta = 0, "
            "so NRBP is 0 for every ranking (ndeval's nNRBP 0/0)"
        )


def _nrbp_sum(gains: Sequence[float], beta: float) -> float:
    total = 0.0
    decay = 1.0
    for g in gains:
        total += g * decay
        decay *= beta
    return total


def nrbp(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    *,
    alpha: float = ALPHA,
    beta: float = BETA,
    rel: float | None = None,
) -> float:
    """Novelty- and rank-biased precision (Clarke et al., 2009) over the whole ranking.

    >>> nrbp(["c", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}})  # 0.75 / 2 * 1.5
    0.5625
    """
    check_nrbp("nrbp(ranked, intents)", alpha, beta)
    judged = _judged(intents, rel)
    if not judged.n_intents:
        return 0.0
    total = _nrbp_sum(_novelty(ranked, judged, alpha, None), beta)
    return total * (1.0 - (1.0 - alpha) * beta) / judged.n_intents


def nnrbp(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    *,
    alpha: float = ALPHA,
    beta: float = BETA,
    rel: float | None = None,
) -> float:
    """NRBP over that of ndeval's greedy ideal ranking (collection-dependent); 0.0 for a query
    with no relevant judgement (ndeval: 0/0).

    >>> nnrbp(["c", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}})  # 1.5 / 2.375
    0.631578947368421
    """
    check_nrbp("nnrbp(ranked, intents)", alpha, beta)
    judged = _judged(intents, rel)
    total = _nrbp_sum(_novelty(ranked, judged, alpha, None), beta)
    if total == 0.0:
        return 0.0
    return total / _nrbp_sum(_ideal(judged, alpha, None), beta)


def ap_ia(
    ranked: Sequence[str], intents: Intents | IntentJudgements, *, rel: float | None = None
) -> float:
    """Intent-aware average precision: the mean over the subtopics with a relevant doc of
    each one's average precision over the whole ranking (ndeval's MAP-IA).

    >>> ap_ia(["c", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}})  # (1/2 / 2 + 1 / 2) / 2
    0.375
    """
    judged = _judged(intents, rel)
    if not judged.n_intents:
        return 0.0
    found = [0] * len(judged.n_relevant)
    total = [0.0] * len(judged.n_relevant)
    for i, doc in enumerate(dict.fromkeys(ranked)):
        for j in judged.covers.get(doc, ()):
            found[j] += 1
            total[j] += found[j] / (i + 1)
    mean = 0.0
    for j, n in enumerate(judged.n_relevant):
        if n:
            mean += total[j] / n
    return mean / judged.n_intents


def p_ia_at_k(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    rel: float | None = None,
) -> float:
    """Intent-aware precision@k: the (doc, subtopic) relevant pairs in the top ``k`` over
    ``k`` times the subtopics with a relevant doc.

    >>> p_ia_at_k(["b", "a"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}, 2)  # 3 / (2 * 2)
    0.75
    """
    _check_k("p_ia_at_k(ranked, intents, k)", k)
    judged = _judged(intents, rel)
    if not judged.n_intents:
        return 0.0
    pairs = sum(len(judged.covers.get(doc, ())) for doc in list(dict.fromkeys(ranked))[:k])
    return pairs / (k * judged.n_intents)


def subtopic_recall_at_k(
    ranked: Sequence[str],
    intents: Intents | IntentJudgements,
    k: int,
    *,
    rel: float | None = None,
) -> float:
    """Subtopic recall@k (S-recall): the share of the subtopics with a relevant doc that the
    top ``k`` cover.

    >>> subtopic_recall_at_k(["c", "x"], {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}, 2)
    0.5
    """
    _check_k("subtopic_recall_at_k(ranked, intents, k)", k)
    judged = _judged(intents, rel)
    if not judged.n_intents:
        return 0.0
    covered: set[int] = set()
    for doc in list(dict.fromkeys(ranked))[:k]:
        covered.update(judged.covers.get(doc, ()))
    return len(covered) / judged.n_intents


@attrs.frozen
class DiversityMeasure:
    """A diversity measure's declaration: its function, whether it takes a cutoff, the
    parameters it takes beyond ``rel``, and its names in ir_measures' and ndeval's syntax."""

    name: str
    func: object
    cutoff: bool
    params: tuple[str, ...]
    ir_measures: tuple[str, ...]
    ndeval: str
    formula: str


#: The diversity measures, by our name.
DIVERSITY_MEASURES: Mapping[str, DiversityMeasure] = {
    m.name: m
    for m in (
        DiversityMeasure(
            "alpha_ndcg",
            alpha_ndcg_at_k,
            True,
            ("alpha",),
            ("alpha_nDCG", "\u03b1_nDCG"),
            "alpha-nDCG",
            "alpha-DCG@k / alpha-DCG@k of the greedy ideal ranking",
        ),
        DiversityMeasure(
            "alpha_dcg",
            alpha_dcg_at_k,
            True,
            ("alpha",),
            ("alpha_DCG", "\u03b1_DCG"),
            "alpha-DCG",
            "sum(g_i / log2(i + 2)) / sum(A (1 - alpha) ** i / log2(i + 2)), i < k",
        ),
        DiversityMeasure(
            "err_ia",
            err_ia_at_k,
            True,
            ("alpha",),
            ("ERR_IA",),
            "ERR-IA",
            "sum(g_i / (i + 1)) / sum(A (1 - alpha) ** i / (i + 1)), i < k",
        ),
        DiversityMeasure(
            "nerr_ia",
            nerr_ia_at_k,
            True,
            ("alpha",),
            ("nERR_IA",),
            "nERR-IA",
            "sum(g_i / (i + 1), i < k) / the same of the greedy ideal ranking",
        ),
        DiversityMeasure(
            "nrbp",
            nrbp,
            False,
            ("alpha", "beta"),
            ("NRBP",),
            "NRBP",
            "(1 - (1 - alpha) beta) / A * sum(g_i beta ** i)",
        ),
        DiversityMeasure(
            "nnrbp",
            nnrbp,
            False,
            ("alpha", "beta"),
            ("nNRBP",),
            "nNRBP",
            "NRBP / NRBP of the greedy ideal ranking",
        ),
        DiversityMeasure(
            "ap_ia",
            ap_ia,
            False,
            (),
            ("AP_IA", "MAP_IA"),
            "MAP-IA",
            "mean over the A subtopics of their average precision",
        ),
        DiversityMeasure(
            "p_ia",
            p_ia_at_k,
            True,
            (),
            ("P_IA",),
            "P-IA",
            "relevant (doc, subtopic) pairs in the top k / (k A)",
        ),
        DiversityMeasure(
            "subtopic_recall",
            subtopic_recall_at_k,
            True,
            (),
            ("StRecall",),
            "strec",
            "subtopics covered by the top k / A",
        ),
    )
}

#: Every spelling of a diversity measure (ours, ir_measures', ndeval's) -> our name.
DIVERSITY_NAMES: Mapping[str, str] = {
    spelling: m.name
    for m in DIVERSITY_MEASURES.values()
    for spelling in (m.name, *m.ir_measures, m.ndeval)
}
