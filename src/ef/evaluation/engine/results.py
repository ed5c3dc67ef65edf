"""Retriever results to source doc ids: the rules every adapter's output goes through."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any

__all__ = ["ranking", "result_doc_id"]

_ID_ATTRIBUTES = ("doc_id", "source_id", "id")
_ID_KEYS = ("_id", "doc_id", "id")
_ACCEPTED = (
    "a doc-id string; an object with a doc_id, source_id or id attribute; a mapping with an "
    "'_id', 'doc_id' or 'id' key; or a (doc_id, score) pair"
)


def _as_id(value: object) -> str | None:
    if isinstance(value, str):
        return value
    # An integer id (a row number, a bm25s index) is an id too; qrels ids are strings.
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def result_doc_id(result: object) -> str:
    """The source document id of one retriever result.

    Accepted shapes, tried in this order: a doc-id string; a ``(doc_id, score)`` pair; a
    mapping with an ``_id``, ``doc_id`` or ``id`` key; an object with a ``doc_id``,
    ``source_id`` or ``id`` attribute. Integer ids become strings.

    >>> result_doc_id("d1"), result_doc_id(("d2", 0.7)), result_doc_id({"_id": "d3"})
    ('d1', 'd2', 'd3')
    >>> result_doc_id(3.5)
    Traceback (most recent call last):
        ...
    TypeError: cannot find a doc id in the retriever result 3.5 (float); expected a doc-id \
string; an object with a doc_id, source_id or id attribute; a mapping with an '_id', 'doc_id' \
or 'id' key; or a (doc_id, score) pair
    """
    found = _as_id(result)
    if found is None and isinstance(result, tuple) and len(result) == 2:
        found = _as_id(result[0])
    elif found is None and isinstance(result, Mapping):
        found = next((_as_id(result[k]) for k in _ID_KEYS if k in result), None)
    elif found is None:
        found = next(
            (
                _as_id(getattr(result, a))
                for a in _ID_ATTRIBUTES
                if getattr(result, a, None) is not None
            ),
            None,
        )
    if found is None:
        raise TypeError(
            f"cannot find a doc id in the retriever result {result!r} "
            f"({type(result).__name__}); expected {_ACCEPTED}"
        )
    return found


def ranking(results: Iterable[Any], limit: int) -> list[str]:
    """The first ``limit`` results as source doc ids, each kept at its best rank.

    >>> ranking([("d2", 0.9), ("d1", 0.5), ("d2", 0.4)], 10), ranking(["d3", {"_id": 4}], 1)
    (['d2', 'd1'], ['d3'])
    """
    head = results[:limit] if isinstance(results, list) else list(islice(results, limit))
    fast = _plain_ids(head)
    if fast is not None:
        return fast
    ranked: dict[str, None] = {}
    for result in head:
        ranked.setdefault(result_doc_id(result), None)
    return list(ranked)


def _plain_ids(head: list[Any]) -> list[str] | None:
    """:func:`ranking` of doc-id strings or of ``(str, score)`` pairs, in C-level passes.

    The common shapes (the baselines, bm25s, most search clients) cost ef a fraction of a
    microsecond per result this way, instead of a call of :func:`result_doc_id` per result.
    ``dict(pairs)`` keeps each doc id at its first (best) position. For anything else this
    returns None, and :func:`ranking` takes the general path, with the same outcome.
    """
    kinds = set(map(type, head))
    if kinds == {str}:
        return list(dict.fromkeys(head))
    if kinds != {tuple}:
        return None
    try:
        first = dict(head)  # every pair's first item, in order; fails for any other length
    except (TypeError, ValueError):
        return None
    return list(first) if set(map(type, first)) == {str} else None
