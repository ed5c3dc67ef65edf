"""bleu, chrf and rouge_l are their libraries' own numbers, through evaluate_rag too."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import InvalidSampleError, MissingDependencyError, evaluate_rag
from ef.evaluation.metrics.overlap import rouge_l as rouge_module
from ef.evaluation.metrics.overlap import sample_bleu
from ef.evaluation.metrics.overlap._library import sacrebleu_scorer
from ef.evaluation.metrics.overlap.bleu import bleu
from ef.evaluation.metrics.overlap.chrf import chrf
from ef.evaluation.metrics.overlap.rouge_l import rouge_l

sacrebleu = pytest.importorskip("sacrebleu", reason="bleu and chrf need sacrebleu (the text extra)")
rouge_scorer = pytest.importorskip(
    "rouge_score.rouge_scorer", reason="rouge_l needs rouge-score (the text extra)"
)

# Words, punctuation, digits, accents and other scripts: what the tokenizers must agree on.
texts = st.text(
    alphabet=st.sampled_from(list("the cat sat mat dog ,.!?-'0123 éàß中文")), max_size=40
)
gold = st.lists(texts, min_size=1, max_size=3)


def library_rouge_l(response: str, references: list[str]) -> Any:
    scorer = rouge_scorer.RougeScorer(["rougeL"])  # the library's defaults
    if len(references) == 1:
        return scorer.score(references[0], response)["rougeL"].fmeasure
    return scorer.score_multi(references, response)["rougeL"].fmeasure


@given(texts, gold)
def test_bleu_is_sacrebleu_sentence_bleu(response: str, references: list[str]) -> None:
    assert bleu(response, references) == sacrebleu.sentence_bleu(response, references).score / 100


@given(texts, gold)
def test_chrf_is_sacrebleu_sentence_chrf(response: str, references: list[str]) -> None:
    assert chrf(response, references) == sacrebleu.sentence_chrf(response, references).score / 100


@given(texts, gold)
def test_rouge_l_is_rouge_score_f_measure(response: str, references: list[str]) -> None:
    assert rouge_l(response, references) == library_rouge_l(response, references)


@pytest.mark.parametrize(
    ("response", "references", "expected"),
    [
        ("the cat sat on the mat", ["the cat sat on the mat"], (1.0, 1.0, 1.0)),
        ("", ["an answer"], (0.0, 0.0, 0.0)),
        ("completely different", ["the cat sat"], (0.0, None, 0.0)),
    ],
)
def test_hand_cases(response, references, expected) -> None:
    got = (bleu(response, references), chrf(response, references), rouge_l(response, references))
    for value, want in zip(got, expected, strict=True):
        if want is not None:
            assert value == pytest.approx(want, abs=1e-12)


def test_rouge_l_by_hand() -> None:
    # LCS of "the cat sat on the mat" and "the cat sat on a mat" is 5 tokens of 6 each.
    assert rouge_l("the cat sat on the mat", ["the cat sat on a mat"]) == pytest.approx(5 / 6)
    # Several gold answers: the best F-measure, not the mean.
    assert rouge_l("the cat", ["a dog", "the cat"]) == 1.0
    # The library's tokenizer keeps ASCII letters and digits only: the note in the docs.
    assert rouge_l("été", ["t"]) == 1.0


def test_several_references_use_the_libraries_own_rules() -> None:
    # sacrebleu clips n-grams against all references together: better than either alone.
    response, references = "the cat sat on the mat", ["the cat sat", "on the mat"]
    together = bleu(response, references)
    assert together == sacrebleu.sentence_bleu(response, references).score / 100
    assert together > max(bleu(response, [r]) for r in references)


def test_evaluate_rag_scores_reference_and_references(builtin_registry) -> None:
    samples: list[dict[str, Any]] = [
        {"id": "a", "response": "the cat sat", "reference": "a dog", "references": ["the cat sat"]},
        {"id": "b", "reference": "the cat sat"},  # unanswered: 0
        {"id": "c", "response": "the cat sat"},  # no gold answer: skipped
    ]
    report = evaluate_rag(samples, metrics=("bleu", "chrf", "rouge_l"), registry=builtin_registry)
    assert report.per_sample["rouge_l"] == (1.0, 0.0, None)
    assert (
        report.per_sample["bleu"][0]
        == sacrebleu.sentence_bleu("the cat sat", ["a dog", "the cat sat"]).score / 100
    )
    assert report.per_sample["chrf"][1:] == (0.0, None)
    assert report.coverage == {"bleu": 2, "chrf": 2, "rouge_l": 2}


def test_references_must_be_a_list_of_strings() -> None:
    with pytest.raises(InvalidSampleError, match="'references' must be a list of strings"):
        sample_bleu({"id": "s1", "response": "x", "reference": "x", "references": "y"})  # type: ignore[typeddict-item]


@pytest.mark.parametrize(
    ("metric", "missing", "cached"),
    [
        ("bleu", "sacrebleu", sacrebleu_scorer),
        ("chrf", "sacrebleu", sacrebleu_scorer),
        ("rouge_l", "rouge_score", rouge_module._scorer),
    ],
)
def test_a_missing_library_names_the_text_extra(
    monkeypatch, builtin_registry, metric, missing, cached
) -> None:
    distribution = missing.replace("_", "-")  # what pip installs: sacrebleu, rouge-score
    for name in [m for m in sys.modules if m == missing or m.startswith(f"{missing}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # import fails as if not installed
    cached.cache_clear()  # the library object made while it was there
    try:
        with pytest.raises(MissingDependencyError, match=rf'needs {distribution}.*\[text\]"'):
            evaluate_rag([{"response": "a", "reference": "a"}], metrics=(metric,),
                         registry=builtin_registry)  # fmt: skip
    finally:
        cached.cache_clear()


def test_importing_ef_evaluation_imports_neither_library() -> None:
    import subprocess

    code = (
        "import sys, ef.evaluation; from ef.evaluation import evaluate_rag;"
        "evaluate_rag([{'response': 'a', 'reference': 'a'}]);"
        "print(sorted(m for m in sys.modules if m.startswith(('sacrebleu', 'rouge_score'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "[]"
