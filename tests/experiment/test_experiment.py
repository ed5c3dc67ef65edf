"""Experiment: the systems' numbers are compare()'s, latency by an injected clock, the cache."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    ComparisonReport,
    Experiment,
    Latency,
    Registry,
    System,
    compare,
    evaluate_retrieval,
    evaluate_run,
    write_run,
)

N = 12
QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 2} for i in range(N)}
QUERIES = {f"q{i}": f"text {i}" for i in range(N)}


def ranking(shift: int) -> Callable[..., list[str]]:
    """A retriever whose relevant docs sit lower as ``shift`` grows, by query."""

    def search(query: str, *, limit: int) -> list[str]:
        i = int(query.split()[1])
        docs = [f"x{i}-{j}" for j in range((i * shift) % 5)] + [f"d{i}", f"y{i}", f"e{i}"]
        return docs[:limit]

    return search


class Counting:
    """A retriever that counts its calls, with an optional declared version."""

    def __init__(self, shift: int, version: str | None = None) -> None:
        self.search_function = ranking(shift)
        self.calls = 0
        if version is not None:
            self.version = version

    def search(self, query: str, limit: int = 10) -> list[str]:
        self.calls += 1
        return self.search_function(query, limit=limit)


class Batching:
    """A retriever with a batch form, whose calls are counted by the number of queries."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.function = ranking(2)

    def search_batch(self, texts: Sequence[str], limit: int) -> list[list[str]]:
        self.sizes.append(len(texts))
        return [self.function(text, limit=limit) for text in texts]


class Ticks:
    """A clock that moves on by the next of ``steps`` at each reading (then by 0)."""

    def __init__(self, steps: Sequence[float]) -> None:
        self.now = 0.0
        self.steps = list(steps)

    def __call__(self) -> float:
        self.now += self.steps.pop(0) if self.steps else 0.0
        return self.now


def experiment(systems: Any, **options: Any) -> Experiment:
    options.setdefault("metrics", ("mrr@10", "ndcg@10"))
    options.setdefault("seed", 3)
    options.setdefault("registry", Registry.load(autoload=False))
    return Experiment(systems, (QUERIES, QRELS), **options)


# --- the numbers are compare()'s ------------------------------------------------------


def test_the_comparison_is_compare_of_evaluate_retrieval() -> None:
    registry = Registry.load(autoload=False)
    systems = {"a": ranking(0), "b": ranking(1), "c": ranking(3)}
    report = experiment(systems, baseline="a", correction="holm").run()
    reports = {
        name: evaluate_retrieval(
            retriever, QRELS, QUERIES, metrics=("mrr@10", "ndcg@10"), registry=registry
        )
        for name, retriever in systems.items()
    }
    expected = compare(
        reports, metrics=("mrr@10", "ndcg@10"), baseline="a", correction="holm", seed=3
    )
    assert report == expected  # latency and runs are not compared by ==
    assert report.latency.keys() == {"a", "b", "c"}
    assert dict(report.runs) == dict.fromkeys("abc", "computed")


def test_evaluate_gives_each_systems_retrieval_report() -> None:
    registry = Registry.load(autoload=False)
    reports = experiment({"a": ranking(0), "b": ranking(2)}).evaluate()
    for name, shift in (("a", 0), ("b", 2)):
        alone = evaluate_retrieval(
            ranking(shift), QRELS, QUERIES, metrics=("mrr@10", "ndcg@10"), registry=registry
        )
        assert reports[name].metrics == alone.metrics
        assert reports[name].per_query == alone.per_query


def test_a_stored_run_is_scored_as_evaluate_run_and_versioned_by_its_digest(
    tmp_path: Path,
) -> None:
    import hashlib

    run = {q: {f"d{i}": 1.0, f"x{i}": 2.0} for i, q in enumerate(QUERIES)}
    path = tmp_path / "stored.trec"
    write_run(path, run)
    results = experiment({"live": ranking(0), "stored": path}).results()
    stored = results[1]
    assert stored.version == hashlib.sha256(path.read_bytes()).hexdigest()
    assert stored.latency is None
    assert stored.source == f"stored run (sha256 {stored.version[:12]})"
    assert stored.report.metrics == evaluate_run(path, QRELS, metrics=("mrr@10", "ndcg@10")).metrics


# --- latency ----------------------------------------------------------------------------


