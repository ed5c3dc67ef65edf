"""load_retriever(): a retriever from a name, as ``ef-eval retrieve --retriever`` takes it."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable
from functools import partial
from typing import Any

from ._corpus import CorpusInput

__all__ = ["BUILTIN_RETRIEVERS", "load_retriever", "retriever_factory", "retriever_version"]

#: The retriever names load_retriever() knows without an import path.
BUILTIN_RETRIEVERS = ("bm25", "dense")


def _import_object(spec: str) -> Any:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(
            f"retriever {spec!r}: expected module:object, such as my_package.search:MyRetriever"
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise ValueError(
            f"retriever {spec!r}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from exc
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise ValueError(
                f"retriever {spec!r}: module {module_name!r} has no attribute {attribute!r}"
            ) from None
    return found


def load_retriever(spec: str, corpus: CorpusInput, **options: Any) -> Any:
    """The retriever ``spec`` names, built over ``corpus`` when it needs building.

    * ``"bm25"``: :class:`~ef.evaluation.BM25Retriever` over ``corpus``;
    * ``"dense"``: :class:`~ef.evaluation.DenseRetriever` over ``corpus``;
    * ``"module:object"`` (``object`` may be dotted, ``module:Class.attribute``): the object
      imported from ``module``. A **class** is a factory: ``Class.from_corpus(corpus,
      **options)`` if it has that classmethod, else ``Class(corpus, **options)``. Anything
      else (an instance, a search function) is the retriever itself, used as it is;
      ``corpus`` is then not read and ``options`` must be empty.

    ``options`` go to the class: ``load_retriever("bm25", corpus, k1=1.2, b=0.75)``.

    >>> retriever = load_retriever("bm25", {"d1": "a red fox", "d2": "a blue whale"})
    >>> [doc_id for doc_id, _ in retriever.search("whale", limit=3)]
    ['d2']
    >>> load_retriever("bm52", {})
    Traceback (most recent call last):
        ...
    ValueError: unknown retriever 'bm52' (did you mean 'bm25'?); expected bm25, dense, or \
module:object to import one

    Raises:
        ValueError: for an unknown name, a module that cannot be imported (the message gives
            the import error), or a missing attribute; for a class whose ``from_corpus`` or
            constructor raises ``TypeError`` (it does not take the corpus, or the options);
            or ``options`` for a ready retriever.
        MissingDependencyError: (an ``ImportError``) when the ``bm25`` or ``dense`` extra is
            not installed; the message gives the install command.
    """
    return retriever_factory(spec)(corpus, **options)


def retriever_factory(spec: str) -> Callable[..., Any]:
    """What :func:`load_retriever` calls with the corpus and options, found without reading
    the corpus: so a bad name fails before a large corpus is indexed."""
    if spec in BUILTIN_RETRIEVERS:
        return partial(_builtin, spec)
    if ":" not in spec:
        close = difflib.get_close_matches(spec, BUILTIN_RETRIEVERS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"unknown retriever {spec!r}{hint}; expected "
            f"{', '.join(BUILTIN_RETRIEVERS)}, or module:object to import one"
        )
    found = _import_object(spec)
    if isinstance(found, type):
        from_corpus = getattr(found, "from_corpus", None)
        if callable(from_corpus):
            return partial(_build, spec, from_corpus, f"{found.__name__}.from_corpus")
        return partial(_build, spec, found, found.__name__)
    return partial(_ready, spec, found)


#: The distribution that does the work of each built-in retriever: its version is part of
#: the retriever's.
_LIBRARIES = {"bm25": "bm25s", "dense": "sentence-transformers"}


def retriever_version(spec: str) -> tuple[str | None, bool]:
    """What the retriever ``spec`` names declares itself to be, without building it, and
    whether it is built from the corpus (then its version holds only if the corpus is the
    same: the caller adds the corpus's digest).

    A built-in's version is ef-evaluation's and its library's; an imported object's is its
    ``version`` attribute (a str or an int: a class attribute, for a class), or None.

    >>> retriever_version("bm25")[0].startswith("ef-evaluation ")
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    from .._version import __version__

    if spec in BUILTIN_RETRIEVERS:
        library = _LIBRARIES[spec]
        try:
            found = version(library)
        except PackageNotFoundError:
            found = "not installed"
        return f"ef-evaluation {__version__}; {library} {found}", True
    retriever_factory(spec)  # the errors of a bad name, as for building it
    found = _import_object(spec)
    own = getattr(found, "version", None)
    built = isinstance(found, type)
    if isinstance(own, int) and not isinstance(own, bool):
        return str(own), built
    return (own if isinstance(own, str) and own.strip() else None), built


def _build(spec: str, factory: Callable[..., Any], name: str, corpus: Any, **options: Any) -> Any:
    try:
        return factory(corpus, **options)
    except TypeError as exc:
        # Most often the constructor does not take the corpus: say how a class is called.
        given = "".join(f", {key}=..." for key in sorted(options))
        raise ValueError(
            f"retriever {spec!r}: {name}(corpus{given}) raised TypeError: {exc}; a class named "
            "by --retriever is built as Class.from_corpus(corpus, **options) if it has that "
            "classmethod, else Class(corpus, **options): take the corpus there, or name a "
            "ready retriever (module:instance)"
        ) from exc


def _builtin(name: str, corpus: CorpusInput, **options: Any) -> Any:
    from . import BM25Retriever, DenseRetriever

    factory: type[Any] = BM25Retriever if name == "bm25" else DenseRetriever
    return factory(corpus, **options)


def _ready(spec: str, retriever: Any, corpus: CorpusInput, **options: Any) -> Any:
    if options:
        raise ValueError(
            f"retriever {spec!r} is a ready {type(retriever).__name__}, not a class: it takes "
            f"no options (got {', '.join(sorted(options))})"
        )
    return retriever
