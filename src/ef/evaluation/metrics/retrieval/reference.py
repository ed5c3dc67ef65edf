"""The per-query helpers the reference functions of the metric modules share (numpy-free).

The reference functions read a ranking as :func:`top_docs` cuts it: its first ``k`` distinct
doc ids, a duplicate counting only at its first (best) rank.
"""

from __future__ import annotations

import functools
import math
import numbers
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..._finite import is_finite, plain_finite
from .params import check_arguments

if TYPE_CHECKING:
    from ...interfaces import MetricParam

__all__ = [
    "C_NAN",
    "NONPOOL",
    "UNJUDGED",
    "check_cutoff",
    "check_query",
    "first_docs",
    "grade_problem",
    "guarded",
    "ideal_gains",
    "is_relevant_grade",
    "refuse_bad_grades",
    "relevant_hits",
    "relevant_total",
    "top_docs",
    "trec_gain",
    "trec_rels",
]

#: trec_eval's relevance of a retrieved doc that is not in the qrels (RELVALUE_NONPOOL).
NONPOOL = -1.0
#: ... and of one judged with a negative grade: pooled but not judged (RELVALUE_UNJUDGED).
UNJUDGED = -2.0
#: C's 0 / 0 on x86: a NaN with its sign bit set, which glibc prints as ``-nan``.
C_NAN = -math.nan


def check_cutoff(k: int | None) -> None:
    """Refuse a cutoff that is not a positive int or None."""
    # bool is an int subclass; ndcg_at_k(..., True) is a bug, not a cutoff of 1.
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"cutoff k must be a positive int, got {k!r}")


#: How messages name a reference function that was not named: by the arguments all share.
_ANY = "a metric function (ranked, relevant, k)"


def check_query(ranked: object, relevant: object, call: str = _ANY) -> None:
    """Refuse, naming ``call`` (``"ndcg_at_k(ranked, relevant, k)"``), a ranking or a
    judgement of the wrong shape: the arguments swapped, a whole run or qrels where one
    query's belong, a ``str``, a ``set`` or a ``{doc: score}`` dict as the ranking (iterated,
    each gives a wrong number silently), doc ids where ``{doc_id: grade}`` belongs.

    A grade that is no finite number (NaN, an infinity) is a ``ValueError`` naming its docs,
    as :func:`~ef.evaluation.evaluate_run` refuses it: NaN would gain nothing and an infinite
    grade give NaN, with no word.

    Cheap where the inputs are plain (a list and a dict of numbers): two type tests and
    :func:`~ef.evaluation._finite.plain_finite`'s passes over the grades. Only other inputs
    are looked at further.

    >>> check_query({"d1": 1.0}, ["d1"], "ndcg_at_k(ranked, relevant, k)")
    Traceback (most recent call last):
        ...
    TypeError: ndcg_at_k(ranked, relevant, k): ranked is a dict and relevant a list: are the \
arguments swapped? ranked is the doc ids in rank order, best first; relevant is {doc_id: grade}
    >>> check_query(["d1"], {"d1": float("nan")}, "dcg_at_k(ranked, relevant, k)")
    Traceback (most recent call last):
        ...
    ValueError: dcg_at_k(ranked, relevant, k): relevant['d1'] = nan: a grade is a finite \
number, e.g. 0, 1 or 2
    """
    if type(ranked) is list and type(relevant) is dict and plain_finite(relevant.values()):
        return
    problem = _query_problem(ranked, relevant)
    if problem is not None:
        raise TypeError(f"{call}: {problem}")
    assert isinstance(relevant, Mapping)  # _query_problem refuses any other
    if not plain_finite(relevant.values()):  # a grade no finite number, or no plain one
        _refuse_grades(relevant, call)


def _refuse_grades(relevant: Mapping[Any, Any], call: str) -> None:
    """Raise, naming ``call``, for the grades of ``relevant`` that are no number (TypeError)
    or no finite number (ValueError, naming every such doc); nothing if none is."""
    problem = grade_problem(relevant)
    if problem is not None:
        raise TypeError(f"{call}: {problem}")
    bad = [(doc, grade) for doc, grade in relevant.items() if not is_finite(grade)]
    if not bad:
        return  # finite numbers whose sum overflowed
    shown = ", ".join(f"relevant[{doc!r}] = {reprlib.repr(grade)}" for doc, grade in bad[:3])
    more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
    raise ValueError(f"{call}: {shown}{more}: a grade is a finite number, e.g. 0, 1 or 2")


