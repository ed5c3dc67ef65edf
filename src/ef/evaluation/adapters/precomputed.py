"""A precomputed run as a retriever: it answers each query by its id.

``{qid: {doc: score}}`` is ranked by trec_eval's rule (score descending as float32, then doc
id descending), ``{qid: [docs]}`` is used in the order given, and a path is read with
:func:`ef.evaluation.read_run`. A query the run lacks gets no results.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

__all__ = ["PrecomputedRun", "adapt_precomputed_run", "is_precomputed_run"]


def _is_ranking(value: object) -> bool:
    return isinstance(value, Mapping) or (
        isinstance(value, Sequence) and not isinstance(value, (str, bytes))
    )


def is_precomputed_run(obj: object) -> bool:
    """True for a run mapping (``{qid: {doc: score}}`` or ``{qid: [docs]}``), a path object,
    or a string naming a file that exists.

    >>> is_precomputed_run({"q1": {"d1": 1.0}}), is_precomputed_run({"q1": ["d1"]})
    (True, True)
    >>> is_precomputed_run({"q1": "d1"}), is_precomputed_run("no/such/run.trec")
    (False, False)
    """
    if isinstance(obj, os.PathLike):
        return True  # read_run names the file if it is missing
    if isinstance(obj, str):
        return os.path.isfile(obj)
    return isinstance(obj, Mapping) and all(_is_ranking(v) for v in obj.values())


@attrs.frozen
class PrecomputedRun:
    """Answers queries by id from stored rankings: a picklable
    :data:`~ef.evaluation.interfaces.BatchSearchFunction`.

    >>> run = PrecomputedRun({"q1": ("d2", "d1")})
    >>> run(["q1", "q9"], ["text ignored", "unknown query"], 1)
    [['d2'], []]
    """

    #: ``{query_id: ranked doc ids}``. A plain dict, so it pickles.
    rankings: dict[str, tuple[str, ...]]

    def __call__(
        self, query_ids: Sequence[str], query_texts: Sequence[str], limit: int
    ) -> list[list[str]]:
        return [list(self.rankings.get(qid, ())[:limit]) for qid in query_ids]


def adapt_precomputed_run(obj: Any) -> PrecomputedRun:
    """Rank a run mapping, or read a run file, into a :class:`PrecomputedRun`.

    >>> run = adapt_precomputed_run({"q1": {"d1": 0.5, "d2": 0.5, "d3": 0.9}})
    >>> run(["q1"], ["text"], 10)
    [['d3', 'd2', 'd1']]
    """
    from .._runs.order import ranking_of

    if isinstance(obj, (str, os.PathLike)):
        from .._formats.files import read_run

        obj = read_run(obj)
    return PrecomputedRun({str(qid): tuple(ranking_of(qid, ranked)) for qid, ranked in obj.items()})
