"""bm25s indexes (``bm25s.BM25``), batched: one ``BM25.retrieve`` call per batch of queries.
Extra ``bm25``; nothing here imports bm25s until a query is run."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from ..types import RankedResults
from ._ids import as_doc_id, instance_of

__all__ = ["BM25sSearch", "bm25s", "is_bm25s_retriever"]

#: PyStemmer stemmers by language, made once per process (they do not pickle; names do).
_STEMMERS: dict[str, Any] = {}


def is_bm25s_retriever(obj: object) -> bool:
    """True for an instance of ``bm25s.BM25`` (bm25s is never imported to find out)."""
    return instance_of(obj, "bm25s", "BM25")


def _stemmer_named(language: str) -> Any:
    if language not in _STEMMERS:
        import Stemmer  # PyStemmer, in the bm25 extra

        _STEMMERS[language] = Stemmer.Stemmer(language)
    return _STEMMERS[language]


def _indexed_docs(retriever: Any) -> int:
    scores = getattr(retriever, "scores", None)
    if not isinstance(scores, dict) or "num_docs" not in scores:
        raise ValueError("the bm25s.BM25 index is empty: call retriever.index(...) first")
    return int(scores["num_docs"])


@attrs.frozen
class BM25sSearch:
    """A ``bm25s.BM25`` index as ``search_batch(texts, limit)`` and ``search(query, limit)``.

    Build it with :func:`bm25s`. It pickles when ``stemmer`` is a language name (or None).
    """

    retriever: Any
    #: The doc id of each indexed row, in index order (a numpy array of str).
    ids: Any = attrs.field(eq=False, repr=False)
    #: As ``bm25s.tokenize(stopwords=...)``: ``"english"``, a list of words, or None.
    stopwords: str | Sequence[str] | None = "english"
    #: A PyStemmer language name (``"english"``), a stemmer object, or None.
    stemmer: str | Callable[..., Any] | None = None
    #: True when no two rows share a doc id: each answer then carries its ids
    #: (:class:`~ef.evaluation.types.RankedResults`), which the engine takes as they are.
    unique_ids: bool = attrs.field(default=False, kw_only=True)

    def _tokens(self, texts: Sequence[str]) -> Any:
        import bm25s as bm25s_lib

        stemmer = _stemmer_named(self.stemmer) if isinstance(self.stemmer, str) else self.stemmer
        stopwords = self.stopwords
        if stopwords is not None and not isinstance(stopwords, str):
            stopwords = list(stopwords)
        return bm25s_lib.tokenize(
            list(texts),
            stopwords=stopwords,
            stemmer=stemmer,
            return_ids=False,
            show_progress=False,
        )

    def search_batch(self, texts: Sequence[str], limit: int = 10) -> list[list[str]]:
        """The doc ids of each text's best ``limit`` docs, from one ``BM25.retrieve`` call.

        Docs that score 0 (no query term in them) are left out: BM25 did not find them, and
        Lucene would not return them.
        """
        if not texts:
            return []
        k = min(limit, len(self.ids))
        docs, scores = self.retriever.retrieve(
            self._tokens(texts), corpus=self.ids, k=k, show_progress=False
        )
        answers: list[list[str]] = []
        for row, row_scores in zip(docs, scores, strict=True):
            found: list[str] = row[row_scores > 0].tolist()  # the ids, str already
            # Distinct rows of an index whose ids are unique: distinct doc ids.
            answers.append(RankedResults(found, tuple(found)) if self.unique_ids else found)
        return answers

    def search(self, query: str, limit: int = 10) -> list[str]:
        """The doc ids of one query's best ``limit`` docs."""
        return self.search_batch([query], limit)[0]


def _corpus_ids(retriever: Any, id_field: str) -> list[str]:
    corpus = getattr(retriever, "corpus", None)
    if corpus is None:
        raise TypeError(
            "this bm25s.BM25 has no corpus to read doc ids from; pass the doc id of each "
            "indexed row, in index order: ef.evaluation.adapters.bm25s(retriever, "
            "corpus_ids=[...])"
        )
    ids: list[str] = []
    for row in range(len(corpus)):
        entry = corpus[row]
        found = as_doc_id(entry.get(id_field)) if isinstance(entry, dict) else None
        if found is None:
            shown = f"a {type(entry).__name__}" if not isinstance(entry, dict) else repr(entry)
            raise TypeError(
                f"bm25s.BM25 corpus[{row}] is {shown}, not a dict with a str or int "
                f"{id_field!r} field; pass id_field= naming the field that holds the doc id, "
                "or corpus_ids=[...]: ef.evaluation.adapters.bm25s(retriever, corpus_ids=...)"
            )
        ids.append(found)
    return ids


def _given_ids(corpus_ids: Iterable[str]) -> list[str]:
    ids = []
    for row, value in enumerate(corpus_ids):
        found = as_doc_id(value)
        if found is None:
            raise TypeError(f"corpus_ids[{row}] is {value!r}, not a str or int doc id")
        ids.append(found)
    return ids


def bm25s(
    retriever: Any,
    *,
    corpus_ids: Iterable[str] | None = None,
    id_field: str = "id",
    stopwords: str | Sequence[str] | None = "english",
    stemmer: str | Callable[..., Any] | None = None,
) -> BM25sSearch:
    """Evaluate a ``bm25s.BM25`` index.

    bm25s answers with row numbers; the doc ids come from ``corpus_ids`` (the id of each
    indexed row, in index order) or, by default, from the ``id_field`` of each entry of the
    retriever's ``corpus`` (``bm25s.BM25(corpus=[{"id": ..., "text": ...}, ...])``).

    Queries are tokenized by ``bm25s.tokenize`` and must be tokenized as the corpus was:
    ``stopwords`` and ``stemmer`` default to ``bm25s.tokenize``'s own defaults (English
    stopwords, no stemming). Name a PyStemmer language (``stemmer="english"``) rather than
    passing a stemmer object: a name pickles, so process pools and Dask can run the index.
    Passing a ``BM25`` itself is the same as ``bm25s(retriever)``.

    Raises:
        TypeError: if the doc ids cannot be found (no ``corpus_ids``, and a corpus entry
            without ``id_field``).
        ValueError: if the index is empty, or ``corpus_ids`` does not hold one id per row.

    >>> import bm25s as bm25s_lib
    >>> texts = ["the cat sat", "a dog barked", "cats and dogs"]
    >>> index = bm25s_lib.BM25()
    >>> index.index(bm25s_lib.tokenize(texts, show_progress=False), show_progress=False)
    >>> search = bm25s(index, corpus_ids=["d1", "d2", "d3"])
    >>> search.search_batch(["cat", "dog"], limit=2)
    [['d1'], ['d2']]
    """
    n_docs = _indexed_docs(retriever)
    ids = _corpus_ids(retriever, id_field) if corpus_ids is None else _given_ids(corpus_ids)
    if len(ids) != n_docs:
        raise ValueError(
            f"corpus_ids holds {len(ids)} ids for an index of {n_docs} docs; give one id per "
            "indexed row, in index order"
        )
    import numpy as np  # a core dependency; bm25s indexes an object array directly

    return BM25sSearch(
        retriever,
        np.asarray(ids, dtype=object),
        stopwords=stopwords,
        stemmer=stemmer,
        unique_ids=len(set(ids)) == len(ids),  # passages of one doc share its id: not unique
    )
