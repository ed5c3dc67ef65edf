"""The error a library adapter raises when a result lacks the doc id it was told to read."""

from __future__ import annotations

__all__ = ["DocIdError"]


class DocIdError(TypeError):
    """A retriever result has no doc id where the adapter looks for it.

    The engine reports it as a ``TypeError`` naming the query, whatever ``on_error`` says: it
    is a mismatch between the adapter's ``id_field`` and the data, not a passing failure.
    """
