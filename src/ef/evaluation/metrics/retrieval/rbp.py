"""Rank-biased precision and its residual.

    RBP = (1 - p) * sum(gain_i * p ** (i - 1), i <= k)
    rbp_resid = p ** n + (1 - p) * sum(p ** (i - 1) for each unjudged doc at rank i <= n)

``gain_i`` is 1 for a relevant doc (graded: its grade over the query's highest grade); ``n``
is the number of docs in the top ``k``. As trec_eval reports it, ``rbp_resid`` is 0 when no
doc of the top ``n`` is unjudged.

Moffat and Zobel, "Rank-biased precision for measurement of retrieval effectiveness", ACM
TOIS 27(1), 2008; the residual as trec_eval's ``rbp_resid`` computes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import MetricParam, RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import IRM, JUDGED_ONLY, REL, TREC, check_arguments
from .reference import is_relevant_grade, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, JudgedHits

__all__ = [
    "RBP",
    "RBP_RESID",
    "rbp",
    "rbp_batch",
    "rbp_expected",
    "rbp_residual",
    "rbp_residual_batch",
    "rbp_residual_expected",
]


def rbp(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    p: float = 0.9,
    rel: float | None = None,
    graded: bool = False,
    judged_only: bool = False,
) -> float:
    """Rank-biased precision (Moffat and Zobel, 2008).

    ``(1 - p) * sum(gain_i * p ** (i - 1))`` over the ranks ``i`` of the top ``k``. ``p`` is
    the user's persistence (trec_eval's default 0.9; ir_measures' is 0.8). The gain is binary
    (1 for a relevant doc) unless ``graded``: then it is the grade over the query's highest
    grade (if above 1), trec_eval's ``rbp``, and ``rel`` does not apply.

    >>> rbp(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}, p=0.5)  # 0.5 * (1 + 0.25)
    0.625
    >>> rbp(['d1', 'x', 'd2'], {'d1': 2, 'd2': 1}, p=0.5, graded=True)  # 0.5 * (1 + 0.25 / 2)
    0.5625
    """
    check_arguments("rbp(ranked, relevant, k)", (P, p), (REL, rel))
    if graded and rel is not None:
        raise ValueError("rbp: rel does not apply to graded gains; set one of rel, graded")
    top = top_docs(ranked, relevant, k, judged_only)
    top_grade = max(1.0, max(relevant.values(), default=0.0))
    gained = 0.0
    for rank, doc in enumerate(top, start=1):
        grade = relevant.get(doc)
        if graded:
            gain = max(grade, 0.0) / top_grade if grade is not None else 0.0
        else:
            gain = 1.0 if is_relevant_grade(grade, rel) else 0.0
        if gain != 0:
            gained += gain * p ** (rank - 1)
    return (1.0 - p) * gained


def rbp_residual(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    p: float = 0.9,
) -> float:
    """How much RBP could still grow, as trec_eval's ``rbp_resid`` computes it.

    With ``n`` docs in the top ``k``: ``p ** n`` (the ranks past them) plus
    ``(1 - p) * sum(p ** (i - 1))`` over the ranks ``i`` of the unjudged docs (no judgement,
    or a negative one) among them. As in trec_eval, it is 0 when no doc of the top ``k`` is
    unjudged, the ``p ** n`` notwithstanding.

    >>> rbp_residual(['d1', 'x'], {'d1': 1}, p=0.5)  # 0.5 ** 2 + 0.5 * 0.5 (x at rank 2)
    0.5
    >>> rbp_residual(['d1'], {'d1': 1}, p=0.5)  # nothing unjudged
    0.0
    """
    check_arguments("rbp_residual(ranked, relevant, k)", (P, p))
    top = top_docs(ranked, relevant, k)
    unjudged = [rank for rank, doc in enumerate(top, start=1) if relevant.get(doc, -1) < 0]
    if not unjudged:
        return 0.0
    return p ** len(top) + (1.0 - p) * sum(p ** (rank - 1) for rank in unjudged)


def _rbp_gain(hits: JudgedHits, rel: float | None, graded: bool) -> Floats:
    """Each entry's RBP gain: 1 if relevant, or graded as trec_eval's."""
    import numpy as np

    from .kernels import is_relevant

    if graded:
        if rel is not None:
            raise ValueError("rbp: rel does not apply to graded gains; set one of rel, graded")
        # Each query's grades run in descending order: the first is its highest.
        top = np.ones(hits.n_queries, dtype=np.float64)
        some = np.diff(hits.judged_offsets) > 0
        top[some] = np.maximum(1.0, hits.judged[hits.judged_offsets[:-1][some]])
        gain: Floats = np.maximum(hits.grade, 0.0) / top[hits.query]
        return gain
    return is_relevant(hits.grade, rel).astype(np.float64)


def rbp_batch(
    hits: JudgedHits,
    k: int | None,
    *,
    p: float = 0.9,
    rel: float | None = None,
    graded: bool = False,
    judged_only: bool = False,
) -> Floats:
    """Rank-biased precision of every query (binary gain, or graded as trec_eval's)."""
    import numpy as np

    from .kernels import in_top, per_query, prepared

    hits = prepared(hits, judged_only)
    gain = _rbp_gain(hits, rel, graded)
    mask = (gain != 0) & in_top(hits, k)
    weights = gain * np.power(p, (hits.rank - 1).astype(np.float64))
    return (1.0 - p) * per_query(hits, mask, weights)


def rbp_residual_batch(hits: JudgedHits, k: int | None, *, p: float = 0.9) -> Floats:
    """The RBP residual of every query, as trec_eval's ``rbp_resid`` (0 if nothing in the top
    ``k`` is unjudged)."""
    import numpy as np

    from .kernels import depths, in_top, per_query

    shown = np.minimum(depths(hits, k), hits.n_retrieved)
    judged = in_top(hits, k) & (hits.grade >= 0)
    n_judged = per_query(hits, judged, None)
    weights = np.power(p, (hits.rank - 1).astype(np.float64))
    tail = np.power(p, shown.astype(np.float64))
    # (1 - p) * (p ** 0 + ... + p ** (shown - 1)) = 1 - tail, less the judged docs' share.
    unjudged = (1.0 - tail) - (1.0 - p) * per_query(hits, judged, weights)
    return np.where(shown > n_judged, tail + unjudged, 0.0)


def _rbp_weight(hits: JudgedHits, k: int | None, p: float) -> Floats:
    """Per entry, ``(1 - p) * E[p ** (rank - 1); rank <= k]``: over the ``m`` ranks of its
    group in the top ``k``, ``p ** above * (1 - p ** m) / tied``."""
    import numpy as np

    above, tied = hits.tie_above(), hits.tie_size()
    span = tied if k is None else np.clip(k - above, 0, tied)
    weight: Floats = np.power(p, above.astype(np.float64)) * (
        1.0 - np.power(p, span.astype(np.float64))
    )
    return weight / tied


def _rbp_tied(hits: JudgedHits, k: int | None, p: float, rel: float | None, graded: bool) -> Floats:
    from .kernels import per_query

    gain = _rbp_gain(hits, rel, graded)
    mask = gain != 0
    return per_query(hits, mask, gain * _rbp_weight(hits, k, p))


rbp_expected = tie_averaged(
    rbp_batch,
    _rbp_tied,
    """Expected RBP: ``sum(gain * p ** above * (1 - p ** m) / tied)`` over the hits, ``m``
    the ranks of the hit's group within the top ``k``. O(hits).""",
)


def _rbp_residual_tied(hits: JudgedHits, k: int | None, p: float) -> Floats:
    import numpy as np

    from .kernels import TieGroups, comb_ratio, depths, per_query

    shown = np.minimum(depths(hits, k), hits.n_retrieved)
    judged = hits.grade >= 0
    judged_share = per_query(hits, judged, _rbp_weight(hits, k, p))
    groups = TieGroups(hits)
    n_judged, span = groups.count(judged), groups.span(k)
    covered = np.bincount(groups.query, weights=span, minlength=hits.n_queries)
    all_judged = (covered == shown).astype(np.float64)
    all_judged[groups.query[(span == groups.size) & (n_judged < groups.size)]] = 0.0
    for g in np.flatnonzero((span > 0) & (span < groups.size)).tolist():
        query = int(groups.query[g])
        if all_judged[query]:
            all_judged[query] *= comb_ratio(int(n_judged[g]), int(groups.size[g]), int(span[g]))
    tail = np.power(p, shown.astype(np.float64))
    residual = tail * (1.0 - all_judged) + (1.0 - tail) - judged_share
    return np.where(all_judged == 1.0, 0.0, residual)


rbp_residual_expected = tie_averaged(
    rbp_residual_batch,
    _rbp_residual_tied,
    """Expected RBP residual. trec_eval's residual is ``p ** n`` plus the unjudged docs'
    share when some doc of the top ``k`` is unjudged, else 0: its mean is
    ``p ** n * P(some unjudged) + (1 - p ** n) - E[the judged docs' share]``. The top ``k``
    is all judged only if every group inside it is, and the group cut by ``k`` puts judged
    docs on all its ``m`` ranks there: ``C(judged, m) / C(tied, m)``. O(hits).""",
)


def _probability(value: float) -> None:
    if not 0 < value < 1:
        raise ValueError(f"parameter 'p' must lie strictly between 0 and 1, got {value!r}")


P = MetricParam(
    "p", float, 0.9, "the user's persistence, in (0, 1) (trec_eval's 0.9)", check=_probability
)


GRADED = MetricParam(
    "graded",
    bool,
    False,
    "gain grade / the query's highest grade (if above 1), as trec_eval's rbp, not 0 or 1",
)


RBP = RetrievalMetric(
    name="rbp",
    func=rbp,
    batch=rbp_batch,
    expected=rbp_expected,
    params=(P, REL, GRADED, JUDGED_ONLY),
    cutoff=False,
    synonyms=(
        Synonym(IRM, "RBP", params={"p": 0.8}),  # ir_measures' default persistence
        Synonym(TREC, "rbp", cutoff=False, params={"graded": True}),
    ),
    formula="(1 - p) * sum(gain_i * p ** (i - 1), i <= k); gain 1 if relevant "
    "(graded: grade / the query's highest grade)",
    citation="Moffat and Zobel, ACM TOIS 27(1), 2008",
)


RBP_RESID = RetrievalMetric(
    name="rbp_resid",
    func=rbp_residual,
    batch=rbp_residual_batch,
    expected=rbp_residual_expected,
    params=(P,),
    cutoff=False,
    aliases=("rbp_residual",),
    synonyms=(Synonym(TREC, "rbp_resid", cutoff=False),),
    formula="p ** n + (1 - p) * sum(p ** (i - 1) for each unjudged doc at rank i <= n), "
    "n = min(k, docs retrieved); 0 when no doc of the top n is unjudged",
    citation="Moffat and Zobel, ACM TOIS 27(1), 2008",
)
