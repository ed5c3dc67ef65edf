"""ef.evaluation.compat.ir_measures against ir_measures itself on the same inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import UnknownNameError, write_qrels, write_run
from ef.evaluation.compat import ir_measures as ours
from ef.evaluation.compat.ir_measures import AP, RR, P, R, nDCG

from .helpers import Qrels, Run, inputs, unchanged

pytestmark = pytest.mark.peers  # ir_measures

irm = pytest.importorskip("ir_measures")

#: Measures of ir_measures' pytrec_eval, msmarco and judged providers (gdeval needs perl and
#: numeric query ids, cwl_eval another package: tests/conformance covers them).
NAMES = [
    "nDCG@10", "nDCG", "P@5", "P(rel=2)@5", "AP", "AP@100", "AP(rel=2)", "RR", "RR@10",
    "RR(rel=2)@5", "R@100", "R(rel=2)@10", "Rprec", "Bpref", "Success@5", "NumRel",
    "NumRelRet", "SetP", "SetR", "SetF", "infAP", "Judged@10", "Judged",
]  # fmt: skip


def _theirs(measure: Any) -> Any:
    return irm.parse_measure(str(measure))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("ties", [True, False])
def test_calc_aggregate_gives_ir_measures_numbers(seed: int, ties: bool) -> None:
    qrels, run = inputs(seed, ties=ties)
    still = unchanged(qrels, run)
    measures = [ours.parse_measure(name) for name in NAMES]
    got = ours.calc_aggregate(measures, qrels, run)
    expected = irm.calc_aggregate([_theirs(m) for m in measures], qrels, run)
    assert list(got) == measures
    for measure, value in got.items():
        assert value == pytest.approx(expected[_theirs(measure)], abs=1e-9, rel=0), measure
    still()


@pytest.mark.parametrize("seed", [1, 4])
def test_iter_calc_gives_ir_measures_records(seed: int) -> None:
    qrels, run = inputs(seed)
    measures = [ours.parse_measure(name) for name in NAMES]
    # Keyed as ir_measures writes the measure (it writes NumRelRet as NumRet(rel=1)).
    got = {
        (m.query_id, str(_theirs(m.measure))): m.value for m in ours.iter_calc(measures, qrels, run)
    }
    expected = {
        (m.query_id, str(m.measure)): m.value
        for m in irm.iter_calc([_theirs(m) for m in measures], qrels, run)
    }
    assert got.keys() == expected.keys()  # every query of qrels, the missing ones too
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-9, rel=0), key
    record = next(ours.iter_calc([AP], qrels, run))
    assert (record.query_id, record.measure) == (record[0], AP)
    assert record._fields == ("query_id", "measure", "value")


def test_measure_objects_are_written_and_compared_as_ir_measures_writes_them() -> None:
    assert [str(m) for m in (nDCG @ 10, P(rel=2) @ 5, AP, RR @ 10, R @ 100)] == [
        str(m) for m in (irm.nDCG @ 10, irm.P(rel=2) @ 5, irm.AP, irm.RR @ 10, irm.R @ 100)
    ]
    assert nDCG @ 10 == ours.parse_measure("nDCG@10")
    assert P(rel=2, judged_only=True) @ 5 == P(judged_only=True, rel=2) @ 5
    assert str(nDCG(dcg="exp-log2", judged_only=True) @ 10) == str(
        irm.nDCG(dcg="exp-log2", judged_only=True) @ 10
    )
    assert {nDCG @ 10: 1}[ours.parse_measure("nDCG@10")] == 1
    with pytest.raises(ValueError, match="a cutoff is a positive int"):
        _ = nDCG @ 0


def test_results_are_keyed_by_what_was_passed() -> None:
    qrels, run = inputs(2)
    got = ours.calc_aggregate(["nDCG@10", P @ 5, "AP"], qrels, run)
    assert list(got) == ["nDCG@10", P @ 5, "AP"]
    assert got["AP"] == ours.calc_aggregate([AP], qrels, run)[AP]
    # A bare P (ir_measures wants a cutoff) is P over the whole ranking, SetP: not
    # trec_eval's family of P at 5, 10, ..., 1000.
    both = ours.calc_aggregate([P, ours.SetP], qrels, run)
    assert both[P] == both[ours.SetP]


def _as_records(qrels: Qrels, run: Run) -> tuple[list[Any], list[Any]]:
    judged = [irm.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    scored = [irm.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    return judged, scored


def test_qrels_and_runs_as_records_paths_and_dataframes(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    qrels, run = inputs(5)
    measures = [nDCG @ 10, AP, RR @ 10]
    expected = ours.calc_aggregate(measures, qrels, run)
    judged, scored = _as_records(qrels, run)
    assert ours.calc_aggregate(measures, iter(judged), iter(scored)) == expected
    assert irm.calc_aggregate(
        [_theirs(m) for m in measures], iter(judged), iter(scored)
    ) == pytest.approx({_theirs(m): v for m, v in expected.items()}, abs=1e-9)
    write_qrels(tmp_path / "qrels.txt", qrels)
    write_run(tmp_path / "run.txt", run)
    assert ours.calc_aggregate(measures, str(tmp_path / "qrels.txt"), tmp_path / "run.txt") == (
        expected
    )
    frames = pd.DataFrame(judged), pd.DataFrame(scored)  # query_id, doc_id, relevance/score
    assert ours.calc_aggregate(measures, *frames) == expected


def test_bad_records_are_named() -> None:
    qrels, run = inputs(5)
    judged, scored = _as_records(qrels, run)
    twice = [*scored, scored[0]]
    with pytest.raises(ValueError, match=rf"^the run records: rows 0 and {len(scored)} both have"):
        ours.calc_aggregate([AP], judged, twice)
    with pytest.raises(TypeError, match="run row 0 is a tuple; expected namedtuples"):
        ours.calc_aggregate([AP], judged, [("q1", "d1", 1.0)])
    with pytest.raises(TypeError, match="qrels row 0 has no field 'relevance'"):
        ours.calc_aggregate([AP], scored, scored)


def test_an_evaluator_scores_runs_one_after_another() -> None:
    qrels, run = inputs(6)
    _, other = inputs(7)
    evaluator = ours.evaluator([nDCG @ 10, "P@5"], qrels)
    assert evaluator.calc_aggregate(run) == ours.calc_aggregate([nDCG @ 10, "P@5"], qrels, run)
    assert evaluator.calc_aggregate(other) == ours.calc_aggregate([nDCG @ 10, "P@5"], qrels, other)
    assert list(evaluator.iter_calc(run)) == list(ours.iter_calc([nDCG @ 10, "P@5"], qrels, run))


def test_unknown_measures_and_mistakes_are_refused() -> None:
    with pytest.raises(UnknownNameError, match="unknown retrieval metric 'nDGC'"):
        ours.parse_measure("nDGC@10")
    with pytest.raises(ValueError, match="is no measure in ir_measures' syntax"):
        ours.parse_measure("nDCG@@10")
    with pytest.raises(TypeError, match="measures is a list"):
        ours.calc_aggregate(AP, {"q1": {"d1": 1}}, {"q1": {"d1": 1.0}})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no query in common between the run and qrels"):
        ours.calc_aggregate([AP], {"1": {"d1": 1}}, {"Q1": {"d1": 1.0}})


def test_every_measure_object_of_the_module_is_scored_as_ir_measures_scores_it() -> None:
    qrels, run = inputs(8, ties=False)
    exported = [getattr(ours, n) for n in ours.__all__]
    # The diversity measures need subtopic qrels (tests/metrics/test_diversity_evaluate.py).
    diversity = {"alpha_nDCG", "alpha_DCG", "ERR_IA", "nERR_IA", "P_IA", "NRBP", "nNRBP"}
    diversity |= {"AP_IA", "StRecall"}
    cut = {"AP", "MAP", "RR", "MRR", "nDCG", "NDCG", "P", "R", "Success", "Judged", "ERR"}
    measures = [
        m @ 5 if m.NAME in cut else m
        for m in exported
        if isinstance(m, ours.Measure) and m.NAME not in diversity
    ]
    assert len(measures) == 21
    assert {m.NAME for m in exported if isinstance(m, ours.Measure)} >= diversity
    got = ours.calc_aggregate(measures, qrels, run)
    # Those ir_measures computes here without perl (gdeval) or cwl_eval (RBP).
    shared = [m for m in measures if m.NAME not in ("ERR", "RBP")]
    expected = irm.calc_aggregate([_theirs(m) for m in shared], qrels, run)
    for measure in shared:
        assert got[measure] == pytest.approx(expected[_theirs(measure)], abs=1e-9), measure


@pytest.mark.parametrize("gains", [{0: 0, 1: 1, 2: 10}, {2: 10, 1: 3}, {1: 0, 2: 1}])
@pytest.mark.parametrize("seed", [1, 3])
def test_measures_with_a_dict_parameter_are_scored_as_ir_measures_scores_them(
    seed: int, gains: dict[int, int]
) -> None:
    # Was "TypeError: unhashable type: 'dict'" for the object; the string form worked.
    qrels, run = inputs(seed)
    text = f"nDCG(gains={gains})@10"
    parsed, built, uncut = ours.parse_measure(text), nDCG(gains=gains) @ 10, nDCG(gains=gains)
    assert parsed == built
    assert hash(parsed) == hash(built)
    got = ours.calc_aggregate([parsed, uncut, text], qrels, run)
    assert list(got) == [parsed, uncut, text]
    theirs = [irm.parse_measure(text), irm.nDCG(gains=gains)]
    expected = irm.calc_aggregate(theirs, qrels, run)
    assert got[parsed] == pytest.approx(expected[theirs[0]], abs=1e-9, rel=0)
    assert got[uncut] == pytest.approx(expected[theirs[1]], abs=1e-9, rel=0)
    assert got[text] == got[parsed]
    assert ours.calc_aggregate([built], qrels, run) == {built: got[parsed]}
    expected_per_query = {m.query_id: m.value for m in irm.iter_calc(theirs[:1], qrels, run)}
    per_query = {m.query_id: m.value for m in ours.iter_calc([built], qrels, run)}
    assert per_query == pytest.approx(expected_per_query, abs=1e-9, rel=0)


def test_a_measure_parameter_of_the_wrong_shape_is_named_not_a_traceback() -> None:
    # "P(rel=(1,2))@5" was "TypeError: cannot unpack non-iterable int object".
    with pytest.raises(
        ValueError, match=r"precision's parameter 'rel' must be a number, got \(1, 2\)"
    ):
        ours.parse_measure("P(rel=(1,2))@5")
    with pytest.raises(ValueError, match="'gains' maps numbers to numbers"):
        ours.calc_aggregate([nDCG(gains={"a": 1, 2: 3}) @ 10], *inputs(1))
