"""evaluate_pipeline: one report of a retriever and a generator, query by query."""

from __future__ import annotations

import concurrent.futures as cf
import json

import pytest

from ef.evaluation import (
    GeneratorError,
    PipelineEvalReport,
    RagEvalReport,
    RetrievalEvalReport,
    compare,
    evaluate_pipeline,
    evaluate_rag,
    evaluate_retrieval,
    load_report,
    read_samples,
    save_report,
    write_samples,
)

CORPUS = {
    "d1": "Paris is the capital of France. It lies on the Seine.",
    "d2": "Rome is the capital of Italy. It is old.",
    "d3": "Berlin is the capital of Germany.",
    "d4": "The Seine flows through Paris.",
}
QUERIES = {
    "q1": "capital of France",
    "q2": "capital of Italy",
    "q3": "capital of Germany",
    "q4": "river of Paris",
}
QRELS = {
    "q1": {"d1": 2, "d4": 1, "d2": 0},
    "q2": {"d2": 1},
    "q3": {"d3": 1},
    "q4": {"d4": 1},
}
REFERENCES = {"q1": "Paris", "q2": ["Rome", "the city of Rome"], "q4": "the Seine"}
RANKINGS = {
    "capital of France": ["d1", "d4", "d2"],
    "capital of Italy": ["d3", "d2"],
    "capital of Germany": ["d3"],
    "river of Paris": ["d1", "d4"],
}


def retriever(query: str, *, limit: int = 10) -> list[str]:
    return RANKINGS[query][:limit]


def first_sentence(question: str, contexts: list[str]) -> str:
    return contexts[0].split(".")[0] if contexts else ""


def pipeline(registry, **options) -> PipelineEvalReport:
    options.setdefault("generate", first_sentence)
    options.setdefault("references", REFERENCES)
    return evaluate_pipeline(
        retriever,
        options.pop("qrels", QRELS),
        QUERIES,
        corpus=CORPUS,
        registry=registry,
        **{"k_values": (1, 3), **options},
    )


def test_per_query_is_evaluate_retrieval_and_evaluate_rag_side_by_side(builtin_registry) -> None:
    report = pipeline(builtin_registry, n_contexts=2)
    retrieval = evaluate_retrieval(
        retriever, QRELS, QUERIES, k_values=(1, 3), registry=builtin_registry
    )
    assert report.retrieval == retrieval
    rag = evaluate_rag(report.samples, registry=builtin_registry)
    assert report.rag == rag
    assert report.query_ids == ("q1", "q2", "q3", "q4")
    for i, query_id in enumerate(report.query_ids):
        values = report.per_query[query_id]
        assert {k: values[k] for k in retrieval.metrics} == retrieval.per_query[query_id]
        assert {k: values[k] for k in rag.metrics} == {k: rag.per_sample[k][i] for k in rag.metrics}
    assert report.metrics == {**retrieval.metrics, **rag.metrics}
    assert report.primary == retrieval.primary
    # q3 has no reference: the metrics that need one skipped it
    assert report.per_query["q3"]["token_f1"] is None
    assert report.rag.coverage["token_f1"] == 3


def test_each_query_is_one_sample_with_its_id_contexts_and_gold_answers(builtin_registry) -> None:
    report = pipeline(builtin_registry, n_contexts=2)
    q1, q2, q3, _ = report.samples
    assert dict(q1) == {
        "id": "q1",
        "user_input": "capital of France",
        "retrieved_contexts": (CORPUS["d1"], CORPUS["d4"]),
        "retrieved_context_ids": ("d1", "d4"),
        "reference_context_ids": ("d1", "d4"),  # graded above 0, in qrels' order
        "response": "Paris is the capital of France",
        "reference": "Paris",
    }
    assert (q2["reference"], q2["references"]) == ("Rome", ("the city of Rome",))
    assert q2["retrieved_context_ids"] == ("d3", "d2")
    assert "reference" not in q3
    assert "references" not in q3


def test_the_generator_gets_the_question_and_the_top_contexts(builtin_registry) -> None:
    calls = []

    def generate(question: str, contexts: list[str]) -> str:
        calls.append((question, contexts))
        contexts.clear()  # a generator that changes its list changes nothing of ef's
        return "Paris"

    report = pipeline(builtin_registry, generate=generate, n_contexts=1)
    assert calls[0] == ("capital of France", [])
    assert [question for question, _ in calls] == list(QUERIES.values())
    assert report.samples[0]["retrieved_contexts"] == (CORPUS["d1"],)
    assert report.per_query["q1"]["exact_match"] == 1.0


