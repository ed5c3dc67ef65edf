"""ef.evaluation.compat.beir against BEIR's EvaluateRetrieval on the same inputs: the
installed ``beir`` where it is (``pip install --no-deps beir`` is enough), and always the
restatement of its source (tests/compat/beir_restated.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ef.evaluation.compat.beir import EvaluateRetrieval

from . import beir_restated
from .helpers import Qrels, Run, inputs, unchanged

K_VALUES = [1, 3, 5, 10, 100]
CUSTOM = ("mrr", "r_cap", "hole", "acc")


def _installed() -> Any:
    module = pytest.importorskip("beir.retrieval.evaluation")
    return module.EvaluateRetrieval


@pytest.fixture(params=["installed beir", "restated from its source"])
def beir(request: pytest.FixtureRequest) -> Any:
    if request.param == "installed beir":
        return _installed()
    return beir_restated.EvaluateRetrieval


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("ignore_identical_ids", [True, False])
def test_evaluate_gives_beir_s_four_dicts(
    beir, seed: int, ties: bool, ignore_identical_ids
) -> None:
    qrels, run = inputs(seed, ties=ties)
    still = unchanged(qrels, run)
    got = EvaluateRetrieval.evaluate(qrels, run, K_VALUES, ignore_identical_ids)
    still()  # BEIR removes the identical ids from run; we do not
    expected = beir.evaluate(qrels, copy.deepcopy(run), K_VALUES, ignore_identical_ids)
    assert got == expected
    assert [list(d) for d in got] == [list(d) for d in expected]  # keys, in BEIR's order


def test_identical_ids_change_the_numbers_where_beir_drops_them(beir) -> None:
    qrels = {"q1": {"d1": 1}}
    run = {"q1": {"q1": 2.0, "d1": 1.0}}  # the query itself ranks first
    dropped = EvaluateRetrieval.evaluate(qrels, run, [1])
    kept = EvaluateRetrieval.evaluate(qrels, run, [1], ignore_identical_ids=False)
    assert (dropped[0], kept[0]) == ({"NDCG@1": 1.0}, {"NDCG@1": 0.0})
    assert beir.evaluate(qrels, copy.deepcopy(run), [1]) == dropped
    assert beir.evaluate(qrels, copy.deepcopy(run), [1], False) == kept
    assert run == {"q1": {"q1": 2.0, "d1": 1.0}}


def _judged(qrels: Qrels, run: Run) -> tuple[Qrels, Run]:
    """What BEIR's custom metrics can take: every run query judged, each with a relevant doc
    (BEIR raises KeyError, or ZeroDivisionError in recall_cap, otherwise)."""
    judged = {q: j for q, j in qrels.items() if q in run and any(g > 0 for g in j.values())}
    return judged, {q: r for q, r in run.items() if q in judged}


@pytest.mark.parametrize("metric", [*CUSTOM, "MRR@k", "recall_cap", "top_k_accuracy"])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("ties", [True, False])
def test_evaluate_custom_gives_beir_s_numbers(beir, metric: str, seed: int, ties: bool) -> None:
    qrels, run = inputs(seed, ties=ties)
    judged, answered = _judged(qrels, run)
    # Judged queries the run lacks count in BEIR's denominator (len(qrels)).
    with_missing = {**qrels, **judged}
    still = unchanged(with_missing, answered)
    got = EvaluateRetrieval.evaluate_custom(with_missing, answered, K_VALUES, metric)
    still()
    assert got == beir.evaluate_custom(with_missing, answered, K_VALUES, metric)


def test_evaluate_custom_after_evaluate_sees_what_beir_s_does(beir) -> None:
    qrels, run = inputs(4)
    judged, answered = _judged(qrels, run)
    answered["q5"] = {**answered.get("q5", {"d1": 0.3}), "q5": 9.0}
    judged.setdefault("q5", {"d1": 1})
    theirs = copy.deepcopy(answered)
    beir.evaluate(judged, theirs, K_VALUES)  # drops q5 from theirs["q5"], in place
    expected = beir.evaluate_custom(judged, theirs, K_VALUES, "mrr")
    got = EvaluateRetrieval.evaluate_custom(
        judged, answered, K_VALUES, "mrr", ignore_identical_ids=True
    )
    assert got == expected
    assert "q5" in answered["q5"]


def test_what_beir_crashes_on_is_scored_or_refused_clearly() -> None:
    qrels = {"q1": {"d1": 1}}
    run = {"q1": {"d1": 1.0}, "q9": {"d1": 1.0}}  # q9 is judged nowhere: KeyError in BEIR
    with pytest.raises(KeyError):
        beir_restated.EvaluateRetrieval.evaluate_custom(qrels, run, [1], "mrr")
    assert EvaluateRetrieval.evaluate_custom(qrels, run, [1], "mrr") == {"MRR@1": 1.0}
    with pytest.raises(ValueError, match="BEIR's custom metrics are 'mrr'"):
        EvaluateRetrieval.evaluate_custom(qrels, run, [1], "ndcg")
    assert beir_restated.EvaluateRetrieval.evaluate_custom(qrels, run, [1], "ndcg") is None
    with pytest.raises(ValueError, match="no query in common between the run and qrels"):
        EvaluateRetrieval.evaluate({"1": {"d1": 1}}, {"Q1": {"d1": 1.0}}, [1])
    with pytest.raises(ValueError, match="k_values is a list of cutoffs"):
        EvaluateRetrieval.evaluate(qrels, run, 10)  # type: ignore[arg-type]


def test_an_instance_keeps_beir_s_attributes() -> None:
    evaluator = EvaluateRetrieval(k_values=[1, 10])
    assert (evaluator.k_values, evaluator.top_k, evaluator.score_function) == (
        [1, 10],
        10,
        "cos_sim",
    )
    qrels, run = inputs(1)
    assert evaluator.evaluate(qrels, run, [1, 10]) == EvaluateRetrieval.evaluate(
        qrels, run, [1, 10]
    )


def test_the_restatement_is_beir_s_own() -> None:
    real = _installed()
    for seed in (1, 2, 3):
        qrels, run = inputs(seed)
        assert beir_restated.EvaluateRetrieval.evaluate(
            qrels, copy.deepcopy(run), K_VALUES
        ) == real.evaluate(qrels, copy.deepcopy(run), K_VALUES)
        judged, answered = _judged(qrels, run)
        for metric in CUSTOM:
            assert beir_restated.EvaluateRetrieval.evaluate_custom(
                judged, answered, K_VALUES, metric
            ) == real.evaluate_custom(judged, answered, K_VALUES, metric)
