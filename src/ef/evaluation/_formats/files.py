"""Reading and writing evaluation data by path: the format is detected or named.

Each function finds a :class:`~ef.evaluation.DatasetFormat` that has the capability it needs
(``read_run``, ``write_qrels``, ...): the one named by ``format=``, or the first format whose
``detect`` recognises the path. Plugin formats are asked before the built-ins, which are asked
most specific first: BEIR, TREC, MS MARCO.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from .._plugin_engine.failures import describe_item, plugin_call, provider_of
from .._plugin_engine.registry import Registry, registry_or_default
from ..errors import (
    DatasetFormatError,
    EvaluationError,
    InputWarning,
    Keyword,
    PluginError,
    UnknownNameError,
    message_parts,
)
from ..interfaces import DatasetFormat
from ..types import Qrels, Queries, Run, RunInput
from ._arguments import a_type, check_triple, is_path, path_argument
from ._io import caller_stacklevel, check_input, damaged_gzip, staged_path
from .frames import frame_library
from .sources import is_irds
from .undetected import undetected_error

if TYPE_CHECKING:
    from .._dataset import Dataset, Document, StreamingCorpus
    from .trec.fast import RunColumns

__all__ = [
    "DEFAULT_SPLITS",
    "format_for",
    "read_dataset",
    "read_qrels",
    "read_queries",
    "read_run",
    "read_run_columns",
    "read_samples",
    "write_dataset",
    "write_qrels",
    "write_queries",
    "write_run",
    "write_samples",
    "write_with",
]

#: The split :func:`read_dataset` picks when none is named: the first of these it finds.
DEFAULT_SPLITS: tuple[str, ...] = ("test", "dev", "train")

T = TypeVar("T")


def format_for(
    path: Path, format: str | None, capability: str, registry: Registry, *, must_exist: bool
) -> DatasetFormat:
    """The format named ``format``, or the one whose ``detect`` recognises ``path``."""
    able = {n: f for n, f in registry.formats.items() if getattr(f, capability) is not None}
    if format is not None:
        return _named_format(format, capability, registry, able)
    if must_exist:
        check_input(path, directory_ok=True)  # a FIFO or /dev/zero is named, never guessed at
    for fmt in registry.formats_to_detect:
        if fmt.name in able and fmt.detect is not None:
            with plugin_call(registry, "format", fmt.name, "detect()", f"the file {path}"):
                if fmt.detect(path):
                    return fmt
    damaged = damaged_gzip(path)
    if damaged is not None:  # no format could read a line of it: say why, not "which format"
        raise DatasetFormatError(damaged)
    # An empty file or a CSV table: say so, not "cannot tell the format" (reads like a bug).
    raise undetected_error(path, capability, list(able))


def _named_format(
    format: str, capability: str, registry: Registry, able: Mapping[str, DatasetFormat]
) -> DatasetFormat:
    """The format called ``format``, refused if it cannot do ``capability`` (``able`` are
    those that can) or if ``format`` is the path of a file, given in the path's place."""
    if format not in registry.formats and is_path(format) and Path(format).exists():
        raise UnknownNameError(
            Keyword("format", format),
            " is the path of a file, not a format; are the arguments swapped? The path "
            f"comes first: {capability}(path, format)",
        )
    chosen = registry.format(format)
    if getattr(chosen, capability) is None:
        what = capability.replace("_", " ")
        raise UnknownNameError(
            f"format {format!r} cannot {what}; formats that can: {', '.join(able) or '(none)'}"
        )
    return chosen


#: What each writer writes, as its signature names it.
_WRITTEN = {
    "write_run": "run",
    "write_qrels": "qrels",
    "write_queries": "queries",
    "write_samples": "samples",
}
#: What to do instead of reading data that is in memory already.
_IN_MEMORY = {
    "read_run": "a run held in memory needs no reading: pass it to evaluate_run",
    "read_qrels": "qrels held in memory need no reading: pass them to evaluate_run",
}