def test_latency_is_the_clock_around_each_call_alone() -> None:
    # Two readings per call: start and end. The steps between them are the call times.
    durations = [0.001 * (i + 1) for i in range(N)]
    steps = [s for d in durations for s in (0.5, d)]  # 0.5 s outside each call: not counted
    report = experiment({"a": ranking(0), "b": ranking(1)}, clock=Ticks(steps)).run()
    latency = report.latency["a"]
    assert latency.queries == N
    assert latency.calls == N
    assert not latency.batched
    assert latency.mean == pytest.approx(float(np.mean(durations)), abs=1e-12)
    assert latency.p50 == pytest.approx(float(np.percentile(durations, 50)), abs=1e-12)
    assert latency.p95 == pytest.approx(float(np.percentile(durations, 95)), abs=1e-12)
    assert report.latency["b"].mean == 0.0  # the clock stopped moving
    assert "each query timed alone" in str(report)


def test_batches_give_the_time_per_call_beside_the_time_per_query() -> None:
    batching = Batching()
    steps = [s for d in (0.4, 0.4, 0.4, 0.3, 0.3, 0.3) for s in (0.0, d)]
    report = experiment(
        {"batched": batching, "other": ranking(0)}, batch_size=5, clock=Ticks(steps)
    ).run()
    assert batching.sizes == [5, 5, 2]
    latency = report.latency["batched"]
    per_query = [0.4 / 5] * 5 + [0.4 / 5] * 5 + [0.4 / 2] * 2
    assert latency.batched
    assert latency.calls == 3
    assert latency.queries == N
    assert latency.mean == pytest.approx(float(np.mean(per_query)), abs=1e-12)
    assert latency.batch_mean == pytest.approx(0.4, abs=1e-12)
    assert latency.describe() == "in batches of 5, one call after another"
    text = report.to_markdown()
    assert "call mean ms" in text
    assert "in batches of 5" in text


def test_an_executor_is_said_and_timed_per_call() -> None:
    report = experiment({"a": ranking(0), "b": ranking(1)}, executor=2, batch_size=3).run()
    latency = report.latency["a"]
    assert latency.executor == "2 threads"
    assert latency.batched
    assert latency.queries == N
    assert "on 2 threads" in str(report)
    assert report.manifest["experiment"]["executor"] == "2 threads"


def test_another_executor_runs_untimed_and_says_so() -> None:
    from concurrent.futures import Executor, Future

    class Inline(Executor):  # as a process pool or a Dask client is to ef: not threads
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            future: Future[Any] = Future()
            future.set_result(fn(*args, **kwargs))
            return future

    report = experiment({"a": ranking(0), "b": ranking(1)}, executor=Inline()).run()
    assert not report.latency
    assert report.runs["a"] == "computed; not timed: it ran on Inline"
    assert report.means == experiment({"a": ranking(0), "b": ranking(1)}).run().means


@given(
    st.lists(
        st.tuples(st.integers(1, 4), st.floats(0, 10, allow_nan=False)), min_size=1, max_size=30
    )
)
@settings(max_examples=100, deadline=None)
def test_latency_summaries_equal_numpys(calls: list[tuple[int, float]]) -> None:
    latency = Latency.of_calls(calls, batch_size=4)
    per_query = [seconds / n for n, seconds in calls for _ in range(n)]
    assert latency.mean == pytest.approx(float(np.mean(per_query)), rel=1e-9, abs=1e-12)
    assert latency.p50 == pytest.approx(float(np.percentile(per_query, 50)), rel=1e-9, abs=1e-12)
    assert latency.p95 == pytest.approx(float(np.percentile(per_query, 95)), rel=1e-9, abs=1e-12)
    assert latency.batched == any(n > 1 for n, _ in calls)
    if latency.batched:
        times = [seconds for _, seconds in calls]
        assert latency.batch_p95 == pytest.approx(float(np.percentile(times, 95)), abs=1e-12)


def test_latency_renders_in_every_output_and_survives_json(tmp_path: Path) -> None:
    report = experiment(
        {"a": Counting(0, "1"), "b": ranking(1)},
        cache=tmp_path,
        clock=Ticks([0.0, 0.002] * N),
    ).run()
    assert "Latency per query" in str(report)
    assert "Latency per query" in report.to_markdown()
    assert "Latency per query" in report._repr_html_()
    data = json.loads(report.to_json())
    assert data["latency"]["a"]["mean"] == pytest.approx(0.002)
    assert data["runs"]["b"] == "computed; not cached: no version"
    back = ComparisonReport.from_dict(data)
    assert back.latency == report.latency
    assert back.runs == report.runs
    # The table says why a system without a version was not cached.
    assert "never cached" in str(report)


# --- the cache --------------------------------------------------------------------------


