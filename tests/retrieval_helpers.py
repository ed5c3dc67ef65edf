"""Module-level retrievers for the engine tests: picklable, so process pools and Dask can run them.

Each one ranks docs deterministically from the query text ``"t<i>"``, with repeats, so that the
truncation to ``limit`` and the de-duplication to the best rank both matter.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs


def ranked_docs(text: str) -> list[str]:
    """The answer to ``text``: 12 results over 8 distinct docs, the first ones repeated."""
    seed = sum(map(ord, text))
    return [f"d{(seed * 7 + j * 3) % 8}" for j in range(12)]


@attrs.frozen
class PerQueryIndex:
    """``.search(query, limit)``: one call per query."""

    def search(self, query: str, limit: int = 10) -> list[str]:
        return ranked_docs(query)[:limit]

    def retrieve(self, query: str) -> list[str]:
        return ranked_docs(query)


@attrs.frozen
class BatchIndex:
    """``.search_batch(texts, limit)``: one call per batch."""

    def search_batch(self, texts: Sequence[str], limit: int = 10) -> list[list[str]]:
        return [ranked_docs(text)[:limit] for text in texts]


@attrs.define
class RecordingBatchIndex:
    """A batch index that records the size of each call (inline and thread runs only)."""

    calls: list[tuple[str, ...]] = attrs.Factory(list)

    def search_batch(self, texts: Sequence[str], limit: int = 10) -> list[list[str]]:
        self.calls.append(tuple(texts))
        return [ranked_docs(text)[:limit] for text in texts]


@attrs.frozen
class FailingIndex:
    """Raises ``ValueError`` for the query texts in ``bad``; answers the others."""

    bad: frozenset[str]

    def search(self, query: str, limit: int = 10) -> list[str]:
        if query in self.bad:
            raise ValueError(f"cannot answer {query}")
        return ranked_docs(query)[:limit]


@attrs.frozen
class FailingBatchIndex:
    """The batch form of :class:`FailingIndex`: a batch holding a bad query raises."""

    bad: frozenset[str]

    def search_batch(self, texts: Sequence[str], limit: int = 10) -> list[list[str]]:
        return [FailingIndex(self.bad).search(text, limit) for text in texts]


@attrs.frozen
class BatchFailingIndex:
    """Answers any one query, but raises on any batch of more than one."""

    def search_batch(self, texts: Sequence[str], limit: int = 10) -> list[list[str]]:
        if len(texts) > 1:
            raise RuntimeError(f"batch of {len(texts)} too large")
        return [ranked_docs(text)[:limit] for text in texts]


class UnpicklableError(Exception):
    """An exception that cannot be rebuilt from its pickle (it needs two arguments)."""

    def __init__(self, query: str, reason: str) -> None:
        super().__init__(f"{query}: {reason}")


@attrs.frozen
class UnpicklableFailure:
    """Raises :class:`UnpicklableError` for the query ``"t3"``."""

    def search(self, query: str, limit: int = 10) -> list[str]:
        if query == "t3":
            raise UnpicklableError(query, "broken")
        return ranked_docs(query)[:limit]
