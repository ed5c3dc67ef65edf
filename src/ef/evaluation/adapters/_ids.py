"""Doc ids of library results, and the error when a result lacks the one it was told to read."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["DocIdError", "as_doc_id", "field_id", "instance_of"]


class DocIdError(TypeError):
    """A retriever result has no doc id where the adapter looks for it.

    The engine reports it as a ``TypeError`` naming the query, whatever ``on_error`` says: it
    is a mismatch between the adapter's ``id_field`` and the data, not a passing failure.
    """


def as_doc_id(value: object) -> str | None:
    """A doc id as ``str``: strings as they are, integers by their digits, else None.

    >>> as_doc_id("d1"), as_doc_id(7), as_doc_id(None), as_doc_id(True)
    ('d1', '7', None, None)
    """
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def document_id(
    document: Any, id_field: str | None, *, fields: str, what: str, wrapper: str, no_id: str
) -> str:
    """A framework Document's doc id: its ``fields`` mapping's ``id_field`` (``what`` names
    that mapping in an error) when one is named, else its own ``id``; ``no_id`` is the
    :class:`DocIdError` of a document that has none.

    >>> from types import SimpleNamespace as Doc
    >>> names = {"fields": "meta", "what": "a Document's meta", "wrapper": "haystack"}
    >>> document_id(Doc(id="d1", meta={}), None, **names, no_id="no id")
    'd1'
    >>> document_id(Doc(id=None, meta={"doc_id": 7}), "doc_id", **names, no_id="no id")
    '7'
    >>> document_id(Doc(id=None, meta={}), None, **names, no_id="no id")
    Traceback (most recent call last):
        ...
    ef.evaluation.adapters._ids.DocIdError: no id
    """
    if id_field is not None:
        return field_id(getattr(document, fields, None), id_field, what, wrapper)
    found = as_doc_id(getattr(document, "id", None))
    if found is None:
        raise DocIdError(no_id)
    return found


def field_id(fields: Mapping[str, Any] | None, id_field: str, what: str, wrapper: str) -> str:
    """``fields[id_field]`` as a doc id, or a :class:`DocIdError` naming the field.

    >>> field_id({"doc_id": "d1"}, "doc_id", "a LangChain Document's metadata", "langchain")
    'd1'
    >>> field_id({"source": "x.txt"}, "doc_id", "a LangChain Document's metadata", "langchain")
    Traceback (most recent call last):
        ...
    ef.evaluation.adapters._ids.DocIdError: a LangChain Document's metadata has no 'doc_id' \
(its keys: 'source'); pass id_field= naming the key that holds the doc id: \
ef.evaluation.adapters.langchain(retriever, id_field=...)
    """
    fields = fields or {}
    found = as_doc_id(fields.get(id_field))
    if found is not None:
        return found
    if id_field in fields:
        problem = f"{id_field!r} = {fields[id_field]!r}, not a str or int doc id"
    else:
        problem = f"no {id_field!r} (its keys: {', '.join(map(repr, fields)) or 'none'})"
    raise DocIdError(
        f"{what} has {problem}; pass id_field= naming the key that holds the doc id: "
        f"ef.evaluation.adapters.{wrapper}(retriever, id_field=...)"
    )


def instance_of(obj: object, module: str, name: str) -> bool:
    """``isinstance(obj, module.name)`` without importing ``module``.

    An instance of a class exists only once its module is imported, so a module absent from
    :data:`sys.modules` means "no", and the library is never imported to find that out.

    >>> instance_of(3, "fractions", "Fraction")  # whether or not fractions was imported
    False
    """
    loaded = sys.modules.get(module)
    cls = getattr(loaded, name, None) if loaded is not None else None
    return isinstance(cls, type) and isinstance(obj, cls)
