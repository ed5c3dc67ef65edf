"""The order of a run's documents: trec_eval's rule and the tie policies.

A scored run is ranked by score descending; what happens among equal scores is a tie
policy (:data:`TIE_POLICIES`), ``"trec_eval"`` by default: scores compared as float32, as
trec_eval stores them in a C ``float``, then doc id descending (``strcmp`` of the docnos).
:func:`order` is the one sort of a query's docs by these rules, and :func:`tie_break` says
what each policy does among equal scores; :class:`~ef.evaluation.RunTable` ranks whole
runs by the same rules without sorting them (tests/runs/test_order.py holds the two equal).
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, get_args

from .._finite import is_finite, plain_finite
from ..types import FusionTiePolicy

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..types import TiePolicy

__all__ = [
    "SINGLE_ORDER_POLICIES",
    "TIE_POLICIES",
    "TieBreak",
    "check_scores",
    "check_tie_policy",
    "order",
    "ranking_of",
    "refuse_repeats",
    "scored_order",
    "tie_break",
]

#: What each tie policy means, as the docs and the manifest say it.
TIE_POLICIES: dict[TiePolicy, str] = {
    "trec_eval": "score descending (as float32), then doc id descending",
    "docno_asc": "score descending (as float32), then doc id ascending",
    "input_order": "score descending (as float32), then the order the run lists them",
    "expected": "the mean over every order of each group of tied docs (McSherry & Najork)",
}

#: The policies that give each query one order (``"expected"`` averages a metric over the
#: orders of its ties): what :func:`~ef.evaluation.fuse`, which needs one ranking, accepts.
SINGLE_ORDER_POLICIES: tuple[str, ...] = get_args(FusionTiePolicy)

#: What a tie policy does among equal scores: doc id descending or ascending, or the run's
#: own order (the docs' places in it).
TieBreak = Literal["id_descending", "id_ascending", "position"]

# "expected" ranks as trec_eval does; its metrics average over the orders of each group.
_TIE_BREAKS: dict[str, TieBreak] = {
    "trec_eval": "id_descending",
    "docno_asc": "id_ascending",
    "input_order": "position",
    "expected": "id_descending",
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


def tie_break(tie_policy: str) -> TieBreak:
    """How ``tie_policy`` orders docs of equal score (``"expected"`` ranks as trec_eval);
    a ValueError for a policy not in :data:`TIE_POLICIES`.

    >>> tie_break("trec_eval"), tie_break("docno_asc"), tie_break("input_order")
    ('id_descending', 'id_ascending', 'position')
    >>> tie_break("expected")
    'id_descending'
    """
    return _TIE_BREAKS[check_tie_policy(tie_policy)]


def order(
    scores: Sequence[float] | npt.NDArray[np.float64],
    docs: Sequence[str],
    tie_policy: str = "trec_eval",
    *,
    float64: bool = False,
) -> list[str]:
    """``docs`` in rank order: ``scores[i]`` is the score of ``docs[i]``; score descending,
    equal scores by ``tie_policy`` (:func:`tie_break`).

    Scores compare as float32, as trec_eval keeps them in a C ``float`` (beyond float32's
    range a score is +-inf, as in C), or as given (float64) if ``float64``. Doc ids compare
    as ``str``: code-point order, which is the UTF-8 byte order of trec_eval's ``strcmp``.
    Under ``"input_order"`` equal scores keep the order of ``docs`` (a stable sort).

    >>> order([1.0, 1.0, 2.0], ["a", "b", "c"])
    ['c', 'b', 'a']
    >>> order([1.0, 1.0, 2.0], ["a", "b", "c"], "docno_asc")
    ['c', 'a', 'b']
    >>> order([1.0, 2.0, 1.0], ["b", "c", "a"], "input_order")
    ['c', 'b', 'a']

    ``1.0`` and ``1.0 + 1e-9`` are one float32, so they tie unless ``float64``; ``"d10"``
    sorts before ``"d9"`` (by character, not by number), and ``"D1"`` before ``"d1"``:

    >>> scores, docs = [1.0, 1.0 + 1e-9, 1.0], ["d9", "d10", "d1"]
    >>> order(scores, docs), order(scores, docs, float64=True)
    (['d9', 'd10', 'd1'], ['d10', 'd9', 'd1'])
    >>> order(scores, docs, "docno_asc"), order(scores, docs, "docno_asc", float64=True)
    (['d1', 'd10', 'd9'], ['d10', 'd1', 'd9'])
    >>> order(scores, docs, "input_order"), order(scores, docs, "input_order", float64=True)
    (['d9', 'd10', 'd1'], ['d10', 'd9', 'd1'])
    >>> order([0.5, 0.5], ["d1", "D1"], "docno_asc")
    ['D1', 'd1']
    """
    import numpy as np  # only callers that rank runs pay for it

    breaks = tie_break(tie_policy)
    with np.errstate(over="ignore"):  # beyond float32's range is +-inf there, as in C
        values = np.asarray(scores, dtype=np.float64)
        keys: list[float] = (values if float64 else values.astype(np.float32)).tolist()
    if len(keys) != len(docs):
        raise ValueError(f"{len(keys)} scores for {len(docs)} docs")
    positions = range(len(docs))
    if breaks == "id_ascending":
        ranked = sorted(positions, key=lambda i: (-keys[i], docs[i]))
    elif breaks == "position":
        ranked = sorted(positions, key=lambda i: -keys[i])  # stable: the given order in ties
    else:
        ranked = sorted(positions, key=lambda i: (keys[i], docs[i]), reverse=True)
    return [docs[i] for i in ranked]


def scored_order(ranked: Mapping[str, float]) -> list[str]:
    """Doc ids in trec_eval's order (:func:`order`): score descending (as float32), then
    doc id descending.

    >>> scored_order({"a": 1.0, "b": 1.0, "c": 2.0})
    ['c', 'b', 'a']
    """
    docs = list(ranked)
    return order([ranked[d] for d in docs], docs)


def check_scores(query_id: str, ranked: Mapping[str, float]) -> bool:
    """Refuse a score of ``run[query_id]`` that is no finite number (a bool, a str, NaN, an
    infinity, an int too large for a float), naming the query and the doc. True where every
    score is a plain ``int`` or ``float`` (:func:`~ef.evaluation._finite.plain_finite`).

    >>> check_scores("q1", {"d1": 2, "d2": 0.5})
    True
    >>> check_scores("q1", {"d1": 1.0, "d2": float("nan")})
    Traceback (most recent call last):
        ...
    ValueError: run['q1']['d2'] = nan: not finite
    """
    if plain_finite(ranked.values()):
        return True
    for doc_id, score in ranked.items():
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise ValueError(f"run[{query_id!r}][{doc_id!r}] = {score!r}: not a number")
        if not is_finite(score):
            shown = reprlib.repr(score)
            raise ValueError(f"run[{query_id!r}][{doc_id!r}] = {shown}: not finite")
    return False


def ranking_of(query_id: str, ranked: Mapping[str, float] | Sequence[str]) -> list[str]:
    """One query's doc ids in rank order.

    A scored mapping is ordered by trec_eval's rule (score descending as float32, then doc id
    descending); a list is used in the order given, a repeated doc counting at its best rank
    (``refuse_repeats()`` refuses one where the run is evaluated as given).

    >>> ranking_of("q1", {"d1": 0.5, "d2": 0.5, "d3": 0.9})
    ['d3', 'd2', 'd1']
    >>> ranking_of("q1", ["d2", "d1", "d2"])
    ['d2', 'd1']
    """
    if isinstance(ranked, Mapping):
        check_scores(query_id, ranked)
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
