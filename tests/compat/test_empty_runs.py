"""An empty run through each compat shim: what its tool gives (0, an empty result, or an
error where the tool fails too), with an InputWarning that says the run is empty, where
evaluate_run itself refuses it. pytrec_eval's case is in test_pytrec_eval.py."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from ef.evaluation import InputWarning, evaluate_run
from ef.evaluation.compat import ir_measures, ranx
from ef.evaluation.compat.beir import EvaluateRetrieval

from . import beir_restated
from .helpers import inputs

EMPTY = r"the run is empty \(no query\)"


def test_evaluate_run_itself_refuses_an_empty_run() -> None:
    qrels, _ = inputs(1)
    with pytest.raises(ValueError, match="no query can be scored: the run is empty"):
        evaluate_run({}, qrels)


@pytest.mark.parametrize("shape", ["dict", "records", "pandas", "polars"])
def test_ir_measures_scores_an_empty_run_0_as_ir_measures_does(shape: str) -> None:
    qrels, _ = inputs(2)
    run: Any = {}
    if shape == "records":
        run = []
    elif shape in ("pandas", "polars"):
        frames = pytest.importorskip(shape)
        run = frames.DataFrame({"query_id": ["q"], "doc_id": ["d"], "score": [1.0]})[:0]
    measures = ["AP", "nDCG@10", "P@5", "RR", "NumRel", "Judged@10", "Bpref"]
    with pytest.warns(InputWarning, match=EMPTY + ": every judged query scores 0"):
        means = ir_measures.calc_aggregate(measures, qrels, run)
    assert means == dict.fromkeys(measures, 0.0)
    with pytest.warns(InputWarning, match=EMPTY):
        records = list(ir_measures.iter_calc(measures, qrels, run))
    assert {(m.query_id, m.measure) for m in records} == {(q, m) for q in qrels for m in measures}
    assert {m.value for m in records} == {0.0}


@pytest.mark.peers
def test_ir_measures_empty_run_is_ir_measures_own_result() -> None:
    irm = pytest.importorskip("ir_measures")
    qrels, _ = inputs(3)
    names = ["AP", "nDCG@10", "P(rel=2)@5", "RR@10", "R@100", "NumRel", "Judged@10", "infAP"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        got = ir_measures.calc_aggregate(names, qrels, {})
        records = list(ir_measures.iter_calc(names, qrels, {}))
    expected = irm.calc_aggregate([irm.parse_measure(n) for n in names], qrels, {})
    assert got == {n: expected[irm.parse_measure(n)] for n in names}
    theirs = irm.iter_calc([irm.parse_measure(n) for n in names], qrels, {})
    assert sorted((m.query_id, str(m.measure), m.value) for m in records) == sorted(
        (m.query_id, str(m.measure), m.value) for m in theirs
    )


def test_the_empty_run_warning_points_at_the_caller() -> None:
    qrels, _ = inputs(4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ir_measures.calc_aggregate(["AP"], qrels, {})
        ir_measures.evaluator(["AP"], qrels).calc_aggregate({})
        next(ir_measures.iter_calc(["AP"], qrels, {}))
        ranx.evaluate(qrels, {}, "mrr", make_comparable=True)
        EvaluateRetrieval.evaluate_custom(qrels, {}, [1], "mrr")
    assert [(w.category, w.filename) for w in caught] == [(InputWarning, __file__)] * 5


def test_ranx_refuses_an_empty_run_unless_make_comparable() -> None:
    qrels, _ = inputs(5)
    # ranx asserts "Qrels and Run query ids do not match" (its check_keys): so do we, saying why.
    with pytest.raises(ValueError, match="query ids do not match: " + EMPTY):
        ranx.evaluate(qrels, {}, "ndcg@10")
    with pytest.raises(ValueError, match=EMPTY):
        ranx.evaluate(ranx.Qrels(qrels), ranx.Run(), "ndcg@10")
    # With make_comparable, ranx adds an empty ranking for each judged query: every one is 0.
    metrics = ["ndcg@10", "map@100", "mrr", "precision@5", "recall@10", "hit_rate@5"]
    with pytest.warns(InputWarning, match=EMPTY + ": with make_comparable=True"):
        means = ranx.evaluate(qrels, {}, metrics, make_comparable=True)
    assert means == dict.fromkeys(metrics, 0.0)
    with pytest.warns(InputWarning, match=EMPTY):
        per_query = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(), "mrr", return_mean=False,
                                  make_comparable=True)  # fmt: skip
    assert per_query.tolist() == [0.0] * len(qrels)


@pytest.mark.peers
def test_ranx_empty_run_is_ranx_s_own_result() -> None:
    real = pytest.importorskip("ranx")
    qrels, _ = inputs(6)
    metrics = ["ndcg@10", "map@100", "mrr", "precision@5", "recall@10"]
    with pytest.warns(InputWarning, match=EMPTY):
        got = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(), metrics, make_comparable=True)
    with warnings.catch_warnings():  # numba's, on compiling ranx's kernels for no query
        warnings.simplefilter("ignore", pytest.importorskip("numba").NumbaTypeSafetyWarning)
        expected = real.evaluate(real.Qrels(qrels), real.Run(), metrics, make_comparable=True)
    assert got == pytest.approx(expected, abs=1e-12)


def test_beir_fails_on_an_empty_run_in_evaluate_and_gives_0_in_evaluate_custom() -> None:
    qrels, _ = inputs(7)
    with pytest.raises(ZeroDivisionError):  # BEIR divides by the queries pytrec_eval scored
        beir_restated.EvaluateRetrieval.evaluate(qrels, {}, [1, 10])
    with pytest.raises(ValueError, match="no query can be scored: the run is empty"):
        EvaluateRetrieval.evaluate(qrels, {}, [1, 10])
    for metric in ("mrr", "r_cap", "hole", "acc"):
        expected = beir_restated.EvaluateRetrieval.evaluate_custom(qrels, {}, [1, 10], metric)
        with pytest.warns(InputWarning, match=EMPTY + ": every cutoff scores 0"):
            got = EvaluateRetrieval.evaluate_custom(qrels, {}, [1, 10], metric)
        assert got == expected
        assert set(got.values()) == {0.0}


def test_an_empty_run_still_has_its_qrels_checked() -> None:
    bad: Any = {"q1": {"d1": "high"}}
    with pytest.raises(ValueError, match=r"qrels\['q1'\]\['d1'\] = 'high'"):
        EvaluateRetrieval.evaluate_custom(bad, {}, [1], "mrr")
    with pytest.raises(ValueError, match=r"qrels\['q1'\]\['d1'\] = 'high'"):
        ir_measures.calc_aggregate(["AP"], bad, {})
