"""retrieve() and evaluate_retrieval(executor=...): batching, executors, errors, progress."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    Registry,
    Retrieval,
    RetrieverAdapter,
    RetrieverError,
    evaluate_retrieval,
    hookimpl,
    retrieve,
    write_run,
)
from ef.evaluation._engine.retrieve import searcher_for
from ef.evaluation._plugin_engine.loading import load_plugin_manager
from ef.evaluation.adapters import basic
from ef.evaluation.adapters.precomputed import PrecomputedRun, adapt_precomputed_run

from .conftest import dask_client
from .profiles_hypothesis import examples
from .retrieval_helpers import (
    BatchFailingIndex,
    BatchIndex,
    FailingBatchIndex,
    FailingIndex,
    PerQueryIndex,
    RecordingBatchIndex,
    UnpicklableFailure,
    ranked_docs,
)

ROOT = Path(__file__).parents[1]
QUERIES = {f"q{i}": f"t{i}" for i in range(11)}
QRELS = {f"q{i}": {f"d{i % 8}": 1.0, f"d{(i + 3) % 8}": 2.0} for i in range(11)}


def expected_ranking(text: str, limit: int) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ranked_docs(text)[:limit]))


EXPECTED = Retrieval(
    rankings={qid: expected_ranking(text, 5) for qid, text in QUERIES.items()}, failures={}
)


@pytest.fixture(scope="module")
def process_pool() -> Iterator[cf.ProcessPoolExecutor]:
    # Spawned workers import the test helpers from the checkout, as the parent does.
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ROOT))
        context = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(2, mp_context=context) as pool:
            yield pool


@pytest.fixture(scope="module")
def dask_executor() -> Iterator[cf.Executor]:
    with dask_client(processes=False) as client:
        yield client.get_executor()


def executor_named(name: str, request: pytest.FixtureRequest) -> Any:
    """Only the one asked for: building Dask's for every case would skip them all without it."""
    if name == "thread_pool":
        return cf.ThreadPoolExecutor(3)
    if name in {"processes", "dask"}:
        return request.getfixturevalue("process_pool" if name == "processes" else "dask_executor")
    return {"inline": None, "threads": 2}[name]


EXECUTORS = [
    "inline",
    "threads",
    "thread_pool",
    "processes",
    pytest.param("dask", marks=pytest.mark.retrievers),
]


@pytest.mark.parametrize("name", EXECUTORS)
@pytest.mark.parametrize("index", [PerQueryIndex(), BatchIndex()], ids=["per_query", "batch"])
def test_every_executor_gives_the_same_retrieval(name, index, request, builtin_registry) -> None:
    executor = executor_named(name, request)
    result = retrieve(
        index, QUERIES, limit=5, executor=executor, batch_size=3, registry=builtin_registry
    )
    assert result == EXPECTED
    assert list(result.rankings) == list(QUERIES)  # in query order, whatever finished first


@pytest.mark.parametrize("name", EXECUTORS)
def test_every_executor_gives_the_same_report(name, request, builtin_registry) -> None:
    inline = evaluate_retrieval(
        BatchIndex(), QRELS, QUERIES, k_values=(1, 3, 5), registry=builtin_registry
    )
    other = evaluate_retrieval(
        BatchIndex(),
        QRELS,
        QUERIES,
        k_values=(1, 3, 5),
        registry=builtin_registry,
        executor=executor_named(name, request),
        batch_size=4,
    )
    assert other == inline
    assert other.to_dict() == inline.to_dict()


@pytest.mark.retrievers
def test_dask_on_worker_processes_gives_the_same_retrieval(builtin_registry, monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))  # the workers unpickle tests.retrieval_helpers
    with dask_client(processes=True) as client:
        result = retrieve(
            BatchIndex(),
            QUERIES,
            limit=5,
            executor=client.get_executor(),
            batch_size=2,
            registry=builtin_registry,
        )
    assert result == EXPECTED


