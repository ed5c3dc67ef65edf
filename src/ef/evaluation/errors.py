"""The exceptions ef.evaluation raises, in one place.

Each one subclasses the built-in exception the spec promises (``ValueError``, ``ImportError``,
...), so ``except ValueError`` keeps working, and :class:`EvaluationError`, so one ``except``
catches every plugin, data, sample and retriever error. Wrong arguments (a bad ``k_values``, a
retriever no adapter accepts) and missing files raise the plain built-in ``ValueError``,
``TypeError`` and ``FileNotFoundError``, as the standard library would.
"""

from __future__ import annotations

from typing import Any

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


class EvaluationError(Exception):
    """Base class of every error raised by ef.evaluation."""


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

    def __init__(self, message: str, *, path: object, capability: str) -> None:
        super().__init__(message)
        self.path = path
        self.capability = capability

    def __reduce__(self) -> tuple[Any, tuple[str, object, str]]:
        # Pickled by a function of this module (the class's public path is not importable,
        # nor are its keyword arguments passed by pickle): it travels back from a worker.
        return _format_not_detected, (str(self), self.path, self.capability)


def _format_not_detected(message: str, path: object, capability: str) -> FormatNotDetectedError:
    return FormatNotDetectedError(message, path=path, capability=capability)


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


class InputWarning(UserWarning):
    """The input can be scored, but is probably not what was meant.

    Raised as a warning (``warnings.warn``), not an exception: for example when fewer than
    half of the judged queries are in the run, so the mean rests on a few queries and a 0 for
    every missing one. ``ef-eval`` prints it as one ``warning:`` line on stderr. Filter it as
    any warning: ``warnings.simplefilter("error", InputWarning)`` makes it stop the run.
    """


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


# Added after the loop above, so its path stays this module's until the facade exports it.
__all__ += ["RetrieverResultError"]
