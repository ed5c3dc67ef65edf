"""bpref: binary preference, for incomplete judgements; and GM_BPREF, its geometric mean.

    bpref = sum(1 - min(n_above, R) / min(N, R) for each relevant doc retrieved) / R
    GM_BPREF = exp(mean(log(max(bpref_q, 0.00001)) over queries q))

``n_above``: the judged non-relevant docs above it, ``N``: all judged non-relevant docs.
trec_eval prints GM_BPREF in the summary only.

Buckley and Voorhees, "Retrieval Evaluation with Incomplete Information", SIGIR 2004;
trec_eval (NIST), usnistgov/trec_eval: ``gm_bpref``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...interfaces import RetrievalMetric, Synonym
from .forms import geometric, tie_averaged
from .params import BINARY, IRM, REL, TREC, check_arguments
from .reference import is_relevant_grade, relevant_total, top_docs

if TYPE_CHECKING:
    from ..._hits import Floats, Ints, JudgedHits

__all__ = [
    "BPREF",
    "GM_BPREF",
    "bpref",
    "bpref_batch",
    "bpref_expected",
    "gm_bpref",
]


def bpref(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None = None,
    *,
    rel: float | None = None,
    judged_only: bool = False,
) -> float:
    """Binary preference (Buckley and Voorhees, 2004), as trec_eval computes it.

    For each relevant doc retrieved, ``1 - min(n, R) / min(N, R)``, where ``n`` counts the
    judged non-relevant docs ranked above it, ``N`` all the judged non-relevant docs and ``R``
    the relevant ones; summed and divided by ``R``. Unjudged docs and negative grades are
    ignored.

    >>> bpref(['n1', 'd1', 'd2'], {'d1': 1, 'd2': 1, 'n1': 0, 'n2': 0})  # (1/2 + 1/2) / 2
    0.5
    """
    check_arguments("bpref(ranked, relevant, k)", (REL, rel))
    top = top_docs(ranked, relevant, k, judged_only)
    n_relevant = relevant_total(relevant, rel)
    n_nonrel = sum(
        1 for grade in relevant.values() if grade >= 0 and not is_relevant_grade(grade, rel)
    )
    nonrel_so_far = 0
    total = 0.0
    for doc in top:
        grade = relevant.get(doc)
        if grade is None or grade < 0:
            continue
        if not is_relevant_grade(grade, rel):
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - min(nonrel_so_far, n_relevant) / min(n_nonrel, n_relevant)
        else:
            total += 1.0
    return total / n_relevant if n_relevant else 0.0


def _n_nonrelevant(hits: JudgedHits, rel: float | None) -> Ints:
    import numpy as np

    from .kernels import is_relevant

    mask = (hits.judged >= 0) & ~is_relevant(hits.judged, rel)
    return np.bincount(hits.judged_owner()[mask], minlength=hits.n_queries).astype(np.int64)


def bpref_batch(
    hits: JudgedHits, k: int | None, *, rel: float | None = None, judged_only: bool = False
) -> Floats:
    """bpref of every query, as trec_eval computes it."""
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
    within = in_top(hits, k) & (hits.grade >= 0)
    query, grade = hits.query[within], hits.grade[within]
    relevant = is_relevant(grade, rel)
    nonrel_above = before_in_query(query, ~relevant)[relevant]
    owner = query[relevant]
    n_relevant = relevant_counts(hits, rel)
    cap = np.minimum(_n_nonrelevant(hits, rel), n_relevant)[owner]
    penalty = np.zeros(owner.size, dtype=np.float64)
    some = nonrel_above > 0
    penalty[some] = np.minimum(nonrel_above[some], n_relevant[owner][some]) / cap[some]
    total = np.bincount(owner, weights=1.0 - penalty, minlength=hits.n_queries)
    return safe_divide(total.astype(np.float64), n_relevant)


def _capped_sum(start: Ints, count: Ints, cap: Ints) -> Ints:
    """``min(start, cap) + min(start + 1, cap) + ... `` over ``count`` terms."""
    import numpy as np

    rising = np.clip(cap - start, 0, count)
    result: Ints = rising * start + rising * (rising - 1) // 2 + (count - rising) * cap
    return result


def _suffix_sums(values: list[int]) -> list[int]:
    """``out[i] = values[i] + values[i + 1] + ...``, and a 0 at the end."""
    out = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        out[i] = out[i + 1] + values[i]
    return out


def _bpref_cut(tied: int, nonrel: int, span: int, nonrel_above: int, n_relevant: int) -> float:
    """``E[min(nonrel_above + Y, R); rank <= above + span]`` for one relevant doc of a group
    of ``tied`` docs holding ``nonrel`` judged non-relevant ones, ``Y`` of them above it.
    ``Y`` is uniform on ``0 .. nonrel`` and independent of the ranks the doc and those
    ``nonrel`` take; given ``Y = y``, the doc is within ``span`` iff at least ``y + 1`` of
    the ``nonrel + 1`` land on the first ``span`` ranks (hypergeometric). Exact in integers."""
    specials = nonrel + 1
    ways = [
        math.comb(specials, x) * math.comb(tied - specials, span - x) if x <= span else 0
        for x in range(specials + 1)
    ]
    at_least = _suffix_sums(ways)
    numerator = sum(min(nonrel_above + y, n_relevant) * at_least[y + 1] for y in range(specials))
    return numerator / (math.comb(tied, span) * specials)


def _bpref_tied(hits: JudgedHits, k: int | None, rel: float | None) -> Floats:
    import numpy as np

    from .kernels import TieGroups, is_relevant, relevant_counts, safe_divide

    groups = TieGroups(hits)
    judged = hits.grade >= 0
    relevant_entry = judged & is_relevant(hits.grade, rel)
    relevant, nonrel = groups.count(relevant_entry), groups.count(judged & ~relevant_entry)
    nonrel_above, span = groups.before(nonrel), groups.span(k)
    n_relevant = relevant_counts(hits, rel)
    cap = np.minimum(_n_nonrelevant(hits, rel), n_relevant)[groups.query]
    n_rel_group = n_relevant[groups.query]
    # E[min(n, R)] for one relevant doc of each group, given it is within the top k.
    capped = _capped_sum(nonrel_above, nonrel + 1, n_rel_group) / (nonrel + 1)
    penalty = np.where(span == groups.size, capped, 0.0)
    # A group cut by k: with no judged non-relevant doc in it, n = n0 on every rank.
    cut = (span > 0) & (span < groups.size) & (relevant > 0)
    alone = cut & (nonrel == 0)
    penalty[alone] = (np.minimum(nonrel_above, n_rel_group) * span / groups.size)[alone]
    for g in np.flatnonzero(cut & (nonrel > 0)).tolist():
        penalty[g] = _bpref_cut(
            int(groups.size[g]),
            int(nonrel[g]),
            int(span[g]),
            int(nonrel_above[g]),
            int(n_rel_group[g]),
        )
    value = relevant * (span / groups.size - safe_divide(penalty, cap))
    total = np.bincount(groups.query, weights=value, minlength=hits.n_queries)
    return safe_divide(total.astype(np.float64), n_relevant)


bpref_expected = tie_averaged(
    bpref_batch,
    _bpref_tied,
    """Expected bpref. A relevant doc scores ``1 - min(n, R) / min(N, R)``, ``n`` the judged
    non-relevant docs above it: those of the groups above (``n0``) and ``Y`` of its own
    group's ``s``, ``Y`` uniform on ``0 .. s``. A group within the top ``k`` adds
    ``r * (1 - mean(min(n0 + y, R), y = 0 .. s) / min(N, R))`` (a closed form); a group cut
    by ``k`` after ``m`` ranks weights each ``y`` by the chance that the doc is still within
    them (:func:`_bpref_cut`, O(s) for each such group). O(hits).""",
)


BPREF = RetrievalMetric(
    name="bpref",
    func=bpref,
    batch=bpref_batch,
    expected=bpref_expected,
    params=BINARY,
    cutoff=False,
    synonyms=(
        Synonym(IRM, "Bpref", cutoff=False),
        Synonym(IRM, "BPref", cutoff=False),
        Synonym(TREC, "bpref", cutoff=False),
    ),
    formula="sum(1 - min(n_above, R) / min(N, R) for each relevant doc retrieved) / R; "
    "n_above: judged non-relevant docs above it, N: all judged non-relevant",
    citation="Buckley and Voorhees, SIGIR 2004",
)

# bpref per query, summarised by its geometric mean: bpref's batch and tie-averaged forms.
GM_BPREF = geometric(
    BPREF,
    of="bpref",
    doc="""bpref of one query, whose geometric mean over queries is GM_BPREF.

    The summary is the geometric mean (``aggregate="geometric"``).

    >>> gm_bpref(['d1', 'n', 'd2'], {'d1': 1, 'd2': 1, 'n': 0})  # (1 + (1 - 1/1)) / 2
    0.5
    """,
    citation="Buckley and Voorhees, SIGIR 2004; trec_eval's gm_bpref",
)
gm_bpref = GM_BPREF.func
