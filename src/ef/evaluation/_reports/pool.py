"""Pool: the docs to judge for each query, made by :func:`~ef.evaluation.pool`, and what each
run brought to them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..types import FrozenDict

if TYPE_CHECKING:
    import os

    from .._render import Table

__all__ = ["Pool"]


def _docs_by_query(value: Mapping[str, Iterable[str]]) -> Mapping[str, tuple[str, ...]]:
    return FrozenDict({str(q): tuple(docs) for q, docs in value.items()})


def _names(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _by_run(
    value: Mapping[str, Mapping[str, Iterable[str]]],
) -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    return FrozenDict({run: _docs_by_query(docs) for run, docs in value.items()})


@attrs.frozen(repr=False)  # a pool would print every doc
class Pool:
    """A depth-``depth`` pool of ``runs``: for each query, the docs to judge.

    ``docs[q]`` are the docs that any run ranks in its top ``depth`` for query ``q`` and the
    qrels given to :func:`~ef.evaluation.pool` do not judge, in doc id order (no run's order,
    so that it leads no assessor). ``judged[q]`` are the top-``depth`` docs the qrels judge
    already, left out. ``contributed[run][q]`` are the docs of ``docs[q]`` in ``run``'s top
    ``depth``, in its rank order; :meth:`unique` keeps those no other run has there.

    >>> pooled = Pool(depth=2, runs=("bm25", "dense"),
    ...               docs={"q1": ("d1", "d2", "d3")}, judged={"q1": ("d9",)},
    ...               contributed={"bm25": {"q1": ("d1", "d2")}, "dense": {"q1": ("d3", "d1")}})
    >>> pooled, len(pooled)
    (<Pool depth 2 of 2 runs: 3 docs to judge for 1 queries, 1 judged already>, 3)
    >>> pooled.unique("dense")
    {'q1': ('d3',)}
    >>> print(pooled)
    Pool depth 2: 3 docs to judge for 1 queries (1 judged already)
    run    contributed  unique  per query
    bm25             2       1       2.00
    dense            2       1       2.00
    """

    depth: int
    runs: tuple[str, ...] = attrs.field(converter=_names)
    docs: Mapping[str, tuple[str, ...]] = attrs.field(converter=_docs_by_query)
    judged: Mapping[str, tuple[str, ...]] = attrs.field(converter=_docs_by_query)
    contributed: Mapping[str, Mapping[str, tuple[str, ...]]] = attrs.field(converter=_by_run)

    def __len__(self) -> int:
        """How many (query, doc) pairs there are to judge."""
        return sum(map(len, self.docs.values()))

    def __repr__(self) -> str:
        return (
            f"<Pool depth {self.depth} of {len(self.runs)} runs: {len(self)} docs to judge for "
            f"{len(self.docs)} queries, {sum(map(len, self.judged.values()))} judged already>"
        )

    def __str__(self) -> str:
        from .._render import plain_text

        return plain_text(self.tables()[0])

    def unique(self, run: str) -> Mapping[str, tuple[str, ...]]:
        """The docs to judge that ``run`` alone ranks in its top ``depth``, by query."""
        if run not in self.contributed:
            raise KeyError(f"no run {run!r} in this pool; its runs: {', '.join(self.runs)}")
        others = [docs for name, docs in self.contributed.items() if name != run]
        unique = {}
        for query_id, docs in self.contributed[run].items():
            seen = {doc for other in others for doc in other.get(query_id, ())}
            unique[query_id] = tuple(doc for doc in docs if doc not in seen)
        return FrozenDict(unique)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the docs to judge, each with an empty grade for the assessors to fill in,
        atomically: CSV (``query_id,doc_id,relevance``) for a name ending in ``.csv``, else
        TREC qrels lines ``qid 0 docno`` (tab-separated for ``.tsv``). Filled in, the file
        is what :func:`~ef.evaluation.merge_qrels` takes; unfilled, every qrels reader
        refuses it, naming the file and line."""
        from .._formats.pool import write_pool

        write_pool(Path(path), self.docs)

    def _rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for run in self.runs:
            contributed, unique = self.contributed[run], self.unique(run)
            rows.extend(
                {
                    "run": run,
                    "query": query_id,
                    "contributed": len(contributed.get(query_id, ())),
                    "unique": len(unique.get(query_id, ())),
                }
                for query_id in self.docs
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """The pool as plain data (JSON-ready): its docs, and each run's contributions per
        query (how many docs it brought, and how many no other run brought)."""
        return {
            "depth": self.depth,
            "runs": list(self.runs),
            "docs": {q: list(docs) for q, docs in self.docs.items()},
            "judged": {q: list(docs) for q, docs in self.judged.items()},
            "contributions": self._rows(),
        }

    def tables(self, *, details: bool = False) -> list[Table]:
        """Each run's contributions: how many docs to judge it brought (``contributed``),
        how many of them no other run brought (``unique``) and its mean per query; with
        ``details``, the same per query."""
        from .._render import Table

        n_queries = len(self.docs)
        summary = []
        for run in self.runs:
            contributed = sum(map(len, self.contributed[run].values()))
            unique = sum(map(len, self.unique(run).values()))
            mean = contributed / n_queries if n_queries else 0.0
            summary.append([run, str(contributed), str(unique), f"{mean:.2f}"])
        title = (
            f"Pool depth {self.depth}: {len(self)} docs to judge for {n_queries} queries "
            f"({sum(map(len, self.judged.values()))} judged already)"
        )
        tables = [Table(["run", "contributed", "unique", "per query"], summary, title=title)]
        if details:
            rows = [
                [r["run"], r["query"], str(r["contributed"]), str(r["unique"])]
                for r in self._rows()
            ]
            header = ["run", "query", "contributed", "unique"]
            tables.append(Table(header, rows, title="per query", text_columns=2))
        return tables

    def csv_table(self, *, details: bool = False) -> Table:
        """The contributions as one CSV table: per run, or per run and query (``details``)."""
        return self.tables(details=details)[-1]
