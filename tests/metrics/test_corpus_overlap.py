"""bleu(level=corpus) and chrf(level=corpus) are sacrebleu's corpus scores / 100, with no
value per sample: the report says so, and compare() refuses to test them."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import (
    InputWarning,
    MissingDependencyError,
    RagEvalReport,
    RagMetric,
    compare,
    evaluate_pipeline,
    evaluate_rag,
)
from ef.evaluation.interfaces import MetricParam
from ef.evaluation.metrics.overlap import bleu as bleu_module
from ef.evaluation.metrics.overlap import chrf as chrf_module
from ef.evaluation.metrics.overlap._library import sacrebleu_scorer
from ef.evaluation.metrics.overlap.bleu import corpus_bleu
from ef.evaluation.metrics.overlap.chrf import corpus_chrf

sacrebleu = pytest.importorskip("sacrebleu", reason="bleu and chrf need sacrebleu (the text extra)")

texts = st.text(
    alphabet=st.sampled_from(list("the cat sat mat dog ,.!?-'0123 éàß中文")), max_size=40
)
# A sample: its response (None: unanswered), and its gold answers (none: skipped).
samples_drawn = st.lists(
    st.tuples(st.one_of(st.none(), texts), st.lists(texts, max_size=3)), min_size=1, max_size=6
)
CORPUS = {"bleu(level=corpus)": "corpus_bleu", "chrf(level=corpus)": "corpus_chrf"}


def as_samples(drawn: list[tuple[str | None, list[str]]]) -> list[dict[str, Any]]:
    samples = []
    for i, (response, gold) in enumerate(drawn):
        sample: dict[str, Any] = {"id": str(i), "user_input": "q"}
        if response is not None:
            sample["response"] = response
        if gold:
            sample["reference"] = gold[0]
            sample["references"] = gold[1:]
        samples.append(sample)
    return samples


def library_corpus(call: str, drawn: list[tuple[str | None, list[str]]]) -> float | None:
    """sacrebleu's corpus score / 100 over the samples with a gold answer, the references
    given as sacrebleu's streams (None where a sample has fewer gold answers)."""
    kept = [(response or "", gold) for response, gold in drawn if gold]
    if not kept:
        return None
    width = max(len(gold) for _, gold in kept)
    streams = [[gold[j] if j < len(gold) else None for _, gold in kept] for j in range(width)]
    score = getattr(sacrebleu, call)([response for response, _ in kept], streams).score
    return float(score) / 100


@given(samples_drawn)
def test_corpus_scores_are_sacrebleus(drawn: list[tuple[str | None, list[str]]]) -> None:
    report = evaluate_rag(as_samples(drawn), metrics=list(CORPUS))
    scored = sum(1 for _, gold in drawn if gold)
    for spec, call in CORPUS.items():
        key = spec.replace("corpus", "'corpus'")
        assert report.metrics[key] == library_corpus(call, drawn)
        assert report.coverage[key] == scored
    assert dict(report.per_sample) == {}
    assert report.corpus_level == ("bleu(level='corpus')", "chrf(level='corpus')")


@given(st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=5))
def test_corpus_functions_take_sacrebleus_reference_streams(
    pairs: list[tuple[str, list[str]]],
) -> None:
    responses = [response for response, _ in pairs]
    width = max(len(gold) for _, gold in pairs)
    streams = [[gold[j] if j < len(gold) else None for _, gold in pairs] for j in range(width)]
    assert corpus_bleu(responses, streams) == sacrebleu.corpus_bleu(responses, streams).score / 100
    assert corpus_chrf(responses, streams) == sacrebleu.corpus_chrf(responses, streams).score / 100


def test_corpus_is_not_the_mean_of_the_sentence_scores() -> None:
    # Two samples: corpus BLEU pools the n-gram counts, so it differs from the mean of the
    # sentence scores (and corpus_bleu uses no effective order, sentence_bleu does).
    samples: list[dict[str, Any]] = [
        {"id": "a", "response": "the cat sat on the mat", "reference": "the cat sat on a mat"},
        {"id": "b", "response": "a dog", "reference": "the cat", "references": ["a dog"]},
    ]
    report = evaluate_rag(samples, metrics=["bleu", "bleu(level=corpus)", "bleu(level=sentence)"])
    assert list(report.metrics) == ["bleu", "bleu(level='corpus')"]  # sentence is the default
    hyps = ["the cat sat on the mat", "a dog"]
    refs = [["the cat sat on a mat", "the cat"], [None, "a dog"]]
    assert report.metrics["bleu(level='corpus')"] == sacrebleu.corpus_bleu(hyps, refs).score / 100
    assert report.metrics["bleu(level='corpus')"] != report.metrics["bleu"]


def test_the_report_shows_a_corpus_score_without_per_sample_values() -> None:
    samples = [
        {"id": "a", "response": "the cat sat", "reference": "the cat sat"},
        {"id": "b", "response": "x"},
    ]
    report = evaluate_rag(samples, metrics=["chrf(level=corpus)", "chrf"])
    assert list(report.metrics) == ["chrf(level='corpus')", "chrf"]
    assert list(report.per_sample) == ["chrf"]
    text = str(report)
    assert "Corpus level: chrf(level='corpus'): one score over all the samples" in text
    assert "no per-sample detail and no significance test" in text
    [_, per_sample] = report.tables(details=True)
    assert per_sample.header == ("sample", "chrf")
    assert report.csv_table(details=True).header == ("sample", "chrf")
    assert RagEvalReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report
    assert report.to_dict()["corpus_level"] == ["chrf(level='corpus')"]
    manifest_params = {m["key"]: m["params"] for m in report.manifest["metrics"]}
    assert manifest_params["chrf(level='corpus')"] == {"level": "corpus"}