def _a(value: object) -> str:
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _query_problem(ranked: object, relevant: object) -> str | None:
    """What is wrong with the two arguments, or None if nothing is."""
    shapes = "ranked is the doc ids in rank order, best first; relevant is {doc_id: grade}"
    if isinstance(ranked, Mapping) and not isinstance(relevant, Mapping):
        return (
            f"ranked is {_a(ranked)} and relevant {_a(relevant)}: are the "
            f"arguments swapped? {shapes}"
        )
    problem = _ranking_problem(ranked)
    if problem is None:
        problem = _judgement_problem(relevant)
    return problem


def _ranking_problem(ranked: object) -> str | None:
    if isinstance(ranked, Mapping):
        if any(isinstance(v, Mapping) for v in ranked.values()):
            return (
                "ranked is a whole run, {query_id: {doc_id: score}}; these functions score one "
                "query's ranking: evaluate_run(run, qrels) scores a run"
            )
        return (
            f"ranked is {_a(ranked)}; expected the doc ids in rank order, best first (a list); "
            "for {doc_id: score}, pass sorted(scores, key=scores.get, reverse=True)"
        )
    if isinstance(ranked, (str, bytes)):
        return (
            f"ranked is {_a(ranked)}; expected a sequence of doc ids, best first "
            f"([{ranked!r}] for one doc): a str would be read one character at a time"
        )
    if isinstance(ranked, (set, frozenset)):
        return f"ranked is {_a(ranked)}, which has no order; expected the doc ids in rank order"
    if not isinstance(ranked, Iterable):
        return f"ranked is {_a(ranked)}; expected a sequence of doc ids, best first"
    return None


def _judgement_problem(relevant: object) -> str | None:
    if not isinstance(relevant, Mapping):
        hint = ""
        if isinstance(relevant, (list, tuple, set, frozenset)):
            hint = "; for a list of relevant doc ids, dict.fromkeys(relevant, 1) grades each 1"
        return f"relevant is {_a(relevant)}; expected {{doc_id: grade}}{hint}"
    first = next(iter(relevant.items()), None)  # one grade: the others only on failure
    return None if first is None else grade_problem(dict([first]))


def grade_problem(relevant: Mapping[Any, Any]) -> str | None:
    """What is wrong with a grade of ``relevant`` (a whole qrels' ``{doc: grade}`` per query
    where one query's belongs, a grade that is no number), or None."""
    for doc, grade in relevant.items():
        if isinstance(grade, Mapping):
            return (
                f"relevant[{doc!r}] is {_a(grade)}: relevant is one query's judgements "
                "{doc_id: grade}, not qrels {query_id: {doc_id: grade}}; pass qrels[query_id]"
            )
        if not isinstance(grade, numbers.Real):
            return f"relevant[{doc!r}] = {grade!r}: a grade is a number"
    return None


def refuse_bad_grades(relevant: object, call: str) -> None:
    """After a ``TypeError`` in ``call``: raise one naming the grade at fault, if one is (a
    function that raises nothing here lets the caller re-raise the original)."""
    problem = grade_problem(relevant) if isinstance(relevant, Mapping) else None
    if problem is not None:
        raise TypeError(f"{call}: {problem}") from None


_F = TypeVar("_F", bound=Callable[..., float])


def guarded(*params: MetricParam) -> Callable[[_F], _F]:
    """The checks of a reference function ``f(ranked, relevant, k, **keywords)``, each
    refusal naming it (``"ndcg_at_k(ranked, relevant, k)"``): a keyword among ``params`` that
    its measure string would refuse (:func:`~.params.check_arguments`), arguments of the wrong
    shape (:func:`check_query`), and, for a ``TypeError`` raised inside, the grade at fault
    (:func:`refuse_bad_grades`). The function keeps its name, signature and docstring.

    >>> from .params import REL
    >>> @guarded(REL)
    ... def hits_at_k(ranked, relevant, k, *, rel=None):
    ...     return float(sum(relevant.get(doc, 0) >= (rel or 1) for doc in ranked[:k]))
    >>> hits_at_k(["d1", "x"], {"d1": 1}, 2)
    1.0
    >>> hits_at_k(["d1"], {"d1": 1}, 1, rel=-1)
    Traceback (most recent call last):
        ...
    ValueError: hits_at_k(ranked, relevant, k): parameter 'rel' must be > 0, got -1.0
    >>> hits_at_k(["d1", "d2"], {"d1": 1, "d2": [2]}, 2)
    Traceback (most recent call last):
        ...
    TypeError: hits_at_k(ranked, relevant, k): relevant['d2'] = [2]: a grade is a number
    """

    def guard(func: _F) -> _F:
        call = f"{func.__name__}(ranked, relevant, k)"

        @functools.wraps(func)
        def checked(ranked: object, relevant: object, *args: Any, **keywords: Any) -> float:
            given = [(param, keywords[param.name]) for param in params if param.name in keywords]
            if given:
                check_arguments(call, *given)
            check_query(ranked, relevant, call)
            try:
                return func(ranked, relevant, *args, **keywords)
            except TypeError:
                refuse_bad_grades(relevant, call)  # a grade that is no number: name it
                raise

        return cast("_F", checked)

    return guard