def test_without_qrels_only_the_answers_are_scored(builtin_registry) -> None:
    report = pipeline(builtin_registry, qrels=None)
    assert report.retrieval is None
    assert report.primary is None
    assert report.query_ids == tuple(QUERIES)
    assert all("reference_context_ids" not in s for s in report.samples)
    # limit defaults to n_contexts (5): every ranking is whole here
    assert report.samples[0]["retrieved_context_ids"] == ("d1", "d4", "d2")
    assert set(report.metrics) == set(report.rag.metrics)
    assert "answers only (no qrels)" in str(report)


def test_queries_without_a_positive_judgement_are_skipped_from_both(builtin_registry) -> None:
    qrels = {**QRELS, "q3": {"d1": 0}}
    report = pipeline(builtin_registry, qrels=qrels)
    assert report.query_ids == ("q1", "q2", "q4")
    assert report.skipped == {"q3": "no positive judgement"}
    assert "(1 skipped)" in str(report).splitlines()[0]


def test_a_failing_retriever_with_skip_is_left_out(builtin_registry) -> None:
    def flaky(query: str, *, limit: int = 10) -> list[str]:
        if query == "capital of Italy":
            raise TimeoutError("slow")
        return retriever(query, limit=limit)

    for qrels in (QRELS, None):
        report = evaluate_pipeline(
            flaky,
            qrels,
            QUERIES,
            generate=first_sentence,
            corpus=CORPUS,
            on_error="skip",
            registry=builtin_registry,
        )
        assert "q2" not in report.query_ids
        assert report.skipped["q2"] == "retriever raised: TimeoutError: slow"


def test_a_generator_that_raises_or_returns_a_non_str_names_the_query(builtin_registry) -> None:
    def broken(question: str, contexts: list[str]) -> str:
        if question == "capital of Italy":
            raise RuntimeError("the model is down")
        return "x"

    with pytest.raises(GeneratorError, match="generate raised on query 'q2': RuntimeError: the"):
        pipeline(builtin_registry, generate=broken)
    with pytest.raises(GeneratorError, match="generate returned NoneType None for query 'q1'"):
        pipeline(builtin_registry, generate=lambda question, contexts: None)
    with pytest.raises(GeneratorError, match="query 'q2'"):
        pipeline(builtin_registry, generate=broken, executor=2)


def test_answers_given_beforehand_are_a_mapping_of_query_id(builtin_registry) -> None:
    answers = {"q1": "Paris", "q2": "Rome"}
    report = pipeline(builtin_registry, generate=answers)
    assert [s.get("response") for s in report.samples] == ["Paris", "Rome", None, None]
    assert report.per_query["q1"]["exact_match"] == 1.0
    assert report.manifest["generate"] == "answers given beforehand"
    with pytest.raises(ValueError, match=r"the answers hold 1 ids that are not queries \('q9'\)"):
        pipeline(builtin_registry, generate={"q9": "x"})
    with pytest.raises(ValueError, match="the answers share no id with the 3 queries run"):
        pipeline(builtin_registry, generate={"q3": "x"}, qrels={**QRELS, "q3": {"d1": 0}})
    with pytest.raises(GeneratorError, match="the answer of query 'q1' is int, not a str"):
        pipeline(builtin_registry, generate={"q1": 1})


@pytest.mark.parametrize(
    ("references", "message"),
    [
        ({"q1": 3}, r"references\['q1'\] must be a str or a non-empty list of str, got 3"),
        ({"q1": []}, r"references\['q1'\] must be a str or a non-empty list of str"),
        ({"q1": ["a", 2]}, r"references\['q1'\] must be a str or a non-empty list of str"),
        ({"Q1": "Paris"}, r"references hold 1 ids that are not queries \('Q1'\)"),
    ],
)
def test_bad_references_are_refused(builtin_registry, references, message) -> None:
    with pytest.raises(ValueError, match=message):
        pipeline(builtin_registry, references=references)


