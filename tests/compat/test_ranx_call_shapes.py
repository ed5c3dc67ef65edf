"""compat.ranx orders tied docs as ranx does for the call made (ranx itself is checked live
in test_ranx.py): a plain dict run by its scores ascending read backwards, a ``Run`` by its
negated scores, and a ``Run`` once more under ``make_comparable=True`` with a ``Qrels``."""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import pytest

from ef.evaluation import InputWarning, evaluate_run
from ef.evaluation._runs.ranx_order import ranx_dict_order, ranx_order
from ef.evaluation.compat import ranx as ours

QRELS = {"q1": {f"d{i}": int(i % 4 == 0) for i in range(60)}}
RUN = {"q1": {f"d{i}": float(i // 15) for i in range(60)}}  # blocks of 15 tied docs
METRICS = ["ndcg@5", "map@5"]


def _ranked_as(order: list[str]) -> Mapping[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return evaluate_run({"q1": order}, QRELS, metrics=METRICS, profile="ranx").metrics


def test_each_call_shape_takes_its_own_order() -> None:
    docs, scores = list(RUN["q1"]), list(RUN["q1"].values())
    as_dict = _ranked_as(ranx_dict_order(docs, scores))
    once = _ranked_as(ranx_order(docs, scores, 1))
    twice = _ranked_as(ranx_order(docs, scores, 2))
    assert len({tuple(m.values()) for m in (as_dict, once, twice)}) == 3  # the orders differ
    assert ours.evaluate(QRELS, RUN, METRICS) == as_dict
    assert ours.evaluate(QRELS, RUN, METRICS, make_comparable=True) == as_dict
    assert ours.evaluate(ours.Qrels(QRELS), ours.Run(RUN), METRICS) == once
    assert ours.evaluate(QRELS, ours.Run(RUN), METRICS, make_comparable=True) == once
    assert ours.evaluate(ours.Qrels(QRELS), ours.Run(RUN), METRICS, make_comparable=True) == twice


def test_the_shim_still_refuses_a_swapped_run_and_qrels() -> None:
    run = {q: {f"d{i}": float(i) for i in range(1, 101)} for q in ("q1", "q2")}
    qrels = {"q1": {"d3": 1, "d9": 2}, "q2": {"d4": 1}}
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        ours.evaluate(run, qrels, "ndcg@10")


def test_the_ranx_profile_says_where_ranx_s_bpref_is_no_number() -> None:
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}, "q3": {"d4": 0}}
    run = {"q1": {"d1": 0.9}, "q2": {"d3": 0.9}, "q3": {"d4": 0.9}}
    with pytest.warns(InputWarning, match=r"on 1 of 3 queries \('q2'\)"):
        evaluate_run(run, qrels, metrics=["bpref"], profile="ranx")
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)  # judged non-relevant docs: no word
        evaluate_run({"q1": run["q1"]}, {"q1": qrels["q1"]}, metrics=["bpref"], profile="ranx")
        evaluate_run(run, qrels, metrics=["bpref"])  # not under the ranx profile
