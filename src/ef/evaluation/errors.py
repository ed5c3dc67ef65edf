"""The exceptions ef.evaluation raises, in one place.

Each one subclasses the built-in exception the spec promises (``ValueError``, ``ImportError``,
...), so ``except ValueError`` keeps working, and :class:`EvaluationError`, so one ``except``
catches every plugin, data, sample and retriever error. Wrong arguments (a bad ``k_values``, a
retriever no adapter accepts) and missing files raise the plain built-in ``ValueError``,
``TypeError`` and ``FileNotFoundError``, as the standard library would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = [
    "DatasetFormatError",
    "DownloadError",
    "DuplicateNameError",
    "EvaluationError",
    "FormatNotDetectedError",
    "GeneratorError",
    "InputWarning",
    "InvalidSampleError",
    "MissingDependencyError",
    "PluginError",
    "PluginLoadError",
    "RetrieverError",
    "UnknownNameError",
]


class Keyword(NamedTuple):
    """A keyword argument that a message names as the fix: ``name it with format=``.

    ``str()`` is how Python code writes it; ``ef-eval`` writes the option of its command
    instead (``--run-format``), read from the same fields, never from the message's text.

    >>> str(Keyword("format")), str(Keyword("norm", "min-max"))
    ('format=', "norm='min-max'")
    >>> str(Keyword("check_swapped", False))
    'check_swapped=False'
    >>> str(Keyword("run_columns", ("query", "doc", "score"), code="(query, doc, score)"))
    'run_columns=(query, doc, score)'
    >>> str(Keyword("tie_policy", said="tie_policy")), str(Keyword("profile", said="the profile"))
    ('tie_policy', 'the profile')
    """

    #: The keyword argument: ``"format"``, ``"run_columns"``, ``"check_swapped"``.
    parameter: str
    #: The value to give it; ``...`` when the message names the keyword alone (``format=``).
    value: object = ...
    #: The value as Python code writes it, when that is not its ``repr``: ``(query, doc, score)``.
    code: str = ""
    #: Named, not given a value: how the message says it (``"tie_policy"``, ``"the profile"``).
    said: str = ""

    def __str__(self) -> str:
        if self.said:
            return self.said
        if self.code:
            return f"{self.parameter}={self.code}"
        return f"{self.parameter}=" if self.value is ... else f"{self.parameter}={self.value!r}"


#: How a caller names a :class:`Keyword` in its own terms (``ef-eval``: its options); None to
#: say it as Python does.
Spelling = Callable[[Keyword], "str | None"]


def _python(_keyword: Keyword) -> str | None:
    return None


class _Composed:
    """A message made of text and :class:`Keyword` parts, composed again for another caller."""

    parts: tuple[str | Keyword, ...]

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        """The keyword arguments the message names, in its order."""
        return tuple(part for part in self.parts if isinstance(part, Keyword))

    @property
    def parameter(self) -> str | None:
        """The keyword argument the message names first (the fix it gives), or None."""
        return next((keyword.parameter for keyword in self.keywords), None)

    def spelt(self, spelling: Spelling = _python) -> str:
        """The message with each keyword as ``spelling`` names it (Python's, by default)."""
        return _joined(self.parts, spelling)


def _joined(parts: tuple[str | Keyword, ...], spelling: Spelling) -> str:
    return "".join(part if isinstance(part, str) else spelling(part) or str(part) for part in parts)


def message_parts(error: BaseException) -> tuple[str | Keyword, ...]:
    """``error``'s message as parts, its :class:`Keyword` fields kept: for a message that
    quotes it (``f"{where}: {error}"`` would make the keywords text).

    >>> message_parts(ArgumentError("use ", Keyword("norm", "max")))
    ('use ', Keyword(parameter='norm', value='max', code='', said=''))
    >>> message_parts(ValueError("no such file"))
    ('no such file',)
    """
    if isinstance(error, _Composed) and _joined(error.parts, _python) == str(error):
        return error.parts
    return (str(error),)  # not composed, or its text was changed since (args): as it reads


class EvaluationError(_Composed, Exception):
    """Base class of every error raised by ef.evaluation.

    Its message may be given in parts, the keyword arguments it names as :class:`Keyword`
    fields: ``str()`` is the message a Python caller reads, and ``ef-eval`` names its
    options instead (``spelt()``).

    >>> from ef.evaluation.errors import Keyword
    >>> error = EvaluationError("cannot tell the format; name it with ", Keyword("format"))
    >>> str(error), error.parameter
    ('cannot tell the format; name it with format=', 'format')
    >>> error.spelt(lambda keyword: "--run-format")
    'cannot tell the format; name it with --run-format'
    """

    def __init__(self, *parts: str | Keyword) -> None:
        super().__init__("".join(map(str, parts)))
        # A plain message (or none) keeps Exception's own args; pickling passes the message
        # and restores the parts from __dict__.
        self.parts = parts


class PluginError(EvaluationError, RuntimeError):
    """A plugin could not be loaded or registered; the message names the plugin."""


class PluginLoadError(PluginError, ImportError):
    """An entry point of the ``ef_evaluation`` group failed to import.

    The message names the entry point, its distribution and version, and how to disable it.
    """


class DuplicateNameError(PluginError, ValueError):
    """Two plugins provide a metric, format or adapter of the same name."""


class UnknownNameError(EvaluationError, ValueError):
    """A metric, format or adapter name that no loaded plugin provides, or a dataset name
    :func:`~ef.evaluation.download_dataset` does not know.

    Raised for ``metrics=("ndgc",)`` and the like. The message lists the valid names and, when
    one is close, suggests it. It is a ``ValueError``, as the spec requires.
    """


class FormatNotDetectedError(UnknownNameError):
    """No format recognises a file; ``capability`` is what was wanted of it (``"read_run"``).

    The message says to name the format with ``format=``; ``ef-eval`` says which of its
    options does that instead (``--run-format``, ``--qrels-format``, ...).
    """

    def __init__(self, *parts: str | Keyword, path: object, capability: str) -> None:
        super().__init__(*parts)
        self.path = path
        self.capability = capability

    def __reduce__(self) -> tuple[Any, tuple[tuple[str | Keyword, ...], object, str]]:
        # Pickled by a function of this module (the class's public path is not importable,
        # nor are its keyword arguments passed by pickle): it travels back from a worker.
        return _format_not_detected, (self.parts, self.path, self.capability)


def _format_not_detected(
    parts: tuple[str | Keyword, ...] | str, path: object, capability: str
) -> FormatNotDetectedError:
    return FormatNotDetectedError(*parts, path=path, capability=capability)


class InvalidSampleError(EvaluationError, ValueError):
    """A RAG sample is malformed; the message names the sample's index."""


class DatasetFormatError(EvaluationError, ValueError):
    """A dataset file is malformed; the message names the file and line."""


class DownloadError(EvaluationError, OSError):
    """Fetching or unpacking a dataset archive failed; the message names the URL.

    An HTTP error, a network failure, a truncated transfer, a checksum that differs from the
    published one, or an archive that is corrupt, unsafe (a member that would land outside
    the target, a symlink) or not laid out as expected. It is an ``OSError``, as the
    ``urllib`` errors it replaces are, so ``except OSError`` keeps catching a failed download.
    """


class RetrieverError(EvaluationError, RuntimeError):
    """The retriever raised while answering a query; the message names the query id."""


class GeneratorError(EvaluationError, RuntimeError):
    """The ``generate`` function of :func:`~ef.evaluation.evaluate_pipeline` raised, or
    returned something other than a str; the message names the query id."""


class MissingDependencyError(EvaluationError, ImportError):
    """An optional package is needed; the message gives the exact install command."""


class InputWarning(_Composed, UserWarning):
    """The input can be scored, but is probably not what was meant.

    Raised as a warning (``warnings.warn``), not an exception: for example when fewer than
    half of the judged queries are in the run, so the mean rests on a few queries and a 0 for
    every missing one. ``ef-eval`` prints it as one ``warning:`` line on stderr. Filter it as
    any warning: ``warnings.simplefilter("error", InputWarning)`` makes it stop the run.
    Its message may be given in parts, as an :class:`EvaluationError`'s.
    """

    def __init__(self, *parts: str | Keyword) -> None:
        super().__init__("".join(map(str, parts)))
        self.parts = parts


# Tracebacks and docs show the public path, as pytest does for its exceptions.
for _name in __all__:
    globals()[_name].__module__ = "ef.evaluation"
del _name


class RetrieverResultError(RetrieverError, TypeError):
    """A retriever's answer that ef cannot map to source doc ids; the message names the query.

    The answer is not a list of results (``None``, a str, a dict), a result has no doc id
    at any level, or one level holds two different ids (``doc_id='a'`` and
    ``source_id='b'``). It is a ``TypeError`` too, as a result without a doc id always was,
    and it is never skipped by ``on_error="skip"``: every query would fail the same way.
    """


class ArgumentError(EvaluationError, ValueError):
    """An argument ef cannot use as given; the message names the keyword argument that fixes
    it (:attr:`parameter`), so ``ef-eval`` can name its option instead.

    >>> error = ArgumentError("weights is given twice: as ", Keyword("weights"), " and in ",
    ...                       Keyword("params"))
    >>> str(error), error.parameter, isinstance(error, ValueError)
    ('weights is given twice: as weights= and in params=', 'weights', True)
    """


class ProfileRefused(EvaluationError, ValueError):
    """A ``profile=`` that cannot score this run: ``reason`` says why.

    ``"rules"``: a tie policy or an averaging was given too (the profile sets them);
    ``"sharded"``: the run is several shards; ``"url"``: the run is the URL ``shard``;
    ``"one_shard"``: the run is the one shard ``shard``, given in a list or as a pattern.

    >>> print(ProfileRefused("beir", "rules"))
    profile='beir' sets the tie policy and the averaging of its tool; leave tie_policy and \
averaging unset, or drop the profile
    >>> print(ProfileRefused("beir", "one_shard", "a.trec"))
    profile='beir' does not score a sharded run, here of one shard: give its path 'a.trec' \
itself (not in a list, not a pattern), or give tie_policy and averaging instead
    """

    def __init__(self, profile: str, reason: str, shard: str | None = None) -> None:
        self.profile, self.reason, self.shard = profile, reason, shard
        super().__init__(*self._parts("not in a list"))

    def __reduce__(self) -> tuple[Any, tuple[str, str, str | None]]:
        return type(self), (self.profile, self.reason, self.shard)

    def spelt(self, spelling: Spelling = _python) -> str:
        # A sharded run of one path: Python lists it; ef-eval's --workers makes the list.
        workers = spelling(Keyword("workers", said="workers"))
        alone = f"without {workers}" if workers else "not in a list"
        return _joined(self._parts(alone), spelling)

    def _parts(self, alone: str) -> tuple[str | Keyword, ...]:
        named = Keyword("profile", self.profile)
        rules = (
            Keyword("tie_policy", said="tie_policy"),
            " and ",
            Keyword("averaging", said="averaging"),
        )
        instead = ("or give ", *rules, " instead")
        if self.reason == "rules":
            return (
                named, " sets the tie policy and the averaging of its tool; leave ", *rules,
                " unset, or drop ", Keyword("profile", said="the profile"),
            )  # fmt: skip
        if self.reason == "sharded":
            return (named, " does not score a sharded run; concatenate the shards, ", *instead)
        if self.reason == "url":
            return (
                named, f" needs a local run file, not the URL {self.shard!r}: copy it locally "
                "first and give its path, ", *instead,
            )  # fmt: skip
        return (
            named, " does not score a sharded run, here of one shard: give its path "
            f"{self.shard!r} itself ({alone}, not a pattern), ", *instead,
        )  # fmt: skip


class StoreError(EvaluationError, RuntimeError):
    """The store of evaluations could not be opened, read or written; ``url`` names it (its
    password, if any, left out).

    >>> error = StoreError("cannot open the store: no such host", url="postgresql://db/ef")
    >>> error.url, isinstance(error, RuntimeError)
    ('postgresql://db/ef', True)
    """

    def __init__(self, *parts: str | Keyword, url: str) -> None:
        super().__init__(*parts)
        self.url = url

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _store_error, (type(self), self.parts, self.__dict__)


class StoreSchemaError(StoreError):
    """The store was written by a newer ef-evaluation: its schema version ``found`` is above
    ``supported``, the newest this one reads. Nothing is read or written.

    >>> error = StoreSchemaError(url="store.sqlite", found=9, supported=2)
    >>> print(error)
    the store store.sqlite has schema version 9, written by a newer ef-evaluation; this one \
reads versions up to 2: upgrade ef-evaluation (pip install -U ef-evaluation) to use it
    """

    def __init__(self, *, url: str, found: int, supported: int) -> None:
        super().__init__(
            f"the store {url} has schema version {found}, written by a newer ef-evaluation; "
            f"this one reads versions up to {supported}: upgrade ef-evaluation "
            "(pip install -U ef-evaluation) to use it",
            url=url,
        )
        self.found, self.supported = found, supported


def _store_error(
    cls: type[StoreError], parts: tuple[str | Keyword, ...], fields: dict[str, Any]
) -> StoreError:
    error = StoreError.__new__(cls)
    EvaluationError.__init__(error, *parts)
    error.__dict__.update(fields)
    return error


# Added after the loop above, so its path stays this module's until the facade exports it.
__all__ += [
    "ArgumentError",
    "Keyword",
    "ProfileRefused",
    "RetrieverResultError",
    "StoreError",
    "StoreSchemaError",
]
