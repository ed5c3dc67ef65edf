"""ids.*: the retrieval metrics over RAG samples' context ids, through the one scoring engine.

Each sample is a query: its retrieved_context_ids a ranked list, its reference_context_ids the
judged docs at their reference_context_grades (1 by default). The values must be exactly
evaluate_run's on that run and qrels, and trec_eval's (pytrec_eval) for ndcg_cut and recall.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormatError,
    DuplicateNameError,
    InvalidSampleError,
    RagEvalReport,
    RagMetric,
    UnknownNameError,
    evaluate_rag,
    evaluate_run,
    load_report,
    read_samples,
    save_report,
)

#: Retrieval measures of several kinds: graded, binary, with parameters, with no cutoff.
MEASURES = [
    "ndcg@3",
    "ndcg(gains={1:3,2:9})@5",
    "recall@2",
    "precision(rel=2)@3",
    "mrr@10",
    "map@all",
    "success@1",
    "rprec",
    "bpref",
    "err@5",
]

doc_ids = st.sampled_from(["d1", "d2", "d3", "d4", "d5", 1, 2])


@st.composite
def samples(draw: Any) -> list[dict[str, Any]]:
    drawn = []
    for index in range(draw(st.integers(1, 6))):
        sample: dict[str, Any] = {"id": f"s{index}", "user_input": "q"}
        if draw(st.integers(0, 5)):  # now and then a sample lacks the run side
            sample["retrieved_context_ids"] = draw(st.lists(doc_ids, max_size=6))
        if draw(st.integers(0, 5)):  # ... or the reference side
            reference = draw(st.lists(doc_ids, max_size=4, unique_by=str))
            sample["reference_context_ids"] = reference
            if reference and draw(st.booleans()):
                graded = draw(st.lists(st.sampled_from(reference), unique_by=str))
                grades = st.integers(-1, 3) | st.sampled_from([0.5, 2.0])
                sample["reference_context_grades"] = {str(d): draw(grades) for d in graded}
        drawn.append(sample)
    return drawn


def run_and_qrels(
    drawn: list[dict[str, Any]],
) -> tuple[dict[str, list[str]], dict[str, dict[str, float]]]:
    """The run and qrels the samples stand for, built here from the documented rules."""
    run, qrels = {}, {}
    for sample in drawn:
        if "retrieved_context_ids" in sample and "reference_context_ids" in sample:
            # An id retrieved twice counts at its best rank.
            run[sample["id"]] = list(dict.fromkeys(str(d) for d in sample["retrieved_context_ids"]))
            judged = {str(d): 1.0 for d in sample["reference_context_ids"]}
            judged.update(sample.get("reference_context_grades", {}))
            qrels[sample["id"]] = judged
    return run, qrels


@given(samples())
def test_ids_metrics_equal_evaluate_run_on_the_same_run_and_qrels(drawn) -> None:
    report = evaluate_rag(drawn, metrics=[f"ids.{m}" for m in MEASURES])
    run, qrels = run_and_qrels(drawn)
    scorable = {q for q, judged in qrels.items() if any(g > 0 for g in judged.values())}
    if not scorable:  # evaluate_run refuses qrels with nothing to score; every sample is None
        assert all(v is None for values in report.per_sample.values() for v in values)
        return
    # Samples whose ids meet no reference are scored (0): so is such a run, unchecked.
    expected = evaluate_run(run, qrels, metrics=MEASURES, check_doc_ids=False)
    assert [f"ids.{key}" for key in expected.metrics] == list(report.metrics)
    for key, mean in expected.metrics.items():
        assert report.metrics[f"ids.{key}"] == mean  # the same engine: the same float
        assert report.coverage[f"ids.{key}"] == len(scorable)
    for index, sample in enumerate(drawn):
        for key in expected.metrics:
            value = report.per_sample[f"ids.{key}"][index]
            if sample["id"] in scorable:
                assert value == expected.per_query[sample["id"]][key]
            else:
                assert value is None


pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is a test dependency")

PYTREC_CASES = [
    (["d3", "d1", "d9", "d2"], {"d1": 1, "d2": 2}),
    (["d1"], {"d1": 3, "d2": 1, "d3": 0}),
    (["d7", "d8", "d9", "d1", "d2", "d3"], {"d3": 1}),
    (["d2", "d1"], {"d1": 2, "d2": 1, "d4": 2}),
]


@pytest.mark.parametrize(("ranked", "grades"), PYTREC_CASES)
def test_ids_metrics_equal_trec_eval(ranked, grades) -> None:
    sample = {
        "retrieved_context_ids": ranked,
        "reference_context_ids": list(grades),
        "reference_context_grades": grades,
    }
    report = evaluate_rag([sample], metrics=["ids.ndcg_cut.3,5", "ids.recall.1,5"])
    evaluator = pytrec_eval.RelevanceEvaluator(
        {"q": grades}, {"ndcg_cut.3", "ndcg_cut.5", "recall.1", "recall.5"}
    )
    run = {"q": {doc: float(len(ranked) - i) for i, doc in enumerate(ranked)}}
    theirs = evaluator.evaluate(run)["q"]
    ours = {key: values[0] for key, values in report.per_sample.items()}
    assert ours == pytest.approx(
        {
            "ids.ndcg@3": theirs["ndcg_cut_3"],
            "ids.ndcg@5": theirs["ndcg_cut_5"],
            "ids.recall@1": theirs["recall_1"],
            "ids.recall@5": theirs["recall_5"],
        },
        abs=1e-12,
        rel=0,
    )


def test_the_pytrec_comparison_can_fail() -> None:
    # A case whose values are known by hand, through the same path: d1 (grade 1) at rank 2.
    report = evaluate_rag(
        [{"retrieved_context_ids": ["x", "d1"], "reference_context_ids": ["d1"]}],
        metrics=["ids.ndcg@2", "ids.recall@1"],
    )
    assert dict(report.metrics) == {"ids.ndcg@2": 1 / math.log2(3), "ids.recall@1": 0.0}


# -- which samples are scored ----------------------------------------------------------------

SAMPLES: list[dict[str, Any]] = [
    {"id": "a", "retrieved_context_ids": ["d2", "d1"], "reference_context_ids": ["d1"]},
    {"id": "b", "retrieved_context_ids": [], "reference_context_ids": ["d1"]},
    {"id": "c", "retrieved_context_ids": ["d1"]},
    {"id": "d", "reference_context_ids": ["d1"]},
    {"id": "e", "retrieved_context_ids": ["d1"], "reference_context_ids": []},
    {
        "id": "f",
        "retrieved_context_ids": ["d1"],
        "reference_context_ids": ["d1"],
        "reference_context_grades": {"d1": 0},
    },
]


def test_samples_lacking_an_id_field_or_a_positive_grade_are_skipped(builtin_registry) -> None:
    report = evaluate_rag(SAMPLES, metrics=["ids.mrr@10"], registry=builtin_registry)
    # b retrieved nothing: 0. c, d lack a field; e, f judge nothing relevant: skipped.
    assert report.per_sample["ids.mrr@10"] == (0.5, 0.0, None, None, None, None)
    assert report.coverage["ids.mrr@10"] == 2
    assert report.metrics["ids.mrr@10"] == 0.25


def test_a_bare_name_is_every_cutoff_of_k_values(builtin_registry) -> None:
    report = evaluate_rag(
        SAMPLES[:1], metrics=["ids.recall", "ids.P.1,2"], k_values=(1, 2), registry=builtin_registry
    )
    assert dict(report.metrics) == {
        "ids.recall@1": 0.0,
        "ids.recall@2": 1.0,
        "ids.precision@1": 0.0,
        "ids.precision@2": 0.5,
    }


def test_ids_compare_as_text_and_a_repeated_id_counts_at_its_best_rank(builtin_registry) -> None:
    sample = {"retrieved_context_ids": [7, "d9", 7, "3"], "reference_context_ids": ["7", 3]}
    report = evaluate_rag([sample], metrics=["ids.precision@3"], registry=builtin_registry)
    # Ranked as ["7", "d9", "3"]; evaluate_run refuses the list with the copy (a run names
    # each doc once) and gives this number for the list without it.
    expected = evaluate_run({"q": ["7", "d9", "3"]}, {"q": {"7": 1, "3": 1}}, metrics=["P@3"])
    assert report.metrics["ids.precision@3"] == expected.metrics["precision@3"] == 2 / 3


def test_repeated_sample_ids_keep_the_samples_apart(builtin_registry) -> None:
    twins = [
        {"id": "x", "retrieved_context_ids": ["d1"], "reference_context_ids": ["d1"]},
        {"id": "x", "retrieved_context_ids": ["d2"], "reference_context_ids": ["d1"]},
    ]
    report = evaluate_rag(twins, metrics=["ids.success@1"], registry=builtin_registry)
    assert report.per_sample["ids.success@1"] == (1.0, 0.0)


def test_grades_feed_ndcg_and_a_grade_may_be_left_out(builtin_registry) -> None:
    sample = {
        "retrieved_context_ids": ["d1", "d2"],
        "reference_context_ids": ["d1", "d2"],
        "reference_context_grades": {"d2": 3},  # d1 keeps grade 1
    }
    report = evaluate_rag([sample], metrics=["ids.ndcg@2"], registry=builtin_registry)
    dcg, ideal = 1 + 3 / math.log2(3), 3 + 1 / math.log2(3)
    assert report.metrics["ids.ndcg@2"] == pytest.approx(dcg / ideal, abs=1e-15)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grades", "message"),
    [
        ([2], r"'reference_context_grades' must map reference context ids to grades"),
        ({"d9": 1}, r"grades 'd9', which is not one of its reference_context_ids \('d1', '2'\)"),
        ({"d1": "high"}, r"reference_context_grades\['d1'\] = 'high': a grade is a finite number"),
        ({"d1": True}, r"reference_context_grades\['d1'\] = True"),
        ({"d1": float("nan")}, r"reference_context_grades\['d1'\] = nan"),
        ({"d1": math.inf}, r"reference_context_grades\['d1'\] = inf"),
        ({2: 1, "2": 3}, r"grades '2' twice"),
    ],
)
def test_bad_grades_name_the_sample(grades, message, builtin_registry) -> None:
    bad = {
        "id": "q7",
        "retrieved_context_ids": ["d1"],
        "reference_context_ids": ["d1", 2],
        "reference_context_grades": grades,
    }
    with pytest.raises(InvalidSampleError, match=r"^sample 1 \(id 'q7'\): .*" + message):
        evaluate_rag([SAMPLES[0], bad], metrics=["ids.ndcg@10"], registry=builtin_registry)


def test_grades_without_reference_ids_are_refused(builtin_registry) -> None:
    bad = {"retrieved_context_ids": ["d1"], "reference_context_grades": {"d1": 2}}
    with pytest.raises(InvalidSampleError, match=r"^sample 0: .* no 'reference_context_ids'"):
        evaluate_rag([bad], metrics=["ids.ndcg@10"], registry=builtin_registry)


@pytest.mark.parametrize("metrics", [["ids.ndcg@10"], ["exact_match"]])
def test_bad_grades_are_refused_whatever_the_metrics(metrics, builtin_registry) -> None:
    # As a bad 'references' is: checked with the sample, not only by the ids.* metrics.
    bad = {"id": "q7", "response": "a", "reference": "a", "reference_context_ids": ["d1"],
           "reference_context_grades": {"d1": "high"}}  # fmt: skip
    with pytest.raises(InvalidSampleError, match=r"^sample 1 \(id 'q7'\): reference_context"):
        evaluate_rag([SAMPLES[0], bad], metrics=metrics, registry=builtin_registry)


@pytest.mark.parametrize(
    ("grades", "message"),
    [
        ('{"d1": "high"}', r"reference_context_grades\['d1'\] = 'high': a grade is a finite"),
        ("[2]", r"'reference_context_grades' must map reference context ids to grades"),
        ('{"d9": 1}', r"'reference_context_grades' grades 'd9', which is not one of its"),
    ],
)
@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_bad_grades_in_a_file_name_the_file_and_line(
    tmp_path: Path, suffix: str, grades: str, message: str, builtin_registry
) -> None:
    path = tmp_path / f"samples{suffix}"
    rows = [("s1", '{"d1": 2}'), ("s2", grades)]
    if suffix == ".jsonl":
        text = "".join(
            f'{{"id": "{i}", "retrieved_context_ids": ["d1"], "reference_context_ids": ["d1"], '
            f'"reference_context_grades": {g}}}\n'
            for i, g in rows
        )
    else:
        quoted = [(i, g.replace('"', '""')) for i, g in rows]
        text = "id,retrieved_context_ids,reference_context_ids,reference_context_grades\n"
        text += "".join(f'{i},"[""d1""]","[""d1""]","{g}"\n' for i, g in quoted)
    path.write_text(text)
    line = 3 if suffix == ".csv" else 2  # the CSV's header is line 1
    where = f"^{re.escape(str(path))}:{line}: sample 1 \\(id 's2'\\): "
    with pytest.raises(DatasetFormatError, match=where + message):
        read_samples(path)
    with pytest.raises(DatasetFormatError, match=where + message):
        evaluate_rag(path, metrics=["exact_match"], registry=builtin_registry)


def test_a_metric_summed_over_queries_is_refused(builtin_registry) -> None:
    with pytest.raises(ValueError, match=r"'ids.num_ret': num_ret is summed over queries"):
        evaluate_rag(SAMPLES, metrics=["ids.num_ret"], registry=builtin_registry)


def test_unknown_names(builtin_registry) -> None:
    with pytest.raises(UnknownNameError, match=r"unknown retrieval metric 'ndgc'.*'ndcg'"):
        evaluate_rag(SAMPLES, metrics=["ids.ndgc@10"], registry=builtin_registry)
    with pytest.raises(UnknownNameError, match=r"'ndcg' is a retrieval metric.* ids\.ndcg scores"):
        evaluate_rag(SAMPLES, metrics=["ndcg@10"], registry=builtin_registry)


def test_a_rag_metric_in_the_ids_namespace_is_refused_by_name(builtin_registry) -> None:
    clash = RagMetric(name="ids.mine", func=lambda sample: 1.0)
    registry = builtin_registry.with_metrics(clash, name="clash")
    with pytest.raises(DuplicateNameError, match=r"'ids.mine' of plugin 'clash'.* namespace"):
        evaluate_rag(SAMPLES, metrics=["ids.mine"], registry=registry)


# -- reports, files and the CLI --------------------------------------------------------------


def test_the_report_keeps_ids_and_has_answer_through_every_output(tmp_path: Path) -> None:
    samples = [
        {**SAMPLES[0], "reference": "Paris", "retrieved_contexts": ["Rome", "Paris"]},
        {**SAMPLES[1], "reference": "Oslo", "retrieved_contexts": []},
    ]
    report = evaluate_rag(samples, metrics=["ids.ndcg@10", "has_answer(match=regex)@2"])
    keys = ["ids.ndcg@10", "has_answer(match='regex')@2"]
    assert list(report.metrics) == keys
    assert json.loads(json.dumps(report.to_dict()))["per_sample"]["ids.ndcg@10"] == [
        1 / math.log2(3),
        0.0,
    ]
    assert RagEvalReport.from_dict(report.to_dict()) == report
    saved = save_report(report, tmp_path / "report.json")
    assert load_report(saved) == report
    assert [m["key"] for m in load_report(saved).manifest["metrics"]] == keys
    assert [line.split()[0] for line in str(report).splitlines()[2:4]] == keys
    assert "| has_answer(match='regex')@2 | 0.5000 | 2/2 |" in report.to_markdown()
    assert '<td class="ef-text">has_answer(match=&#x27;regex&#x27;)@2</td>' in report._repr_html_()
    assert report.to_csv(details=True).splitlines() == [
        "sample,ids.ndcg@10,has_answer(match='regex')@2",
        f"a,{1 / math.log2(3)!r},1.0",
        "b,0.0,0.0",
    ]


def test_ef_eval_rag_takes_ids_has_answer_and_cutoffs(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ef.evaluation.cli import cli

    path = tmp_path / "samples.jsonl"
    rows = [
        {**SAMPLES[0], "reference": "Paris", "retrieved_contexts": ["Rome", "Paris"]},
        {**SAMPLES[1], "reference": "Oslo", "retrieved_contexts": ["Oslo"]},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = ["rag", str(path), "-m", "has_answer,ids.ndcg@10", "-m", "ids.P.1,2", "-k", "1"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = CliRunner().invoke(cli, [*args, "-o", "json"], prog_name="ef-eval")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["metrics"] == {
        "has_answer@1": 0.5,
        "ids.ndcg@10": 1 / (2 * math.log2(3)),
        "ids.precision@1": 0.0,
        "ids.precision@2": 0.25,
    }
    bad = CliRunner().invoke(cli, ["rag", str(path), "-m", "ids.num_ret"], prog_name="ef-eval")
    assert bad.exit_code == 2
    assert "num_ret is summed over queries" in bad.stderr