def test_results_pickle_and_copy(builtin_registry) -> None:
    import copy

    result = retrieve(
        FailingIndex(frozenset({"t1"})), QUERIES, on_error="skip", registry=builtin_registry
    )
    assert pickle.loads(pickle.dumps(result)) == result
    assert copy.deepcopy(result) == result
    report = evaluate_retrieval(BatchIndex(), QRELS, QUERIES, registry=builtin_registry)
    assert pickle.loads(pickle.dumps(report)) == report


def test_a_given_executor_is_not_shut_down(builtin_registry) -> None:
    with cf.ThreadPoolExecutor(2) as pool:
        retrieve(BatchIndex(), QUERIES, limit=5, executor=pool, registry=builtin_registry)
        assert pool.submit(sum, [1, 2]).result() == 3


@pytest.mark.parametrize("batch_size", [1, 3, 11, 50])
def test_batches_are_cut_at_batch_size(batch_size, builtin_registry) -> None:
    index = RecordingBatchIndex()
    result = retrieve(index, QUERIES, limit=5, batch_size=batch_size, registry=builtin_registry)
    assert result == EXPECTED
    sizes = [len(call) for call in index.calls]
    full, rest = divmod(len(QUERIES), batch_size)
    assert sizes == [batch_size] * full + ([rest] if rest else [])
    assert [text for call in index.calls for text in call] == list(QUERIES.values())


def test_batch_and_per_query_adapters_agree(builtin_registry) -> None:
    per_query = retrieve(PerQueryIndex(), QUERIES, limit=7, registry=builtin_registry)
    batch = retrieve(BatchIndex(), QUERIES, limit=7, registry=builtin_registry)
    assert per_query == batch
    assert searcher_for(PerQueryIndex(), builtin_registry).adapter == "search_method"
    assert searcher_for(BatchIndex(), builtin_registry).adapter == "search_batch_method"


def test_no_query_is_no_call(builtin_registry) -> None:
    index = RecordingBatchIndex()
    assert retrieve(index, {}, executor=2, registry=builtin_registry) == Retrieval({}, {})
    assert index.calls == []


@settings(deadline=None, max_examples=examples(25))
@given(
    batch_size=st.integers(1, 15),
    executor=st.sampled_from([None, 1, 2, 3]),
    limit=st.integers(1, 14),
    batched=st.booleans(),
    n=st.integers(0, 11),
)
def test_any_executor_and_batch_size_give_the_inline_rankings(
    batch_size, executor, limit, batched, n
) -> None:
    registry = Registry.load(autoload=False)
    queries = dict(list(QUERIES.items())[:n])
    index = BatchIndex() if batched else PerQueryIndex()
    result = retrieve(
        index, queries, limit=limit, executor=executor, batch_size=batch_size, registry=registry
    )
    assert dict(result.rankings) == {q: expected_ranking(t, limit) for q, t in queries.items()}


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("executor", [None, 2])
@pytest.mark.parametrize("index_type", [FailingIndex, FailingBatchIndex])
def test_a_failing_query_stops_the_run_naming_it(executor, index_type, builtin_registry) -> None:
    index = index_type(frozenset({"t4", "t8"}))
    with pytest.raises(
        RetrieverError, match=r"the retriever raised on query 'q4': ValueError: cannot answer t4"
    ) as info:
        retrieve(index, QUERIES, executor=executor, batch_size=3, registry=builtin_registry)
    assert isinstance(info.value.__cause__, ValueError)


@pytest.mark.parametrize("executor", [None, 2])
@pytest.mark.parametrize("index_type", [FailingIndex, FailingBatchIndex])
def test_on_error_skip_records_the_failures(executor, index_type, builtin_registry) -> None:
    index = index_type(frozenset({"t4", "t8"}))
    result = retrieve(
        index,
        QUERIES,
        limit=5,
        executor=executor,
        batch_size=3,
        on_error="skip",
        registry=builtin_registry,
    )
    assert dict(result.failures) == {
        "q4": "ValueError: cannot answer t4",
        "q8": "ValueError: cannot answer t8",
    }
    assert dict(result.rankings) == {
        q: r for q, r in EXPECTED.rankings.items() if q not in {"q4", "q8"}
    }