#: What each writer takes, as messages say it.
_SHAPES = {
    "write_run": "{query_id: {doc_id: score}} or {query_id: [doc_id, ...]}",
    "write_qrels": "{query_id: {doc_id: grade}}",
    "write_queries": "{query_id: text}",
}


def _check_data(capability: str, call: str, data: object) -> None:
    """Refuse, naming ``call`` and saying what to pass, data a writer would fail on with a
    bare AttributeError (or write wrong: a DataFrame's columns taken for queries)."""
    if capability == "write_samples":
        _check_samples(call, data)
        return
    shape = _SHAPES.get(capability)
    if shape is None or isinstance(data, Mapping):
        return
    what = _WRITTEN[capability]
    raise TypeError(f"{call}: {what} is {a_type(data)}; expected {shape}{_instead(data, what)}")


def _check_samples(call: str, data: object) -> None:
    if isinstance(data, Mapping):
        raise TypeError(
            f"{call}: samples is one sample (a dict); pass a list of them: "
            "write_samples(path, [sample])"
        )
    if isinstance(data, (str, bytes)) or not isinstance(data, Iterable):
        raise TypeError(f"{call}: samples is {a_type(data)}; expected a list of samples")


def _instead(data: object, what: str) -> str:
    """What to do with ``data``, given to a writer of ``what`` in a mapping's place: a hint
    for a path, a DataFrame or a RunTable, else ``""``."""
    if is_path(data):
        return "; to write a file in another format, use convert(source, target)"
    if frame_library(data) is not None:
        return "; a DataFrame can be saved as Parquet by its own library, which ef reads"
    if hasattr(data, "to_dict") and hasattr(data, "query_ids"):  # a RunTable (fuse's)
        return f"; for a RunTable, as fuse returns, pass {what}.to_dict()"
    return ""


def _read(
    path: str | os.PathLike[str], format: str | None, capability: str, registry: Registry | None
) -> Any:
    if is_irds(path):  # an ir_datasets id, not a file (formats.irds)
        from .irds import read_irds

        return read_irds(path, capability)
    source = path_argument(path, f"{capability}(path)", hint=_IN_MEMORY.get(capability, ""))
    registry = registry_or_default(registry)
    fmt = format_for(source, format, capability, registry, must_exist=True)
    reader: Callable[[Path], Any] = getattr(fmt, capability)
    with plugin_call(registry, "format", fmt.name, f"{capability}()", f"the file {source}"):
        return reader(source)


def _write(
    path: str | os.PathLike[str],
    data: object,
    format: str | None,
    capability: str,
    registry: Registry | None,
) -> None:
    call = f"{capability}(path, {_WRITTEN.get(capability, 'data')})"
    target = path_argument(path, call, other=data)
    _check_data(capability, call, data)
    registry = registry_or_default(registry)
    fmt = format_for(target, format, capability, registry, must_exist=False)
    write_with(fmt, capability, target, data, registry)


def write_with(
    fmt: DatasetFormat,
    capability: str,
    target: Path,
    data: object,
    registry: Registry,
    **options: Any,
) -> None:
    """Write ``data`` to ``target`` with ``fmt``'s writer ``capability``, atomically: every
    writer of evaluation data is called here.

    A plugin's writer writes a path named as ``target`` in a private folder beside it
    (:func:`~ef.evaluation._formats._io.staged_path`), moved into place only when it returns:
    whatever it raises, ``target`` is left as it was, nothing of it stays, and the
    :class:`~ef.evaluation.PluginError` names the format, its plugin and distribution, and
    ``target``. The built-in writers write through their own temporary files (keeping a TREC
    file's sidecar with it), so they are called as they are. A run, qrels or queries with
    no line to write is refused before any writer runs: its file would be empty, which the
    readers refuse (ef writes no file it would not read back).
    """
    _refuse_nothing_to_write(capability, target, data)
    writer: Callable[..., None] = getattr(fmt, capability)
    action = f"{capability}()"
    where = f"the {'folder' if capability == 'write_dataset' else 'file'} {target}"
    info = provider_of(registry, "format", fmt.name)
    if info is not None and info.builtin:
        with plugin_call(registry, "format", fmt.name, action, where):
            writer(target, data, **options)
        return
    if capability == "write_dataset":
        target.parent.mkdir(parents=True, exist_ok=True)  # as the built-in dataset writers do
    with staged_path(target) as staged:
        with _plugin_writing(registry, fmt.name, action, where, staged=staged, target=target):
            writer(staged, data, **options)
        if not (staged.exists() or staged.is_symlink()):
            raise PluginError(
                f"{describe_item(registry, 'format', fmt.name)} wrote nothing in {action}, "
                f"on {where}: a writer must write the path it is given; nothing was written"
            )


