"""A dataset as format plugins move it: streamed documents, queries, and qrels per split.

:class:`Dataset` is what a format's ``read_dataset`` returns and ``write_dataset`` takes. It
keeps what the ``(corpus, queries, qrels)`` triple flattens: a document's title apart from its
text, and every split's judgements. Its corpus is re-iterable and read lazily, so converting a
corpus of millions of passages never holds them all in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import attrs

from .types import FrozenDict, Qrels

__all__ = ["Dataset", "Document", "DocumentStream", "QueryTexts", "StreamingCorpus", "extra_of"]


def _frozen(value: Mapping[str, Any] | None) -> FrozenDict[str, Any]:
    return value if isinstance(value, FrozenDict) else FrozenDict(value or {})


@attrs.frozen
class Document:
    """One corpus document: its id, title (``""`` if none), text, and its other fields.

    ``extra`` holds the fields of the record beside id, title and text, in file order
    (BEIR's ``"metadata": {...}``), so that a conversion can keep them or say it cannot.

    >>> Document("d1", "Paris", "The capital of France.").joined
    'Paris The capital of France.'
    >>> Document("d1", text="x", extra={"metadata": {}}).extra
    {'metadata': {}}
    """

    id: str
    title: str = ""
    text: str = ""
    # JSON values may nest lists and dicts: compared, never hashed.
    extra: Mapping[str, Any] = attrs.field(factory=FrozenDict, converter=_frozen, hash=False)

    @property
    def joined(self) -> str:
        """Title and text joined by a space (either may be empty): the BEIR convention."""
        return " ".join(part for part in (self.title, self.text) if part)


class DocumentStream(Iterable[Document]):
    """Documents read afresh from their source on every iteration.

    ``DocumentStream(lambda: iter(docs))``: the factory opens the file (or generator) anew each
    time, so iterating twice never needs the whole corpus in memory.

    >>> stream = DocumentStream(lambda: iter([Document("d1", text="x")]))
    >>> [d.id for d in stream], [d.id for d in stream]
    (['d1'], ['d1'])
    """

    def __init__(self, open_documents: Callable[[], Iterator[Document]]) -> None:
        self._open = open_documents

    def __iter__(self) -> Iterator[Document]:
        return self._open()


def documents_of(corpus: Iterable[Document] | Mapping[str, str]) -> Iterable[Document]:
    """Documents from a :class:`StreamingCorpus`, an iterable of them, or a ``{id: text}`` map."""
    if isinstance(corpus, StreamingCorpus):
        return corpus.documents
    if isinstance(corpus, Mapping):
        mapping: Mapping[str, Any] = corpus
        return DocumentStream(lambda: (Document(i, "", t) for i, t in mapping.items()))
    return corpus


class QueryTexts(dict[str, str]):
    """``{query_id: text}`` that also carries each query's other fields (``extra``).

    Readers of formats with more than a text per query (BEIR's ``"metadata"``) return it;
    it is a plain dict of texts to everything else, and :func:`extra_of` reads its extras.

    >>> queries = QueryTexts({"q1": "capital?"}, extra={"q1": {"metadata": {"lang": "en"}}})
    >>> queries, extra_of(queries)
    ({'q1': 'capital?'}, {'q1': {'metadata': {'lang': 'en'}}})
    """

    def __init__(
        self,
        texts: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        *,
        extra: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        super().__init__(texts)
        self.extra: FrozenDict[str, FrozenDict[str, Any]] = FrozenDict(
            {qid: _frozen(fields) for qid, fields in (extra or {}).items() if fields}
        )


def extra_of(queries: Mapping[str, str]) -> Mapping[str, Mapping[str, Any]]:
    """The other fields of the queries that have any, ``{query_id: {key: value}}``; ``{}`` for
    a plain mapping of texts."""
    extra: Mapping[str, Mapping[str, Any]] = getattr(queries, "extra", None) or {}
    return {qid: fields for qid, fields in extra.items() if qid in queries and fields}


@attrs.frozen
class Dataset:
    """A corpus, its queries, and the qrels of each split (``{"test": qrels, ...}``).

    >>> data = Dataset([Document("d1", text="x")], {"q1": "y"}, {"test": {"q1": {"d1": 1}}})
    >>> data.split_names
    ('test',)
    """

    corpus: Iterable[Document]
    queries: Mapping[str, str]
    qrels: Mapping[str, Qrels]

    @property
    def split_names(self) -> tuple[str, ...]:
        """The splits that have qrels, in file order."""
        return tuple(self.qrels)


class StreamingCorpus(Mapping[str, str]):
    """``{doc_id: text}`` over a ``DocumentStream``, read from disk only when used.

    Iterating (``for doc_id in corpus``, ``.items()``, ``.values()``) streams the file each
    time, holding one document at a time. ``len()`` counts in one pass. Looking a document up
    by id (``corpus[doc_id]``, ``in``) loads every text once and keeps them: random access
    needs them all. The text is a document's title and text joined (the BEIR convention);
    ``.documents`` keeps them apart.

    >>> corpus = StreamingCorpus(DocumentStream(lambda: iter([Document("d1", "T", "x")])))
    >>> list(corpus.items()), corpus["d1"], len(corpus)
    ([('d1', 'T x')], 'T x', 1)
    """

    def __init__(self, documents: Iterable[Document]) -> None:
        self.documents = documents
        self._loaded: dict[str, str] | None = None
        self._length: int | None = None

    def _all(self) -> dict[str, str]:
        if self._loaded is None:
            self._loaded = {doc.id: doc.joined for doc in self.documents}
        return self._loaded

    def __getitem__(self, doc_id: str) -> str:
        return self._all()[doc_id]

    def __iter__(self) -> Iterator[str]:
        if self._loaded is not None:
            return iter(self._loaded)
        return (doc.id for doc in self.documents)

    def __len__(self) -> int:
        if self._loaded is not None:
            return len(self._loaded)
        if self._length is None:
            self._length = sum(1 for _ in self.documents)
        return self._length

    def items(self) -> _StreamedItems:  # type: ignore[override]  # a streaming ItemsView
        return _StreamedItems(self)

    def values(self) -> _StreamedValues:  # type: ignore[override]  # a streaming ValuesView
        return _StreamedValues(self)

    def __repr__(self) -> str:
        return f"<StreamingCorpus over {self.documents!r}>"


class _StreamedItems(Iterable[tuple[str, str]]):
    def __init__(self, corpus: StreamingCorpus) -> None:
        self._corpus = corpus

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return ((doc.id, doc.joined) for doc in self._corpus.documents)

    def __len__(self) -> int:
        return len(self._corpus)


class _StreamedValues(Iterable[str]):
    def __init__(self, corpus: StreamingCorpus) -> None:
        self._corpus = corpus

    def __iter__(self) -> Iterator[str]:
        return (doc.joined for doc in self._corpus.documents)

    def __len__(self) -> int:
        return len(self._corpus)
