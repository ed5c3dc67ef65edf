"""Nugget and claim labels through the API: read from the TREC RAG track's files, put into
samples, made by a named plugin in an explicit call (never by evaluate_rag), scored by
evaluate_rag, evaluate_claims and evaluate_pipeline (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import (
    ClaimLabeler,
    DatasetFormatError,
    InvalidSampleError,
    NuggetAssigner,
    PluginError,
    Registry,
    UnknownNameError,
    assign_nuggets,
    evaluate_claims,
    evaluate_pipeline,
    evaluate_rag,
    hookimpl,
    label_claims,
    read_nuggets,
    read_samples,
    with_nuggets,
    write_samples,
)
from ef.evaluation.metrics._nuggets import all_score, vital_score, weighted_score

NUGGETS = {
    "q1": [
        {"text": "Paris is the capital of France", "importance": "vital"},
        {"text": "Paris lies on the Seine", "importance": "okay"},
    ],
    "q2": [{"text": "Rome is the capital of Italy", "importance": "vital"}],
}


def _write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


class Calls:
    """A plugin whose assigner and labeler count their calls, as an LLM's would cost."""

    def __init__(self) -> None:
        self.assigned: list[list[dict[str, Any]]] = []
        self.labelled: list[Any] = []

    def assign(self, samples: list[dict[str, Any]], *, answer: str = "support") -> list[list[str]]:
        self.assigned.append(samples)
        return [[answer] * len(sample["nuggets"]) for sample in samples]

    def label(self, samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self.labelled.append(samples)
        return [
            {
                "response_claims": ["a claim"],
                "answer2response": ["Entailment"],
                "retrieved2response": [["Neutral"] * len(s.get("retrieved_contexts", []))],
            }
            for s in samples
        ]

    @hookimpl
    def ef_evaluation_nugget_assigners(self) -> list[NuggetAssigner]:
        return [NuggetAssigner(name="mine.llm", assign=self.assign)]

    @hookimpl
    def ef_evaluation_claim_labelers(self) -> list[ClaimLabeler]:
        return [ClaimLabeler(name="mine.llm", label=self.label)]


@pytest.fixture
def calls(builtin_registry: Registry) -> tuple[Calls, Registry]:
    plugin = Calls()
    return plugin, builtin_registry.with_plugins(plugin, name="mine")


def test_read_nuggets_reads_a_track_nugget_file(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "nuggets.jsonl",
        [{"qid": q, "query": "...", "nuggets": n} for q, n in NUGGETS.items()],
    )
    assert read_nuggets(path) == NUGGETS


def test_read_nuggets_keeps_one_run_of_an_assignment_file(tmp_path: Path) -> None:
    assigned = [{**n, "assignment": "support"} for n in NUGGETS["q1"]]
    path = _write_jsonl(
        tmp_path / "assignments.jsonl",
        [
            {"qid": "q1", "run_id": "runA", "answer_text": "...", "nuggets": assigned},
            {"qid": "q1", "run_id": "runB", "nuggets": NUGGETS["q1"]},
        ],
    )
    assert read_nuggets(path, run_id="runA") == {"q1": assigned}
    with pytest.raises(DatasetFormatError, match=r"holds 2 runs \('runA', 'runB'\).*run_id="):
        read_nuggets(path)
    with pytest.raises(DatasetFormatError, match="no lines of run 'runC'"):
        read_nuggets(path, run_id="runC")


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("not json", r"nuggets.jsonl:2: not a JSON line"),
        ('{"qid": "q9"}', r":2: expected a JSON object with 'qid' and 'nuggets'"),
        (
            '{"qid": "q9", "nuggets": [{"text": "x", "importance": "high"}]}',
            r":2: nuggets\[0\]: 'importance' must be one of 'vital', 'okay', got 'high'",
        ),
        ('{"qid": "q1", "nuggets": []}', r":2: query 'q1' is on an earlier line too"),
    ],
)
def test_read_nuggets_names_the_line_of_a_bad_record(tmp_path: Path, line: str, match: str) -> None:
    path = tmp_path / "nuggets.jsonl"
    path.write_text(json.dumps({"qid": "q1", "nuggets": []}) + "\n" + line + "\n", "utf-8")
    with pytest.raises(DatasetFormatError, match=match):
        read_nuggets(path)


def test_evaluate_rag_scores_the_assignments_the_samples_carry(builtin_registry) -> None:
    assigned = {
        "q1": [
            {**NUGGETS["q1"][0], "assignment": "partial_support"},
            {**NUGGETS["q1"][1], "assignment": "support"},
        ],
        "q2": [{**NUGGETS["q2"][0], "assignment": "not_support"}],
    }
    samples = with_nuggets([{"id": "q1", "response": "..."}, {"id": "q2"}, {"id": "q3"}], assigned)
    metrics = ["nugget_all", "nugget_vital(strict=True)", "nugget_weighted"]
    report = evaluate_rag(samples, metrics=metrics, registry=builtin_registry)
    q1 = assigned["q1"]
    assert report.per_sample == {
        "nugget_all": (all_score(q1), 0.0, None),
        "nugget_vital(strict=True)": (vital_score(q1, strict=True), 0.0, None),
        "nugget_weighted": (weighted_score(q1), 0.0, None),
    }
    assert report.per_sample["nugget_weighted"][0] == (0.5 + 0.5 * 1) / 1.5
    assert report.coverage["nugget_all"] == 2