def test_a_report_refuses_a_corpus_key_with_per_sample_values() -> None:
    with pytest.raises(ValueError, match="a corpus score has one value and none per sample"):
        RagEvalReport(
            {"bleu": 0.5}, {"bleu": 1}, 1, per_sample={"bleu": [0.5]}, corpus_level=["bleu"]
        )


def test_compare_refuses_to_test_a_corpus_score_and_skips_it_by_default() -> None:
    samples = [
        {"id": "a", "response": "the cat sat", "reference": "the cat sat on the mat"},
        {"id": "b", "response": "a dog", "reference": "a dog"},
        {"id": "c", "response": "a cat", "reference": "a dog barks"},
    ]
    other = [{**s, "response": "the cat"} for s in samples]
    metrics = ["bleu", "bleu(level=corpus)"]
    one, two = evaluate_rag(samples, metrics=metrics), evaluate_rag(other, metrics=metrics)
    with pytest.raises(ValueError, match="is a corpus-level score: one number for the whole set"):
        compare({"one": one, "two": two}, metrics=["bleu(level=corpus)"])
    with pytest.warns(InputWarning, match=r"compare leaves out \"bleu\(level='corpus'\)\"") as seen:
        assert compare({"one": one, "two": two}).metrics == ("bleu",)
    assert seen[0].filename == __file__  # the caller's line, not compare's


def test_a_pipeline_keeps_a_corpus_score_out_of_its_per_query_values() -> None:
    corpus = {"d1": "Paris is the capital of France.", "d2": "Rome is the capital of Italy."}
    report = evaluate_pipeline(
        lambda query, *, limit=10: ["d1", "d2"][:limit],
        None,
        {"q1": "capital of France", "q2": "capital of Italy"},
        generate=lambda question, contexts: contexts[0],
        corpus=corpus,
        references={"q1": "Paris is the capital", "q2": "Rome is the capital"},
        rag_metrics=["bleu", "bleu(level=corpus)"],
        n_contexts=1,
    )
    assert "bleu(level='corpus')" in report.metrics
    assert all(set(values) == {"bleu"} for values in report.per_query.values())
    assert "Corpus level: bleu(level='corpus')" in str(report)
    with pytest.warns(InputWarning, match="a corpus-level score is one number"):
        assert compare({"a": report, "b": report}).metrics == ("bleu",)
    with pytest.raises(ValueError, match="corpus-level score"):
        compare({"a": report, "b": report}, metrics=["bleu(level='corpus')"])


def test_a_corpus_form_needs_the_level_parameter() -> None:
    with pytest.raises(ValueError, match="declare MetricParam\\('level'"):
        RagMetric(name="mine", func=lambda s: 1.0, corpus=lambda samples: (1.0, len(samples)))
    level = MetricParam("level", str, "sentence", choices=("sentence", "corpus"))
    metric = RagMetric(
        name="mine", func=lambda s, level: 1.0, params=(level,), corpus=lambda s, level: (0.5, 1)
    )
    assert metric.corpus is not None


@pytest.mark.parametrize("module", [bleu_module, chrf_module])
def test_a_missing_sacrebleu_names_the_text_extra(monkeypatch, builtin_registry, module) -> None:
    metric = module.__name__.rpartition(".")[2]
    for name in [m for m in sys.modules if m == "sacrebleu" or m.startswith("sacrebleu.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sacrebleu", None)  # import fails as if not installed
    sacrebleu_scorer.cache_clear()
    try:
        with pytest.raises(MissingDependencyError, match=r'needs sacrebleu.*\[text\]"'):
            evaluate_rag(
                [{"response": "a", "reference": "a"}],
                metrics=(f"{metric}(level=corpus)",),
                registry=builtin_registry,
            )
    finally:
        sacrebleu_scorer.cache_clear()


def test_ef_eval_compares_saved_reports_with_a_corpus_score(tmp_path) -> None:
    from click.testing import CliRunner

    from ef.evaluation.cli import cli

    samples = tmp_path / "s.jsonl"
    lines = [
        {"id": "a", "response": "the cat sat on the mat", "reference": "the cat sat on a mat"},
        {"id": "b", "response": "a dog", "reference": "a dog"},
        {"id": "c", "response": "a cat", "reference": "a cat sat"},
    ]
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    runner = CliRunner()
    saved = tmp_path / "a.json"
    result = runner.invoke(
        cli, ["rag", str(samples), "-m", "bleu,bleu(level=corpus)", "-s", "-o", "json"]
    )
    assert result.exit_code == 0, result.output
    saved.write_text(result.stdout, encoding="utf-8")
    assert json.loads(result.stdout)["corpus_level"] == ["bleu(level='corpus')"]
    result = runner.invoke(cli, ["compare", "--rag", f"a={saved}", f"b={saved}", "-o", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["metrics"] == ["bleu"]
    assert "warning: compare leaves out \"bleu(level='corpus')\"" in result.stderr
    result = runner.invoke(
        cli, ["compare", "--rag", f"a={saved}", f"b={saved}", "-m", "bleu(level=corpus)"]
    )
    assert result.exit_code != 0
    assert "is a corpus-level score" in result.stderr