def test_a_second_run_reads_the_cache_and_calls_nothing(tmp_path: Path) -> None:
    a, b = Counting(0, "v1"), Counting(2, "v1")
    first = experiment({"a": a, "b": b}, cache=tmp_path).run()
    assert (a.calls, b.calls) == (N, N)
    second = experiment({"a": a, "b": b}, cache=tmp_path).run()
    assert (a.calls, b.calls) == (N, N)  # no call at all
    assert second == first
    assert second.runs["a"].startswith("from the cache (computed ")
    assert second.latency == first.latency  # the latency measured when it was computed


def test_a_version_bump_computes_again(tmp_path: Path) -> None:
    a, b = Counting(0, "v1"), Counting(2, "v1")
    experiment({"a": a, "b": b}, cache=tmp_path).run()
    bumped = Counting(0, "v2")
    report = experiment({"a": bumped, "b": b}, cache=tmp_path).run()
    assert bumped.calls == N
    assert b.calls == N
    assert report.runs["a"] == "computed; cached"
    # System(version=...) wins over the retriever's attribute.
    c = Counting(0, "v1")
    experiment([System("a", c, version="v3"), System("b", b)], cache=tmp_path).run()
    assert c.calls == N


def test_the_depth_and_the_queries_are_part_of_the_key(tmp_path: Path) -> None:
    a, b = Counting(0, "v1"), Counting(2, "v1")
    experiment({"a": a, "b": b}, cache=tmp_path).run()
    experiment({"a": a, "b": b}, cache=tmp_path, limit=20).run()
    assert a.calls == 2 * N
    changed = dict(QUERIES, q0="text 0 ")  # one query's text changed: every run again
    Experiment({"a": a, "b": b}, (changed, QRELS), cache=tmp_path, metrics=("mrr@10",)).run()
    assert a.calls == 3 * N


def test_a_system_without_a_version_is_never_cached(tmp_path: Path) -> None:
    unversioned, b = Counting(0), Counting(2, "v1")
    for _ in range(2):
        report = experiment({"a": unversioned, "b": b}, cache=tmp_path).run()
    assert unversioned.calls == 2 * N
    assert b.calls == N
    assert report.runs["a"] == "computed; not cached: no version"
    assert len(list(tmp_path.glob("*.json"))) == 1


