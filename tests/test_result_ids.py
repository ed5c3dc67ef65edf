"""Retriever results map to their source document (issue 15, item 6).

The levels, in order: the caller's ``doc_id=`` function; a top-level ``doc_id`` /
``source_id``; ``metadata['doc_id']`` / ``metadata['source_id']``; a wrapped segment's
``doc_id`` / ``source_id``; only then the result's own ``id`` / ``_id``. Two different ids
at one level are an error, and so is an answer that is not a list of results.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import RetrieverError, evaluate_retrieval, retrieve
from ef.evaluation._engine.results import ranking, result_doc_id
from ef.evaluation._plugin_engine.registry import Registry

ROOT = Path(__file__).parents[1]


@dataclass
class Segment:
    id: str
    source_id: str


@dataclass
class Hit:
    """A search hit with its own id that wraps the segment it found."""

    id: str
    segment: Segment
    score: float = 1.0


@dataclass
class Record:
    id: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class Both:
    doc_id: str
    source_id: str


@dataclass(frozen=True)
class SegmentIndex:
    hits: tuple[Hit, ...]

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        return list(self.hits[:limit])


# -- each level, and the order between them -------------------------------------------------


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"id": "p1", "doc_id": "d1"}, "d1"),
        ({"_id": "p1", "source_id": "d1"}, "d1"),
        (Segment(id="p1", source_id="d1"), "d1"),
        (Record("p1", {"doc_id": "d1"}), "d1"),
        (Record("p1", {"source_id": "d1"}), "d1"),
        ({"id": "p1", "metadata": {"doc_id": "d1"}}, "d1"),
        (Hit("h1", Segment("s1", "d1")), "d1"),
        ({"id": "h1", "segment": {"id": "s1", "doc_id": "d1"}}, "d1"),
        ({"id": "h1", "segment": Segment("s1", "d1")}, "d1"),
        (Record("p1", {"title": "no id here"}), "p1"),
        ({"_id": "p1", "metadata": {}}, "p1"),
        ((Record("p1", {"doc_id": "d1"}), 0.5), "d1"),  # (result, score), as LangChain pairs
        (Record("p1", {"doc_id": 7}), "7"),
    ],
    ids=[
        "doc_id-key-over-id",
        "source_id-key-over-_id",
        "source_id-attr-over-id",
        "metadata-doc_id-attr",
        "metadata-source_id-attr",
        "metadata-key",
        "segment-attr",
        "segment-key",
        "segment-key-attr",
        "metadata-without-id",
        "empty-metadata",
        "result-score-pair",
        "int-in-metadata",
    ],
)
def test_each_level_maps_to_the_source_document(result: Any, expected: str) -> None:
    assert result_doc_id(result) == expected


def test_the_first_level_wins_over_the_later_ones() -> None:
    everything = {
        "id": "own",
        "source_id": "top",
        "metadata": {"doc_id": "meta"},
        "segment": {"doc_id": "seg"},
    }
    assert result_doc_id(everything) == "top"
    del everything["source_id"]
    assert result_doc_id(everything) == "meta"
    del everything["metadata"]
    assert result_doc_id(everything) == "seg"
    del everything["segment"]
    assert result_doc_id(everything) == "own"


@dataclass
class HaystackLike:
    """Haystack's Document keeps its fields in ``meta``; its splitter puts ``source_id`` there."""

    id: str
    meta: dict[str, Any] = field(default_factory=dict)


def test_meta_is_read_as_metadata_is() -> None:
    assert result_doc_id(HaystackLike("chunk-1", {"source_id": "d1"})) == "d1"
    assert result_doc_id({"_id": "chunk-1", "meta": {"doc_id": "d1"}}) == "d1"
    with pytest.raises(RetrieverError, match=r"metadata\['doc_id'\] = 'a' and meta\['doc_id'\]"):
        result_doc_id({"metadata": {"doc_id": "a"}, "meta": {"doc_id": "b"}})


def test_a_none_candidate_is_absent() -> None:
    assert result_doc_id({"doc_id": None, "source_id": "d1"}) == "d1"
    assert result_doc_id(Record("p1", {"doc_id": None})) == "p1"


def test_equal_candidates_at_one_level_are_no_conflict() -> None:
    assert result_doc_id(Both("d1", "d1")) == "d1"
    assert result_doc_id({"doc_id": 7, "source_id": "7"}) == "7"


