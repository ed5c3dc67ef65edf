"""Retriever results to source doc ids: the rules every adapter's output goes through.

A result maps to its source document, by the first of these levels that holds an id:

1. the caller's ``doc_id=`` function, when it returns an id (None: the levels below);
2. a top-level ``doc_id`` or ``source_id``;
3. ``metadata['doc_id']`` or ``metadata['source_id']`` (or ``meta[...]``, as Haystack names
   it);
4. a wrapped segment's ``doc_id`` or ``source_id`` (``result.segment``);
5. the result's own ``id`` or ``_id``.

Each name is an attribute, or a key when the result (or its metadata, or its segment) is a
mapping. A value of None counts as absent. Two different ids at one level are an error:
guessing would score the query against the wrong document, silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import islice
from typing import Any

from ..adapters._ids import as_doc_id
from ..errors import RetrieverResultError
from ..types import RankedResults

__all__ = ["DocIdFunction", "check_answer", "ranked_ids", "ranking", "result_doc_id"]

#: The ``doc_id=`` function: a result to its doc id (a str or an int), or None to let the
#: default levels decide.
DocIdFunction = Callable[[Any], object]

_SOURCE = ("doc_id", "source_id")
_OWN = ("id", "_id")
_METADATA = ("metadata", "meta")
_ACCEPTED = (
    "a doc-id string, a (doc_id, score) pair, or a result with a doc_id or source_id (itself, "
    "in its metadata, or in its segment) or an id or _id (as an attribute or a mapping key); "
    "pass doc_id= (a function of the result) to read it elsewhere"
)
#: Answers that iterate but are no ranked list: a str gives characters, a mapping or a set
#: gives its keys in an order that is not a ranking.
_NOT_A_LIST = (str, bytes, bytearray, Mapping, set, frozenset)


def _short(value: object, width: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _a(value: object) -> str:
    name = type(value).__name__
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def _get(holder: object, name: str) -> object:
    if isinstance(holder, Mapping):
        return holder.get(name)
    return getattr(holder, name, None)


def _candidates(
    holder: object, names: tuple[str, str], label: str
) -> list[tuple[str, str, object]]:
    # The label is formatted only for an error message: this runs for every result.
    return [(label, name, _get(holder, name)) for name in names]


def _pick(candidates: list[tuple[str, str, object]]) -> str | None:
    """The one id that one level's candidates give, or None when none is set."""
    found: str | None = None
    found_at = ("", "")
    for label, name, value in candidates:
        if value is None:
            continue
        doc = as_doc_id(value)
        where = (label, name)
        if doc is None:
            raise RetrieverResultError(
                f"{label.format(name)} = {_short(value)} ({type(value).__name__}) is not a str "
                "or int doc id; pass doc_id= (a function of the result) to read the doc id "
                "elsewhere"
            )
        if found is None:
            found, found_at = doc, where
        elif doc != found:
            raise RetrieverResultError(
                f"two different doc ids in one result: {found_at[0].format(found_at[1])} = "
                f"{found!r} and {label.format(name)} = "
                f"{doc!r}; pass doc_id= (a function of the result) to say which is the source "
                "document"
            )
    return found


def _from_levels(result: object) -> str | None:
    found = _pick(_candidates(result, _SOURCE, "{}"))
    if found is not None:
        return found
    # Haystack names it meta; LangChain, LlamaIndex and most others metadata.
    nested: list[tuple[str, str, object]] = []
    for key in _METADATA:
        metadata = _get(result, key)
        if isinstance(metadata, Mapping):
            nested += _candidates(metadata, _SOURCE, key + "[{!r}]")
    found = _pick(nested)
    if found is not None:
        return found
    segment = _get(result, "segment")
    if segment is not None:
        found = _pick(_candidates(segment, _SOURCE, "segment.{}"))
        if found is not None:
            return found
    return _pick(_candidates(result, _OWN, "{}"))


def _from_function(doc_id: DocIdFunction, result: object) -> str | None:
    try:
        value = doc_id(result)
    except Exception as exc:  # the caller's code: say where it failed, in one line
        raise RetrieverResultError(
            f"doc_id= raised {type(exc).__name__}: {exc} on the result {_short(result)}"
        ) from exc
    found = as_doc_id(value)
    if found is None and value is not None:
        raise RetrieverResultError(
            f"doc_id= returned {_short(value)} ({type(value).__name__}) for the result "
            f"{_short(result)}; expected a str or int doc id, or None for the default rules"
        )
    return found


