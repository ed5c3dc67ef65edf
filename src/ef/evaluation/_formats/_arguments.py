"""The path arguments of the public readers and writers, checked before any is used.

``write_run(run, path)``, with its arguments swapped, would end in Python's own "expected
str, bytes or os.PathLike object, not dict", which names neither the function nor the
argument. These checks name both, and say when the arguments look swapped.

>>> path_argument({"q1": {"d1": 1.0}}, "write_run(path, run)", other="run.trec")
Traceback (most recent call last):
    ...
TypeError: write_run(path, run): path is a dict; expected a file path (a str or a Path); \
are the arguments swapped?
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["a_type", "check_triple", "is_path", "path_argument"]


def a_type(value: object) -> str:
    """``value``'s type with its article: ``"a dict"``, ``"an int"``."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def is_path(value: object) -> bool:
    """True for what names a file: a ``str`` or an ``os.PathLike``."""
    return isinstance(value, (str, os.PathLike))


def path_argument(
    value: object,
    call: str,
    name: str = "path",
    *,
    expected: str = "a file path",
    other: object = None,
    hint: str = "",
) -> Path:
    """``value`` as a Path, or a ``TypeError`` naming ``call`` (the function with its
    arguments, ``"write_run(path, run)"``) and the argument ``name``. When ``other``, the
    argument the user gave in its place, is a path, the two look swapped, and it says so;
    ``hint`` says what else to do (``"to score a run in memory, pass it to evaluate_run"``).
    """
    if is_path(value):
        return Path(value)  # type: ignore[arg-type]  # is_path checked it
    message = f"{call}: {name} is {a_type(value)}; expected {expected} (a str or a Path)"
    if is_path(other):
        message += "; are the arguments swapped?"
    elif hint:
        message += f"; {hint}"
    raise TypeError(message)


def check_triple(call: str, corpus: object, queries: object, qrels: object) -> None:
    """Refuse, naming ``call`` and the argument, a corpus, queries or qrels of the wrong
    shape, or corpus and queries given in each other's place (every judged query an id of
    the corpus, none of the queries, and some judged doc an id of the queries). A corpus may
    be ``{doc_id: text}`` or documents."""
    if isinstance(corpus, (str, bytes)) or not isinstance(corpus, Iterable):
        raise TypeError(f"{call}: corpus is {a_type(corpus)}; expected a mapping {{id: text}}")
    if not isinstance(queries, Mapping):
        raise TypeError(f"{call}: queries is {a_type(queries)}; expected a mapping {{id: text}}")
    if not isinstance(qrels, Mapping):
        raise TypeError(
            f"{call}: qrels is {a_type(qrels)}; expected a mapping {{query_id: {{doc_id: grade}}}}"
        )
    for query_id, judged in qrels.items():
        if not isinstance(judged, Mapping):
            raise TypeError(
                f"{call}: qrels[{query_id!r}] is {a_type(judged)}; expected {{doc_id: grade}}: "
                "is it a corpus or queries, given as qrels?"
            )
    _refuse_swapped_corpus(call, corpus, queries, qrels)


def _refuse_swapped_corpus(
    call: str, corpus: object, queries: Mapping[str, Any], qrels: Mapping[str, Any]
) -> None:
    """Refuse corpus and queries given in each other's place: every judged query an id of
    the corpus, none of the queries, and some judged doc an id of the queries."""
    judged_ids = list(qrels)
    judged_docs = {doc for judged in qrels.values() for doc in judged}
    if (
        judged_ids
        and isinstance(corpus, Mapping)
        and set(judged_ids).isdisjoint(queries)
        and set(judged_ids) <= set(corpus)
        # and "queries" holds judged docs: the corpus is there, not queries that merely miss
        and not judged_docs.isdisjoint(queries)
    ):
        shown = ", ".join(map(repr, judged_ids[:3]))
        raise ValueError(
            f"{call}: the judged queries ({shown}, ...) are ids of corpus and none of "
            "queries: are corpus and queries swapped?"
        )