# -- conflicts and missing ids --------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "first", "second"),
    [
        (Both("a", "b"), "doc_id = 'a'", "source_id = 'b'"),
        ({"doc_id": "a", "source_id": "b"}, "doc_id = 'a'", "source_id = 'b'"),
        (
            Record("p", {"doc_id": "a", "source_id": "b"}),
            "metadata['doc_id'] = 'a'",
            "metadata['source_id'] = 'b'",
        ),
        ({"segment": Both("a", "b")}, "segment.doc_id = 'a'", "segment.source_id = 'b'"),
        ({"id": "a", "_id": "b"}, "id = 'a'", "_id = 'b'"),
    ],
    ids=["top-attr", "top-key", "metadata", "segment", "own"],
)
def test_two_different_ids_at_one_level_are_an_error(result: Any, first: str, second: str) -> None:
    with pytest.raises(RetrieverError, match="two different doc ids") as info:
        result_doc_id(result)
    assert first in str(info.value)
    assert second in str(info.value)
    assert isinstance(info.value, TypeError)  # as a result without a doc id always was


def test_a_conflict_names_the_query_and_the_rank(builtin_registry: Registry) -> None:
    def search(query: str, *, limit: int) -> list[Any]:
        return ["d1", Both("a", "b")]

    with pytest.raises(RetrieverError) as info:
        retrieve(search, {"q7": "text"}, registry=builtin_registry)
    message = str(info.value)
    assert "query 'q7'" in message
    assert "result 2" in message
    assert "doc_id = 'a'" in message
    assert "source_id = 'b'" in message


def test_a_candidate_that_is_not_an_id_is_an_error() -> None:
    with pytest.raises(RetrieverError, match=r"metadata\['doc_id'\] = 3.5 \(float\)"):
        result_doc_id(Record("p1", {"doc_id": 3.5}))


@pytest.mark.parametrize("on_error", ["raise", "skip"])
def test_a_result_with_no_id_at_any_level_names_the_query(
    on_error: Any, builtin_registry: Registry
) -> None:
    def nothing(query: str, *, limit: int) -> list[Any]:
        return [object()] if query == "second" else ["d1"]

    queries = {"q1": "first", "q2": "second"}
    with pytest.raises(RetrieverError, match=r"query 'q2': result 1: cannot find a doc id"):
        retrieve(nothing, queries, on_error=on_error, registry=builtin_registry)


# -- answers that are not a list of results -------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "described"),
    [
        (None, "None"),
        ("d1", "a str ('d1')"),
        (3, "an int (3)"),
        ({"d1": 0.9, "d2": 0.5}, "a dict"),
        ({"d1", "d2"}, "a set"),
        (b"d1", "a bytes"),
    ],
    ids=["none", "str", "int", "dict", "set", "bytes"],
)
@pytest.mark.parametrize("executor", [None, 2])
def test_an_answer_that_is_not_a_list_of_results_names_the_query(
    answer: Any, described: str, executor: Any, builtin_registry: Registry
) -> None:
    def search(query: str, *, limit: int) -> Any:
        return answer if query == "second" else ["d1"]

    with pytest.raises(RetrieverError) as info:
        retrieve(
            search,
            {"q1": "first", "q2": "second"},
            executor=executor,
            on_error="skip",  # a bad answer is never skipped: every query would fail alike
            registry=builtin_registry,
        )
    message = str(info.value)
    assert message.startswith("query 'q2': the retriever returned ")
    assert described in message
    assert "a list of results" in message


def test_a_batch_retriever_that_returns_none_names_the_batch(builtin_registry: Registry) -> None:
    class NoBatch:
        def search_batch(self, texts: list[str], limit: int) -> None:
            return None

    with pytest.raises(RetrieverError, match=r"query 'q1': the retriever returned None for"):
        retrieve(NoBatch(), {"q1": "a", "q2": "b"}, registry=builtin_registry)


def test_other_iterables_keep_working() -> None:
    assert ranking(("d2", "d1"), 10) == ["d2", "d1"]
    assert ranking(iter([("d1", 0.5)]), 10) == ["d1"]
    assert ranking((doc for doc in ["d3", "d3"]), 10) == ["d3"]


# -- the doc_id= function -------------------------------------------------------------------


def passage_id(result: Any) -> str:
    return str(result.segment.id)


def by_prefix(result: Any) -> str | None:
    # "d1#3" is passage 3 of d1; anything else goes to the default rules
    return result.split("#")[0] if isinstance(result, str) and "#" in result else None