def test_references_for_no_query_run_are_refused(builtin_registry) -> None:
    qrels = {"q1": QRELS["q1"]}
    with pytest.raises(ValueError, match="references share no id with the 1 queries run"):
        pipeline(builtin_registry, qrels=qrels, references={"q2": "Rome"})


def test_a_retrieved_doc_missing_from_the_corpus_names_the_query(builtin_registry) -> None:
    with pytest.raises(ValueError, match="query 'q1': the retriever returned 'd4', which is not"):
        evaluate_pipeline(
            retriever,
            QRELS,
            QUERIES,
            generate=first_sentence,
            corpus={k: v for k, v in CORPUS.items() if k != "d4"},
            registry=builtin_registry,
        )


@pytest.mark.parametrize("bad", [0, -1, True, 2.0])
def test_n_contexts_must_be_a_positive_int(builtin_registry, bad) -> None:
    with pytest.raises(ValueError, match="n_contexts must be a positive int"):
        pipeline(builtin_registry, n_contexts=bad)


def test_generate_must_be_a_function_or_a_mapping(builtin_registry) -> None:
    with pytest.raises(TypeError, match="generate must be a function"):
        pipeline(builtin_registry, generate="Paris")


def test_the_executor_changes_nothing(builtin_registry) -> None:
    inline = pipeline(builtin_registry)
    assert pipeline(builtin_registry, executor=2) == inline
    with cf.ThreadPoolExecutor(2) as pool:
        assert pipeline(builtin_registry, executor=pool) == inline


def test_identical_ids_are_dropped_from_the_contexts_too(builtin_registry) -> None:
    corpus = {**CORPUS, "q1": "the query itself"}

    def echo(query: str, *, limit: int = 10) -> list[str]:
        return ["q1", *retriever(query, limit=limit)]

    report = evaluate_pipeline(
        echo,
        QRELS,
        QUERIES,
        generate=first_sentence,
        corpus=corpus,
        ignore_identical_ids=True,
        registry=builtin_registry,
    )
    assert report.samples[0]["retrieved_context_ids"][0] == "d1"
    assert report.samples[1]["retrieved_context_ids"][0] == "q1"  # not q2's own id


def test_it_renders_in_every_output(builtin_registry) -> None:
    report = pipeline(builtin_registry)
    text = str(report)
    assert text.splitlines()[0] == "Pipeline evaluation: 4 queries, retrieval and answers"
    assert "ndcg@3" in text
    assert "token_f1" in text
    summary, per_query = report.tables(details=True)
    assert summary.header == ("metric", "mean", "coverage")
    assert [row[0] for row in summary.rows][-5:] == list(report.rag.metrics)
    assert per_query.header[0] == "query"
    assert [row[0] for row in per_query.rows] == ["q1", "q2", "q3", "q4"]
    csv_lines = report.to_csv(details=True).splitlines()
    assert csv_lines[0].startswith("query,ndcg@1,ndcg@3,")
    assert csv_lines[3].startswith("q3,")
    assert csv_lines[3].endswith(",,,,,1.0")  # no reference: only non_empty_rate applies
    assert "| token_f1 |" in report.to_markdown()
    assert "\\begin{tabular}" in report.to_latex()
    assert "token\\_f1" in report.to_latex()
    assert "<table" in report._repr_html_()
    assert json.loads(report.to_json()) == json.loads(json.dumps(report.to_dict()))


def test_to_pandas(builtin_registry) -> None:
    pytest.importorskip("pandas", reason="to_pandas needs pandas")
    report = pipeline(builtin_registry)
    summary = report.to_pandas()
    assert summary.loc["ndcg@3", "mean"] == report.metrics["ndcg@3"]
    assert summary.loc["token_f1", "coverage"] == 3
    per_query = report.to_pandas(details=True)
    assert per_query.loc["q2", "token_f1"] == report.per_query["q2"]["token_f1"]
    assert list(per_query.index) == ["q1", "q2", "q3", "q4"]


def test_a_saved_report_loads_back_equal(builtin_registry, tmp_path) -> None:
    for qrels in (QRELS, None):
        report = pipeline(builtin_registry, qrels=qrels)
        loaded = load_report(save_report(report, tmp_path / "pipeline.json"))
        assert isinstance(loaded, PipelineEvalReport)
        assert loaded == report
        assert loaded.per_query == report.per_query
        assert loaded.manifest == report.manifest
        assert loaded.samples == report.samples