def test_an_edited_plain_callable_is_not_served_a_stale_run(tmp_path: Path) -> None:
    first = experiment({"a": ranking(0), "b": ranking(1)}, cache=tmp_path).run()
    edited = experiment({"a": ranking(4), "b": ranking(1)}, cache=tmp_path).run()
    alone = evaluate_retrieval(ranking(4), QRELS, QUERIES, metrics=("mrr@10", "ndcg@10"))
    assert edited.means["a"]["mrr@10"] == pytest.approx(alone.metrics["mrr@10"])
    assert edited.means["a"] != first.means["a"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # a write cut short
        lambda text: "",
        lambda text: "not json at all",
        lambda text: text.replace('"d1"', '"d2"'),  # an edit: valid JSON, another run
        lambda text: json.dumps({**json.loads(text), "latency": {"mean": -1}}),
        lambda text: json.dumps([1, 2, 3]),
    ],
)
def test_a_damaged_cache_file_is_computed_again(
    tmp_path: Path, damage: Callable[[str], str]
) -> None:
    a, b = Counting(0, "v1"), Counting(2, "v1")
    first = experiment({"a": a, "b": b}, cache=tmp_path).run()
    for path in tmp_path.glob("*.json"):
        path.write_text(damage(path.read_text()))
    again = experiment({"a": a, "b": b}, cache=tmp_path).run()
    assert (a.calls, b.calls) == (2 * N, 2 * N)
    assert again == first  # the right run, never the damaged one
    assert again.runs["a"] == "computed; cached"


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = Counting(0, "v1"), Counting(2, "v1")
    experiment({"a": a, "b": b}, cache=tmp_path).run()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def refuse(source: str, target: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        experiment({"a": Counting(0, "v2"), "b": b}, cache=tmp_path).run()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_writes_go_through_a_temporary_file_and_os_replace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replaced: list[tuple[str, str]] = []
    real = os.replace

    def spy(source: str, target: str) -> None:
        replaced.append((Path(source).name, Path(target).name))
        real(source, target)

    monkeypatch.setattr(os, "replace", spy)
    experiment({"a": Counting(0, "v1"), "b": Counting(1, "v1")}, cache=tmp_path).run()
    assert len(replaced) == 2
    assert all(s.startswith(".ef-run-") and t.endswith(".json") for s, t in replaced)


def test_failed_queries_are_not_cached(tmp_path: Path) -> None:
    calls = []

    class Flaky:
        version = "1"

        def search(self, query: str, limit: int = 10) -> list[str]:
            calls.append(query)
            if query == "text 3" and len(calls) <= N:
                raise TimeoutError("slow")
            return ranking(0)(query, limit=limit)

    flaky = Flaky()
    first = experiment({"a": flaky, "b": ranking(1)}, cache=tmp_path, on_error="skip").run()
    assert first.runs["a"].startswith("computed; not cached: 1 queries failed")
    assert "q3" in first.missing["a"]
    second = experiment({"a": flaky, "b": ranking(1)}, cache=tmp_path, on_error="skip").run()
    assert len(calls) == 2 * N
    assert second.runs["a"] == "computed; cached"
    assert not second.missing["a"]


def test_clear_cache_removes_runs_only(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / ".ef-run-killed.tmp").write_text("{")
    cached = experiment({"a": Counting(0, "1"), "b": Counting(1, "1")}, cache=tmp_path)
    cached.run()
    assert cached.clear_cache() == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert cached.clear_cache() == 0
    assert experiment({"a": ranking(0), "b": ranking(1)}).clear_cache() == 0


def test_a_dataset_folder_is_read(tmp_path: Path) -> None:
    from ef.evaluation import write_dataset

    write_dataset(tmp_path, {f"d{i}": "x" for i in range(N)}, QUERIES, QRELS)
    from_folder = Experiment(
        {"a": ranking(0), "b": ranking(1)}, tmp_path, metrics=("mrr@10",), seed=1
    ).run()
    in_memory = Experiment(
        {"a": ranking(0), "b": ranking(1)}, (QUERIES, QRELS), metrics=("mrr@10",), seed=1
    ).run()
    assert from_folder == in_memory


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: System("", ranking(0)), ValueError, "non-empty"),
        (lambda: System("a"), ValueError, "give one of retriever, build or run, not 0"),
        (lambda: System("a", ranking(0), version=""), ValueError, "must not be empty"),
        (lambda: System("a", ranking(0), version=1.5), TypeError, "version must be"),
        (
            lambda: System("a", build="bm25"),  # type: ignore[arg-type]
            TypeError,
            "build must be a function",
        ),
        (lambda: experiment({"a": ranking(0)}), ValueError, "two or more systems"),
        (lambda: experiment([ranking(0), ranking(1)]), TypeError, "name it"),
        (
            lambda: experiment([System("a", ranking(0)), System("a", ranking(1))]),
            ValueError,
            "two systems are called 'a'",
        ),
        (
            lambda: experiment({"a": ranking(0), "b": ranking(1)}, baseline="c"),
            ValueError,
            "baseline 'c' is not a system",
        ),
        (
            lambda: Experiment({"a": ranking(0), "b": ranking(1)}, QRELS),
            TypeError,
            "dataset must be",
        ),
        (
            lambda: experiment({"a": ranking(0), "b": ranking(1)}, batch_size=0),
            ValueError,
            "batch_size must be a positive int",
        ),
    ],
)
def test_bad_systems_and_options_are_refused(
    make: Callable[[], object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        make()


def test_build_is_called_only_on_a_miss(tmp_path: Path) -> None:
    built = []

    def build() -> Callable[..., list[str]]:
        built.append(1)
        return ranking(0)

    systems = [System("a", build=build, version="1"), System("b", ranking(1))]
    experiment(systems, cache=tmp_path).run()
    experiment(systems, cache=tmp_path).run()
    assert built == [1]


def test_a_string_metric_is_one_metric() -> None:
    assert experiment({"a": ranking(0), "b": ranking(1)}, metrics="mrr@10").metrics == ("mrr@10",)


def test_nan_free_latency_fields_are_validated() -> None:
    with pytest.raises(ValueError, match="mean must be a number of seconds"):
        Latency(mean=math.nan, p50=0.0, p95=0.0, queries=1, calls=1)


# --- pipelines --------------------------------------------------------------------------

CORPUS = {
    **{f"d{i}": f"answer {i}. more" for i in range(N)},
    **{f"e{i}": f"better answer {i}. more" for i in range(N)},
    **{f"y{i}": f"noise {i}." for i in range(N)},
    **{f"x{i}-{j}": f"noise {i} {j}." for i in range(N) for j in range(5)},
}
REFERENCES = {f"q{i}": f"answer {i}" for i in range(N)}


def first_sentence(question: str, contexts: list[str]) -> str:
    return contexts[0].split(".")[0] if contexts else ""


def test_pipelines_are_compare_of_evaluate_pipeline(tmp_path: Path) -> None:
    from ef.evaluation import evaluate_pipeline

    registry = Registry.load(autoload=False)
    generated: list[str] = []

    def generate(question: str, contexts: list[str]) -> str:
        generated.append(question)
        return first_sentence(question, contexts)

    a, b = Counting(0, "1"), Counting(2, "1")
    systems = [System("a", a, generate=generate), System("b", b, generate=generate)]
    options: dict[str, Any] = {
        "metrics": ("ndcg@10",),
        "references": REFERENCES,
        "rag_metrics": ("token_f1",),
        "seed": 3,
        "registry": registry,
        "cache": tmp_path,
    }
    report = Experiment(systems, (CORPUS, QUERIES, QRELS), **options).run()
    expected = compare(
        {
            name: evaluate_pipeline(
                ranking(shift),
                QRELS,
                QUERIES,
                generate=first_sentence,
                corpus=CORPUS,
                references=REFERENCES,
                metrics=("ndcg@10",),
                rag_metrics=("token_f1",),
                k_values=(10,),
                registry=registry,
            )
            for name, shift in (("a", 0), ("b", 2))
        },
        metrics=("ndcg@10", "token_f1"),
        seed=3,
    )
    assert report.kind == "pipeline"
    assert report == expected
    assert len(generated) == 2 * N
    again = Experiment(systems, (CORPUS, QUERIES, QRELS), **options).run()
    assert (a.calls, b.calls) == (N, N)  # the runs came from the cache
    assert len(generated) == 4 * N  # the answers are generated afresh
    assert again == report


def test_a_stored_pipeline_is_a_run_and_its_answers(tmp_path: Path) -> None:
    run = {q: [f"d{i}"] for i, q in enumerate(QUERIES)}
    answers = {q: f"answer {i}" for i, q in enumerate(QUERIES)}
    report = Experiment(
        [
            System("stored", run=run, generate=answers),
            System("live", ranking(2), generate=first_sentence),
        ],
        (CORPUS, QUERIES, QRELS),
        metrics=("ndcg@10",),
        references=REFERENCES,
        rag_metrics=("exact_match",),
        seed=1,
    ).run()
    assert report.means["stored"]["exact_match"] == 1.0
    assert report.runs["stored"].startswith("stored run (sha256 ")


@pytest.mark.parametrize(
    ("systems", "dataset", "options", "match"),
    [
        (
            [System("a", ranking(0), generate=first_sentence), System("b", ranking(1))],
            (CORPUS, QUERIES, QRELS),
            {},
            "compared with pipelines only: give b a generate=",
        ),
        (
            [
                System("a", ranking(0), generate=first_sentence),
                System("b", ranking(1), generate=first_sentence),
            ],
            (QUERIES, QRELS),
            {},
            "pipelines need the corpus",
        ),
        (
            [
                System("a", ranking(0), generate=first_sentence),
                System("b", ranking(1), generate=first_sentence),
            ],
            (CORPUS, QUERIES, QRELS),
            {"on_error": "skip"},
            "on_error='skip' is for retrievers only",
        ),
    ],
)
def test_pipelines_refuse_what_they_cannot_do(
    systems: list[System], dataset: Any, options: dict[str, Any], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        Experiment(systems, dataset, **options)


def test_generate_must_answer() -> None:
    with pytest.raises(TypeError, match="generate must be a function"):
        System("a", ranking(0), generate="gpt")


# --- recorded in the store ------------------------------------------------------------


def test_record_writes_each_systems_report_to_the_store(tmp_path: Path) -> None:
    from ef.evaluation import open_store

    store = str(tmp_path / "store.sqlite")
    systems = {"near": ranking(0), "far": ranking(3)}
    done = experiment(systems, record=True, store=store, dataset_name="toy", tags=("a",))
    reports = done.evaluate()
    with open_store(store) as opened:
        records = opened.records(dataset="toy")
    assert [r.system for r in records] == ["near", "far"]
    assert [r.report.metrics for r in records] == [reports["near"].metrics, reports["far"].metrics]
    assert {r.tags for r in records} == {("a",)}


def test_record_without_a_dataset_name_is_refused_before_anything_runs(tmp_path: Path) -> None:
    counting = Counting(1, version="1")
    systems = {"c": counting, "near": ranking(0)}
    with pytest.raises(ValueError, match="name it with dataset="):
        experiment(systems, record=True, store=str(tmp_path / "s.sqlite"))
    assert counting.calls == 0
    # Not recording: nothing is written anywhere.
    experiment(systems).evaluate()
    assert not (tmp_path / "s.sqlite").exists()