def test_a_batch_that_fails_only_as_a_batch_names_its_queries(builtin_registry) -> None:
    with pytest.raises(
        RetrieverError,
        match=r"raised on a batch of queries \('q0', 'q1', 'q2'\), but on none of them alone: "
        r"RuntimeError: batch of 3 too large",
    ):
        retrieve(BatchFailingIndex(), QUERIES, batch_size=3, registry=builtin_registry)
    result = retrieve(
        BatchFailingIndex(), QUERIES, batch_size=5, on_error="skip", registry=builtin_registry
    )
    assert dict(result.failures) == {
        f"q{i}": f"RuntimeError: batch of {5 if i < 10 else 1} too large" for i in range(10)
    }
    assert list(result.rankings) == ["q10"]  # the last batch holds one query: it runs
    ok = retrieve(BatchFailingIndex(), QUERIES, limit=5, batch_size=1, registry=builtin_registry)
    assert ok == EXPECTED


def test_a_stop_runs_no_later_batch_inline(builtin_registry) -> None:
    calls: list[str] = []

    def search(query: str, *, limit: int) -> list[str]:
        calls.append(query)
        if query == "t2":
            raise KeyError(query)
        return []

    with pytest.raises(RetrieverError, match="query 'q2': KeyError: 't2'"):
        retrieve(search, QUERIES, batch_size=4, registry=builtin_registry)
    assert calls == ["t0", "t1", "t2", "t3"]  # the failing batch finishes; no other starts


def test_evaluate_retrieval_skips_failed_queries_with_the_reason(builtin_registry) -> None:
    report = evaluate_retrieval(
        FailingBatchIndex(frozenset({"t4"})),
        {**QRELS, "q99": {"d1": 1}},
        QUERIES,
        k_values=(5,),
        on_error="skip",
        executor=2,
        batch_size=3,
        registry=builtin_registry,
    )
    assert dict(report.skipped) == {
        "q4": "retriever raised: ValueError: cannot answer t4",
        "q99": "no query text in queries",
    }
    assert report.n_queries == 10
    assert "q4" not in report.per_query
    with pytest.raises(RetrieverError, match="query 'q4'"):
        evaluate_retrieval(
            FailingIndex(frozenset({"t4"})), QRELS, QUERIES, registry=builtin_registry
        )


def test_when_every_query_fails_nothing_can_be_scored(builtin_registry) -> None:
    everything = frozenset(QUERIES.values())
    with pytest.raises(
        ValueError, match=r"no query can be scored \(retriever raised: ValueError: cannot answer"
    ):
        evaluate_retrieval(
            FailingIndex(everything), QRELS, QUERIES, on_error="skip", registry=builtin_registry
        )


@pytest.mark.parametrize("on_error", ["raise", "skip"])
@pytest.mark.parametrize("executor", [None, 2])
def test_a_result_without_doc_id_is_a_type_error_even_when_skipping(
    on_error, executor, builtin_registry
) -> None:
    def search(query: str, *, limit: int) -> list[Any]:
        return [3.5] if query == "t5" else ["d1"]

    with pytest.raises(
        TypeError, match=r"query 'q5': result 1: cannot find a doc id in the retriever result"
    ):
        retrieve(search, QUERIES, executor=executor, on_error=on_error, registry=builtin_registry)


def test_a_batch_with_the_wrong_number_of_answers_is_a_type_error(builtin_registry) -> None:
    class Short:
        def search_batch(self, texts: list[str], limit: int) -> list[list[str]]:
            return [["d1"]]

    with pytest.raises(TypeError, match=r"query 'q0': the retriever returned 1 result lists for 3"):
        retrieve(Short(), QUERIES, batch_size=3, registry=builtin_registry)


def test_an_unpicklable_exception_from_a_worker_process_still_names_the_query(
    process_pool, builtin_registry
) -> None:
    with pytest.raises(RetrieverError, match=r"query 'q3': UnpicklableError: t3: broken") as info:
        retrieve(UnpicklableFailure(), QUERIES, executor=process_pool, registry=builtin_registry)
    assert info.value.__cause__ is None  # it could not cross the process boundary
    with pytest.raises(RetrieverError, match=r"query 'q4': ValueError: cannot answer t4") as info:
        retrieve(
            FailingIndex(frozenset({"t4"})),
            QUERIES,
            executor=process_pool,
            registry=builtin_registry,
        )
    assert isinstance(info.value.__cause__, ValueError)  # this one could