def test_doc_id_function_comes_first() -> None:
    hit = Hit("h1", Segment("s1", "d1"))
    assert result_doc_id(hit) == "d1"
    assert result_doc_id(hit, passage_id) == "s1"
    assert ranking(["d1#0", "d2#4", "d1#2", "d3"], 10, doc_id=by_prefix) == ["d1", "d2", "d3"]


def test_doc_id_function_may_return_an_int() -> None:
    assert result_doc_id({"n": 4}, lambda result: result["n"]) == "4"


def test_a_bad_doc_id_function_names_the_query(builtin_registry: Registry) -> None:
    def search(query: str, *, limit: int) -> list[str]:
        return ["d1"]

    with pytest.raises(RetrieverError, match=r"query 'q1': result 1: doc_id= returned 3.5"):
        retrieve(search, {"q1": "x"}, doc_id=lambda result: 3.5, registry=builtin_registry)
    with pytest.raises(RetrieverError, match=r"query 'q1': result 1: doc_id= raised KeyError"):
        retrieve(search, {"q1": "x"}, doc_id=lambda result: {}[result], registry=builtin_registry)


def test_passage_level_qrels_with_a_doc_id_function(builtin_registry: Registry) -> None:
    hits = [Hit("h1", Segment("s1", "d1")), Hit("h2", Segment("s2", "d1"))]
    qrels = {"q1": {"s2": 1.0}}
    queries = {"q1": "x"}

    def search(query: str, *, limit: int) -> list[Hit]:
        return hits[:limit]

    # The source document d1 is not judged: no query retrieves a judged doc, and that stops
    # the evaluation (its message shows both sides' ids); asked to, it scores 0.
    with pytest.raises(ValueError, match=r"retrieves \('d1'\), qrels judges \('s2'\)"):
        evaluate_retrieval(search, qrels, queries, k_values=(2,), registry=builtin_registry)
    by_doc = evaluate_retrieval(
        search, qrels, queries, k_values=(2,), registry=builtin_registry, check_doc_ids=False
    )
    assert by_doc.metrics["ndcg@2"] == 0.0
    by_passage = evaluate_retrieval(
        search, qrels, queries, k_values=(2,), doc_id=passage_id, registry=builtin_registry
    )
    assert by_passage.metrics["ndcg@2"] == pytest.approx(1 / 1.584962500721156)  # s2 at rank 2


def test_doc_id_function_goes_to_a_process_pool_and_is_checked(
    builtin_registry: Registry,
) -> None:
    index = SegmentIndex((Hit("h1", Segment("s1", "d1")),))
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ROOT))  # spawned workers import this module, as we do
        context = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(1, mp_context=context) as pool:
            result = retrieve(
                index, {"q1": "x"}, executor=pool, doc_id=passage_id, registry=builtin_registry
            )
            assert result.rankings["q1"] == ("s1",)
            with pytest.raises(TypeError, match=r"the doc_id= function .* does not pickle"):
                retrieve(
                    index, {"q1": "x"}, executor=pool, doc_id=lambda r: "x",
                    registry=builtin_registry,
                )  # fmt: skip


# -- end to end: segment-wrapping hits score against their source document ------------------


def test_segment_wrapping_hits_score_their_source_document(builtin_registry: Registry) -> None:
    hits = {
        "cats": [Hit("h1", Segment("cats#0", "cats")), Hit("h2", Segment("dogs#1", "dogs"))],
        "dogs": [Hit("h3", Segment("mail#0", "mail")), Hit("h4", Segment("dogs#0", "dogs"))],
    }
    records = {
        "cats": [Record("p9", {"doc_id": "cats"})],
        "dogs": [Record("p8", {"doc_id": "dogs"})],
    }
    qrels = {"q1": {"cats": 1.0}, "q2": {"dogs": 1.0}}
    queries = {"q1": "cats", "q2": "dogs"}
    report = evaluate_retrieval(
        lambda q, *, limit: hits[q][:limit],
        qrels,
        queries,
        k_values=(10,),
        registry=builtin_registry,
    )
    # q1: cats at rank 1 -> 1.0; q2: dogs at rank 2 -> 1 / log2(3)
    assert report.metrics["ndcg@10"] == pytest.approx((1.0 + 1 / 1.584962500721156) / 2)
    metadata = evaluate_retrieval(
        lambda q, *, limit: records[q][:limit],
        qrels,
        queries,
        k_values=(10,),
        registry=builtin_registry,
    )
    assert metadata.metrics["ndcg@10"] == 1.0
