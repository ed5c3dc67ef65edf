"""convert(): move evaluation data between formats, losing nothing silently.

What a built-in target cannot hold (scores and run tags in an MS MARCO run, a title in its
collection, the metadata of a query or document in its TSV files) is an error naming it,
unless ``drop=`` names that kind: then it is dropped and ``on_drop`` is told.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from .._dataset import Dataset, Document, extra_of
from .._plugin_engine.failures import plugin_call
from .._plugin_engine.registry import Registry, registry_or_default
from .._progress import Progress, check_progress, reading
from ..errors import ArgumentError, DatasetFormatError, Keyword, UnknownNameError
from ..interfaces import DatasetFormat
from ._arguments import path_argument
from ._io import check_input, first_line
from ._records import ranks_only, run_tags
from .files import format_for, write_with
from .irds import read_irds, read_irds_dataset
from .kinds import DROPPABLE, KINDS, Kind
from .parquet import looks_like_parquet, read_parquet_tags, write_parquet_run
from .sources import is_irds
from .trec.writer import write_run_lines

__all__ = ["DROPPABLE", "KINDS", "convert"]

_NAME_HINTS = (
    ("qrels", "qrels"),
    ("run", "run"),
    ("topics", "queries"),
    ("queries", "queries"),
    ("collection", "corpus"),
    ("corpus", "corpus"),
)
_SUFFIX_FORMATS = {".jsonl": "beir", ".trec": "trec", ".run": "trec", ".parquet": "parquet"}
#: The writers that keep a run's one tag (TREC's tag column, Parquet's ``tag`` column).
_TAG_WRITERS: dict[Callable[..., None], str] = {
    write_run_lines: "trec",
    write_parquet_run: "parquet",
}

# What each built-in target keeps of DROPPABLE; ids, texts and judgements it always keeps.
# A plugin's target is not listed: its writer decides, and drop= does not apply to it.
_KEEPS: dict[str, frozenset[str]] = {
    "beir": frozenset({"metadata", "title"}),  # BEIR writes no runs
    # Metadata in .meta.jsonl sidecars; one run tag (kept when the source has one).
    "trec": frozenset({"metadata", "title", "scores"}),
    "msmarco": frozenset(),
    "parquet": frozenset({"scores"}),  # runs and qrels only; a run's one tag in a column
}
_HOW = {
    "metadata": "its files are id<TAB>text only",
    "title": "its collection is pid<TAB>text",
    "scores": "its runs are qid<TAB>pid<TAB>rank",
    "tag": "its runs have no tag column",
}
_HOW_OF = {
    ("trec", "tag"): "a run written here has one tag",
    ("parquet", "tag"): ("a run written here has one tag column"),
}


def guess_kind(path: Path) -> str:
    """What ``path`` holds, from its name, else its first line; a ValueError if unclear."""
    if path.is_dir():
        return "dataset"
    # Whole words of the name only: "truncated" does not say "run".
    words = set(re.split(r"[^a-z0-9]+", path.name.lower()))
    by_name = next((kind for hint, kind in _NAME_HINTS if hint in words), None)
    if by_name is not None:
        return by_name
    if looks_like_parquet(path):  # its columns are the same for runs and qrels (ranx's)
        raise ArgumentError(
            f"cannot tell whether {path} holds a run or qrels (a Parquet file's columns may "
            "be the same for both); name it with ",
            Keyword("kind"),
        )
    found = _kind_of_first_line((first_line(path) or "").strip())
    if found is None:
        raise ArgumentError(
            f"cannot tell what {path} holds ({', '.join(KINDS)}); name it with ", Keyword("kind")
        )
    return found


def _kind_of_first_line(first: str) -> str | None:
    """What a file whose first line is ``first`` holds, if that line tells."""
    columns = first.split()
    by_content = [
        (first.startswith("{") and '"title"' in first, "corpus"),
        (first.startswith("{"), "queries"),
        (first.upper().startswith("<DOC>"), "corpus"),
        (first.lower().startswith("<top>"), "queries"),
        (len(columns) == 4, "qrels"),
        (len(columns) >= 6 and columns[1:2] == ["Q0"], "run"),
    ]
    return next((kind for matched, kind in by_content if matched), None)


def _target_format(target: Path, to_format: str | None) -> str:
    if to_format is not None:
        return to_format
    for suffix, name in _SUFFIX_FORMATS.items():
        if target.name.endswith((suffix, suffix + ".gz")):
            return name
    raise UnknownNameError(
        f"cannot tell the format to write {target} in; name it with ", Keyword("to_format")
    )


def convert(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    kind: Kind | None = None,
    drop: Iterable[str] = (),
    on_drop: Callable[[str], None] | None = None,
    registry: Registry | None = None,
    progress: Progress = False,
) -> str:
    """Convert ``source`` into ``target``, in another format; return the kind converted.

    A directory is a dataset and keeps every split; a file holds qrels, a run, queries or a
    corpus (``kind``, else told from the file name or first line). ``from_format`` is detected
    when ``None``; ``to_format`` is required unless the target name says it (``.jsonl`` is
    BEIR, ``.trec`` and ``.run`` TREC). Corpora stream through, one document at a time.
    ``source`` may be an ``irds:<dataset-id>``: ``kind`` picks what of the dataset is
    written (the whole of it, as a directory whose qrels are the ``test`` split, by default).

    Nothing is lost silently. What the target cannot hold is a
    :class:`~ef.evaluation.DatasetFormatError` naming it, and nothing is written, unless
    ``drop`` names it (``DROPPABLE``): ``"metadata"`` (a query's or document's other
    fields; TREC keeps them in ``.meta.jsonl`` sidecars), ``"title"`` (MS MARCO joins it to
    the text), ``"scores"`` and ``"tag"`` (MS MARCO runs hold ranks only). ``on_drop`` gets
    one sentence for each kind actually dropped. Naming a kind the target keeps is an error.

    ``progress=True`` shows a progress bar on stderr once the conversion has run for a second
    (``ef.evaluation._progress``); a callable gets ``progress(done, total)`` in bytes of
    the source read (every file of a dataset directory), from ``(0, total)`` to
    ``(total, total)``. ``on_drop`` is told after the bar is done.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     src = pathlib.Path(tmp, "run.txt")
    ...     _ = src.write_text("q1 Q0 d1 1 2.0 bm25\\nq1 Q0 d2 2 1.0 bm25\\n")
    ...     convert(src, pathlib.Path(tmp, "run.tsv"), to_format="msmarco",
    ...             drop=("scores", "tag"), on_drop=print)
    ...     pathlib.Path(tmp, "run.tsv").read_text()
    dropped the run tag 'bm25' of run.txt (msmarco: its runs have no tag column)
    dropped the scores of 1 query of run.txt (msmarco: its runs are qid<TAB>pid<TAB>rank)
    'run'
    'q1\\td1\\t1\\nq1\\td2\\t2\\n'
    """
    check_progress(progress)
    registry = registry_or_default(registry)
    dst = path_argument(target, "convert(source, target)", "target")
    if is_irds(source):  # an ir_datasets id: no file to detect a kind or a format from
        _convert_irds(
            source,
            dst,
            kind=kind,
            to_format=to_format,
            drop=drop,
            on_drop=on_drop,
            registry=registry,
        )
        return kind or "dataset"
    src = path_argument(source, "convert(source, target)", "source")
    check_input(src, directory_ok=True)
    what = kind or guess_kind(src)
    if what not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {what!r}")
    check_input(src, directory_ok=what in ("dataset", "corpus"))  # a corpus may be a dataset's
    if src.resolve() == dst.resolve():
        raise ValueError(f"{src}: source and target are the same path")
    reader = format_for(src, from_format, f"read_{what}", registry, must_exist=True)
    writer = format_for(
        dst, _target_format(dst, to_format), f"write_{what}", registry, must_exist=False
    )
    losses = _Losses(src, writer.name, _drops(drop, writer.name), on_drop)
    with reading(src, progress, f"converting {src.name}"):
        _move(what, src, dst, reader=reader, writer=writer, losses=losses, registry=registry)
    losses.tell()
    return what


def _move(
    what: str,
    src: Path,
    dst: Path,
    *,
    reader: DatasetFormat,
    writer: DatasetFormat,
    losses: _Losses,
    registry: Registry,
) -> None:
    """Read ``src`` with ``reader`` and write it to ``dst`` with ``writer``, through ``losses``."""
    capability = f"write_{what}"
    with plugin_call(registry, "format", reader.name, f"read_{what}()", f"the file {src}"):
        data: Any = getattr(reader, f"read_{what}")(src)
    if what == "run":
        tags = _tags_of(src, reader.name)
        if writer.write_run in _TAG_WRITERS and len(tags) == 1:
            # The tag survives.
            write_with(writer, capability, dst, losses.run(data, tags), registry, tag=tags[0])
            return
        data = losses.run(data, tags)
    elif what == "queries":
        data = losses.queries(data)
    elif what == "corpus":
        data = losses.documents(data)
    elif what == "dataset":
        # The queries' losses and the corpus's are named in one refusal.
        queries = losses.queries(data.queries, refuse=False)
        data = Dataset(losses.documents(data.corpus), queries, data.qrels)
    write_with(writer, capability, dst, data, registry)


def _convert_irds(
    source: str,
    dst: Path,
    *,
    kind: str | None,
    to_format: str | None,
    drop: Iterable[str],
    on_drop: Callable[[str], None] | None,
    registry: Registry,
) -> None:
    """:func:`convert` of an ``irds:<id>`` source: ``kind`` of the dataset (all of it by
    default, as a directory whose qrels are its ``test`` split), read through ir_datasets and
    written as a file's would be."""
    what = kind or "dataset"
    if what not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {what!r}")
    writer = format_for(
        dst, _target_format(dst, to_format), f"write_{what}", registry, must_exist=False
    )
    losses = _Losses(Path(source), writer.name, _drops(drop, writer.name), on_drop)
    data: Any
    if what == "dataset":
        corpus, queries, qrels = read_irds_dataset(source)
        # The queries' losses and the corpus's are named in one refusal, as in _move.
        kept = losses.queries(queries, refuse=False)
        data = Dataset(losses.documents(corpus.documents), kept, {"test": qrels})
    elif what == "corpus":
        data = losses.documents(read_irds_dataset(source, note=False)[0].documents)
    else:
        data = read_irds(source, f"read_{what}")
        if what == "run":  # scoreddocs have no run tag
            data = losses.run(data, [])
        elif what == "queries":
            data = losses.queries(data)
    write_with(writer, f"write_{what}", dst, data, registry)
    losses.tell()