def test_evaluate_rag_never_calls_a_plugin_assigner_or_labeler(calls) -> None:
    plugin, registry = calls
    samples = with_nuggets([{"id": "q1", "response": "Paris is the capital of France."}], NUGGETS)
    metrics = ["nugget_all", "nugget_all(assigner=lexical)", "claims.precision"]
    report = evaluate_rag(samples, metrics=metrics, registry=registry)
    assert plugin.assigned == []
    assert plugin.labelled == []
    # unassigned nuggets are not scored; the lexical baseline assigns them when named
    assert report.per_sample["nugget_all"] == (None,)
    assert report.per_sample["nugget_all(assigner='lexical')"] == (0.5,)


def test_assign_nuggets_runs_the_named_assigner_once_and_writes_copies(calls) -> None:
    plugin, registry = calls
    samples = with_nuggets([{"id": "q1", "response": "..."}, {"id": "q3"}], NUGGETS)
    assigned = assign_nuggets(samples, "mine.llm", registry=registry, answer="partial_support")
    assert len(plugin.assigned) == 1
    assert [s["id"] for s in plugin.assigned[0]] == ["q1"]
    assert [n["assignment"] for n in assigned[0]["nuggets"]] == ["partial_support"] * 2
    assert "assignment" not in samples[0]["nuggets"][0]  # the input is not changed
    assert assigned[1] == samples[1]
    report = evaluate_rag(assigned, metrics=["nugget_all"], registry=registry)
    assert report.per_sample["nugget_all"] == (0.5, None)


def test_assign_nuggets_lexical_equals_the_metrics_own_lexical_assigner(builtin_registry) -> None:
    samples = with_nuggets(
        [
            {"id": "q1", "response": "Paris, on the Seine, is the capital."},
            {"id": "q2", "response": "Rome."},
        ],
        NUGGETS,
    )
    metrics = ["nugget_all", "nugget_weighted(strict=True)"]
    explicit = evaluate_rag(
        assign_nuggets(samples, "lexical", registry=builtin_registry),
        metrics=metrics,
        registry=builtin_registry,
    )
    named = evaluate_rag(
        samples,
        metrics=["nugget_all(assigner=lexical)", "nugget_weighted(strict=True, assigner=lexical)"],
        registry=builtin_registry,
    )
    assert list(explicit.per_sample.values()) == list(named.per_sample.values())


def test_an_assigner_is_found_by_name_only(calls) -> None:
    _, registry = calls
    assert sorted(registry.nugget_assigners) == ["lexical", "mine.llm"]
    with pytest.raises(
        UnknownNameError, match=r"unknown nugget assigner 'mine\.lml'; did you mean"
    ):
        assign_nuggets([{"response": "x"}], "mine.lml", registry=registry)


@pytest.mark.parametrize(
    ("returned", "match"),
    [
        ([], r"returned 0 results for 1 samples"),
        ([["support"]], r"returned \['support'\] for sample 0 \(id 'q1'\), which has 2 nuggets"),
        ([["yes", "no"]], r"one of support, partial_support, not_support per nugget"),
    ],
)
def test_a_bad_assignment_from_a_plugin_names_it(builtin_registry, returned, match) -> None:
    class Bad:
        @hookimpl
        def ef_evaluation_nugget_assigners(self) -> NuggetAssigner:
            return NuggetAssigner(name="bad", assign=lambda samples: returned)

    registry = builtin_registry.with_plugins(Bad(), name="badplugin")
    samples = with_nuggets([{"id": "q1", "response": "..."}], NUGGETS)
    with pytest.raises(PluginError, match=match) as info:
        assign_nuggets(samples, "bad", registry=registry)
    assert "badplugin" in str(info.value)


def test_an_assigner_that_raises_is_a_plugin_error(builtin_registry) -> None:
    def boom(samples: object) -> list[list[str]]:
        raise RuntimeError("the LLM is down")

    registry = builtin_registry.with_plugins(
        type(
            "P",
            (),
            {
                "ef_evaluation_nugget_assigners": hookimpl(
                    lambda self: NuggetAssigner(name="boom", assign=boom)
                )
            },
        )(),
        name="boomplugin",
    )
    samples = with_nuggets([{"id": "q1", "response": "..."}], NUGGETS)
    with pytest.raises(PluginError, match=r"'boom' of plugin 'boomplugin'.*the LLM is down"):
        assign_nuggets(samples, "boom", registry=registry)