def _refuse_nothing_to_write(capability: str, target: Path, data: object) -> None:
    """Refuse a run, qrels or queries mapping that holds no line to write, ``target`` left
    as it was (or not made). A run of queries that each hold no doc writes no line either.

    >>> _refuse_nothing_to_write("write_run", Path("run.trec"), {"q1": {}, "q2": []})
    Traceback (most recent call last):
        ...
    ValueError: write_run: the run holds no doc (its 2 queries, 'q1' and 'q2', hold none), so \
nothing was written (run.trec was not made): its file would be empty, which read_run \
refuses. Write a run with at least one (query, doc) pair
    """
    what = _WRITTEN.get(capability)
    if what not in ("run", "qrels", "queries") or not isinstance(data, Mapping):
        return
    if not data:
        holds = "holds" if what == "run" else "hold"
        _nothing(capability, target, f"the {what} {holds} no query", what)
    if what == "queries" or any(not hasattr(d, "__len__") or len(d) for d in data.values()):
        return
    holds = "holds" if what == "run" else "hold"
    _nothing(
        capability, target, f"the {what} {holds} no doc ({_its_queries(list(data))} none)", what
    )


def _its_queries(ids: list[str]) -> str:
    """``its 2 queries, 'q1' and 'q2', hold``: the subject of a sentence that names ``ids``
    (three at most)."""
    names = [repr(i) for i in ids[:3]] + ([f"{len(ids) - 3} more"] if len(ids) > 3 else [])
    shown = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"its {len(ids)} queries, {shown}, hold" if len(ids) > 1 else f"its query {shown} holds"


def _nothing(capability: str, target: Path, problem: str, what: str) -> NoReturn:
    kept = f"{target} is left as it was" if target.exists() else f"{target} was not made"
    pair = "(query, text)" if what == "queries" else "(query, doc)"
    article = "" if what in ("qrels", "queries") else "a "
    raise ValueError(
        f"{capability}: {problem}, so nothing was written ({kept}): its file would be empty, "
        f"which read_{what} refuses. Write {article}{what} with at least one {pair} pair"
    )


@contextlib.contextmanager
def _plugin_writing(
    registry: Registry, name: str, action: str, where: str, *, staged: Path, target: Path
) -> Iterator[None]:
    """Run a plugin's writer: what it raises names ``target``, never the staged path it was
    given; a PluginError names the format and plugin, and so does a documented error it
    raises (a DatasetFormatError keeps its type, with the writer and target added)."""
    try:
        with plugin_call(registry, "format", name, action, f"{where} (nothing was written)"):
            try:
                yield
            except BaseException as exc:
                _retarget(exc, str(staged), str(target))
                raise
    except EvaluationError as exc:
        if not isinstance(exc, PluginError) and exc.args and isinstance(exc.args[0], str):
            writing = f"{describe_item(registry, 'format', name)} in {action}, on {where}"
            said = f" ({writing}; nothing was written)"
            exc.parts = (*message_parts(exc), said)  # its Keyword fields kept for ef-eval
            exc.args = (f"{exc.args[0]}{said}", *exc.args[1:])
        raise