def test_the_samples_write_and_score_again_alike(builtin_registry, tmp_path) -> None:
    report = pipeline(builtin_registry)
    write_samples(tmp_path / "samples.jsonl", report.samples)
    again = read_samples(tmp_path / "samples.jsonl")
    assert [s["id"] for s in again] == list(report.query_ids)
    assert evaluate_rag(again, registry=builtin_registry).per_sample == report.rag.per_sample


def test_the_repr_is_short_whatever_the_size(builtin_registry) -> None:
    queries = {f"q{i}": f"query {i}" for i in range(300)}
    qrels = {q: {"d1": 1} for q in queries}
    report = evaluate_pipeline(
        lambda query, *, limit=10: ["d1", "d2"],
        qrels,
        queries,
        generate=first_sentence,
        corpus=CORPUS,
        registry=builtin_registry,
    )
    text = repr(report)
    assert len(text) < 1000
    # the headline numbers first; token_f1 applies to none (no references)
    assert text.startswith("<PipelineEvalReport: 300 queries, ndcg@10=1.0000, token_f1=-, ")


def test_compare_pairs_two_pipelines_query_by_query(builtin_registry) -> None:
    pytest.importorskip("scipy", reason="compare needs scipy")
    a = pipeline(builtin_registry)
    b = pipeline(builtin_registry, generate=lambda question, contexts: "Paris")
    report = compare({"extractive": a, "constant": b}, metrics=("ndcg@3", "token_f1"), seed=1)
    assert report.kind == "pipeline"
    assert report.query_ids == ("q1", "q2", "q3", "q4")
    pair = report.pair("extractive", "constant", "token_f1")
    assert pair.n == 3  # q3 has no reference
    assert pair.mean_a == a.metrics["token_f1"]
    assert report.pair("extractive", "constant", "ndcg@3").difference == 0.0
    assert "on 4 queries" in str(report)
    # by default nDCG@10 (not computed here: k_values=(1, 3)) and the shared RAG metrics
    assert compare([a, b], seed=1).metrics == tuple(a.rag.metrics)
    tens = [pipeline(builtin_registry, k_values=(10,)) for _ in range(2)]
    assert compare(tens, seed=1).metrics == ("ndcg@10", *a.rag.metrics)
    with pytest.raises(TypeError, match="a pipeline report is compared with pipeline reports"):
        compare({"a": a, "rag": a.rag}, seed=1)


def test_the_report_refuses_parts_that_do_not_pair() -> None:
    rag = RagEvalReport.from_values({"token_f1": [1.0]}, ["q1"])
    retrieval = RetrievalEvalReport({"ndcg@10": 1.0}, {"q2": {"ndcg@10": 1.0}}, 1, (10,))
    with pytest.raises(ValueError, match="pairs them query by query"):
        PipelineEvalReport(retrieval=retrieval, rag=rag)
    clash = RagEvalReport.from_values({"ndcg@10": [1.0]}, ["q2"])
    with pytest.raises(ValueError, match="'ndcg@10' is both a retrieval and a RAG metric key"):
        PipelineEvalReport(retrieval=retrieval, rag=clash)
    with pytest.raises(ValueError, match="the samples' ids are not the RAG report's sample_ids"):
        PipelineEvalReport(retrieval=None, rag=rag, samples=[{"id": "q9"}])


def test_the_readme_example_runs_and_shows_a_bad_ranking_beside_a_bad_answer(capsys) -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```python\n")[1:]
    first = blocks[0].split("```")[0]  # the quickstart: qrels, queries, retriever
    example = next(b.split("```")[0] for b in blocks if "evaluate_pipeline(" in b)
    namespace: dict[str, object] = {}
    exec(compile(first + example, "README.md", "exec"), namespace)
    report = namespace["report"]
    assert isinstance(report, PipelineEvalReport)
    assert report.per_query["q2"]["ndcg@10"] == pytest.approx(0.6309, abs=1e-4)
    assert report.per_query["q2"]["token_f1"] == 0.0  # the top context was the wrong one
    assert (report.per_query["q1"]["token_f1"] or 0.0) > 0
    assert "Pipeline evaluation: 2 queries, retrieval and answers" in capsys.readouterr().out