def test_label_claims_writes_the_labels_and_evaluate_claims_scores_them(calls) -> None:
    plugin, registry = calls
    samples = [{"id": "s1", "response": "Paris.", "retrieved_contexts": ["c1", "c2"]}]
    labelled = label_claims(samples, "mine.llm", registry=registry)
    assert len(plugin.labelled) == 1
    assert "claims" not in samples[0]
    report = evaluate_claims(labelled, registry=registry)
    assert report.metrics["claims.precision"] == 1.0
    assert report.metrics["claims.faithfulness"] == 0.0
    assert report.metrics["claims.self_knowledge"] == 1.0  # right, and in no context
    assert report.metrics["claims.recall"] is None  # no response2answer labels
    assert report.coverage["claims.recall"] == 0


def test_labels_that_do_not_fit_the_contexts_are_the_labelers_error(calls) -> None:
    _, registry = calls
    samples = [{"id": "s1", "response": "Paris."}]  # no contexts: the labels cover 0
    bad = [{**samples[0], "retrieved_contexts": ["c1"]}]
    labelled = label_claims(samples, "mine.llm", registry=registry)
    assert labelled[0]["claims"]["retrieved2response"] == [[]]
    registry_bad = registry.with_plugins(
        type(
            "Q",
            (),
            {
                "ef_evaluation_claim_labelers": hookimpl(
                    lambda self: ClaimLabeler(
                        name="wide",
                        label=lambda s: [{"retrieved2response": [[True, True]]}] * len(s),
                    )
                )
            },
        )(),
        name="wideplugin",
    )
    with pytest.raises(PluginError, match=r"'wide'.*bad labels for sample 0.*cover 2 contexts"):
        label_claims(bad, "wide", registry=registry_bad)


@pytest.mark.parametrize("name", ["samples.jsonl", "samples.csv"])
def test_the_extra_keys_survive_a_samples_file(tmp_path: Path, builtin_registry, name) -> None:
    samples = assign_nuggets(
        with_nuggets([{"id": "q1", "response": "Paris is the capital of France."}], NUGGETS),
        "lexical",
        registry=builtin_registry,
    )
    samples[0]["claims"] = {"answer2response": ["Entailment", "Neutral"]}
    path = tmp_path / name
    write_samples(path, samples)
    again = read_samples(path)
    assert again == samples
    metrics = ["nugget_all", "claims.precision"]
    assert evaluate_rag(again, metrics=metrics).per_sample == {
        "nugget_all": (0.5,),
        "claims.precision": (0.5,),
    }


def test_a_sample_with_half_assigned_nuggets_is_refused() -> None:
    nuggets = [{**NUGGETS["q1"][0], "assignment": "support"}, NUGGETS["q1"][1]]
    with pytest.raises(InvalidSampleError, match=r"sample 0 \(id 'q1'\): nuggets\[1\] has no"):
        evaluate_rag([{"id": "q1", "nuggets": nuggets}], metrics=["nugget_all"])


CORPUS = {
    "d1": "Paris is the capital of France.",
    "d2": "Paris lies on the Seine.",
    "d3": "Rome is the capital of Italy.",
}
QUERIES = {"q1": "capital of France", "q2": "capital of Italy"}
QRELS = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}}


def test_evaluate_pipeline_shows_nugget_scores_beside_ndcg(builtin_registry) -> None:
    rankings = {"capital of France": ["d1", "d2"], "capital of Italy": ["d1", "d3"]}

    def retriever(query: str, *, limit: int = 10) -> list[str]:
        return rankings[query][:limit]

    def generate(question: str, contexts: list[str]) -> str:
        return contexts[0]

    report = evaluate_pipeline(
        retriever,
        QRELS,
        QUERIES,
        generate=generate,
        corpus=CORPUS,
        nuggets=NUGGETS,
        k_values=(10,),
        rag_metrics=["nugget_all(assigner=lexical)", "nugget_vital(assigner=lexical)"],
        registry=builtin_registry,
    )
    q1, q2 = report.per_query["q1"], report.per_query["q2"]
    assert q1["ndcg@10"] == 1.0
    # q1 answers "Paris is the capital of France.": all of the vital nugget's words, one of
    # the four of "Paris lies on the Seine"; q2 answers the same text, which holds three of
    # the five words of "Rome is the capital of Italy": partial support
    assert q1["nugget_all(assigner='lexical')"] == (1 + 0) / 2
    assert q2["nugget_vital(assigner='lexical')"] == 0.5
    assert report.samples[0]["nuggets"] == tuple(NUGGETS["q1"])
    table = report.tables(details=True)[-1]
    assert "nugget_all(assigner='lexical')" in table.header
    assert "ndcg@10" in table.header


def test_evaluate_pipeline_refuses_nuggets_of_unknown_queries(builtin_registry) -> None:
    with pytest.raises(ValueError, match="nuggets hold 1 ids that are not queries"):
        evaluate_pipeline(
            lambda q, limit=10: ["d1"],
            QRELS,
            QUERIES,
            generate=lambda q, c: "x",
            corpus=CORPUS,
            nuggets={"q9": []},
            registry=builtin_registry,
        )