def _retarget(exc: BaseException, staged: str, target: str) -> None:
    """Put ``target`` where ``exc``'s text names ``staged``, the path only the writer saw."""
    if isinstance(exc, (EvaluationError, InputWarning)):
        parts = message_parts(exc)  # before args change: its Keyword fields kept for ef-eval
        exc.parts = tuple(p.replace(staged, target) if isinstance(p, str) else p for p in parts)
    exc.args = tuple(a.replace(staged, target) if isinstance(a, str) else a for a in exc.args)
    if isinstance(exc, OSError):
        for field in ("filename", "filename2"):
            value = getattr(exc, field)
            if isinstance(value, str):
                setattr(exc, field, value.replace(staged, target))


def read_qrels(
    path: str | os.PathLike[str], format: str | None = None, *, registry: Registry | None = None
) -> dict[str, dict[str, float]]:
    """Read relevance judgements, ``{query_id: {doc_id: relevance}}``, from a file or dataset.

    ``path`` may be a TREC or MS MARCO qrels file (``qid iter docno rel``), a BEIR qrels TSV,
    or a BEIR directory (its test split, else dev, else train). gzip is read transparently;
    ``#`` starts a comment line (one with a qrels line's shape, ``#5 0 d1 1``, is skipped
    with an :class:`~ef.evaluation.InputWarning` naming it). ``format`` (``"trec"``,
    ``"msmarco"``, ``"beir"`` or a plugin's) skips detection.

    Raises:
        FileNotFoundError: if ``path`` does not exist.
        DatasetFormatError: (a ``ValueError``) for a malformed line, an empty file, or a doc
            judged twice for a query, naming the file and line.
        UnknownNameError: (a ``ValueError``) if the format cannot be told or is unknown.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "qrels.txt")
    ...     _ = path.write_text("# topic iter doc rel\\n301 0 d1 2\\n301 0 d2 0\\n")
    ...     read_qrels(path)
    {'301': {'d1': 2, 'd2': 0}}
    """
    qrels: dict[str, dict[str, float]] = _read(path, format, "read_qrels", registry)
    return qrels


def write_qrels(
    path: str | os.PathLike[str],
    qrels: Qrels,
    format: str | None = "trec",
    *,
    registry: Registry | None = None,
) -> None:
    """Write qrels to ``path`` in ``format`` (TREC's ``qid 0 docno rel`` lines by default).

    The file is written through a temporary file: an error (a fractional grade for TREC, an
    id with whitespace) names the query and doc and leaves nothing behind.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_qrels(pathlib.Path(tmp, "qrels.txt"), {"q1": {"d1": 1}})
    ...     pathlib.Path(tmp, "qrels.txt").read_text()
    'q1 0 d1 1\\n'
    """
    _write(path, qrels, format, "write_qrels", registry)


def read_run(
    path: str | os.PathLike[str], format: str | None = None, *, registry: Registry | None = None
) -> dict[str, dict[str, float]]:
    """Read a run, ``{query_id: {doc_id: score}}``, from a TREC or MS MARCO run file.

    TREC runs are ``qid Q0 docno rank score tag`` lines; the rank column is ignored, as
    trec_eval ignores it, and ranking later follows trec_eval's rule (score descending, then
    doc id descending). MS MARCO runs are ``qid<TAB>pid<TAB>rank`` lines; a rank becomes the
    score ``1/rank``. gzip is read transparently; ``#`` starts a comment line (one with a
    run line's shape, ``#5 Q0 d2 1 0.9 t``, is skipped with an
    :class:`~ef.evaluation.InputWarning` naming it).

    Raises:
        FileNotFoundError: if ``path`` does not exist.
        DatasetFormatError: (a ``ValueError``) for a malformed line, a NaN or infinite score,
            an empty file, or a doc listed twice for a query (trec_eval refuses those too),
            naming the file and line.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "run.txt")
    ...     _ = path.write_text("q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.5 bm25\\n")
    ...     read_run(path)
    {'q1': {'d1': 2.5, 'd2': 1.5}}
    """
    run: dict[str, dict[str, float]] = _read(path, format, "read_run", registry)
    return run


