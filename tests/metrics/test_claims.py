"""RAGChecker's claim metrics from entailment labels (ef.evaluation.metrics._claims).

Two oracles: RAGChecker's own example output (``examples/checking_outputs.json``, its labels
and the metrics it computed from them, kept in ``golden/``), and a restatement of its
``ragchecker/computation.py`` in numpy, array for array, compared on random labels. Importing
``ragchecker`` itself pulls refchecker and a model stack, so the restatement stands in for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import InvalidSampleError, evaluate_claims, evaluate_rag
from ef.evaluation.metrics._claims import CLAIM_METRIC_NAMES, REQUIREMENTS, claim_scores

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "ragchecker_checking_outputs.json").read_text("utf-8")
)
LABEL_KEYS = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")


def _sample(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": result["query_id"],
        "retrieved_contexts": ["..."] * result["n_contexts"],
        "claims": {key: result[key] for key in LABEL_KEYS},
    }


@pytest.mark.parametrize("result", GOLDEN["results"], ids=lambda r: r["query_id"])
def test_each_result_equals_ragcheckers_metrics(result: dict[str, Any]) -> None:
    ours = claim_scores({key: result[key] for key in LABEL_KEYS}, result["n_contexts"])
    assert ours == pytest.approx(result["metrics"], abs=1e-15, rel=0)
    assert set(ours) == set(REQUIREMENTS)


def test_the_report_equals_ragcheckers_summary_x100_to_one_decimal() -> None:
    report = evaluate_claims([_sample(r) for r in GOLDEN["results"]])
    summary = {name: value for group in GOLDEN["metrics"].values() for name, value in group.items()}
    assert {
        key.removeprefix("claims."): round(value * 100, 1)
        for key, value in report.metrics.items()
        if value is not None
    } == summary
    assert report.coverage == dict.fromkeys(CLAIM_METRIC_NAMES, 2)


# RAGChecker's computation restated in numpy, as its computation.py computes each metric
# (a bool array per label list, np.max along the claim or the context axis, np.mean).
def _ragchecker(labels: dict[str, Any], n_contexts: int) -> dict[str, float]:
    a2r = np.array(labels["answer2response"], dtype=bool)
    r2a = np.array(labels["response2answer"], dtype=bool)
    ret2r = np.array(labels["retrieved2response"], dtype=bool).reshape(len(a2r), n_contexts)
    ret2a = np.array(labels["retrieved2answer"], dtype=bool).reshape(len(r2a), n_contexts)
    out: dict[str, float] = {}
    out["precision"] = float(np.mean(a2r)) if len(a2r) else 0.0
    out["recall"] = float(np.mean(r2a)) if len(r2a) else 0.0
    p, r = out["precision"], out["recall"]
    out["f1"] = 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0
    if len(ret2a) and ret2a.shape[1]:
        recalled = ret2a.max(axis=1)
        out["claim_recall"] = float(recalled.mean())
        out["context_precision"] = float(ret2a.max(axis=0).mean())
        used = recalled & r2a
        out["context_utilization"] = (
            float(used.sum() / recalled.sum()) if recalled.sum() > 0 else 0.0
        )
    else:
        out["claim_recall"] = out["context_precision"] = out["context_utilization"] = 0.0
    if len(a2r) and ret2r.shape[1] and len(ret2a):
        relevant = ret2a.max(axis=0, keepdims=True)
        rel_faithful = (relevant & ret2r).max(axis=1)
        irr_faithful = (~relevant & ret2r).max(axis=1) & ~rel_faithful
        out["noise_sensitivity_in_relevant"] = float(np.mean(rel_faithful & ~a2r))
        out["noise_sensitivity_in_irrelevant"] = float(np.mean(irr_faithful & ~a2r))
    else:
        out["noise_sensitivity_in_relevant"] = out["noise_sensitivity_in_irrelevant"] = 0.0
    if len(a2r) and ret2r.shape[1]:
        unfaithful = ~ret2r.max(axis=1)
        out["hallucination"] = float(np.mean(unfaithful & ~a2r))
        out["self_knowledge"] = float(np.mean(unfaithful & a2r))
    else:
        out["hallucination"] = out["self_knowledge"] = 0.0
    has = len(ret2r) and ret2r.shape[1]
    out["faithfulness"] = float(ret2r.max(axis=1).mean()) if has else 0.0
    return out


_LABEL = st.sampled_from(["Entailment", "Neutral", "Contradiction"])


@st.composite
def _labels(draw: st.DrawFn) -> dict[str, Any]:
    n_response, n_gold, n_contexts = (draw(st.integers(0, 5)) for _ in range(3))
    return {
        "answer2response": draw(st.lists(_LABEL, min_size=n_response, max_size=n_response)),
        "response2answer": draw(st.lists(_LABEL, min_size=n_gold, max_size=n_gold)),
        "retrieved2response": [
            draw(st.lists(_LABEL, min_size=n_contexts, max_size=n_contexts))
            for _ in range(n_response)
        ],
        "retrieved2answer": [
            draw(st.lists(_LABEL, min_size=n_contexts, max_size=n_contexts)) for _ in range(n_gold)
        ],
        "n_contexts": n_contexts,
    }


@settings(max_examples=300, deadline=None)
@given(_labels())
def test_every_metric_equals_the_restated_computation(labels: dict[str, Any]) -> None:
    n_contexts = labels.pop("n_contexts")
    expected = _ragchecker({k: _bools(v) for k, v in labels.items()}, n_contexts)
    assert claim_scores(labels, n_contexts) == pytest.approx(expected, abs=1e-15, rel=0)


def _bools(value: list[Any]) -> list[Any]:
    return [_bools(x) if isinstance(x, list) else x == "Entailment" for x in value]


def test_a_hand_example() -> None:
    # r1 correct and in c1; r2 wrong and in c2 only; r3 wrong and in no context.
    # g1 in c1 and in the response; g2 in no context; c2 holds no gold claim.
    labels = {
        "answer2response": [True, False, False],
        "response2answer": [True, False],
        "retrieved2response": [[True, False], [False, True], [False, False]],
        "retrieved2answer": [[True, False], [False, False]],
    }
    scores = claim_scores(labels, 2)
    assert scores["precision"] == 1 / 3
    assert scores["recall"] == 1 / 2
    assert scores["f1"] == 2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2)
    assert scores["claim_recall"] == 1 / 2
    assert scores["context_precision"] == 1 / 2
    assert scores["context_utilization"] == 1.0
    assert scores["noise_sensitivity_in_relevant"] == 0.0
    assert scores["noise_sensitivity_in_irrelevant"] == 1 / 3
    assert scores["hallucination"] == 1 / 3
    assert scores["self_knowledge"] == 0.0
    assert scores["faithfulness"] == 2 / 3


def test_a_metric_whose_labels_are_missing_skips_the_sample() -> None:
    samples: list[dict[str, Any]] = [
        {"claims": {"answer2response": ["Entailment"]}},
        {"response": "no labels"},
    ]
    report = evaluate_rag(samples, metrics=["claims.precision", "claims.faithfulness"])
    assert report.per_sample["claims.precision"] == (1.0, None)
    assert report.per_sample["claims.faithfulness"] == (None, None)
    assert report.coverage == {"claims.precision": 1, "claims.faithfulness": 0}


@pytest.mark.parametrize(
    ("claims", "match"),
    [
        ({"answer2response": ["yes"]}, r"claims\.answer2response\[0\].*got 'yes'"),
        ({"answer2response": "Entailment"}, "must be a list of labels"),
        (
            {"answer2response": [True], "retrieved2response": [[True], [True]]},
            "one label per claim",
        ),
        ({"retrieved2answer": [[True], [True, False]]}, "a label per context"),
        ({"retrieved2answer": [[True, True]]}, "cover 2 contexts and the sample retrieved 1"),
        (["Entailment"], "must be a mapping"),
    ],
)
def test_malformed_labels_are_refused_naming_the_sample(claims: object, match: str) -> None:
    sample = {"id": "s7", "retrieved_contexts": ["c"], "claims": claims}
    with pytest.raises(InvalidSampleError, match=match) as info:
        evaluate_rag([sample], metrics=["claims.claim_recall", "claims.precision"])
    assert "id 's7'" in str(info.value)