def test_a_process_pool_needs_a_picklable_retriever(process_pool, builtin_registry) -> None:
    with pytest.raises(
        TypeError,
        match=r"the retriever \(adapted by 'callable'\) cannot be sent to a process pool: it "
        r"does not pickle .*use threads",
    ):
        retrieve(lambda q: [q], QUERIES, executor=process_pool, registry=builtin_registry)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"limit": 0}, r"limit must be a positive int, got 0"),
        ({"limit": True}, r"limit must be a positive int, got True"),
        ({"batch_size": 0}, r"batch_size must be a positive int, got 0"),
        ({"batch_size": 2.5}, r"batch_size must be a positive int, got 2.5"),
        ({"on_error": "ignore"}, r"on_error must be one of \('raise', 'skip'\), got 'ignore'"),
        ({"executor": 0}, r"executor must be None \(run inline\), a positive int .*got 0"),
        ({"executor": "threads"}, r"executor must be None .*Executor, got 'threads'"),
        ({"progress": "yes"}, r"progress must be a bool or a callable \(done, total\), got 'yes'"),
    ],
)
def test_bad_options_are_value_errors(kwargs, message, builtin_registry) -> None:
    with pytest.raises(ValueError, match=message):
        retrieve(BatchIndex(), QUERIES, registry=builtin_registry, **kwargs)
    if "limit" not in kwargs:  # evaluate_retrieval has its own limit rule (None is allowed)
        with pytest.raises(ValueError, match=message):
            evaluate_retrieval(BatchIndex(), QRELS, QUERIES, registry=builtin_registry, **kwargs)


def test_a_query_text_must_be_a_string(builtin_registry) -> None:
    with pytest.raises(TypeError, match=r"query 'q2': the query text is int, not a str"):
        retrieve(BatchIndex(), {"q1": "a", "q2": 7}, registry=builtin_registry)  # type: ignore[dict-item]


def test_an_unadaptable_retriever_lists_the_adapters_tried(builtin_registry) -> None:
    with pytest.raises(
        TypeError,
        match=r"no retriever adapter accepts int objects; tried: langchain .*search_batch_method .*"
        r"search_method .*retrieve_method .*precomputed_run .*callable",
    ):
        retrieve(42, QUERIES, registry=builtin_registry)


# -- progress --------------------------------------------------------------------------------


@pytest.mark.parametrize("executor", [None, 3])
def test_progress_is_reported_in_monotone_query_counts(executor, builtin_registry) -> None:
    seen: list[tuple[int, int]] = []
    retrieve(
        BatchIndex(),
        QUERIES,
        executor=executor,
        batch_size=2,
        progress=lambda done, total: seen.append((done, total)),
        registry=builtin_registry,
    )
    counts = [done for done, _ in seen]
    assert counts[0] == 0
    assert counts[-1] == len(QUERIES)
    assert counts == sorted(counts)
    assert {total for _, total in seen} == {len(QUERIES)}


def test_progress_true_draws_a_bar_on_stderr(capsys, builtin_registry) -> None:
    result = retrieve(BatchIndex(), QUERIES, limit=5, progress=True, registry=builtin_registry)
    assert result == EXPECTED
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "retrieving" in captured.err
    assert "11/11" in captured.err


def test_evaluate_retrieval_passes_progress_on(builtin_registry) -> None:
    seen: list[tuple[int, int]] = []
    evaluate_retrieval(
        BatchIndex(),
        {**QRELS, "q0": {"d0": 0}},
        QUERIES,
        progress=lambda done, total: seen.append((done, total)),
        registry=builtin_registry,
    )
    assert seen[-1] == (10, 10)  # q0 has no positive judgement: it is never run


# -- precomputed runs ------------------------------------------------------------------------


