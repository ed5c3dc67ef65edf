"""BM25 over a corpus in memory, with bm25s (the ``bm25`` extra)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..types import RankedResults
from ._corpus import CorpusInput, ids_and_texts
from ._deps import require

__all__ = ["BM25Retriever"]


def _stemmer(language: str | None) -> Any:
    if language is None:
        return None
    stemmer_module = require("Stemmer", "PyStemmer", "bm25")
    return stemmer_module.Stemmer(language)


class BM25Retriever:
    """Lexical BM25 (Lucene's variant) over a corpus, with bm25s and a Snowball stemmer.

    Each document is indexed as its title and text joined. Text is lower-cased, split into
    words of two or more letters or digits, stripped of bm25s' English stopwords and stemmed
    with PyStemmer's Snowball ``english`` stemmer: the setup of the bm25s benchmarks. The
    defaults ``k1=0.9, b=0.4`` are Anserini's and Pyserini's; on BEIR SciFact they give
    nDCG@10 0.6762 (``docs/retrievers.md``).

    Results are ``(doc_id, score)`` pairs, best first. Equal scores are ordered by doc id
    descending (trec_eval's rule, so a run file written from them reads back in the same
    order), and documents sharing no term with the query are left out, as Lucene does.
    The retriever is read-only after indexing: threads may share it, and it pickles for
    process pools.

    Needs the ``bm25`` extra: ``pip install "ef-evaluation[bm25]"``.

    Args:
        corpus: what to index (see :meth:`from_corpus`).
        k1, b: BM25's term-frequency saturation and length normalisation.
        method: bm25s' variant: ``"lucene"``, ``"robertson"``, ``"atire"``, ``"bm25l"``
            or ``"bm25+"``.
        stopwords: ``"en"`` (bm25s' English list), a list of words, or None.
        stemmer: a PyStemmer (Snowball) language, or None not to stem.

    >>> corpus = {
    ...     "d1": {"title": "Tides", "text": "The Moon's gravity raises the ocean tides."},
    ...     "d2": {"title": "Volcanoes", "text": "Magma erupts from volcanoes."},
    ...     "d3": {"title": "The Moon", "text": "The Moon orbits the Earth."},
    ... }
    >>> bm25 = BM25Retriever.from_corpus(corpus)
    >>> [doc_id for doc_id, _ in bm25.search("why are there ocean tides", limit=10)]
    ['d1']
    >>> [[doc_id for doc_id, _ in hits] for hits in bm25.search_batch(["moon", "lava"], 10)]
    [['d3', 'd1'], []]
    """

    def __init__(
        self,
        corpus: CorpusInput,
        *,
        k1: float = 0.9,
        b: float = 0.4,
        method: str = "lucene",
        stopwords: str | Sequence[str] | None = "en",
        stemmer: str | None = "english",
    ) -> None:
        _check_parameters(k1, b)
        bm25s = require("bm25s", "bm25s", "bm25")
        self.doc_ids, texts = ids_and_texts(corpus)
        self._ids = tuple(self.doc_ids)  # what the results name: unchanged by edits of doc_ids
        self.k1, self.b, self.method = k1, b, method
        self._stemmer_language = stemmer
        words = list(stopwords) if stopwords and not isinstance(stopwords, str) else stopwords
        self._tokenizer = bm25s.tokenization.Tokenizer(stopwords=words, stemmer=_stemmer(stemmer))
        tokens = self._tokenizer.tokenize(
            texts, update_vocab=True, return_as="tuple", show_progress=False
        )
        self._model = bm25s.BM25(k1=k1, b=b, method=method)
        self._model.index(tokens, show_progress=False)
        self._empty_id = self._tokenizer.word_to_id.get("")
        from ._topk import tie_ranks

        self._ranks = tie_ranks(self.doc_ids)

    @classmethod
    def from_corpus(cls, corpus: CorpusInput, **options: Any) -> BM25Retriever:
        """Index ``corpus``: :class:`~ef.evaluation.Document` values (a ``Dataset.corpus``),
        ``{doc_id: text}`` or ``{doc_id: {"title": ..., "text": ...}}``. ``options`` are
        the keyword arguments of the class (``k1``, ``b``, ``method``, ``stopwords``,
        ``stemmer``).

        >>> bm25 = BM25Retriever.from_corpus({"d1": "a red fox"}, k1=1.2, b=0.75)
        >>> [(doc_id, round(score, 3)) for doc_id, score in bm25.search("fox")]
        [('d1', 0.131)]
        """
        return cls(corpus, **options)

    def __len__(self) -> int:
        """How many documents are indexed."""
        return len(self.doc_ids)

    def search_batch(self, texts: Sequence[str], limit: int) -> list[list[tuple[str, float]]]:
        """The best ``limit`` ``(doc_id, score)`` pairs for each query text, in order.

        Equal scores go by doc id descending: ``red`` ties ``d1`` and ``d2``. Each list also
        carries its doc ids (:class:`~ef.evaluation.types.RankedResults`), so that
        :func:`~ef.evaluation.evaluate_retrieval` need not read every pair again.

        >>> bm25 = BM25Retriever({"d1": "red fox", "d2": "red hen"})
        >>> [[(d, round(s, 3)) for d, s in hits] for hits in bm25.search_batch(["red", "hen"], 1)]
        [[('d2', 0.096)], [('d2', 0.365)]]
        """
        from ._topk import top_k

        queries = self._tokenizer.tokenize(
            list(texts), update_vocab=False, return_as="ids", show_progress=False
        )
        hits: list[list[tuple[str, float]]] = []
        for token_ids in queries:
            terms = [t for t in token_ids if t != self._empty_id]
            if not terms:
                hits.append([])
                continue
            scores = self._model.get_scores_from_ids(terms)
            best = top_k(scores, limit, self._ranks, positive_only=True)
            doc_ids = tuple(map(self._ids.__getitem__, best.tolist()))
            # The ids are unique (ids_and_texts checks): the engine need not read each pair.
            pairs = zip(doc_ids, scores[best].tolist(), strict=True)
            hits.append(RankedResults(pairs, doc_ids=doc_ids))
        return hits

    def search(self, text: str, limit: int = 10) -> list[tuple[str, float]]:
        """The best ``limit`` ``(doc_id, score)`` pairs for one query text."""
        return self.search_batch([text], limit)[0]

    def __getstate__(self) -> dict[str, Any]:
        # PyStemmer's stemmer is a C object that does not pickle: rebuild it on unpickling.
        state = dict(self.__dict__)
        del state["_ids"]  # doc_ids again: rebuilt on unpickling
        tokenizer = state["_tokenizer"]
        if tokenizer.stemmer is not None:
            import copy

            tokenizer = copy.copy(tokenizer)
            tokenizer.stemmer = None
            state["_tokenizer"] = tokenizer
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._ids = tuple(self.doc_ids)
        stemmer = _stemmer(self._stemmer_language)
        if stemmer is not None:
            self._tokenizer.stemmer = stemmer.stemWord

    def __repr__(self) -> str:
        return (
            f"<BM25Retriever {len(self.doc_ids)} documents, "
            f"k1={self.k1}, b={self.b}, method={self.method!r}>"
        )


def _check_parameters(k1: object, b: object) -> None:
    """Refuse a ``k1`` or ``b`` that bm25s would score with silently: a NaN or an infinite
    ``k1`` retrieves nothing, a negative one drops documents, a ``b`` outside 0..1 reverses
    the length normalisation. Both are named at once.

    >>> _check_parameters(1.2, 1.5)
    Traceback (most recent call last):
        ...
    ValueError: BM25Retriever: b must lie between 0 and 1 (0: no length normalisation, 1: \
full), got 1.5
    """
    problems = []
    if not _is_number(k1) or not 0 <= k1 < math.inf:  # type: ignore[operator]
        problems.append(f"k1 must be a finite number >= 0 (Lucene's 0.9 to 1.2), got {k1!r}")
    if not _is_number(b) or not 0 <= b <= 1:  # type: ignore[operator]
        problems.append(
            f"b must lie between 0 and 1 (0: no length normalisation, 1: full), got {b!r}"
        )
    if problems:
        raise ValueError(f"BM25Retriever: {'; '.join(problems)}")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
