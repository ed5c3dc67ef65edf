"""ir_datasets ids as sources: ``irds:<dataset-id>`` wherever qrels, queries, a corpus or a
stored run may be given (``irds:msmarco-passage/trec-dl-2019/judged``).

ir_datasets is optional (``pip install "ef-evaluation[irds]"``) and imported only when an
``irds:`` source is read; it downloads the dataset's files as it always does (into
``IR_DATASETS_HOME``). Its qrels record no relevance level (ir_datasets issue #254), so the
level a dataset's documented official measures name (``AP(rel=2)`` for the TREC DL passage
judgements) is found by :func:`relevance_level`; an evaluation applies it to its binary
measures (``_evaluate/irds_level``), a reader tells it in an :class:`~ef.evaluation.InputWarning`.

An ``irds:`` id is told apart from a path by :mod:`.sources` (``is_irds``), so that a local
file's reading never loads this module.

>>> relevance_level(["nDCG@10", "RR(rel=2)", "AP(rel=2)"])
(2, 'the official measures RR(rel=2), AP(rel=2) judge relevance from grade 2')
>>> relevance_level(["AP@100", "P@10", "RR(rel=2)"])[0]
1
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import DatasetFormatError, InputWarning, MissingDependencyError, UnknownNameError
from ._io import caller_stacklevel
from .sources import PREFIX

if TYPE_CHECKING:
    from .._dataset import StreamingCorpus

__all__ = [
    "graded",
    "official_measures",
    "read_irds",
    "read_irds_dataset",
    "relevance_level",
    "relevance_note",
]

_INSTALL = 'pip install "ef-evaluation[irds]"'
#: What each reader asks of a dataset: ir_datasets' entity type, and its name in messages.
_ENTITIES = {
    "read_qrels": ("qrels", "qrels"),
    "read_run": ("scoreddocs", "run (scoreddocs)"),
    "read_queries": ("queries", "queries"),
    "read_corpus": ("docs", "corpus (docs)"),
}
#: ir_measures' names of the measures that judge a doc relevant or not (``rel=``, 1 unless
#: named); the graded ones (nDCG, ERR) use every grade and name no level.
_BINARY = frozenset(
    {"AP", "Bpref", "infAP", "IPrec", "NumRel", "NumRelRet", "P", "R", "Rprec", "RR"}
    | {"SetAP", "SetF", "SetP", "SetR", "Success"}
)
_MEASURE = re.compile(r"(?P<name>[A-Za-z_]+)(?:\((?P<params>[^)]*)\))?(?:@\w+)?")
_REL = re.compile(r"(?:^|,)\s*rel\s*=\s*(?P<level>\d+)")


def _dataset(source: str) -> Any:
    dataset_id = source[len(PREFIX) :]
    try:
        import ir_datasets
    except ImportError:
        raise MissingDependencyError(
            f"{source}: reading an ir_datasets dataset needs ir_datasets: {_INSTALL}"
        ) from None
    try:
        return ir_datasets.load(dataset_id)
    except KeyError:
        raise UnknownNameError(
            f"{source}: ir_datasets knows no dataset {dataset_id!r} (its ids: "
            "https://ir-datasets.com)"
        ) from None


def _iter(source: str, capability: str) -> tuple[Any, Iterator[Any]]:
    """The dataset of ``source`` and its iterator of what ``capability`` reads, or a
    ``ValueError`` naming the id and what it provides."""
    entity, shown = _ENTITIES[capability]
    dataset = _dataset(source)
    if not dataset.has(entity):
        provides = [e for e in ("docs", "queries", "qrels", "scoreddocs") if dataset.has(e)]
        raise ValueError(
            f"{source}: the dataset has no {shown}; it provides: {', '.join(provides) or '(none)'}"
        )
    return dataset, getattr(dataset, f"{entity}_iter")()


def read_irds(source: str, capability: str, *, note: bool = True) -> Any:
    """What the reader ``capability`` (``read_qrels``, ``read_run``, ``read_queries``) reads,
    from the dataset ``source`` (``irds:<id>``); qrels with a grade above 1 come with the
    note of :func:`relevance_note`, as an InputWarning at the caller, unless ``note`` is
    False (an evaluation that applies the level says so itself)."""
    dataset, records = _iter(source, capability)
    if capability == "read_queries":
        return {q.query_id: q.default_text() for q in records}
    values = _values(source, records, grades=capability == "read_qrels")
    if note and capability == "read_qrels" and graded(values):
        said = relevance_note(source, _official_measures(dataset))
        warnings.warn(InputWarning(said), stacklevel=caller_stacklevel())
    return values


def _values(source: str, records: Iterator[Any], *, grades: bool) -> dict[str, dict[str, float]]:
    """Each query's grades (qrels) or scores (a run), by doc; a doc given two is refused."""
    values: dict[str, dict[str, float]] = {}
    what = "grade" if grades else "score"
    for record in records:
        value = record.relevance if grades else record.score
        held = values.setdefault(record.query_id, {})
        if record.doc_id in held and held[record.doc_id] != value:
            # Keeping either would be a number nobody chose: the file readers refuse it too.
            raise DatasetFormatError(
                f"{source}: doc {record.doc_id!r} of query {record.query_id!r} has two "
                f"{what}s, {held[record.doc_id]!r} and {value!r}; ef-evaluation does not "
                "choose one: fix or filter the dataset's records"
            )
        held[record.doc_id] = value
    return values