def test_a_run_mapping_answers_by_query_id(builtin_registry) -> None:
    run = {"q1": {"d1": 0.5, "d2": 0.5, "d3": 0.9}, "q2": ["d7", "d6", "d7"]}
    result = retrieve(run, {"q1": "?", "q2": "?", "q3": "?"}, limit=2, registry=builtin_registry)
    assert dict(result.rankings) == {"q1": ("d3", "d2"), "q2": ("d7", "d6"), "q3": ()}
    assert searcher_for(run, builtin_registry).adapter == "precomputed_run"


def test_a_run_file_answers_by_query_id(tmp_path, builtin_registry) -> None:
    path = tmp_path / "run.trec"
    write_run(path, {"q1": {"d1": 0.5, "d2": 0.5, "d3": 0.9}, "q2": {"d9": 1.0}})
    for run_path in (path, str(path)):
        result = retrieve(run_path, {"q1": "?", "q2": "?"}, registry=builtin_registry)
        assert dict(result.rankings) == {"q1": ("d3", "d2", "d1"), "q2": ("d9",)}
    report = evaluate_retrieval(
        path, {"q1": {"d1": 1}, "q2": {"d9": 1}}, {"q1": "", "q2": ""}, k_values=(3,),
        registry=builtin_registry,
    )  # fmt: skip
    assert report.metrics["recall@3"] == 1.0


def test_a_missing_run_file(tmp_path, builtin_registry) -> None:
    with pytest.raises(FileNotFoundError, match=r"nope\.trec"):
        retrieve(tmp_path / "nope.trec", QUERIES, registry=builtin_registry)
    with pytest.raises(TypeError, match="no retriever adapter accepts str objects"):
        retrieve(str(tmp_path / "nope.trec"), QUERIES, registry=builtin_registry)


def test_a_bad_score_in_a_run_mapping_names_the_query(builtin_registry) -> None:
    with pytest.raises(ValueError, match=r"run\['q1'\]\['d1'\] = nan: not finite"):
        retrieve({"q1": {"d1": float("nan")}}, QUERIES, registry=builtin_registry)


# -- adapters --------------------------------------------------------------------------------


def test_adapted_functions_pickle(tmp_path) -> None:
    functions = [
        basic.adapt_search(PerQueryIndex()),
        basic.adapt_retrieve(PerQueryIndex()),
        basic.adapt_callable(PerQueryIndex().search),
        basic.adapt_callable(ranked_docs),
    ]
    for search in functions:
        again = pickle.loads(pickle.dumps(search))
        assert again("t1", 3) == search("t1", 3)
        assert again("t1", 3)[:3] == ranked_docs("t1")[:3]  # retrieve() takes no limit
    batch = pickle.loads(pickle.dumps(basic.adapt_search_batch(BatchIndex())))
    assert batch(["q1"], ["t1"], 3) == [ranked_docs("t1")[:3]]
    run = pickle.loads(pickle.dumps(adapt_precomputed_run({"q1": ["d2", "d1"]})))
    assert run == PrecomputedRun({"q1": ("d2", "d1")})


class BothForms:
    """A plugin adapter with a batch form and a per-query form."""

    calls: list[str] = []  # noqa: RUF012 - a test spy

    @hookimpl(tryfirst=True)
    def ef_evaluation_retriever_adapters(self) -> list[RetrieverAdapter]:
        def batch(ids, texts, limit):
            BothForms.calls.append("batch")
            return [[t] for t in texts]

        def one(text, limit):  # pragma: no cover - the batch form wins
            BothForms.calls.append("one")
            return [text]

        return [
            RetrieverAdapter(
                name="both",
                accepts=lambda obj: obj == "both",
                adapt=lambda obj: one,
                adapt_batch=lambda obj: batch,
            )
        ]


def test_an_adapter_with_both_forms_is_batched() -> None:
    pm, infos = load_plugin_manager(autoload=False)
    pm.register(BothForms(), name="both")
    registry = Registry.from_plugin_manager(pm, infos)
    result = retrieve("both", {"q1": "a", "q2": "b"}, batch_size=2, registry=registry)
    assert dict(result.rankings) == {"q1": ("a",), "q2": ("b",)}
    assert BothForms.calls == ["batch"]
