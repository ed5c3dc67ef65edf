"""evaluate_retrieval(): retriever and result shapes, query-set rules, reports and errors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    PluginError,
    Registry,
    RetrievalEvalReport,
    RetrievalMetric,
    RetrieverError,
    evaluate_retrieval,
    hookimpl,
    ndcg_at_k,
    recall_at_k,
)
from ef.evaluation._plugin_engine.loading import load_plugin_manager

from .profiles_hypothesis import examples
from .strategies import judgements, rankings

QRELS = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}}
QUERIES = {"q1": "first", "q2": "second"}
RANKINGS = {"first": ["d2", "x", "d1"], "second": ["d3"]}


def retriever(query: str, *, limit: int = 10) -> list[str]:
    return RANKINGS[query][:limit]


def test_report_means_and_per_query_values(builtin_registry) -> None:
    report = evaluate_retrieval(
        retriever, QRELS, QUERIES, k_values=(1, 3), registry=builtin_registry
    )
    assert report.n_queries == 2
    assert report.k_values == (1, 3)
    q1 = report.per_query["q1"]
    assert q1["ndcg@3"] == ndcg_at_k(["d2", "x", "d1"], QRELS["q1"], 3)
    assert q1["recall@1"] == 0.5
    assert report.per_query["q2"]["mrr@3"] == 1.0
    assert report.metrics["recall@1"] == pytest.approx((0.5 + 1.0) / 2)
    assert set(report.metrics) == {
        f"{m}@{k}" for m in ("ndcg", "recall", "precision", "mrr", "map") for k in (1, 3)
    }
    assert report.primary is None  # no ndcg@10 was asked for
    assert report.primary_at(3) == report.metrics["ndcg@3"]


def test_default_limit_is_the_largest_cutoff(builtin_registry) -> None:
    seen: list[int] = []

    def spy(query: str, *, limit: int) -> list[str]:
        seen.append(limit)
        return []

    # The spy retrieves nothing: scored as it is (the doc-id check would refuse it).
    options = {"registry": builtin_registry, "check_doc_ids": False}
    evaluate_retrieval(spy, QRELS, QUERIES, k_values=(1, 5, 3), **options)
    assert seen == [5, 5]
    evaluate_retrieval(spy, QRELS, QUERIES, k_values=(1,), limit=40, **options)
    assert seen[-2:] == [40, 40]


def test_results_past_the_limit_are_ignored(builtin_registry) -> None:
    def greedy(query: str) -> list[str]:  # takes no limit and returns too much
        return ["x", "y", "d3"]

    report = evaluate_retrieval(
        greedy,
        {"q2": {"d3": 1}},
        QUERIES,
        k_values=(5,),
        limit=2,
        registry=builtin_registry,
        check_doc_ids=False,  # d3 is past the limit: no judged doc is retrieved, as meant
    )
    assert report.metrics["recall@5"] == 0.0


@dataclass
class Hit:
    doc_id: str
    score: float


@dataclass
class Segment:
    id: str
    source_id: str


class SearchIndex:
    def __init__(self, results: list[Any]) -> None:
        self.results = results

    def search(self, query: str, limit: int = 10) -> list[Any]:
        return self.results[:limit]


class RetrieveOnly:
    def retrieve(self, query: str) -> list[Any]:
        return ["d3"]


@pytest.mark.parametrize(
    "results",
    [
        ["d3"],
        [("d3", 0.9)],
        [{"_id": "d3"}],
        [{"doc_id": "d3", "text": "..."}],
        [{"id": "d3"}],
        [Hit("d3", 1.0)],
        [Segment(id="d3#seg0", source_id="d3")],
    ],
    ids=["str", "pair", "_id", "doc_id-key", "id-key", "doc_id-attr", "source_id-attr"],
)
def test_every_result_shape_maps_to_its_doc_id(results, builtin_registry) -> None:
    report = evaluate_retrieval(
        SearchIndex(results), {"q2": {"d3": 1}}, QUERIES, k_values=(1,), registry=builtin_registry
    )
    assert report.metrics["ndcg@1"] == 1.0


def test_integer_ids_become_strings(builtin_registry) -> None:
    report = evaluate_retrieval(
        lambda q, *, limit: [7, (8, 0.5)],
        {"q": {"7": 1, "8": 1}},
        {"q": "x"},
        k_values=(2,),
        registry=builtin_registry,
    )
    assert report.metrics["recall@2"] == 1.0


def test_retrieve_method_without_limit(builtin_registry) -> None:
    report = evaluate_retrieval(
        RetrieveOnly(), {"q2": {"d3": 1}}, QUERIES, k_values=(1,), registry=builtin_registry
    )
    assert report.metrics["mrr@1"] == 1.0


def test_segments_are_deduplicated_to_their_source_at_the_best_rank(builtin_registry) -> None:
    segments = [Segment("a#0", "a"), Segment("b#0", "b"), Segment("a#1", "a"), Segment("c#0", "c")]
    index, qrels, queries = SearchIndex(segments), {"q": {"c": 1}}, {"q": "x"}
    # limit=None retrieves max(k_values)=3 results: a, b, a again; de-duplication leaves a, b.
    short = evaluate_retrieval(
        index, qrels, queries, k_values=(3,), registry=builtin_registry, check_doc_ids=False
    )
    assert short.metrics["mrr@3"] == 0.0
    # Raising the limit, as the spec advises for segmented sources: a, b, c.
    full = evaluate_retrieval(
        index, qrels, queries, k_values=(3,), limit=4, registry=builtin_registry
    )
    assert full.metrics["mrr@3"] == pytest.approx(1 / 3)


def test_unknown_result_shape_is_a_type_error_naming_the_shapes(builtin_registry) -> None:
    with pytest.raises(TypeError, match=r"query 'q1'.*doc-id string.*\(doc_id, score\) pair"):
        evaluate_retrieval(
            SearchIndex([3.5]), QRELS, QUERIES, k_values=(1,), registry=builtin_registry
        )


def test_unadaptable_retriever_lists_the_adapters_tried(builtin_registry) -> None:
    with pytest.raises(
        TypeError, match=r"no retriever adapter accepts int.*search_method.*callable"
    ):
        evaluate_retrieval(42, QRELS, QUERIES, registry=builtin_registry)


def test_queries_without_positive_judgement_or_text_are_skipped(builtin_registry) -> None:
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 0, "d9": -1}, "q3": {"d1": 1}}
    report = evaluate_retrieval(retriever, qrels, QUERIES, k_values=(1,), registry=builtin_registry)
    assert report.n_queries == 1
    assert dict(report.skipped) == {
        "q2": "no positive judgement",
        "q3": "no query text in queries",
    }


def test_a_query_with_no_results_scores_zero_and_counts(builtin_registry) -> None:
    report = evaluate_retrieval(
        lambda q, *, limit: [] if q == "second" else ["d1"],
        QRELS,
        QUERIES,
        k_values=(1,),
        registry=builtin_registry,
    )
    assert report.n_queries == 2
    assert report.per_query["q2"]["ndcg@1"] == 0.0
    assert report.metrics["ndcg@1"] == pytest.approx(0.5)


def test_no_scorable_query_is_a_value_error(builtin_registry) -> None:
    with pytest.raises(ValueError, match=r"no query can be scored.*no positive judgement"):
        evaluate_retrieval(retriever, {"q1": {"d1": 0}}, QUERIES, registry=builtin_registry)
    with pytest.raises(ValueError, match="qrels is empty"):
        evaluate_retrieval(retriever, {}, QUERIES, registry=builtin_registry)


def test_unknown_metric_lists_the_valid_names(builtin_registry) -> None:
    with pytest.raises(
        ValueError,
        match=r"unknown retrieval metric 'ndgc'; did you mean 'ndcg'( or '\w+')*\?.*map, mrr, "
        r"ndcg, .*num_rel, .*precision, .*recall",
    ):
        evaluate_retrieval(retriever, QRELS, QUERIES, metrics=("ndgc",), registry=builtin_registry)


def test_a_rag_metric_name_is_refused_with_a_hint(builtin_registry) -> None:
    with pytest.raises(ValueError, match="'token_f1' is a rag metric, not a retrieval metric"):
        evaluate_retrieval(
            retriever, QRELS, QUERIES, metrics=("token_f1",), registry=builtin_registry
        )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k_values": ()}, "k_values is empty"),
        ({"k_values": (0, 5)}, "k_values must be positive ints"),
        ({"metrics": ()}, "metrics is empty"),
        ({"limit": 0}, "limit must be a positive int"),
    ],
)
def test_bad_options_are_value_errors(kwargs, message, builtin_registry) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_retrieval(retriever, QRELS, QUERIES, registry=builtin_registry, **kwargs)


def test_metrics_as_a_bare_string_is_refused(builtin_registry) -> None:
    with pytest.raises(TypeError, match="not a str"):
        evaluate_retrieval(retriever, QRELS, QUERIES, metrics="ndcg", registry=builtin_registry)


def test_a_failing_retriever_names_the_query(builtin_registry) -> None:
    def broken(query: str, *, limit: int) -> list[str]:
        if query == "second":
            raise ConnectionError("index offline")
        return []

    with pytest.raises(RetrieverError, match="query 'q2': ConnectionError: index offline") as info:
        evaluate_retrieval(broken, QRELS, QUERIES, registry=builtin_registry)
    assert isinstance(info.value.__cause__, ConnectionError)


def test_inputs_are_not_mutated(builtin_registry) -> None:
    qrels = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}}
    queries = dict(QUERIES)
    evaluate_retrieval(retriever, qrels, queries, registry=builtin_registry)
    assert qrels == QRELS
    assert queries == QUERIES


def test_report_is_frozen_json_ready_and_readable(builtin_registry) -> None:
    report = evaluate_retrieval(
        retriever, {**QRELS, "q9": {"d1": 1}}, QUERIES, k_values=(1, 10), registry=builtin_registry
    )
    with pytest.raises(AttributeError):
        report.n_queries = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        report.metrics["ndcg@10"] = 1.0  # type: ignore[index]
    data = json.loads(json.dumps(report.to_dict()))
    assert data["metrics"]["ndcg@10"] == report.primary
    assert data["per_query"]["q1"]["recall@1"] == 0.5
    assert data["skipped"] == {"q9": "no query text in queries"}
    assert data["k_values"] == [1, 10]
    text = str(report)
    assert text.splitlines()[0] == "Retrieval evaluation: 2 queries scored (1 skipped)"
    assert text.splitlines()[1].split() == ["metric", "@1", "@10"]
    assert f"{report.metrics['ndcg@10']:.4f}" in text


def test_report_survives_a_round_trip_through_its_constructor() -> None:
    report = RetrievalEvalReport({"ndcg@10": 0.5}, {"q": {"ndcg@10": 0.5}}, 1, [10])
    again = RetrievalEvalReport(**{**report.to_dict(), "k_values": tuple(report.k_values)})
    assert again == report


@settings(deadline=None, max_examples=examples(60))
@given(
    runs=st.dictionaries(st.sampled_from(["q1", "q2", "q3", "q4"]), rankings, min_size=1),
    judged=st.dictionaries(st.sampled_from(["q1", "q2", "q3", "q4"]), judgements, min_size=1),
)
def test_means_equal_the_per_query_functions(runs, judged) -> None:
    registry = Registry.load(autoload=False)
    scorable = {q for q, j in judged.items() if any(g > 0 for g in j.values())}
    queries = {q: q for q in runs}
    if not scorable & set(queries):
        return
    report = evaluate_retrieval(
        lambda q, *, limit: runs[q][:limit],
        judged,
        queries,
        k_values=(3,),
        registry=registry,
        check_doc_ids=False,  # random rankings: one that meets no judged doc is no mistake
    )
    scored = sorted(scorable & set(queries))
    assert sorted(report.per_query) == scored
    expected = sum(recall_at_k(runs[q], judged[q], 3) for q in scored) / len(scored)
    assert report.metrics["recall@3"] == pytest.approx(expected, abs=1e-12)


class NoneMetricPlugin:
    @hookimpl
    def ef_evaluation_metrics(self):
        return RetrievalMetric(name="sloppy", func=lambda ranked, relevant, k: None)  # type: ignore[arg-type,return-value]  # the point of the test


def test_a_metric_returning_a_non_number_is_an_error_naming_metric_and_query() -> None:
    pm, infos = load_plugin_manager(autoload=False)
    pm.register(NoneMetricPlugin(), name="sloppy")
    registry = Registry.from_plugin_manager(pm, infos)
    with pytest.raises(PluginError, match="retrieval metric 'sloppy' returned None for query 'q1'"):
        evaluate_retrieval(retriever, QRELS, QUERIES, metrics=("sloppy",), registry=registry)


@pytest.mark.parametrize("check_doc_ids", [True, False])
def test_the_judged_docs_are_placed_once_for_the_check_and_the_scores(
    monkeypatch, check_doc_ids
) -> None:
    # The doc-id check reads which queries met the qrels from the hits the scores use: the
    # rankings are searched for judged docs once, not once more by the check.
    from ef.evaluation._hits import JudgedHits
    from ef.evaluation._runs.ranked import RankedLists

    placed = []
    from_rankings = JudgedHits.from_rankings.__func__  # type: ignore[attr-defined]

    def counted(cls, *args, **kwargs):
        placed.append(args)
        return from_rankings(cls, *args, **kwargs)

    def searched_again(*args, **kwargs):
        raise AssertionError("the rankings were searched again for the doc-id check")

    monkeypatch.setattr(JudgedHits, "from_rankings", classmethod(counted))
    monkeypatch.setattr(RankedLists, "judged_queries", searched_again)
    answers = {"alpha": ["d1", "x"], "beta": ["y", "d2"], "gamma": ["z"]}
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 2, "y": 0}, "q3": {"w": 1}}
    queries = {"q1": "alpha", "q2": "beta", "q3": "gamma"}
    report = evaluate_retrieval(
        lambda text, *, limit: answers[text][:limit],
        qrels,
        queries,
        k_values=(1, 2),
        check_doc_ids=check_doc_ids,
    )
    assert len(placed) == 1
    assert report.per_query["q2"]["recall@2"] == 1.0
    assert report.per_query["q3"]["ndcg@2"] == 0.0


@settings(deadline=None, max_examples=examples(100))
@given(
    judged=st.dictionaries(
        st.sampled_from(["q1", "q2", "q3", "q4", "q5"]), judgements, min_size=1, max_size=5
    ),
    texts=st.sets(st.sampled_from(["q1", "q2", "q3", "q4", "q5"])),
    failing=st.sets(st.sampled_from(["q1", "q2", "q3", "q4", "q5"]), max_size=1),
    ignore=st.booleans(),
)
def test_the_query_sets_of_a_retrieval_are_those_query_sets_gives(
    judged, texts, failing, ignore
) -> None:
    # scored_retrieval knows the query sets from its walk of qrels when every runnable
    # query was answered: the report is the one the engine's query_sets gives, skipped
    # queries and their reasons in qrels' order included.
    from ef.evaluation._evaluate import retrieval

    registry = Registry.load(autoload=False)
    queries = {q: q for q in sorted(texts)}  # another order than qrels'

    def search(text: str, *, limit: int) -> list[str]:
        if text in failing:
            raise RuntimeError("down")
        return ["d1", text, "d2", "d3", "d4"][:limit]  # a text is its query's id

    def report() -> object:
        try:
            return evaluate_retrieval(
                search, judged, queries, k_values=(2,), registry=registry,
                on_error="skip", check_doc_ids=False, ignore_identical_ids=ignore,
            )  # fmt: skip
        except ValueError as exc:  # no query can be scored: the same refusal either way
            return str(exc)

    known = report()
    scored_rankings = retrieval.scored_rankings

    def engine_sets(*args, **kwargs):
        return scored_rankings(*args, **{**kwargs, "sets": None})

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(retrieval, "scored_rankings", engine_sets)
        engine = report()
    assert known == engine
    if isinstance(known, RetrievalEvalReport):
        assert isinstance(engine, RetrievalEvalReport)
        assert list(known.skipped.items()) == list(engine.skipped.items())
        assert list(known.per_query) == list(engine.per_query)