def write_run(
    path: str | os.PathLike[str],
    run: RunInput,
    format: str | None = "trec",
    *,
    registry: Registry | None = None,
) -> None:
    """Write a run to ``path``: TREC's 6 columns by default, ``"msmarco"`` for qid/pid/rank.

    Docs are ranked by trec_eval's rule, so reading the file back gives the same ranking. A
    run of ranked lists (``{qid: [doc, ...]}``) keeps its order (TREC scores count down).
    A name ending in ``.gz`` is compressed. Written through a temporary file.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_run(pathlib.Path(tmp, "run.txt"), {"q1": {"d1": 0.5, "d2": 0.5}})
    ...     print(pathlib.Path(tmp, "run.txt").read_text(), end="")
    q1 Q0 d2 1 0.5 ef
    q1 Q0 d1 2 0.5 ef
    """
    _write(path, run, format, "write_run", registry)


def read_queries(
    path: str | os.PathLike[str], format: str | None = None, *, registry: Registry | None = None
) -> dict[str, str]:
    """Read query texts, ``{query_id: text}``: TREC topics (SGML or ``qid<TAB>text``), an
    MS MARCO queries file, or a BEIR ``queries.jsonl``.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "topics.tsv")
    ...     _ = path.write_text("q1\\twhat is bm25\\n")
    ...     read_queries(path)
    {'q1': 'what is bm25'}
    """
    queries: dict[str, str] = _read(path, format, "read_queries", registry)
    return queries


def write_queries(
    path: str | os.PathLike[str],
    queries: Queries,
    format: str | None = "trec",
    *,
    registry: Registry | None = None,
) -> None:
    """Write query texts in ``format`` (``qid<TAB>text`` topics by default), atomically."""
    _write(path, queries, format, "write_queries", registry)


def _pick_split(dataset: Dataset, split: str | None, path: Path) -> Qrels:
    if split is not None:
        if split not in dataset.qrels:
            have = ", ".join(dataset.qrels) or "(none)"
            raise ValueError(f"{path} has no split {split!r}; it has: {have}")
        return dataset.qrels[split]
    name = next((s for s in DEFAULT_SPLITS if s in dataset.qrels), None)
    if name is None:
        name = next(iter(dataset.qrels))
    if name != DEFAULT_SPLITS[0]:
        warnings.warn(
            InputWarning(
                f"{path} has no test split: its judgements are those of the {name} split (it "
                f"has: {', '.join(dataset.qrels)}); pass ",
                Keyword("split", name),
                " to say that is what you mean",
            ),
            stacklevel=caller_stacklevel(),
        )
    return dataset.qrels[name]


def read_dataset(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    split: str | None = None,
    registry: Registry | None = None,
) -> tuple[StreamingCorpus, dict[str, str], dict[str, dict[str, float]]]:
    """Read a dataset directory (BEIR, TREC or MS MARCO) as ``(corpus, queries, qrels)``.

    ``qrels`` is one split's: ``split``, or else the first of ``DEFAULT_SPLITS`` present.
    ``corpus`` is a read-only mapping ``{doc_id: text}`` that streams the corpus file whenever
    it is iterated, so millions of passages are never all in memory; looking a document up by
    id loads the texts once. A document's text is its title and text joined (BEIR's rule);
    ``corpus.documents`` yields :class:`~ef.evaluation.Document` values with the title apart.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_dataset(tmp, {"d1": "Paris is in France."}, {"q1": "Paris?"},
    ...                   {"q1": {"d1": 1}}, format="msmarco")
    ...     corpus, queries, qrels = read_dataset(tmp)
    ...     dict(corpus.items()), queries, qrels
    ({'d1': 'Paris is in France.'}, {'q1': 'Paris?'}, {'q1': {'d1': 1}})
    """
    from .._dataset import StreamingCorpus

    if is_irds(path):
        from .irds import read_irds_dataset

        return read_irds_dataset(path)
    source = path_argument(path, "read_dataset(path)", expected="a dataset folder")
    dataset: Dataset = _read(source, format, "read_dataset", registry)
    qrels = _pick_split(dataset, split, source)
    return (
        StreamingCorpus(dataset.corpus),
        dict(dataset.queries),
        {q: dict(j) for q, j in qrels.items()},
    )


