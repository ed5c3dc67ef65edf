"""RankedLists: a run held as ranked doc-id lists, and RankedRun, what every run value gives.

A run reaches scoring as one of two values, both :class:`RankedRun`: a
:class:`~ef.evaluation.RunTable` (columns with scores, ranked by a tie policy) or
:class:`RankedLists` (``{query_id: [doc, ...]}`` used in the order given, as retrievers
return them; no scores, so no ties).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .order import ranking_of, refuse_repeats

if TYPE_CHECKING:
    import numpy.typing as npt

    from .._hits import JudgedHits

__all__ = ["RankedLists", "RankedRun"]


class RankedRun(Protocol):
    """What scoring asks of a run: its queries, each query's ranking under a tie policy,
    the judged hits of the batch metrics and, for a run with scores, where it ties."""

    @property
    def query_ids(self) -> Sequence[str]: ...

    def __contains__(self, query_id: object) -> bool: ...

    def ranking(
        self, query_id: str, tie_policy: str = "trec_eval", *, float64: bool = False
    ) -> list[str]: ...

    def without_identical_ids(self) -> RankedRun: ...

    def judged_hits(
        self,
        query_ids: Sequence[str],
        judgements: Sequence[Mapping[str, float]],
        tie_policy: str = "trec_eval",
        *,
        float64: bool = False,
    ) -> JudgedHits: ...

    def judged_queries(
        self, query_ids: Sequence[str], judgements: Sequence[Mapping[str, float]]
    ) -> set[int]: ...

    def tie_stats(
        self, query_ids: Sequence[str], cutoffs: Sequence[int], *, float64: bool = False
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]] | None: ...


class RankedLists:
    """A run of ranked lists, ``{query_id: [doc_id, ...]}``, in memory.

    Each list is used in its order, as
    :meth:`RunTable.from_dict <ef.evaluation.RunTable.from_dict>` uses them, without building
    its arrays: for the rankings of :func:`~ef.evaluation.retrieve` that is most of the cost
    of scoring them. A list that names a doc twice is refused, as a run file that does is
    (:func:`~ef.evaluation._runs.order.refuse_repeats`). ``checked=True`` trusts lists that
    are de-duplicated already (a retriever's results, kept at their best rank).

    >>> run = RankedLists({"q1": ["d2", "d1"]})
    >>> run.ranking("q1"), "q2" in run
    (['d2', 'd1'], False)
    """

    def __init__(self, run: Mapping[str, Sequence[str]], *, checked: bool = False) -> None:
        if checked:
            self._rankings: dict[str, Sequence[str]] = dict(run)
        else:
            self._rankings = {q: ranking_of(q, docs) for q, docs in run.items()}
            refuse_repeats(run, self._rankings)
        self.query_ids = list(self._rankings)

    def __contains__(self, query_id: object) -> bool:
        return query_id in self._rankings

    def ranking(self, query_id: str, *_: object, **__: object) -> list[str]:
        """The query's ranked list (empty if the run lacks it); ranked lists have no ties."""
        return list(self._rankings.get(query_id, ()))

    def rankings(self, query_ids: Sequence[str]) -> list[Sequence[str]]:
        """The ranked lists of ``query_ids``, as they are."""
        return [self._rankings.get(q, ()) for q in query_ids]

    def without_identical_ids(self) -> RankedLists:
        """These lists without a doc whose id is its query's id (BEIR's option).

        >>> RankedLists({"q1": ["q1", "d1"], "q2": ["d2"]}).without_identical_ids().rankings(
        ...     ["q1", "q2"]
        ... )
        [['d1'], ['d2']]
        """
        # Only the few lists that hold their query's id are copied: one C-level scan a list,
        # not a Python loop over every doc of the run.
        rankings = self._rankings
        kept = {q: [doc for doc in docs if doc != q] for q, docs in rankings.items() if q in docs}
        return RankedLists({**rankings, **kept}, checked=True)

    def judged_hits(
        self,
        query_ids: Sequence[str],
        judgements: Sequence[Mapping[str, float]],
        *_: object,
        **__: object,
    ) -> JudgedHits:
        """Where the judged docs of ``query_ids`` rank, for the batch metrics."""
        from .._hits import JudgedHits  # numpy, only once something is scored

        return JudgedHits.from_rankings(self.rankings(query_ids), judgements)

    def judged_queries(
        self, query_ids: Sequence[str], judgements: Sequence[Mapping[str, float]]
    ) -> set[int]:
        """The positions in ``query_ids`` of the queries whose list holds a judged doc.

        >>> RankedLists({"q1": ["d1"], "q2": ["d2"]}).judged_queries(["q1", "q2"], [{"d1": 0}, {}])
        {0}
        """
        return {
            i
            for i, (query_id, judged) in enumerate(zip(query_ids, judgements, strict=True))
            if not judged.keys().isdisjoint(self._rankings.get(query_id, ()))
        }

    def tie_stats(self, *_: object, **__: object) -> None:
        """Ranked lists have no scores, hence no ties."""
        return
