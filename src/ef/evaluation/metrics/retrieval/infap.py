"""infAP: inferred average precision, for judgements of a random sample of the pool.

    infAP = AP with the precision above each relevant doc estimated from the judged docs
            above it (a negative grade: pooled, not judged)

Yilmaz and Aslam, "Estimating Average Precision with Incomplete and Imperfect Judgments",
CIKM 2006; as trec_eval's ``infAP`` computes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import tie_averaged
from .params import BINARY, IRM, REL, TREC, check_arguments
from .reference import is_relevant_grade, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "INFAP",
    "INFAP_EPSILON",
    "inferred_average_precision",
    "inferred_average_precision_batch",
    "inferred_average_precision_expected",
]


#: trec_eval's INFAP_EPSILON.
INFAP_EPSILON = 0.00001


def inferred_average_precision(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Inferred AP (Yilmaz and Aslam, 2006), as trec_eval's ``infAP`` computes it.

    For judgements made on a random sample of the pool: a negative grade marks a doc pooled but
    not judged, a missing one a doc never pooled. The precision above each relevant doc is
    estimated from the judged docs above it; docs never pooled count as non-relevant.

    >>> round(inferred_average_precision(['d1', 'x', 'd2'], {'d1': 1, 'd2': 1}), 4)  # ~ AP
    0.8333
    """
    check_arguments("inferred_average_precision(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    n_relevant = relevant_total(relevant, rel)
    rel_so_far = nonrel_so_far = pooled_so_far = 0
    total = 0.0
    for j, doc in enumerate(top):
        grade = relevant.get(doc)
        if grade is None:
            continue
        if grade < 0:
            pooled_so_far += 1
            continue
        if not is_relevant_grade(grade, rel):
            nonrel_so_far += 1
            continue
        rel_so_far += 1
        if j == 0:
            total += 1.0
        else:
            total += 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
                (rel_so_far - 1 + nonrel_so_far + pooled_so_far) / j
            ) * (
                (rel_so_far - 1 + INFAP_EPSILON)
                / (rel_so_far - 1 + nonrel_so_far + 2 * INFAP_EPSILON)
            )
    return total / n_relevant if n_relevant else 0.0


def inferred_average_precision_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """infAP of every query, as trec_eval computes it."""
    import numpy as np

    from .kernels import (
        before_in_query,
        in_top,
        is_relevant,
        prepared,
        relevant_counts,
        safe_divide,
    )

    hits = prepared(hits, judged_only)
    within = in_top(hits, k)
    query, grade, rank = hits.query[within], hits.grade[within], hits.rank[within]
    pooled = grade < 0
    relevant = ~pooled & is_relevant(grade, rel)
    nonrel = ~pooled & ~relevant
    rel_so_far = before_in_query(query, relevant)[relevant] + 1
    nonrel_so_far = before_in_query(query, nonrel)[relevant]
    pooled_so_far = before_in_query(query, pooled)[relevant]
    j = (rank[relevant] - 1).astype(np.float64)
    owner = query[relevant]
    value = np.ones(owner.size, dtype=np.float64)
    later = j > 0
    jl, rl, nl, pl = j[later], rel_so_far[later], nonrel_so_far[later], pooled_so_far[later]
    value[later] = 1.0 / (jl + 1.0) + (jl / (jl + 1.0)) * ((rl - 1 + nl + pl) / jl) * (
        (rl - 1 + INFAP_EPSILON) / (rl - 1 + nl + 2 * INFAP_EPSILON)
    )
    total = np.bincount(owner, weights=value, minlength=hits.n_queries)
    return safe_divide(total.astype(np.float64), relevant_counts(hits, rel))