def read_irds_dataset(
    source: str, *, note: bool = True
) -> tuple[StreamingCorpus, dict[str, str], dict[str, dict[str, float]]]:
    """``(corpus, queries, qrels)`` of the dataset ``source``, as
    :func:`~ef.evaluation.read_dataset` gives them; the corpus is streamed from ir_datasets
    whenever it is iterated. ``note`` is :func:`read_irds`'s."""
    from .._dataset import Document, DocumentStream, StreamingCorpus  # a corpus is asked for

    _iter(source, "read_corpus")  # refused now, not when the corpus is first iterated

    def documents() -> Iterator[Document]:
        for doc in _iter(source, "read_corpus")[1]:
            title = getattr(doc, "title", "")
            text = doc.text if title and hasattr(doc, "text") else doc.default_text()
            yield Document(doc.doc_id, title if isinstance(title, str) else "", text)

    corpus = StreamingCorpus(DocumentStream(documents))
    return corpus, read_irds(source, "read_queries"), read_irds(source, "read_qrels", note=note)


def graded(qrels: Mapping[str, Mapping[str, float]]) -> bool:
    """Whether ``qrels`` hold a grade above 1: only then does a relevance level matter."""
    return any(g > 1 for judged in qrels.values() for g in judged.values())


def official_measures(source: str) -> list[str]:
    """The official measures the dataset ``source`` documents (ir_measures' names)."""
    return _official_measures(_dataset(source))


def _official_measures(dataset: Any) -> list[str]:
    documentation = getattr(dataset, "documentation", None)
    found = documentation().get("official_measures") if callable(documentation) else None
    return [str(m) for m in found] if isinstance(found, (list, tuple)) else []


def relevance_level(measures: Sequence[str]) -> tuple[int, str]:
    """The relevance level the binary ones among ``measures`` (ir_measures' names) agree on,
    and why: the level they name, or 1 when they name none or disagree (saying which).

    >>> relevance_level(["AP@100", "nDCG@10", "P@10", "RR(rel=2)"])
    (1, 'the official measures disagree on the relevance level (AP@100, P@10 from grade 1; \
RR(rel=2) from grade 2)')
    """
    levels: dict[int, list[str]] = {}
    for measure in measures:
        match = _MEASURE.fullmatch(measure.strip())
        if match is None:
            continue
        rel = _REL.search(match["params"] or "")
        if rel is not None or match["name"] in _BINARY:
            levels.setdefault(int(rel["level"]) if rel else 1, []).append(measure)
    if len(levels) == 1:
        ((level, named),) = levels.items()
        return level, f"the official measures {', '.join(named)} judge relevance from grade {level}"
    if not levels:
        return 1, "the official measures name no relevance level"
    parts = "; ".join(f"{', '.join(named)} from grade {lv}" for lv, named in sorted(levels.items()))
    return 1, f"the official measures disagree on the relevance level ({parts})"


def relevance_note(source: str, measures: Sequence[str]) -> str:
    """What the user of the graded qrels of ``source`` should know: ir_datasets records no
    relevance level, and the one its ``measures`` name, to pass as ``rel=``."""
    level, why = relevance_level(measures)
    head = f"{source}: ir_datasets records no relevance level; {why}"
    if level == 1:
        return f"{head}: binary measures count grades from 1 as relevant (trec_eval's default)"
    return (
        f"{head}: binary measures count grades from 1 unless told, so pass them with "
        f"rel={level}, e.g. map(rel={level}), P(rel={level})@10"
    )