def write_dataset(
    path: str | os.PathLike[str],
    corpus: Mapping[str, str] | Iterable[Document],
    queries: Queries,
    qrels: Qrels,
    format: str | None = "beir",
    *,
    split: str = "test",
    registry: Registry | None = None,
) -> None:
    """Write ``(corpus, queries, qrels)`` as a dataset directory in ``format`` (BEIR by default).

    ``corpus`` may be ``{doc_id: text}``, a corpus from :func:`read_dataset` (titles are
    kept apart), or any iterable of :class:`~ef.evaluation.Document`; it is written one
    document at a time. ``qrels`` are written as ``split``. Every file goes through a
    temporary file, renamed only when all were written.
    """
    from .._dataset import Dataset, documents_of

    call = "write_dataset(path, corpus, queries, qrels)"
    path_argument(path, call, expected="a dataset folder", other=corpus)
    check_triple(call, corpus, queries, qrels)
    dataset = Dataset(documents_of(corpus), queries, {split: qrels})
    _write(path, dataset, format, "write_dataset", registry)


def read_samples(
    path: str | os.PathLike[str], format: str | None = None, *, registry: Registry | None = None
) -> list[dict[str, Any]]:
    """Read RAG samples from ``path``: JSONL (``.jsonl``) or CSV (``.csv``), gzip or not.

    ``format`` names the format (``"rag_jsonl"``, ``"rag_csv"`` or a plugin's); ``None``
    detects it from the file name. Each sample is a dict with RagSample keys, plus any other
    keys the file holds (an ``id``). Ragas' ``to_jsonl`` and ``to_csv`` exports read as they are.

    Raises:
        FileNotFoundError: if ``path`` does not exist.
        DatasetFormatError: (a ``ValueError``) for a malformed line, naming the file and line.
        UnknownNameError: (a ``ValueError``) if the format cannot be told or is unknown.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "samples.jsonl")
    ...     write_samples(path, [{"id": "s1", "response": "Paris", "reference": "Paris"}])
    ...     read_samples(path)
    [{'id': 's1', 'response': 'Paris', 'reference': 'Paris'}]
    """
    samples: list[dict[str, Any]] = _read(path, format, "read_samples", registry)
    return samples


def write_samples(
    path: str | os.PathLike[str],
    samples: Iterable[Mapping[str, Any]],
    format: str | None = None,
    *,
    registry: Registry | None = None,
) -> None:
    """Write RAG samples to ``path`` (JSONL or CSV, from the name or ``format``), atomically.

    Every sample is validated first, so a malformed one raises
    :class:`~ef.evaluation.InvalidSampleError` naming its index and nothing is written.
    """
    _write(path, samples, format, "write_samples", registry)


def read_run_columns(
    path: str | os.PathLike[str], format: str | None = None, *, registry: Registry | None = None
) -> RunColumns | Run:
    """A run file as columns (:class:`~ef.evaluation._formats.trec.fast.RunColumns`) where
    the format that claims it has a fast reader that reads it exactly, else as the
    reference reader's mapping: the same numbers and errors either way. Detection order and
    plugins are honoured: a fast reader is its format's ``read_run_columns`` capability."""
    source = path_argument(path, "read_run(path)", hint=_IN_MEMORY["read_run"])
    registry = registry_or_default(registry)
    fmt = format_for(source, format, "read_run", registry, must_exist=True)
    where = f"the file {source}"
    if fmt.read_run_columns is not None:
        with plugin_call(registry, "format", fmt.name, "read_run_columns()", where):
            columns: RunColumns | None = fmt.read_run_columns(source)
        if columns is not None:
            return columns
    with plugin_call(registry, "format", fmt.name, "read_run()", where):
        run: Run = fmt.read_run(source)  # type: ignore[misc]  # format_for checked it
    return run