def result_doc_id(result: object, doc_id: DocIdFunction | None = None) -> str:
    """The source document id of one retriever result.

    ``doc_id`` is asked first; then a doc-id string (or int) is itself, a ``(result, score)``
    pair is its first item, and anything else goes through the levels of this module's
    docstring: ``doc_id`` / ``source_id``, then ``metadata``, then ``segment``, then ``id`` /
    ``_id``. Integer ids become strings.

    >>> result_doc_id("d1"), result_doc_id(("d2", 0.7)), result_doc_id({"_id": "d3"})
    ('d1', 'd2', 'd3')
    >>> result_doc_id({"id": "chunk-7", "metadata": {"doc_id": "d4"}})
    'd4'
    >>> result_doc_id({"id": "chunk-7", "metadata": {"doc_id": "d4"}}, lambda r: r["id"])
    'chunk-7'
    >>> result_doc_id({"doc_id": "a", "source_id": "b"})
    Traceback (most recent call last):
        ...
    ef.evaluation.errors.RetrieverResultError: two different doc ids in one result: \
doc_id = 'a' and source_id = 'b'; pass doc_id= (a function of the result) to say which is \
the source document
    """
    if doc_id is not None:
        found = _from_function(doc_id, result)
        if found is not None:
            return found
    found = as_doc_id(result)
    if found is None:
        inner = result[0] if isinstance(result, tuple) and len(result) == 2 else result
        found = as_doc_id(inner)
        if found is None and not isinstance(inner, (str, bytes, float, bool)):
            found = _from_levels(inner)
    if found is None:
        raise RetrieverResultError(
            f"cannot find a doc id in the retriever result {_short(result)} "
            f"({type(result).__name__}); expected {_ACCEPTED}"
        )
    return found


def check_answer(results: object) -> None:
    """Raise unless ``results`` is what a query's answer must be: a list (any iterable) of
    results, in ranked order.

    >>> check_answer(["d1"]), check_answer(iter([("d1", 0.5)]))
    (None, None)
    >>> check_answer(None)
    Traceback (most recent call last):
        ...
    ef.evaluation.errors.RetrieverResultError: the retriever returned None, not a list of \
results in ranked order
    """
    if isinstance(results, list):
        return
    if results is None:
        got = "None"
    elif isinstance(results, _NOT_A_LIST) or not isinstance(results, Iterable):
        got = f"{_a(results)} ({_short(results, 60)})"
    else:
        return
    raise RetrieverResultError(
        f"the retriever returned {got}, not a list of results in ranked order"
    )


def ranking(results: Iterable[Any], limit: int, doc_id: DocIdFunction | None = None) -> list[str]:
    """The first ``limit`` results as source doc ids, each kept at its best rank.

    ``doc_id`` maps a result to its doc id before the default rules (:func:`result_doc_id`).

    >>> ranking([("d2", 0.9), ("d1", 0.5), ("d2", 0.4)], 10), ranking(["d3", {"_id": 4}], 1)
    (['d2', 'd1'], ['d3'])
    """
    own = _own_ids(results, doc_id)
    if own is not None:
        return list(own[:limit])
    if isinstance(results, list):
        head = results[:limit]
    else:
        check_answer(results)
        head = list(islice(results, limit))
    if doc_id is None:
        fast = _plain_ids(head)
        if fast is not None:
            return fast
    ranked: dict[str, None] = {}
    for rank, result in enumerate(head, 1):
        try:
            found = result_doc_id(result, doc_id)
        except RetrieverResultError as exc:
            raise RetrieverResultError(f"result {rank}: {exc}") from exc.__cause__
        ranked.setdefault(found, None)
    return list(ranked)


def ranked_ids(
    results: Iterable[Any], limit: int, doc_id: DocIdFunction | None = None
) -> tuple[str, ...]:
    """:func:`ranking` as a tuple, what :func:`~ef.evaluation.retrieve` keeps: an answer of
    ef's own retrievers (:class:`~ef.evaluation.types.RankedResults`) is not copied.

    >>> ranked_ids(["d1", "d1", "d2"], 10)
    ('d1', 'd2')
    """
    own = _own_ids(results, doc_id)
    return own[:limit] if own is not None else tuple(ranking(results, limit, doc_id))


def _own_ids(results: object, doc_id: DocIdFunction | None) -> tuple[str, ...] | None:
    """The doc ids an answer of ef's own retrievers carries (unique already), unless a
    ``doc_id`` function is to read them; None for any other answer."""
    if type(results) is RankedResults and doc_id is None:
        return results.doc_ids
    return None


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
