"""The data shapes of the public API: plain mappings, so any dict fits."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, NoReturn, Protocol, TypeAlias, TypedDict, TypeVar

from ._progress import Progress
from .errors import InvalidSampleError

__all__ = [
    "ASSIGNMENTS",
    "CLAIMS_KEY",
    "GRADES_KEY",
    "IMPORTANCES",
    "NUGGETS_KEY",
    "SAMPLE_FIELDS",
    "Averaging",
    "CompareAveraging",
    "Corpus",
    "Correction",
    "DataFrameLike",
    "FrozenDict",
    "FusionTiePolicy",
    "PairedTest",
    "ProfileName",
    "Progress",
    "Qrels",
    "Queries",
    "RagSample",
    "RankedResults",
    "Run",
    "RunInput",
    "SignificanceTest",
    "TiePolicy",
    "checked_nuggets",
    "frozen_deep",
    "plain",
    "reference_grades",
    "sample_where",
    "validate_sample",
]

#: Graded relevance judgements: ``{query_id: {doc_id: relevance}}``. A relevance of 0 means
#: judged non-relevant; > 0 means relevant (graded judgements feed ndcg_at_k(), binary
#: relevance the rest). This is the in-memory form of a BEIR qrels.tsv.
Qrels = Mapping[str, Mapping[str, float]]

#: Documents: ``{doc_id: text}``.
Corpus = Mapping[str, str]

#: Query texts: ``{query_id: text}``.
Queries = Mapping[str, str]

#: A scored run: ``{query_id: {doc_id: score}}``, as TREC run files hold it. Docs are ranked
#: by trec_eval's rule: score descending, ties broken by doc id descending.
Run = Mapping[str, Mapping[str, float]]

#: What run-taking functions accept: a scored run, or ranked lists ``{query_id: [doc_id, ...]}``
#: used in the order given.
RunInput = Mapping[str, Mapping[str, float] | Sequence[str]]

# The names of the scoring options, each spelled here once: a runtime list of them (a click
# choice, a check) is typing.get_args(the alias), so that it cannot drift from the type.

#: How tied docs of a fused run are ordered: doc id descending (trec_eval's rule), ascending
#: (ir_measures'), or as the run lists them.
FusionTiePolicy: TypeAlias = Literal["trec_eval", "docno_asc", "input_order"]

#: How tied docs are ordered when a run is scored (see
#: :data:`~ef.evaluation.TIE_POLICIES`): a fused run's orders, or ``"expected"``,
#: the mean over every order of each group of tied docs.
TiePolicy: TypeAlias = Literal[FusionTiePolicy, "expected"]

#: Which queries a comparison averages over: every judged query, or only those every
#: system answers.
CompareAveraging: TypeAlias = Literal["qrels", "intersection"]

#: Which queries an evaluation averages over (DESIGN §4): a comparison's, or ``"run"``, the
#: judged queries the run answers.
Averaging: TypeAlias = Literal[CompareAveraging, "run"]

#: The tools whose numbers ``evaluate_run(..., profile=...)`` reproduces.
ProfileName: TypeAlias = Literal["trec_eval", "beir", "mteb", "ir_measures", "ranx"]

#: The paired significance tests of :func:`~ef.evaluation.compare`: Student's t, Wilcoxon's
#: signed rank, the randomization (permutation) test, the bootstrap.
PairedTest: TypeAlias = Literal["paired-t", "wilcoxon", "randomization", "bootstrap"]

#: Every test :func:`~ef.evaluation.compare` runs: a paired one, or Tukey's HSD, which adjusts
#: its own p-values over the pairs of systems.
SignificanceTest: TypeAlias = Literal[PairedTest, "tukey"]

#: The multiple-comparison corrections of :func:`~ef.evaluation.compare`: Bonferroni's,
#: Holm's, Benjamini-Hochberg's.
Correction: TypeAlias = Literal["bonferroni", "holm", "bh"]


class DataFrameLike(Protocol):
    """A pandas or polars DataFrame, as run-taking and qrels-taking functions accept one
    (one row per doc): neither library is imported
    to name the type."""

    @property
    def columns(self) -> Any: ...


class RagSample(TypedDict, total=False):
    """One end-to-end RAG interaction: the unit :func:`~ef.evaluation.evaluate_rag` scores.

    The field names match Ragas' ``SingleTurnSample`` exactly, so a RagSample is the
    interchange shape RAG applications produce and
    :func:`~ef.evaluation.as_ragas_dataset` forwards unchanged. ``response`` is the caller's
    LLM output; ef never synthesizes it. Every key is optional: a metric skips the samples that
    lack what it needs. Keys beyond these (an ``id``, say) are kept by ef's readers, writers
    and the Ragas bridge, and ignored by the metrics.

    Keys:

    * ``user_input``: the user's question.
    * ``response``: the generated answer (the caller's LLM produced it).
    * ``retrieved_contexts``: the context passages handed to the LLM, as text.
    * ``reference``: the ground-truth answer, if known.
    * ``reference_contexts``: the ground-truth context passages, if known.
    * ``retrieved_context_ids`` / ``reference_context_ids``: ids of those passages (str or int).
    * ``multi_responses``, ``rubrics``, ``persona_name``, ``query_style``, ``query_length``:
      the rest of Ragas' SingleTurnSample, carried through unchanged.
    * ``references``: further gold answers beside ``reference`` (SQuAD, TriviaQA and Natural
      Questions have several); exact match and F1 take the best. Not a Ragas field: the
      Ragas bridge carries it beside the sample, as it carries an ``id``.

    >>> sample: RagSample = {"user_input": "capital of France?", "response": "Paris"}
    >>> sorted(sample)
    ['response', 'user_input']
    """

    user_input: str
    response: str
    retrieved_contexts: list[str]
    reference: str
    reference_contexts: list[str]
    retrieved_context_ids: list[str | int]
    reference_context_ids: list[str | int]
    multi_responses: list[str]
    rubrics: dict[str, str]
    persona_name: str
    query_style: str
    query_length: str
    references: list[str]


_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenDict(dict[_K, _V]):
    """A dict that refuses changes: the one read-only mapping of ef.evaluation's values
    (reports, the registry, the manifest), which never change after they are made.

    It prints, compares and serialises (``json.dumps``) like the dict it copies.

    >>> metrics = FrozenDict({"ndcg@10": 0.5})
    >>> metrics
    {'ndcg@10': 0.5}
    >>> metrics["ndcg@10"] = 1.0
    Traceback (most recent call last):
        ...
    TypeError: this mapping is read-only (ef.evaluation's values never change); build a new one
    """

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(
            "this mapping is read-only (ef.evaluation's values never change); build a new one"
        )

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict is unhashable; this one is not
        return hash(tuple(self.items()))

    def __reduce__(self) -> tuple[type[FrozenDict[_K, _V]], tuple[dict[_K, _V]]]:
        # Rebuilt from a plain dict: pickle and copy would otherwise set items one by one.
        return (type(self), (dict(self),))


class RankedResults(list[Any]):
    """A retriever's answer that knows its results' source doc ids: ``doc_ids``, one str
    per result, unique, in rank order. ef's own retrievers know them while they rank (their
    corpus ids are unique), and the engine then takes them as they are instead of reading
    every result again (``ranking()``).

    It is a list, equal to the plain list of its results. Any change to it forgets the ids
    (``doc_ids`` becomes None), and the engine reads the results as for any other list. Only
    code that can promise the ids are unique and match the results builds one.

    >>> answer = RankedResults([("d1", 2.0), ("d2", 1.0)], doc_ids=("d1", "d2"))
    >>> answer == [("d1", 2.0), ("d2", 1.0)], answer.doc_ids
    (True, ('d1', 'd2'))
    >>> answer.sort()
    >>> print(answer.doc_ids)
    None
    """

    doc_ids: tuple[str, ...] | None = None  # also what an unpickled copy has until its state

    def __init__(self, results: Iterable[Any] = (), doc_ids: tuple[str, ...] | None = None):
        super().__init__(results)
        if doc_ids is not None and len(doc_ids) != len(self):
            raise ValueError(f"{len(doc_ids)} doc ids for {len(self)} results")
        self.doc_ids = doc_ids


def _forgetting(name: str) -> Callable[..., Any]:
    change = getattr(list, name)

    def forget(self: RankedResults, *args: Any, **kwargs: Any) -> Any:
        self.doc_ids = None
        return change(self, *args, **kwargs)

    forget.__name__ = forget.__qualname__ = name
    return forget


# Every way to change a list in place (pickle restores a copy through extend(), then its
# doc_ids, so a copy keeps them).
for _name in (
    "__setitem__", "__delitem__", "__iadd__", "__imul__", "append", "extend", "insert",
    "pop", "remove", "clear", "sort", "reverse",
):  # fmt: skip
    setattr(RankedResults, _name, _forgetting(_name))


# What frozen_deep returns as it is, found by type at once.
_LEAVES = frozenset({str, int, float, bool, type(None)})


def frozen_deep(value: Any) -> Any:
    """Mappings as FrozenDicts and lists as tuples, all the way down (a manifest).

    >>> frozen_deep({"metrics": [{"k": 10}], "python": "3.11"})
    {'metrics': ({'k': 10},), 'python': '3.11'}
    """
    if type(value) in _LEAVES:  # most of a manifest: told apart before the ABC checks
        return value
    if isinstance(value, Mapping):
        return FrozenDict({key: frozen_deep(inner) for key, inner in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen_deep(inner) for inner in value)
    return value


def plain(value: Any) -> Any:
    """Mappings and tuples as dicts and lists: what ``json.dumps`` accepts."""
    if isinstance(value, Mapping):
        return {key: plain(inner) for key, inner in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(inner) for inner in value]
    return value


_TEXT_FIELDS = (
    "user_input",
    "response",
    "reference",
    "persona_name",
    "query_style",
    "query_length",
)
_TEXT_LIST_FIELDS = ("retrieved_contexts", "reference_contexts", "multi_responses")
_ID_LIST_FIELDS = ("retrieved_context_ids", "reference_context_ids")

#: Every field of Ragas' SingleTurnSample, in its order.
SAMPLE_FIELDS = (
    "user_input",
    "retrieved_contexts",
    "reference_contexts",
    "retrieved_context_ids",
    "reference_context_ids",
    "response",
    "multi_responses",
    "reference",
    "rubrics",
    "persona_name",
    "query_style",
    "query_length",
)


def _is_id(item: object) -> bool:
    return isinstance(item, str) or (isinstance(item, int) and not isinstance(item, bool))


def validate_sample(sample: object, index: int) -> RagSample:
    """Check the shape of ``sample`` (the ``index``-th one) and return it.

    A field set to ``None`` counts as absent; keys that are not RagSample fields are left
    alone, but for ``references`` (further gold answers), which must be a list of strings,
    and ``reference_context_grades`` (see :func:`reference_grades`).
    Raises :class:`~ef.evaluation.InvalidSampleError` naming the index (and the ``id``, if
    the sample has one) when ``sample`` is not a mapping, a text field is not a string, a
    contexts field or ``references`` is not a list of strings, an id list holds something
    other than strings and ints, ``rubrics`` is not a mapping of strings, or
    ``reference_context_grades`` does not grade the sample's reference context ids.

    >>> validate_sample({"response": 42}, 3)
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: sample 3: 'response' must be a string, got int 42
    >>> validate_sample({"id": "q7", "references": "Paris"}, 0)
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: sample 0 (id 'q7'): 'references' must be a list of \
strings, got str 'Paris'
    """
    if not isinstance(sample, Mapping):
        raise InvalidSampleError(
            f"sample {index}: expected a mapping with RagSample keys (user_input, response, "
            f"retrieved_contexts, reference, ...), got {type(sample).__name__}"
        )
    where = sample_where(sample, index)
    _check_text_fields(sample, where)
    for field in (*_TEXT_LIST_FIELDS, "references"):
        _check_list(sample, field, _is_text, ("a list of strings", "a string"), where)
    for field in _ID_LIST_FIELDS:
        _check_list(sample, field, _is_id, ("a list of ids", "a string or an int"), where)
    _check_rubrics(sample.get("rubrics"), where)
    if sample.get(GRADES_KEY) is not None:
        reference_grades(sample, index)
    return sample  # type: ignore[return-value]  # checked above, field by field


def _check_text_fields(sample: Mapping[str, Any], where: str) -> None:
    for field in _TEXT_FIELDS:
        value = sample.get(field)
        if value is not None and not isinstance(value, str):
            # Several gold answers are a list, which Ragas' reference cannot hold.
            hint = "; put further gold answers in 'references'" if field == "reference" else ""
            raise InvalidSampleError(
                f"{where}: {field!r} must be a string, got {type(value).__name__} "
                f"{_short(value)}{hint}"
            )


def _check_rubrics(rubrics: object, where: str) -> None:
    if rubrics is not None and not (
        isinstance(rubrics, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in rubrics.items())
    ):
        raise InvalidSampleError(
            f"{where}: 'rubrics' must map strings to strings, got {_short(rubrics)}"
        )


#: The extra key that grades a sample's reference context ids: ``{id: grade}``.
GRADES_KEY = "reference_context_grades"

#: The extra key of a sample's no-answer probability (SQuAD v2.0's na_prob).
NA_PROB_KEY = "na_prob"


def reference_grades(sample: Mapping[str, Any], index: int) -> dict[str, float]:
    """``{reference context id: grade}`` of a sample (the ``index``-th): each of its
    ``reference_context_ids`` (ids compare as text) at its grade in
    ``reference_context_grades``, or 1 where that does not grade it.

    Raises :class:`~ef.evaluation.InvalidSampleError` naming the sample when the grades are
    no mapping, grade an id that is not a reference context id (or an id twice, ``2`` and
    ``"2"``), give a grade that is no finite number, or come without reference context ids.

    >>> reference_grades({"reference_context_ids": ["d1", 2],
    ...                   "reference_context_grades": {"d1": 3}}, 0)
    {'d1': 3.0, '2': 1.0}
    >>> reference_grades({"id": "q7", "reference_context_ids": ["d1"],
    ...                   "reference_context_grades": {"d1": "high"}}, 4)
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: sample 4 (id 'q7'): reference_context_grades['d1'] = \
'high': a grade is a finite number, e.g. 0, 1 or 2
    """
    grades = sample.get(GRADES_KEY)
    ids = sample.get("reference_context_ids")
    where = sample_where(sample, index)
    if ids is None:
        if grades is None:
            return {}
        raise InvalidSampleError(
            f"{where}: {GRADES_KEY!r} grades reference context ids, but the sample has no "
            "'reference_context_ids'"
        )
    reference = [str(i) for i in ids]
    judged = dict.fromkeys(reference, 1.0)
    if grades is None:
        return judged
    if not isinstance(grades, Mapping):
        raise InvalidSampleError(
            f"{where}: {GRADES_KEY!r} must map reference context ids to grades, e.g. "
            f'{{"d1": 2}}; got {type(grades).__name__} {_short(grades)}'
        )
    _apply_grades(judged, grades, reference, where)
    return judged


def _apply_grades(
    judged: dict[str, float], grades: Mapping[Any, Any], reference: list[str], where: str
) -> None:
    """Set each grade of ``grades`` in ``judged`` (the ``reference`` context ids at 1),
    refusing a grade of an id not there, of an id twice, or one that is no finite number."""
    seen: set[str] = set()
    for key, grade in grades.items():
        doc = str(key)
        if doc not in judged:
            raise InvalidSampleError(
                f"{where}: {GRADES_KEY!r} grades {key!r}, which is not one of its "
                f"reference_context_ids ({', '.join(map(repr, reference[:5]))}"
                f"{', ...' if len(reference) > 5 else ''})"
            )
        if doc in seen:
            raise InvalidSampleError(f"{where}: {GRADES_KEY!r} grades {doc!r} twice")
        if not _is_grade(grade):
            raise InvalidSampleError(
                f"{where}: {GRADES_KEY}[{key!r}] = {_short(grade)}: a grade is a finite "
                "number, e.g. 0, 1 or 2"
            )
        seen.add(doc)
        judged[doc] = float(grade)


def _is_grade(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def sample_where(sample: Mapping[str, Any], index: int) -> str:
    """How messages name a sample: its position in the input, and its ``id`` if it has one.

    >>> sample_where({"id": "q7"}, 3), sample_where({}, 3)
    ("sample 3 (id 'q7')", 'sample 3')
    """
    name = sample.get("id")
    return f"sample {index}" if name is None else f"sample {index} (id {_short(name)})"


def _is_text(item: object) -> bool:
    return isinstance(item, str)


def _check_list(
    sample: Mapping[str, Any],
    field: str,
    check: Callable[[object], bool],
    what: tuple[str, str],
    where: str,
) -> None:
    value = sample.get(field)
    if value is None:
        return
    if not isinstance(value, (list, tuple)):
        raise InvalidSampleError(
            f"{where}: {field!r} must be {what[0]}, got {type(value).__name__} {_short(value)}"
        )
    for position, item in enumerate(value):
        if not check(item):
            raise InvalidSampleError(
                f"{where}: {field}[{position}] must be {what[1]}, got "
                f"{type(item).__name__} {_short(item)}"
            )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: The extra sample key that holds a query's nuggets (and the answer's assignments).
NUGGETS_KEY = "nuggets"
#: The extra sample key that holds the claims and entailment labels of RAGChecker's metrics.
CLAIMS_KEY = "claims"
#: A nugget's importance, as the TREC RAG track labels it.
IMPORTANCES = ("vital", "okay")
#: A nugget's assignment to an answer, as the TREC RAG track labels it.
ASSIGNMENTS = ("support", "partial_support", "not_support")


def checked_nuggets(value: object, *, assigned: bool) -> list[Mapping[str, Any]]:
    """``value`` as a list of nuggets, each a mapping with a ``text`` and an importance of
    :data:`IMPORTANCES` (and, if ``assigned``, an assignment of :data:`ASSIGNMENTS`);
    ``InvalidSampleError`` says which nugget and what is wrong (evaluate_rag adds the sample).

    >>> checked_nuggets([{"text": "Paris", "importance": "key"}], assigned=False)
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: nuggets[0]: 'importance' must be one of 'vital', \
'okay', got 'key'
    """
    if not isinstance(value, (list, tuple)):
        raise InvalidSampleError(
            f"{NUGGETS_KEY!r} must be a list of nuggets "
            f"({{'text': ..., 'importance': 'vital' or 'okay'}}), got {type(value).__name__}"
        )
    for i, nugget in enumerate(value):
        at = f"nuggets[{i}]"
        if not isinstance(nugget, Mapping):
            raise InvalidSampleError(f"{at} must be a mapping, got {type(nugget).__name__}")
        if not isinstance(nugget.get("text"), str):
            raise InvalidSampleError(f"{at}: 'text' must be a string, got {nugget.get('text')!r}")
        _one_of(nugget, "importance", IMPORTANCES, at)
        if assigned:
            _one_of(nugget, "assignment", ASSIGNMENTS, at)
    return list(value)


def _one_of(nugget: Mapping[str, Any], key: str, valid: Sequence[str], at: str) -> None:
    if nugget.get(key) not in valid:
        raise InvalidSampleError(
            f"{at}: {key!r} must be one of {', '.join(map(repr, valid))}, got {nugget.get(key)!r}"
        )