def top_docs(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    judged_only: bool = False,
) -> list[str]:
    """The first ``k`` distinct doc ids of ``ranked`` (all of them when ``k`` is None); with
    ``judged_only``, of those judged with a grade of 0 or more. Arguments of the wrong shape
    are refused (:func:`check_query`)."""
    check_query(ranked, relevant)
    return first_docs(ranked, relevant, k, judged_only)


def first_docs(
    ranked: Sequence[str],
    relevant: Mapping[str, float],
    k: int | None,
    judged_only: bool = False,
) -> list[str]:
    """:func:`top_docs` for a caller that ran :func:`check_query` itself (once a call)."""
    check_cutoff(k)
    seen: set[str] = set()
    top: list[str] = []
    for doc in ranked:
        if k is not None and len(top) >= k:
            break
        if doc in seen:
            continue
        seen.add(doc)
        if judged_only and relevant.get(doc, -1) < 0:
            continue
        top.append(doc)
    return top


def is_relevant_grade(grade: float | None, rel: float | None) -> bool:
    """Whether a judged ``grade`` (None: unjudged) counts as relevant at ``rel``."""
    if grade is None:
        return False
    return grade >= rel if rel is not None else grade > 0


def relevant_total(relevant: Mapping[str, float], rel: float | None = None) -> int:
    """The number of docs of ``relevant`` that count as relevant at ``rel``."""
    return sum(1 for grade in relevant.values() if is_relevant_grade(grade, rel))


def relevant_hits(top: Sequence[str], relevant: Mapping[str, float], rel: float | None) -> int:
    """The number of docs of ``top`` that count as relevant at ``rel``."""
    return sum(1 for doc in top if is_relevant_grade(relevant.get(doc), rel))


def trec_rels(top: Sequence[str], relevant: Mapping[str, float]) -> list[float]:
    """trec_eval's relevance of each doc of ``top``: its grade if 0 or more, :data:`UNJUDGED`
    for a negative grade, :data:`NONPOOL` for a doc without a judgement.

    >>> trec_rels(["d1", "x", "d2"], {"d1": 2, "d2": -1})
    [2, -1.0, -2.0]
    """
    rels: list[float] = []
    for doc in top:
        grade = relevant.get(doc)
        rels.append(NONPOOL if grade is None else UNJUDGED if grade < 0 else grade)
    return rels


def trec_gain(grade: float | None, gains: Mapping[float, float] | None = None) -> float:
    """A judged doc's gain as trec_eval's gain-based measures (G, ndcg_rel, Rndcg) take it:
    ``gains[grade]`` if listed, else the grade itself; 0 for a doc without a judgement or with
    a negative one.

    >>> trec_gain(2), trec_gain(2, {2: 9}), trec_gain(-1, {-1: 5}), trec_gain(None)
    (2.0, 9.0, 0.0, 0.0)
    """
    if grade is None or grade < 0:
        return 0.0
    if gains and grade in gains:
        return float(gains[grade])
    return float(grade)


def ideal_gains(grades: Iterable[float], gains: Mapping[float, float] | None = None) -> list[float]:
    """The positive gains of a query's judged docs, highest first: its ideal ranking's.

    >>> ideal_gains([0, 2, 1, -1, 2], {1: 3})
    [3.0, 2.0, 2.0]
    """
    return sorted((g for g in (trec_gain(x, gains) for x in grades) if g > 0), reverse=True)
