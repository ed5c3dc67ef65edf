"""The order of a run's documents: trec_eval's rule and the tie policies.

A scored run is ranked by score descending; what happens among equal scores is a tie
policy (:data:`TIE_POLICIES`), ``"trec_eval"`` by default: scores compared as float32, as
trec_eval stores them in a C ``float``, then doc id descending (``strcmp`` of the docnos).
:class:`~ef.evaluation.RunTable` ranks whole runs by these rules without sorting them;
:func:`scored_order` and :func:`ranking_of` are the one-query reference.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..types import TiePolicy

__all__ = ["TIE_POLICIES", "check_tie_policy", "ranking_of", "refuse_repeats", "scored_order"]

#: What each tie policy means, as the docs and the manifest say it.
TIE_POLICIES: dict[TiePolicy, str] = {
    "trec_eval": "score descending (as float32), then doc id descending",
    "docno_asc": "score descending (as float32), then doc id ascending",
    "input_order": "score descending (as float32), then the order the run lists them",
    "expected": "the mean over every order of each group of tied docs (McSherry & Najork)",
}


def check_tie_policy(tie_policy: str) -> str:
    """``tie_policy`` if it is one of :data:`TIE_POLICIES`; a ValueError listing them if not.

    >>> check_tie_policy("docno_asc")
    'docno_asc'
    >>> check_tie_policy("random")
    Traceback (most recent call last):
        ...
    ValueError: tie_policy must be one of 'trec_eval', 'docno_asc', 'input_order', \
'expected'; got 'random'
    """
    if tie_policy not in TIE_POLICIES:
        valid = ", ".join(map(repr, TIE_POLICIES))
        raise ValueError(f"tie_policy must be one of {valid}; got {tie_policy!r}")
    return tie_policy


def scored_order(ranked: Mapping[str, float]) -> list[str]:
    """Doc ids in trec_eval's order: score descending (as float32), then doc id descending.

    trec_eval keeps scores as C ``float`` and breaks ties by ``strcmp`` of the docnos, in
    descending order; UTF-8 byte order is code-point order, so ``str`` comparison matches it.

    >>> scored_order({"a": 1.0, "b": 1.0, "c": 2.0})
    ['c', 'b', 'a']
    """
    import numpy as np  # only callers that rank runs pay for it

    docs = list(ranked)
    with np.errstate(over="ignore"):  # beyond float32's range is +-inf there, as in C
        as_float32 = np.asarray([ranked[d] for d in docs], dtype=np.float64).astype(np.float32)
    scores = as_float32.tolist()
    order = sorted(range(len(docs)), key=lambda i: (scores[i], docs[i]), reverse=True)
    return [docs[i] for i in order]


def _is_finite(score: float) -> bool:
    """NaN, an infinity and an int too large for a float are not."""
    try:
        return math.isfinite(score)
    except OverflowError:
        return False


def ranking_of(query_id: str, ranked: Mapping[str, float] | Sequence[str]) -> list[str]:
    """One query's doc ids in rank order.

    A scored mapping is ordered by trec_eval's rule (score descending as float32, then doc id
    descending); a list is used in the order given, a repeated doc counting at its best rank
    (:func:`refuse_repeats` refuses one where the run is evaluated as given).

    >>> ranking_of("q1", {"d1": 0.5, "d2": 0.5, "d3": 0.9})
    ['d3', 'd2', 'd1']
    >>> ranking_of("q1", ["d2", "d1", "d2"])
    ['d2', 'd1']
    """
    if isinstance(ranked, Mapping):
        for doc_id, score in ranked.items():
            if isinstance(score, bool) or not isinstance(score, (int, float)):
                raise ValueError(f"run[{query_id!r}][{doc_id!r}] = {score!r}: not a number")
            if not _is_finite(score):
                shown = reprlib.repr(score)
                raise ValueError(f"run[{query_id!r}][{doc_id!r}] = {shown}: not finite")
        return scored_order(ranked)
    if isinstance(ranked, str):
        raise TypeError(f"run[{query_id!r}] is a str; expected {{doc: score}} or a list of docs")
    return list(dict.fromkeys(ranked))


def refuse_repeats(run: Mapping[str, object], rankings: Mapping[str, Sequence[str]]) -> None:
    """Refuse a ranked list of ``run`` that names a doc twice (its ``rankings`` entry, the
    list de-duplicated by :func:`ranking_of`, is shorter), naming every such query and doc.

    A run file that lists a doc twice for a query is refused (trec_eval refuses it too); a
    ranked list given in memory is the same run, so it is refused the same way rather than
    scored with the copy quietly dropped.

    >>> run = {"q1": ["d2", "d1", "d2"], "q2": ["d3"]}
    >>> refuse_repeats(run, {q: ranking_of(q, docs) for q, docs in run.items()})
    Traceback (most recent call last):
        ...
    ValueError: run['q1'] lists doc 'd2' twice (ranks 1 and 3): a ranked list names each \
doc once, as a run file must; keep each doc at its best rank with list(dict.fromkeys(docs)), \
or give {doc: score}
    """
    faults = []
    for query_id, ranking in rankings.items():
        docs = run[query_id]
        if isinstance(docs, Mapping) or not isinstance(docs, Sequence):
            continue
        if len(ranking) == len(docs):
            continue
        places: dict[object, list[int]] = {}
        for rank, doc in enumerate(docs, 1):
            places.setdefault(doc, []).append(rank)
        for doc, ranks in places.items():
            if len(ranks) > 1:
                faults.append(f"run[{query_id!r}] lists doc {doc!r} {_times(ranks)}")
    if faults:
        more = f" (and {len(faults) - 5} more)" if len(faults) > 5 else ""
        raise ValueError(
            f"{'; '.join(faults[:5])}{more}: a ranked list names each doc once, as a run file "
            "must; keep each doc at its best rank with list(dict.fromkeys(docs)), or give "
            "{doc: score}"
        )


def _times(ranks: Sequence[int]) -> str:
    """``twice (ranks 1 and 3)``, ``3 times (ranks 1, 2 and 5)``."""
    times = "twice" if len(ranks) == 2 else f"{len(ranks)} times"
    shown = ", ".join(map(str, ranks[:-1]))
    return f"{times} (ranks {shown} and {ranks[-1]})"
