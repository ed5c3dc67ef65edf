"""ef.evaluation.compat.pytrec_eval against pytrec-eval-terrier on the same inputs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ef.evaluation import InputWarning, UnknownNameError
from ef.evaluation.compat import pytrec_eval as ours

from .helpers import inputs, unchanged

real = pytest.importorskip("pytrec_eval")

MEASURE_SETS = [
    {"map", "ndcg"},
    {"ndcg_cut.10", "P.5,10", "recall"},
    {"P", "P.5", "ndcg_cut_5"},  # pytrec_eval combines them: P_5 only, and ndcg_cut_5
    {"recip_rank", "Rprec", "bpref", "infAP", "success.1,5,10", "map_cut.5,100"},
    {"num_ret", "num_rel", "num_rel_ret", "set_P", "set_recall", "set_F", "relative_P.5"},
    # trec_eval's levels after the dot, as pytrec_eval reads them: iprec_at_recall_0.25, _0.50
    {"iprec_at_recall.0.5,0.25", "Rprec_mult.0.5,1.5", "map"},
]


def _agree(got: dict[str, dict[str, float]], expected: dict[str, dict[str, float]]) -> None:
    assert got.keys() == expected.keys()
    for query_id, values in expected.items():
        assert got[query_id].keys() == values.keys(), query_id
        for name, value in values.items():
            assert got[query_id][name] == pytest.approx(value, abs=1e-9, rel=0), (query_id, name)


@pytest.mark.parametrize("measures", MEASURE_SETS, ids=lambda m: ",".join(sorted(m)))
@pytest.mark.parametrize("relevance_level", [1, 2])
@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_same_results_as_pytrec_eval(measures, relevance_level, judged_only, seed) -> None:
    qrels, run = inputs(seed)
    still = unchanged(qrels, run)
    args = (measures, relevance_level, judged_only)
    got = ours.RelevanceEvaluator(qrels, *args).evaluate(run)
    _agree(got, real.RelevanceEvaluator(qrels, *args).evaluate(run))
    still()


def test_the_nicknames_give_pytrec_eval_s_values_of_what_is_implemented() -> None:
    qrels, run = inputs(3)
    for nickname in ("official", "set", "all_trec"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = ours.RelevanceEvaluator(qrels, {nickname}).evaluate(run)
        # Only relstring (trec_eval's marks of the top ranks, not a number) is left out.
        left_out = ["relstring"] if nickname == "all_trec" else []
        assert [str(w.message) for w in caught if w.category is InputWarning] == [
            f"ef-evaluation does not implement trec_eval's {name}: left out of the results"
            for name in left_out
        ]
        expected = real.RelevanceEvaluator(qrels, {nickname}).evaluate(run)
        for values in expected.values():
            for name in left_out:
                del values[name]
        _agree(got, expected)  # every other name, runid and num_q included


@pytest.mark.parametrize(
    "measures",
    [{"runid", "map"}, {"num_q"}, {"runid"}, {"num_q", "P.5"}, {"set"}, {"official", "num_q"}],
    ids=lambda m: ",".join(sorted(m)),
)
def test_runid_and_num_q_per_query_as_pytrec_eval_gives_them(measures) -> None:
    qrels, run = inputs(6)
    expected = real.RelevanceEvaluator(qrels, measures).evaluate(run)
    got = ours.RelevanceEvaluator(qrels, measures).evaluate(run)
    _agree(got, expected)
    some = next(iter(got.values()))
    # pytrec_eval's values: floats, num_q 1.0 per query, runid 0.0 (it has no name to give)
    assert {some.get("num_q", 1.0), some.get("runid", 0.0)} == {1.0, 0.0}
    assert all(type(v) is float for values in got.values() for v in values.values())


def test_only_num_q_still_refuses_a_run_of_another_collection() -> None:
    with pytest.raises(ValueError, match="no query in common between the run and qrels"):
        ours.RelevanceEvaluator({"1": {"d1": 1}}, {"num_q"}).evaluate({"Q1": {"d1": 1.0}})


def test_an_empty_run_gives_pytrec_eval_s_empty_result_with_a_warning() -> None:
    qrels, _ = inputs(7)
    for measures in ({"map"}, {"num_q"}, {"official"}):
        assert real.RelevanceEvaluator(qrels, measures).evaluate({}) == {}
        evaluator = ours.RelevanceEvaluator(qrels, measures)
        with pytest.warns(InputWarning, match=r"the run is empty \(no query\)"):
            assert evaluator.evaluate({}) == {}


def test_a_query_judged_with_nothing_is_left_out_as_pytrec_eval_leaves_it() -> None:
    qrels = {"q1": {"d1": 1}, "q2": {}}
    run = {"q1": {"d1": 1.0}, "q2": {"d1": 1.0}}
    expected = real.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    assert ours.RelevanceEvaluator(qrels, {"map"}).evaluate(run) == expected == {"q1": {"map": 1.0}}


def test_one_evaluator_gives_the_same_values_twice_and_keeps_its_own_qrels() -> None:
    qrels, run = inputs(4)
    evaluator = ours.RelevanceEvaluator(qrels, {"ndcg_cut.5,10"})
    first = evaluator.evaluate(run)
    qrels["q3"].clear()  # the caller's dict changes; the evaluator's copy does not
    assert evaluator.evaluate(run) == first


def test_numpy_grades_are_taken_where_pytrec_eval_refuses_them() -> None:
    qrels = {"q1": {"d1": np.int64(1), "d2": np.int64(0)}}
    run = {"q1": {"d1": 0.5, "d2": 0.9}}
    with pytest.raises(TypeError, match="Expected relevance to be integer"):
        real.RelevanceEvaluator(qrels, {"map"})
    assert ours.RelevanceEvaluator(qrels, {"map"}).evaluate(run) == {"q1": {"map": 0.5}}


def test_a_run_of_another_collection_is_refused_where_pytrec_eval_returns_nothing() -> None:
    qrels = {"1": {"d1": 1}}
    run = {"Q1": {"d1": 1.0}}
    assert real.RelevanceEvaluator(qrels, {"map"}).evaluate(run) == {}
    with pytest.raises(ValueError, match="no query in common between the run and qrels"):
        ours.RelevanceEvaluator(qrels, {"map"}).evaluate(run)


def test_a_measure_not_implemented_is_named() -> None:
    with pytest.raises(UnknownNameError, match="yaap"):
        ours.RelevanceEvaluator({"q1": {"d1": 1}}, {"yaap"})
    with pytest.raises(TypeError, match="measures is a set of names"):
        ours.RelevanceEvaluator({"q1": {"d1": 1}}, "map")


def test_supported_measures_are_trec_eval_s_names_we_implement() -> None:
    supported = ours.supported_measures
    assert {"map", "ndcg", "ndcg_cut", "P", "recall", "recip_rank", "Rprec", "bpref"} <= supported
    # Every one of them that pytrec_eval knows gives pytrec_eval's values.
    qrels, run = inputs(5)
    shared = supported & set(real.supported_measures)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ours.RelevanceEvaluator(qrels, shared).evaluate(run)
    _agree(got, real.RelevanceEvaluator(qrels, shared).evaluate(run))
    assert {"gm_map", "gm_bpref", "iprec_at_recall", "11pt_avg", "utility"} <= supported
    with pytest.raises(AttributeError):
        _ = ours.no_such_name