def _infap_walk(
    above: Ints, tied: Ints, span: Ints, counts: tuple[Ints, Ints, Ints], before: Ints
) -> Floats:
    """The expected infAP sum of the relevant docs of groups, exact, by a walk down their
    ranks in the top ``k``: after ``i`` ranks, ``chance[g, a, b]`` is the chance that ``a``
    relevant and ``b`` judged non-relevant docs of group ``g`` took them, the other ``i - a -
    b`` being pooled or unjudged; ``pooled / (pooled + unjudged)`` of those are pooled on
    average, and infAP's term is linear in the pooled count. ``counts`` are each group's
    relevant, judged non-relevant and pooled docs; ``before`` (groups by 3) those of the
    groups above. O(ranks * relevant * judged non-relevant) per group, walked together."""
    import numpy as np

    from .kernels import safe_divide, walking, walks

    relevant, nonrel, pooled = counts
    out = np.zeros(span.size, dtype=np.float64)
    for part in walks(span, relevant, nonrel):
        r, s = relevant[part, None, None], nonrel[part, None, None]
        t, top = tied[part, None, None], above[part, None, None]
        rel_above, nonrel_above, pooled_above = (before[part, c, None, None] for c in range(3))
        rest = t - r - s
        pooled_share = safe_divide(pooled[part, None, None].astype(np.float64), rest)
        a = np.arange(int(r.max()) + 1)[None, :, None]
        b = np.arange(int(s.max()) + 1)[None, None, :]
        precision = (rel_above + a + INFAP_EPSILON) / (
            rel_above + a + nonrel_above + b + 2 * INFAP_EPSILON
        )
        judged_before = rel_above + nonrel_above + pooled_above + a + b
        chance = np.zeros((part.size, a.size, b.size))
        chance[:, 0, 0] = 1.0
        total = np.zeros(part.size)
        walk = span[part]
        for i in range(int(walk[0])):
            n = walking(walk, i)
            c, left, others = chance[:n], t[:n] - i, i - a - b
            to_relevant = c * np.maximum(r[:n] - a, 0) / left
            value = (1.0 + (judged_before[:n] + others * pooled_share[:n]) * precision[:n]) / (
                top[:n] + i + 1
            )
            total[:n] += np.sum(to_relevant * value, axis=(1, 2))
            to_nonrel = c * np.maximum(s[:n] - b, 0) / left
            c = c * (rest[:n] - others) / left
            c[:, 1:, :] += to_relevant[:, :-1, :]
            c[:, :, 1:] += to_nonrel[:, :, :-1]
            chance[:n] = c
        out[part] = total
    return out


def _inferred_average_precision_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import TieGroups, is_relevant, relevant_counts, safe_divide

    groups = TieGroups(hits)
    pooled = hits.grade < 0
    relevant_entry = ~pooled & is_relevant(hits.grade, rel)
    relevant = groups.count(relevant_entry)
    nonrel = groups.count(~pooled & ~relevant_entry)
    n_pooled = groups.count(pooled)
    rel_above, nonrel_above = groups.before(relevant), groups.before(nonrel)
    pooled_above = groups.before(n_pooled)
    span = groups.span(k)
    value = np.zeros(groups.n, dtype=np.float64)
    single = (relevant > 0) & (span > 0) & (groups.size == 1)
    j = groups.above[single].astype(np.float64)
    rl, nl, pl = rel_above[single] + 1, nonrel_above[single], pooled_above[single]
    later = j > 0
    one = np.ones(j.size, dtype=np.float64)
    jl, rll, nll, pll = j[later], rl[later], nl[later], pl[later]
    one[later] = 1.0 / (jl + 1.0) + (jl / (jl + 1.0)) * ((rll - 1 + nll + pll) / jl) * (
        (rll - 1 + INFAP_EPSILON) / (rll - 1 + nll + 2 * INFAP_EPSILON)
    )
    value[single] = one
    walk = (relevant > 0) & (span > 0) & (groups.size > 1)
    value[walk] = _infap_walk(
        groups.above[walk],
        groups.size[walk],
        span[walk],
        (relevant[walk], nonrel[walk], n_pooled[walk]),
        np.c_[rel_above, nonrel_above, pooled_above][walk],
    )
    total = np.bincount(groups.query, weights=value, minlength=hits.n_queries)
    return safe_divide(total.astype(np.float64), relevant_counts(hits, rel))


inferred_average_precision_expected = tie_averaged(
    inferred_average_precision_batch,
    _inferred_average_precision_tied,
    """Expected infAP, exact. A relevant doc's term depends jointly on the relevant, judged
    non-relevant and pooled docs above it; groups of one doc take trec_eval's formula as
    :func:`inferred_average_precision_batch` does, and each
    larger group holding a relevant doc a walk down its ranks in the top ``k``
    (:func:`_infap_walk`, O(ranks * relevant * judged non-relevant) for that group; the
    groups walk together, one numpy step per rank).""",
)


INFAP = RetrievalMetric(
    name="infap",
    func=inferred_average_precision,
    batch=inferred_average_precision_batch,
    expected=inferred_average_precision_expected,
    params=BINARY,
    cutoff=False,
    synonyms=(Synonym(IRM, "infAP", cutoff=False), Synonym(TREC, "infAP", cutoff=False)),
    formula="AP with the precision above each relevant doc estimated from the judged "
    "docs above it (negative grade: pooled, not judged)",
    citation="Yilmaz and Aslam, CIKM 2006",
)