def _tags_of(source: Path, format: str) -> list[str]:
    """The run tags a built-in format's file holds (a plugin's are unknown: none)."""
    if format in ("trec", "msmarco"):
        return run_tags(source)
    if format == "parquet":
        return read_parquet_tags(source)
    return []


def _drops(drop: Iterable[str], target: str) -> frozenset[str]:
    if isinstance(drop, str):
        drop = drop.split(",") if drop else ()
    chosen = frozenset(drop)
    unknown = sorted(chosen - set(DROPPABLE))
    if unknown:
        raise ValueError(f"drop: unknown kind {unknown[0]!r}; expected some of {DROPPABLE}")
    keeps = _KEEPS.get(target)
    if chosen and keeps is None:
        raise ArgumentError(
            Keyword("drop", tuple(sorted(chosen))),
            f": the target format {target!r} is a plugin's; its writer decides what it keeps, "
            "and convert cannot drop data for it",
        )
    kept = sorted(chosen & (keeps or frozenset()))
    if kept:
        raise ValueError(f"drop: nothing to drop, {target} keeps the {kept[0]}")
    return chosen


@attrs.define
class _Losses:
    """What a conversion into ``target`` would lose: refused, or dropped and counted.

    Every kind of loss is found before the refusal, so that one error names them all (a run's
    tag and its scores; the metadata of queries and documents, and titles): the user fixes
    them in one try. A refusal found while a corpus streams looks through the rest of it for
    the other kinds first.
    """

    source: Path
    target: str
    drop: frozenset[str]
    on_drop: Callable[[str], None] | None
    dropped: dict[str, str] = attrs.field(factory=dict)
    counts: dict[str, int] = attrs.field(factory=dict)
    #: What the target cannot hold and is not dropped: the kind, and its first case.
    refused: dict[str, str] = attrs.field(factory=dict)

    def _lost(self, what: str, detail: str) -> bool:
        """False if the target keeps ``what``; True if it is to be dropped; else it is noted
        as refused (:meth:`refuse` raises) and False."""
        keeps = _KEEPS.get(self.target)
        if keeps is None or what in keeps:
            return False
        if what not in self.drop:
            self.refused.setdefault(what, detail)
            return False
        return True

    def refuse(self) -> None:
        """One error naming every loss refused so far; nothing if there is none."""
        if not self.refused:
            return
        lost = "; ".join(
            f"{detail}, which {self.target} cannot hold ({self._how(what)})"
            for what, detail in self.refused.items()
        )
        kinds = tuple(self.refused)
        them = "it" if len(kinds) == 1 else "them"
        raise DatasetFormatError(
            f"{self.source}: {lost}; nothing was written. Write another format, or drop {them} "
            f"on purpose: drop={kinds!r} (ef-eval convert --drop {','.join(kinds)})"
        )

    def _count(self, what: str, noun: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1
        self.dropped[what] = noun

    def run(self, run: Mapping[str, Mapping[str, float]], tags: list[str]) -> Any:
        if tags and (len(tags) > 1 or self.target not in _TAG_WRITERS.values()):
            self._tags(tags)
        changed = [q for q, ranked in run.items() if not ranks_only(ranked)]
        if changed and self._lost("scores", f"query {changed[0]!r} has scores, not 1/rank"):
            self.counts["scores"] = len(changed)
            self.dropped["scores"] = "query"
        self.refuse()
        return run

    def _tags(self, tags: list[str]) -> None:
        """Drop or refuse the run's tags, which the target cannot hold."""
        shown = ", ".join(repr(t) for t in tags[:3]) + (", ..." if len(tags) > 3 else "")
        many = f"{len(tags)} run tags ({shown})" if len(tags) > 1 else f"the run tag {shown}"
        if self._lost("tag", f"the run has {many}"):
            self.dropped["tag"] = f"the run tag{'s' if len(tags) > 1 else ''} {shown}"

    def queries(self, queries: Mapping[str, str], *, refuse: bool = True) -> Mapping[str, str]:
        """``queries`` with what the target cannot hold dropped; with ``refuse=False`` a
        refusal waits for :meth:`refuse` (a dataset's corpus may add to it)."""
        extra = extra_of(queries)
        if not extra:
            return queries
        first = next(iter(extra))
        fields = ", ".join(repr(f) for f in extra[first])
        if self._lost("metadata", f"query {first!r} has other fields ({fields})"):
            self.counts["metadata"] = self.counts.get("metadata", 0) + len(extra)
            self.dropped["metadata"] = "query or document"
            return dict(queries)
        if refuse:
            self.refuse()
        return queries

    def documents(self, documents: Iterable[Document]) -> Iterable[Document]:
        """``documents`` checked one at a time as they stream (the first refusal looks
        through the rest for other kinds, then raises); refused at once if something is
        refused already (a dataset's queries), after looking through them."""
        if self.refused:
            self.scan(iter(documents))
        if _KEEPS.get(self.target, frozenset(DROPPABLE)) >= {"title", "metadata"}:
            return documents
        return _Checked(self, documents)

    def scan(self, documents: Iterator[Document]) -> None:
        """Look through ``documents`` for the kinds of loss not refused yet, then refuse."""
        keeps = _KEEPS.get(self.target, frozenset(DROPPABLE))
        wanted = {"title", "metadata"} - keeps - self.drop
        for doc in documents:
            if wanted <= self.refused.keys():
                break
            self.check(doc)
        self.refuse()

    def check(self, doc: Document) -> Document:
        if doc.title and self._lost("title", f"document {doc.id!r} has a title"):
            self._count("title", "document")
        if doc.extra:
            fields = ", ".join(repr(f) for f in doc.extra)
            if self._lost("metadata", f"document {doc.id!r} has other fields ({fields})"):
                self._count("metadata", "query or document")
                return attrs.evolve(doc, extra={})
        return doc

    def tell(self) -> None:
        """One sentence per kind dropped, to ``on_drop``."""
        if self.on_drop is None:
            return
        for what, noun in self.dropped.items():
            count = self.counts.get(what)
            if count is None:
                lost = noun
            else:
                lost = f"the {what} of {count} {noun if count == 1 else _plural(noun)}"
            verb = "joined" if what == "title" else "dropped"
            if what == "title":
                lost = f"the titles of {count} {_plural('document')} to their texts"
            self.on_drop(f"{verb} {lost} of {self.source.name} ({self.target}: {self._how(what)})")

    def _how(self, what: str) -> str:
        return _HOW_OF.get((self.target, what), _HOW[what])


def _plural(noun: str) -> str:
    return {"query": "queries", "query or document": "queries or documents"}.get(noun, noun + "s")


class _Checked:
    """Documents streamed through :meth:`_Losses.check`, afresh on every iteration."""

    def __init__(self, losses: _Losses, documents: Iterable[Document]) -> None:
        self._losses, self._documents = losses, documents

    def __iter__(self) -> Iterator[Document]:
        documents = iter(self._documents)
        for doc in documents:
            checked = self._losses.check(doc)
            if self._losses.refused:
                self._losses.scan(documents)  # the rest, for the other kinds; then it raises
            yield checked
