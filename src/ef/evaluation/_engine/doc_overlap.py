"""How a run's retrieved docs meet the judged docs of the queries it is scored on.

A run whose doc ids are spelled otherwise than the qrels' (``cacm-1938`` against
``CACM-1938``, ``0042`` against ``42``, the int ``42`` against the str ``"42"``) retrieves no
judged doc: every query scores 0, and nothing else says so. :func:`doc_overlap` counts the
scored queries that have a judged doc (of any grade, 0 included) anywhere in their ranking,
and looks closer at the first few that have none: does one of their docs match a judged doc
once both are normalised (:data:`FOLDS`)? What it keeps is small whatever the run's size,
and the overlaps of the parts of a run (batches, shards, in the run's order) add up to the
whole run's: :func:`~ef.evaluation._evaluate.doc_ids.check_doc_overlap` judges that.

>>> from ef.evaluation._runs.ranked import RankedLists
>>> run = RankedLists({"q1": ["cacm-1", "cacm-2"], "q2": ["CACM-3"]})
>>> overlap = doc_overlap(run, {"q1": {"CACM-2": 1}, "q2": {"CACM-3": 0}}, ["q1", "q2"])
>>> overlap.scored, overlap.met, overlap.looked[0].respelt
(2, 1, ('cacm-2', 'CACM-2'))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from .._runs.ranked import RankedRun
    from ..types import Qrels

__all__ = ["FOLDS", "LOOKED", "DocOverlap", "Look", "doc_overlap", "worth_looking"]

#: Scored queries without a judged doc looked at closer, per run (the first ones, in the
#: run's order); of each, the first docs of its ranking and of its judgements are kept.
LOOKED = 20
_KEPT = 20


def _no_leading_zeros(text: str) -> str:
    return (text.lstrip("0") or "0") if text.isdigit() else text


#: The normalisations under which two ids that differ are taken for one, by the name a
#: message gives the difference (ids compare as text: an int is its digits).
FOLDS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("whitespace", str.strip),
    ("case", str.casefold),
    ("leading zeros", _no_leading_zeros),
)


@attrs.frozen
class Look:
    """A scored query whose ranking holds no judged doc, looked at closer: its first docs,
    its first judged docs and, if one of its docs is a judged doc spelled otherwise, that
    pair ``(retrieved, judged)`` (:attr:`respelt`)."""

    query_id: str
    docs: tuple[object, ...]
    judged: tuple[object, ...]
    #: The whole ranking and every judged doc, for :attr:`respelt` only.
    _ranking: tuple[object, ...] = attrs.field(eq=False, repr=False, alias="ranking")
    _judgements: tuple[object, ...] = attrs.field(eq=False, repr=False, alias="judgements")

    @functools.cached_property
    def respelt(self) -> tuple[object, object] | None:
        """The first retrieved doc that is a judged one once both are normalised, with it;
        found when first asked for: a check asks where the answer can change what it says,
        not for the few queries of a run that simply missed their judged docs."""
        return _respelt(self._ranking, self._judgements)


@attrs.frozen
class DocOverlap:
    """Of the ``scored`` queries of a run (those that qrels judge and the averaging scores),
    how many have a judged doc anywhere in their ranking (``met``), and the first
    :data:`LOOKED` of the others, looked at closer. ``a + b`` is the overlap of ``a``'s
    queries followed by ``b``'s (a batch, a shard)."""

    scored: int = 0
    met: int = 0
    looked: tuple[Look, ...] = ()

    def __add__(self, other: DocOverlap) -> DocOverlap:
        return DocOverlap(
            self.scored + other.scored,
            self.met + other.met,
            (self.looked + other.looked)[:LOOKED],
        )


def _folded(text: str) -> str:
    """``text`` under every one of :data:`FOLDS` at once, leading zeros of any id dropped:
    two ids that one fold takes for one are one under this too (it is coarser than each)."""
    return text.strip().casefold().lstrip("0")


def _respelt(docs: Sequence[object], judged: Collection[object]) -> tuple[object, object] | None:
    """The first retrieved doc that is a judged one once both are normalised, with it: as
    text first (an int against a str), then by each of :data:`FOLDS`."""
    # One pass under all the folds at once first: where none matches (the common case, a
    # query whose judged docs the run missed) no fold can, and a thousand docs are not
    # folded four times over.
    folded = {_folded(str(j)) for j in judged}
    if folded.isdisjoint(_folded(str(doc)) for doc in docs):
        return None
    folds: list[Callable[[str], str]] = [str, *(fold for _, fold in FOLDS)]
    for fold in folds:
        wanted = {fold(str(j)): j for j in judged}
        for doc in docs:
            key = fold(str(doc))
            if key in wanted:
                return doc, wanted[key]
    return None


def worth_looking(scored: int, met: int) -> bool:
    """Whether what the queries without a judged doc hold can change what the check of a run
    says (:func:`~ef.evaluation._evaluate.doc_ids.check_doc_overlap`): only where a tenth
    or more of its ``scored`` queries have none (``met``: those that have one).

    >>> worth_looking(300, 291), worth_looking(300, 270)
    (False, True)
    """
    return 10 * (scored - met) >= scored


def doc_overlap(
    run: RankedRun,
    qrels: Qrels,
    query_ids: Sequence[str],
    *,
    looks: int = LOOKED,
    whole: bool = False,
    met: Collection[str] | None = None,
) -> DocOverlap:
    """The :class:`DocOverlap` of the scored queries ``query_ids`` (those the run lacks are
    passed over: they are missing queries, not misspelt docs), taken in the run's order,
    the first ``looks`` of those without a judged doc looked at (a later batch of a run
    needs only what the earlier ones left of :data:`LOOKED`: the sum keeps no more). For
    the ``whole`` run (not a part that others add to), none is looked at where
    :func:`worth_looking` says nothing could come of it. ``met``: the scored queries with a
    judged doc in their ranking, where the caller has them (from the judged hits it scores
    with); else the run is asked."""
    scored = set(query_ids)
    present = [q for q in run.query_ids if q in scored]
    if not present:
        return DocOverlap()
    if met is None:
        met = _met(run, qrels, query_ids)
    if whole and not worth_looking(len(present), len(met)):
        looks = 0
    unmatched = (query_id for query_id in present if query_id not in met)  # the run's order
    looked = [_look(run, qrels, q) for q in itertools.islice(unmatched, max(looks, 0))]
    return DocOverlap(len(present), len(met), tuple(looked))


def _met(run: RankedRun, qrels: Qrels, query_ids: Sequence[str]) -> set[str]:
    """The queries of ``query_ids`` with a judged doc (any grade, 0 included) in their
    ranking, asked in their own order, as the scores ask where the run holds every one: a
    run table keeps its last answer, so that they reuse this search."""
    asked = [q for q in query_ids if q in run]
    return {asked[i] for i in run.judged_queries(asked, [qrels[q] for q in asked])}


def _look(run: RankedRun, qrels: Qrels, query_id: str) -> Look:
    """A closer look at a query without a judged doc in its ranking."""
    docs = run.ranking(query_id, "input_order")
    judged_docs = tuple(qrels[query_id])
    return Look(
        query_id,
        tuple(docs[:_KEPT]),
        judged_docs[:_KEPT],
        ranking=tuple(docs),
        judgements=judged_docs,
    )
