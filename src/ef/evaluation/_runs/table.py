"""RunTable: a run held as columns, and where its judged docs rank, for the vectorised path.

A run file of 7,000 queries x 1,000 docs is 7 million lines. Holding it as a dict of dicts
costs a Python object per line; a :class:`RunTable` keeps the scores as read and as float32
(the precision trec_eval ranks by), the query offsets, and the doc ids in one column. Scoring
needs only the *judged* docs: their rank in trec_eval's order is counted (how many docs of the
query score higher, or tie with a greater docno), so the run is never sorted.

Files are read without a Python object per line: with numpy below 32 MB, with polars (a
dependency, imported when such a file is read) from there. Any file a fast reader would read
differently from the reference reader (tabs, doubled spaces, a byte-order mark, carriage
returns, a doc listed twice, a bad score, ...) is read by the reference reader instead, which
gives the same numbers or the same error naming the file and line. Without polars (an
install without its dependencies), every large file takes that path.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from .._formats.trec.fast import RunColumns
from .._hits import JudgedHits
from .order import check_scores, order, ranking_of, refuse_repeats, tie_break

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from ..types import RunInput

__all__ = ["RunTable"]

Ints = npt.NDArray[np.int64]
Hashes = npt.NDArray[np.uint64]

_MIX = np.uint64(0x9E3779B97F4A7C15)  # spreads a query's number over a pair's hash bits


class _DocColumn(Protocol):
    """The doc ids of every row: a polars Series, a numpy byte column or a Python list
    behind one interface."""

    def take(self, rows: Ints) -> list[str]: ...

    def hash_docs(self, docs: list[str]) -> npt.NDArray[np.uint64]: ...

    def rows_with_hashes(self, wanted: npt.NDArray[np.uint64]) -> tuple[Ints, Hashes]:
        """The rows whose doc hash is in ``wanted`` (sorted, unique), and those hashes."""
        ...

    def descending_pairs(self, rows: Ints) -> npt.NDArray[np.bool_]: ...

    def subset(self, keep: npt.NDArray[np.bool_]) -> _DocColumn: ...


#: What RunTable._judged_rows finds: the rows, each row's pair, the pairs' queries and grades,
#: and the rows' doc ids.
_JudgedRows = tuple[Ints, Ints, list[int], list[float], list[str]]


def _distinct(hashes: Hashes) -> Hashes:
    """The distinct hashes, sorted: np.unique's, by a sort (numpy 2's np.unique imports
    numpy.ma, 6 ms of a small run's start).

    >>> _distinct(np.array([3, 1, 3], dtype=np.uint64)).tolist()
    [1, 3]
    """
    ordered = np.sort(hashes)
    if ordered.size < 2:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _rows_in(hashes: Hashes, wanted: Hashes) -> Ints:
    """The rows of ``hashes`` that are in ``wanted`` (sorted, unique), in order.

    A table of the wanted hashes' top bits (a bit per slot, at most 1 in 256 set) lets
    through the few rows that may be wanted, which a binary search then decides: a
    fraction of np.isin's time, which sorts every row with the wanted ones.

    >>> import numpy as np
    >>> _rows_in(np.array([5, 1 << 63, 7, 5], dtype=np.uint64), np.array([5, 6], dtype=np.uint64))
    array([0, 3])
    """
    if wanted.size == 0 or hashes.size == 0:
        return np.zeros(0, dtype=np.int64)
    bits = min(24, max(16, int(wanted.size).bit_length() + 8))
    shift = np.uint64(64 - bits)
    table = np.zeros(1 << bits, dtype=bool)
    table[(wanted >> shift).astype(np.intp)] = True
    maybe = np.flatnonzero(table[(hashes >> shift).astype(np.intp)])
    at = np.searchsorted(wanted, hashes[maybe]).clip(max=wanted.size - 1)
    rows: Ints = maybe[wanted[at] == hashes[maybe]].astype(np.int64)
    return rows


class _ListDocs:
    def __init__(self, docs: list[str], hashes: Hashes | None = None) -> None:
        self.docs = docs
        self._hashes = hashes  # each row's doc hash, from the first lookup (one Python pass)

    def take(self, rows: Ints) -> list[str]:
        return [self.docs[i] for i in rows.tolist()]

    def hash_docs(self, docs: list[str]) -> Hashes:
        return np.fromiter((hash(d) for d in docs), dtype=np.int64, count=len(docs)).view(np.uint64)

    def rows_with_hashes(self, wanted: Hashes) -> tuple[Ints, Hashes]:
        if self._hashes is None:
            self._hashes = self.hash_docs(self.docs)
        rows = _rows_in(self._hashes, wanted)
        return rows, self._hashes[rows]

    def descending_pairs(self, rows: Ints) -> npt.NDArray[np.bool_]:
        # For each row r: docs[r - 1] > docs[r] (byte order, as strcmp).
        return np.fromiter(
            (self.docs[r - 1] > self.docs[r] for r in rows.tolist()), dtype=bool, count=rows.size
        )

    def subset(self, keep: npt.NDArray[np.bool_]) -> _ListDocs:
        hashes = None if self._hashes is None else self._hashes[keep]
        docs = [d for d, kept in zip(self.docs, keep.tolist(), strict=True) if kept]
        return _ListDocs(docs, hashes)


class _SeriesDocs:
    def __init__(self, docs: Any, hashes: Hashes | None = None) -> None:
        self.docs = docs  # a polars Series of str
        self._hashes = hashes  # each row's doc hash, kept from reading (the repeat check)

    def take(self, rows: Ints) -> list[str]:
        taken: list[str] = self.docs.gather(rows).to_list()
        return taken

    def hash_docs(self, docs: list[str]) -> Hashes:
        import polars as pl

        hashed = pl.Series(docs, dtype=pl.String).hash(seed=0).to_numpy()
        return np.asarray(hashed, dtype=np.uint64)

    def rows_with_hashes(self, wanted: Hashes) -> tuple[Ints, Hashes]:
        import polars as pl

        if self._hashes is None:
            self._hashes = np.asarray(self.docs.hash(seed=0).to_numpy(), dtype=np.uint64)
        hashes = pl.Series(self._hashes)
        rows = hashes.is_in(pl.Series(wanted).implode()).arg_true().to_numpy()
        rows = np.asarray(rows, dtype=np.int64)
        return rows, self._hashes[rows]

    def descending_pairs(self, rows: Ints) -> npt.NDArray[np.bool_]:
        before = self.docs.gather(rows - 1)
        here = self.docs.gather(rows)
        return np.asarray((before > here).to_numpy(), dtype=bool)

    def subset(self, keep: npt.NDArray[np.bool_]) -> _SeriesDocs:
        import polars as pl

        hashes = None if self._hashes is None else self._hashes[keep]
        return _SeriesDocs(self.docs.filter(pl.Series(keep)), hashes)


class _BytesDocs:
    """A fixed-width byte column (:mod:`ef.evaluation._formats.trec.bytes_reader`): ids compare as
    their bytes (NUL-padded: an id holds none), which is strcmp's order and str's."""

    def __init__(self, docs: npt.NDArray[np.bytes_], hashes: Hashes | None = None) -> None:
        self.docs = docs
        self._hashes = hashes

    def take(self, rows: Ints) -> list[str]:
        return [doc.decode() for doc in self.docs[rows].tolist()]

    def hash_docs(self, docs: list[str]) -> Hashes:
        from .._formats.trec.bytes_reader import doc_hashes

        # At the column's width: a longer id is cut, and its hash then matches no row's but
        # by a clash, which the callers' comparison of the ids themselves drops.
        encoded = np.array([doc.encode() for doc in docs], dtype=self.docs.dtype)
        return doc_hashes(encoded)

    def rows_with_hashes(self, wanted: Hashes) -> tuple[Ints, Hashes]:
        from .._formats.trec.bytes_reader import doc_hashes

        if self._hashes is None:
            self._hashes = doc_hashes(self.docs)
        rows = _rows_in(self._hashes, wanted)
        return rows, self._hashes[rows]

    def descending_pairs(self, rows: Ints) -> npt.NDArray[np.bool_]:
        return np.asarray(self.docs[rows - 1] > self.docs[rows], dtype=bool)

    def subset(self, keep: npt.NDArray[np.bool_]) -> _BytesDocs:
        hashes = None if self._hashes is None else self._hashes[keep]
        return _BytesDocs(self.docs[keep], hashes)


class RunTable:
    """A run as columns: query ids, per-query offsets, float32 scores and doc ids.

    Build one with :meth:`read` (a TREC or MS MARCO run file, or a Parquet file),
    :meth:`from_dict`, :meth:`from_frame` (a pandas or polars DataFrame) or
    :meth:`from_parquet` (a Parquet file whose columns are named);
    :func:`~ef.evaluation.evaluate_run` takes it like a dict or a path. Reading once and
    evaluating many times (several metric sets, several qrels) reads the file once.
    ``query_ids`` holds the run's query ids in file order; ``len()`` counts its docs.
    ``name``, when set, is what :func:`~ef.evaluation.compare` calls the run (a fused run is
    named after its method).

    >>> table = RunTable.from_dict({"q1": {"d1": 0.5, "d2": 0.5}, "q2": ["d3", "d4"]})
    >>> table.query_ids, len(table), table.ranking("q1")
    (('q1', 'q2'), 4, ['d2', 'd1'])
    """

    def __init__(
        self,
        query_ids: Sequence[str],
        offsets: Ints,
        scores: npt.NDArray[np.float64],
        docs: _DocColumn,
        *,
        ordered: bool | None = None,
        name: str | None = None,
        listed: bool = False,
    ) -> None:
        self.name = name
        #: Are the rows in an order the source chose (a file's lines, a table's rows), which
        #: may say how it meant its docs ranked, or a mapping's, which says nothing?
        self.listed = listed
        self.query_ids = tuple(query_ids)
        self._index = {q: i for i, q in enumerate(self.query_ids)}
        self.offsets = offsets
        self.original_scores = scores
        with np.errstate(over="ignore"):  # beyond float32's range is +-inf, as in C
            #: The scores as trec_eval keeps them (C float): what ranks the docs.
            self.scores = scores.astype(np.float32)
        self._docs = docs
        # The last _judged_rows answer, with what it was asked: see there.
        self._judged: tuple[object, _JudgedRows] | None = None
        self._ordered = ordered  # found out on first need: only ranking() needs it
        self._monotone: dict[bool, npt.NDArray[np.bool_]] = {}  # per float64 flag

    def __len__(self) -> int:
        return int(self.scores.size)

    def __contains__(self, query_id: object) -> bool:
        return query_id in self._index

    def __repr__(self) -> str:
        named = f" {self.name!r}" if self.name is not None else ""
        return f"<RunTable{named}: {len(self.query_ids)} queries, {len(self)} docs>"

    @classmethod
    def from_dict(cls, run: RunInput, *, name: str | None = None, listed: bool = False) -> RunTable:
        """A table of ``{qid: {doc: score}}`` or ``{qid: [doc, ...]}`` (a ranked list keeps
        its order; one that names a doc twice is refused), called ``name``; ``listed`` if
        the mapping's order is a file's (a reader's)."""
        query_ids: list[str] = []
        docs: list[str] = []
        scores: list[float] = []
        offsets = [0]
        lists: dict[str, Sequence[str]] = {}
        for query_id, ranked in run.items():
            query_ids.append(query_id)
            if isinstance(ranked, Mapping):
                # Rows in the mapping's order (the input_order tie policy needs it), ranked
                # by the table, not sorted here.
                plain = check_scores(query_id, ranked)
                docs.extend(ranked)
                scores.extend(ranked.values() if plain else map(float, ranked.values()))
            else:
                ordered = lists[query_id] = ranking_of(query_id, ranked)  # de-duplicated
                docs.extend(ordered)
                scores.extend(float(len(ordered) - i) for i in range(len(ordered)))
            offsets.append(len(docs))
        refuse_repeats(run, lists)
        return cls(
            query_ids,
            np.asarray(offsets, dtype=np.int64),
            np.asarray(scores, dtype=np.float64),
            _ListDocs(docs),
            name=name,
            listed=listed,
        )

    @classmethod
    def read(
        cls,
        path: str | os.PathLike[str],
        format: str | None = None,
        *,
        registry: Registry | None = None,
    ) -> RunTable:
        """Read a run file: fast (numpy, or polars for a large file) where that reads exactly
        as the reference reader would, through :func:`~ef.evaluation.read_run` otherwise
        (same numbers, same errors).

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = pathlib.Path(tmp, "run.txt")
        ...     _ = path.write_text("q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 2.5 bm25\\n")
        ...     RunTable.read(path).ranking("q1")
        ['d2', 'd1']
        """
        from .._formats.files import read_run_columns

        read = read_run_columns(Path(path), format, registry=registry)
        if isinstance(read, RunColumns):
            return cls.from_columns(read)
        return cls.from_dict(read, listed=True)

    @classmethod
    def from_frame(cls, frame: Any, *, columns: Sequence[str] | None = None) -> RunTable:
        """The run a pandas or polars DataFrame holds, one row per doc: ranx's ``q_id,
        doc_id, score`` columns, ir_measures' ``query_id, doc_id, score``, or the ``(query,
        doc, score)`` ``columns`` named (``ef.evaluation._formats.frames`` reads it, and
        refuses a null, a score that is no number or a doc twice for a query, naming the
        column and row). Its rows keep their order.

        >>> import pandas as pd
        >>> frame = pd.DataFrame({"q": ["q1", "q1"], "d": ["d1", "d2"], "s": [0.5, 0.5]})
        >>> RunTable.from_frame(frame, columns=("q", "d", "s")).ranking("q1")
        ['d2', 'd1']
        """
        from .._formats.frames import run_columns_of_table

        return cls.from_columns(run_columns_of_table(frame, columns, where="the run DataFrame"))

    @classmethod
    def from_parquet(
        cls, path: str | os.PathLike[str], *, columns: Sequence[str] | None = None
    ) -> RunTable:
        """The run a Parquet file holds, one row per doc, its columns found or named by
        ``columns`` as :meth:`from_frame`'s are (polars reads it); a file with no row is an
        error naming it.

        >>> import tempfile, pathlib, polars as pl
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = pathlib.Path(tmp, "run.parquet")
        ...     pl.DataFrame({"q_id": ["q1"], "doc_id": ["d1"], "score": [1.0]}).write_parquet(path)
        ...     RunTable.from_parquet(path).query_ids
        ('q1',)
        """
        from .._formats.frames import run_columns_of_table
        from .._formats.parquet import read_parquet_rows

        rows = read_parquet_rows(Path(path), "a run")
        return cls.from_columns(run_columns_of_table(rows, columns, where=str(path)))

    @classmethod
    def from_columns(cls, columns: RunColumns) -> RunTable:
        """The table of a run read as columns (the TREC format's fast reader, or a table's
        columns: a DataFrame or a Parquet file), its rows in their order there."""
        docs: _DocColumn
        if isinstance(columns.docs, list):
            docs = _ListDocs(columns.docs)
        elif isinstance(columns.docs, np.ndarray):
            docs = _BytesDocs(columns.docs, columns.hashes)
        else:
            docs = _SeriesDocs(columns.docs, columns.hashes)
        return cls(columns.query_ids, columns.offsets, columns.scores, docs, listed=True)

    def ranking(
        self, query_id: str, tie_policy: str = "trec_eval", *, float64: bool = False
    ) -> list[str]:
        """The query's doc ids by score, ties broken by ``tie_policy`` (empty if the run does
        not have the query): ``"trec_eval"`` (doc id descending; ``"expected"`` ranks so
        too), ``"docno_asc"`` or ``"input_order"`` (the order of the file or mapping).
        Scores compare as float32, as trec_eval's, unless ``float64``: the order of
        ``order()``, without its sort where the rows are in it.

        >>> table = RunTable.from_dict({"q1": {"d1": 0.5, "d3": 0.9, "d2": 0.5}})
        >>> table.ranking("q1"), table.ranking("q1", "docno_asc")
        (['d3', 'd2', 'd1'], ['d3', 'd1', 'd2'])
        >>> table.ranking("q1", "input_order")
        ['d3', 'd1', 'd2']
        """
        i = self._index.get(query_id)
        if i is None:
            return []
        rows = self._rows(i)
        docs = self._docs.take(rows)
        if tie_break(tie_policy) == "id_descending" and not float64:
            if self._ordered is None:
                self._ordered = self._check_order()
            if self._ordered:  # every query's rows in trec_eval's order already
                return docs
        return order(self.original_scores[rows], docs, tie_policy, float64=float64)

    def without_identical_ids(self) -> RunTable:
        """This run without the docs whose id is their query's id (BEIR's
        ``ignore_identical_ids``); the docs below them move up a rank.

        >>> table = RunTable.from_dict({"q1": {"q1": 2.0, "d1": 1.0}, "q2": {"d2": 1.0}})
        >>> table.without_identical_ids().ranking("q1")
        ['d1']
        """
        query_ids = list(self.query_ids)
        rows, _ = self._docs.rows_with_hashes(_distinct(self._docs.hash_docs(query_ids)))
        if rows.size:
            owners = np.searchsorted(self.offsets, rows, side="right") - 1
            same = [
                doc == self.query_ids[owner]
                for doc, owner in zip(self._docs.take(rows), owners.tolist(), strict=True)
            ]
            rows = rows[np.asarray(same, dtype=bool)]
        if rows.size == 0:
            return self
        keep = np.ones(len(self), dtype=bool)
        keep[rows] = False
        removed = np.r_[0, np.cumsum(~keep)]
        return RunTable(
            self.query_ids,
            self.offsets - removed[self.offsets],
            self.original_scores[keep],
            self._docs.subset(keep),
            ordered=self._ordered,
            name=self.name,
            listed=self.listed,
        )

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{qid: {doc: score}}``, as :func:`~ef.evaluation.read_run` returns it."""
        return {
            q: dict(zip(self._docs.take(self._rows(i)), self._scores(i), strict=True))
            for i, q in enumerate(self.query_ids)
        }

    def docs_and_scores(self, query_id: str) -> tuple[list[str], npt.NDArray[np.float64]]:
        """The query's doc ids and scores as given (float64), in the order of the file or
        mapping; empty if the run lacks the query.

        >>> docs, scores = RunTable.from_dict({"q1": {"d2": 0.1, "d1": 0.9}}).docs_and_scores("q1")
        >>> docs, scores.tolist()
        (['d2', 'd1'], [0.1, 0.9])
        """
        i = self._index.get(query_id)
        if i is None:
            return [], np.zeros(0, dtype=np.float64)
        return self._docs.take(self._rows(i)), self.original_scores[
            self.offsets[i] : self.offsets[i + 1]
        ]

    def _rows(self, i: int) -> Ints:
        return np.arange(self.offsets[i], self.offsets[i + 1], dtype=np.int64)

    def _scores(self, i: int) -> list[float]:
        scores: list[float] = self.original_scores[self.offsets[i] : self.offsets[i + 1]].tolist()
        return scores

    def _check_order(self) -> bool:
        """True if every query's rows are already in trec_eval's order."""
        s = self.scores
        if s.size < 2:
            return True
        same_query = np.ones(s.size - 1, dtype=bool)
        boundaries = self.offsets[1:-1]
        boundaries = boundaries[(boundaries > 0) & (boundaries < s.size)]
        same_query[boundaries - 1] = False  # the pair across a query boundary
        falling = s[1:] < s[:-1]
        tied = (s[1:] == s[:-1]) & same_query
        if not np.all(falling | tied | ~same_query):
            return False
        tie_rows = np.flatnonzero(tied).astype(np.int64) + 1
        return bool(np.all(self._docs.descending_pairs(tie_rows)))

    def judged_hits(
        self,
        query_ids: Sequence[str],
        judgements: Sequence[Mapping[str, float]],
        tie_policy: str = "trec_eval",
        *,
        float64: bool = False,
    ) -> JudgedHits:
        """Where the judged docs of ``query_ids`` rank in this run, for the batch metrics.

        A judged doc's rank is counted, not sorted for: 1 + the docs of its query that score
        higher + those of its tie group that ``tie_policy`` puts first (trec_eval's: those
        with a greater doc id). The hits carry each doc's tie group (``above``, ``tied``).
        """
        rows, pair, pair_query, pair_grades, docs = self._judged_rows(query_ids, judgements)
        ranks, above, tied = self._ranks(rows, docs, tie_policy, float64)
        query = np.asarray(pair_query, dtype=np.int64)[pair]
        by_query_then_rank = np.lexsort((ranks, query))
        lengths = np.diff(self.offsets)
        blocks = np.fromiter(
            (self._index.get(q, -1) for q in query_ids), dtype=np.int64, count=len(query_ids)
        )
        return JudgedHits.build(
            len(query_ids),
            query[by_query_then_rank],
            ranks[by_query_then_rank],
            np.asarray(pair_grades, dtype=np.float64)[pair][by_query_then_rank],
            judgements,
            n_retrieved=np.where(blocks >= 0, lengths[np.maximum(blocks, 0)], 0)
            if lengths.size
            else np.zeros(blocks.size, dtype=np.int64),
            above=above[by_query_then_rank],
            tied=tied[by_query_then_rank],
        )

    def judged_queries(
        self, query_ids: Sequence[str], judgements: Sequence[Mapping[str, float]]
    ) -> set[int]:
        """The positions in ``query_ids`` of the queries whose docs include one of their
        judged docs (of any grade): the queries :meth:`judged_hits` has hits for, without
        ranking them.

        >>> table = RunTable.from_dict({"q1": {"d1": 1.0}, "q2": {"d2": 1.0}})
        >>> table.judged_queries(["q1", "q2", "q3"], [{"d1": 0}, {"x": 1}, {"d1": 1}])
        {0}
        """
        _, pair, pair_query, _, _ = self._judged_rows(query_ids, judgements)
        return set(np.asarray(pair_query, dtype=np.int64)[pair].tolist())

    def _judged_rows(
        self, query_ids: Sequence[str], judgements: Sequence[Mapping[str, float]]
    ) -> _JudgedRows:
        """The rows that hold a judged doc of their query, each row's (query, doc) pair, the
        pairs' queries (positions in ``query_ids``) and grades, and the rows' doc ids.

        The last answer is kept, with the queries (those this run holds) and judgements it
        answers: the doc-id check (:meth:`judged_queries`) and the scores (:meth:`judged_hits`)
        ask for the same ones in turn, and each search is a pass over the whole run (2.5 ms on
        SciFact's 300,000 rows).
        """
        held = [i for i, query_id in enumerate(query_ids) if query_id in self._index]
        ids, judged = [query_ids[i] for i in held], [judgements[i] for i in held]
        asked = (tuple(ids), tuple(tuple(grades.items()) for grades in judged))
        if self._judged is None or self._judged[0] != asked:
            self._judged = (asked, self._search_judged_rows(ids, judged))
        rows, pair, pair_query, pair_grades, docs = self._judged[1]
        if len(held) < len(query_ids):  # positions among the queries held -> in query_ids
            pair_query = [held[i] for i in pair_query]
        return rows, pair, pair_query, pair_grades, docs

    def _search_judged_rows(
        self, query_ids: Sequence[str], judgements: Sequence[Mapping[str, float]]
    ) -> _JudgedRows:
        # Every judged (query, doc) pair: the queries are those the run holds
        # (_judged_rows passes no other).
        pair_query: list[int] = []  # the query's position in query_ids
        pair_block: list[int] = []  # the query's block in this table
        pair_docs: list[str] = []
        pair_grades: list[float] = []
        for i, (query_id, judged) in enumerate(zip(query_ids, judgements, strict=True)):
            pair_query.extend([i] * len(judged))
            pair_block.extend([self._index[query_id]] * len(judged))
            pair_docs.extend(judged)
            pair_grades.extend(judged.values())
        doc_hashes = self._docs.hash_docs(pair_docs)
        rows, row_hashes = self._docs.rows_with_hashes(_distinct(doc_hashes))
        owners = np.searchsorted(self.offsets, rows, side="right") - 1
        # Most of these rows hold a doc judged for *another* query: match (query, doc) keys.
        pair_keys = doc_hashes ^ (np.asarray(pair_block, dtype=np.uint64) * _MIX)
        order = np.argsort(pair_keys, kind="stable")
        keys = pair_keys[order]
        if keys.size and np.any(keys[1:] == keys[:-1]):
            # Two pairs share a hash: never seen in practice, but then match doc ids directly.
            pair = self._pairs_by_id(rows, owners, pair_block, pair_docs)
        else:
            row_keys = row_hashes ^ (owners.astype(np.uint64) * _MIX)
            at = np.searchsorted(keys, row_keys).clip(max=max(keys.size - 1, 0))
            pair = np.where(keys[at] == row_keys, order[at], -1) if keys.size else at - 1
        rows, pair = rows[pair >= 0], pair[pair >= 0]
        # Exact: the row's doc id is the pair's (a hash clash is dropped here).
        docs = self._docs.take(rows)
        same = np.fromiter(
            (doc == pair_docs[p] for doc, p in zip(docs, pair.tolist(), strict=True)),
            dtype=bool,
            count=len(docs),
        )
        rows, pair = rows[same], pair[same]
        docs = [doc for doc, keep in zip(docs, same, strict=True) if keep]
        return rows, pair, pair_query, pair_grades, docs

    def _pairs_by_id(
        self, rows: Ints, owners: Ints, pair_block: list[int], pair_docs: list[str]
    ) -> Ints:
        """For each row, the index of the judged pair with its query and doc id, or -1."""
        index = {(b, d): i for i, (b, d) in enumerate(zip(pair_block, pair_docs, strict=True))}
        return np.fromiter(
            (
                index.get((owner, doc), -1)
                for owner, doc in zip(owners.tolist(), self._docs.take(rows), strict=True)
            ),
            dtype=np.int64,
            count=rows.size,
        )

    def rising(self) -> tuple[Ints, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Per query, in order: how often its score changes from a row to the next (as
        float32: 0 if all are equal; if they rise, its distinct scores less one); do its
        scores rise down the rows (never fall, so the rows go from the lowest score up);
        and are they its ranks, ``1, 2, 3, ...`` (a rank column read as the scores)?

        >>> table = RunTable.from_dict({"q1": {"a": 0.1, "b": 0.5}, "q2": {"c": 2.0, "d": 1.0},
        ...                             "q3": {"e": 1.0, "f": 2.0}, "q4": {"g": 1.0, "h": 1.0}})
        >>> [v.tolist() for v in table.rising()]
        [[1, 1, 1, 0], [True, False, True, False], [False, False, True, False]]
        """
        s, starts, ends = self.scores, self.offsets[:-1], self.offsets[1:]
        count = len(self.query_ids)
        ups, downs = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
        many = np.flatnonzero(ends - starts > 1)  # queries with a pair of rows
        if many.size:
            up, down = s[1:] > s[:-1], s[1:] < s[:-1]  # pair j: rows j and j + 1
            across = ends[(ends > 0) & (ends < s.size)] - 1  # a pair across two queries
            up[across] = down[across] = False
            # Each segment runs to the next such query's first row: what lies between is
            # pairs across queries, all False.
            ups[many] = np.add.reduceat(up, starts[many], dtype=np.int64)
            downs[many] = np.add.reduceat(down, starts[many], dtype=np.int64)
        steps = ups + downs
        rising = (ups > 0) & (downs == 0)
        as_ranks = rising.copy()
        if rising.any():  # rare: then see whether the scores are the ranks
            rank = np.arange(1, s.size + 1, dtype=np.float64)
            rank -= np.repeat(starts, ends - starts)
            filled = np.flatnonzero(ends > starts)
            off = np.add.reduceat(self.original_scores != rank, starts[filled], dtype=np.int64)
            as_ranks[filled[off > 0]] = False
        return steps, rising, as_ranks

    def _ranking_scores(self, float64: bool) -> npt.NDArray[np.float32] | npt.NDArray[np.float64]:
        return self.original_scores if float64 else self.scores

    def _falls(self, float64: bool = False) -> npt.NDArray[np.bool_]:
        """Per query: do its scores never rise down the file (a run written in rank order)?"""
        if float64 not in self._monotone:
            s = self._ranking_scores(float64)
            rises = np.flatnonzero(s[1:] > s[:-1]) + 1  # row r scores above row r - 1
            owner = np.searchsorted(self.offsets, rises, side="right") - 1
            first_of_query = rises == self.offsets[owner]  # a new query may start higher
            monotone = np.ones(len(self.query_ids), dtype=bool)
            monotone[owner[~first_of_query]] = False
            self._monotone[float64] = monotone
        return self._monotone[float64]

    def _ranks(
        self, rows: Ints, docs: list[str], tie_policy: str, float64: bool
    ) -> tuple[Ints, Ints, Ints]:
        """The rank of the doc ``docs[i]`` at each row ``rows[i]`` within its query under
        ``tie_policy``, with the docs that score above it and the size of its tie group,
        without sorting."""
        scores = self._ranking_scores(float64)
        owners = np.searchsorted(self.offsets, rows, side="right") - 1
        above = np.zeros(rows.size, dtype=np.int64)
        lo, hi = rows.copy(), rows + 1  # each row's run of tied scores: rows lo .. hi - 1
        falls = self._falls(float64)[owners]
        if falls.any():
            # Scores fall down the file: the docs above a row are those before its tie run.
            which = np.flatnonzero(falls)
            lo[which], hi[which] = self._tie_runs(scores, rows[which], owners[which])
            above[which] = lo[which] - self.offsets[owners[which]]
        tied: list[Ints] = []  # per row, the rows of its tied docs (itself included)
        for i, (row, owner, a, b, in_order) in enumerate(
            zip(rows, owners, lo.tolist(), hi.tolist(), falls.tolist(), strict=True)
        ):
            if in_order:
                tied.append(np.arange(a, b, dtype=np.int64))
            else:  # a query out of order: count in its whole block
                start = int(self.offsets[owner])
                block = scores[start : self.offsets[owner + 1]]
                above[i] = np.count_nonzero(block > scores[row])
                tied.append(np.flatnonzero(block == scores[row]) + start)
        sizes = np.fromiter((t.size for t in tied), dtype=np.int64, count=len(tied))
        # The ranks order() gives, counted (tests/runs/test_order.py holds them equal).
        breaks = tie_break(tie_policy)
        if breaks == "position":  # the tied rows before it in the file
            first = [int(np.count_nonzero(t < row)) for t, row in zip(tied, rows, strict=True)]
            return above + np.asarray(first, dtype=np.int64) + 1, above, sizes
        # One fetch of every tied doc id, then a string comparison each (strcmp order).
        tied_docs = iter(self._docs.take(np.concatenate(tied) if tied else rows))
        # First among its tied docs: those with a smaller id when ids ascend, else a greater.
        before = operator.lt if breaks == "id_ascending" else operator.gt
        first = [
            sum(before(next(tied_docs), doc) for _ in range(t.size))
            for doc, t in zip(docs, tied, strict=True)
        ]
        return above + np.asarray(first, dtype=np.int64) + 1, above, sizes

    def tie_stats(
        self, query_ids: Sequence[str], cutoffs: Sequence[int], *, float64: bool = False
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Per query of ``query_ids``: does its ranking tie two docs, and does a group of tied
        docs straddle one of ``cutoffs`` (ranks ``k`` and ``k + 1`` tie)?

        >>> table = RunTable.from_dict({"q1": {"a": 2.0, "b": 1.0, "c": 1.0}, "q2": {"d": 1.0}})
        >>> [v.tolist() for v in table.tie_stats(["q1", "q2", "q3"], [1, 2])]
        [[True, False, False], [True, False, False]]
        """
        scores = self._ranking_scores(float64)
        has_ties = np.zeros(len(self.query_ids), dtype=bool)
        at_cutoff = np.zeros(len(self.query_ids), dtype=bool)
        falls = self._falls(float64)
        starts, ends = self.offsets[:-1], self.offsets[1:]
        if scores.size > 1:
            # Queries in rank order: compare neighbours in place, all queries at once.
            equal = np.r_[scores[1:] == scores[:-1], False]  # row r ties with row r + 1
            equal[ends[ends > 0] - 1] = False  # not across a query boundary
            owner = np.searchsorted(self.offsets, np.flatnonzero(equal), side="right") - 1
            has_ties[owner] = True
            for k in cutoffs:
                deep = np.flatnonzero(falls & (ends - starts > k))
                at_cutoff[deep[equal[starts[deep] + k - 1]]] = True
        for i in np.flatnonzero(~falls).tolist():  # out of order: sort the block
            block = np.sort(scores[starts[i] : ends[i]])[::-1]
            has_ties[i] = bool(np.any(block[1:] == block[:-1]))
            at_cutoff[i] = any(k < block.size and block[k - 1] == block[k] for k in cutoffs)
        blocks = np.fromiter(
            (self._index.get(q, -1) for q in query_ids), dtype=np.int64, count=len(query_ids)
        )
        known = blocks >= 0
        if not self.query_ids:
            return known, known
        return (
            known & has_ties[np.maximum(blocks, 0)],
            known & at_cutoff[np.maximum(blocks, 0)],
        )

    def _tie_runs(
        self,
        scores: npt.NDArray[np.float32] | npt.NDArray[np.float64],
        rows: Ints,
        owners: Ints,
    ) -> tuple[Ints, Ints]:
        """For rows of queries whose scores never rise: the first row of each one's run of
        equal scores, and the row after its last. Runs are grown a row at a time, all rows at
        once: ties are short in real runs."""
        s = scores
        target = s[rows]
        first, end = self.offsets[owners], self.offsets[owners + 1]
        lo, hi = rows.copy(), rows + 1
        moving = np.arange(rows.size)
        while moving.size:
            moving = moving[lo[moving] > first[moving]]
            moving = moving[s[lo[moving] - 1] == target[moving]]
            lo[moving] -= 1
        moving = np.arange(rows.size)
        while moving.size:
            moving = moving[hi[moving] < end[moving]]
            moving = moving[s[hi[moving]] == target[moving]]
            hi[moving] += 1
        return lo, hi
