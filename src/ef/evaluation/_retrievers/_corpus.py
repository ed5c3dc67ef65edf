"""The corpus shapes a baseline retriever indexes, as parallel lists of ids and texts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._dataset import Document, StreamingCorpus

__all__ = ["CorpusInput", "ids_and_texts"]

#: What ``from_corpus`` accepts: documents (a ``Dataset.corpus``, a list of
#: :class:`~ef.evaluation.Document`), ``{doc_id: text}`` (``read_beir``, ``read_dataset``) or
#: ``{doc_id: {"title": ..., "text": ...}}`` (the BEIR Python package's corpus).
CorpusInput = Iterable[Document] | Mapping[str, str] | Mapping[str, Mapping[str, Any]]


def _record_text(doc_id: str, record: object) -> str:
    if isinstance(record, str):
        return record
    if isinstance(record, Mapping):
        title, text = record.get("title") or "", record.get("text") or ""
        if isinstance(title, str) and isinstance(text, str):
            return " ".join(part for part in (title, text) if part)
    raise TypeError(
        f"corpus document {doc_id!r}: expected a text or a {{'title': ..., 'text': ...}} "
        f"mapping, got {type(record).__name__}"
    )


def ids_and_texts(corpus: CorpusInput) -> tuple[list[str], list[str]]:
    """The doc ids and their texts (title and text joined, the BEIR convention), in order.

    >>> ids_and_texts({"d1": {"title": "Paris", "text": "The capital."}, "d2": {"text": "x"}})
    (['d1', 'd2'], ['Paris The capital.', 'x'])
    >>> ids_and_texts([Document("d1", "T", "text")])
    (['d1'], ['T text'])

    Raises:
        TypeError: for an item that is not a document, a text or a title/text mapping.
        ValueError: for a doc id that occurs twice, or an empty corpus.
    """
    ids: list[str] = []
    texts: list[str] = []
    if isinstance(corpus, StreamingCorpus):
        corpus = corpus.documents
    if isinstance(corpus, Mapping):
        for doc_id, record in corpus.items():
            ids.append(str(doc_id))
            texts.append(_record_text(str(doc_id), record))
    else:
        for document in corpus:
            if not isinstance(document, Document):
                raise TypeError(
                    "a corpus iterable must yield ef.evaluation.Document values, got "
                    f"{type(document).__name__}; pass {{doc_id: text}} for plain texts"
                )
            ids.append(document.id)
            texts.append(document.joined)
    if not ids:
        raise ValueError("the corpus is empty: there is nothing to index")
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for doc_id in ids:
            if doc_id in seen:
                raise ValueError(f"the corpus has the doc id {doc_id!r} twice")
            seen.add(doc_id)
    return ids, texts
