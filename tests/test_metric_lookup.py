"""report.metric(name): a report's keys looked up in any tool's spelling, one name table."""

from __future__ import annotations

import pytest

from ef.evaluation import compare, evaluate_run
from ef.evaluation._engine.measures import parse_ranx_measure, resolve_key

RUN = {"q1": {"d1": 2.0, "d2": 1.0, "d3": 0.5}, "q2": {"d4": 1.0, "d5": 0.2}}
QRELS = {"q1": {"d2": 1, "d3": 2}, "q2": {"d5": 1}}
METRICS = (
    "ndcg@10",
    "precision@5",
    "map@all",
    "map@100",
    "recall@100",
    "r_cap@10",
    "mrr@10",
    "hole@10",
    "success@10",
    "ndcg(dcg='exp-log2')@10",
    "precision(rel=2)@5",
    "rprec",
)


@pytest.fixture(scope="module")
def report():
    return evaluate_run(RUN, QRELS, metrics=METRICS, k_values=(10,))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        # ir_measures
        ("nDCG@10", "ndcg@10"),
        ("P@5", "precision@5"),
        ("AP", "map@all"),
        ("AP@100", "map@100"),
        ("R@100", "recall@100"),
        ("RR@10", "mrr@10"),
        ("P(rel=2)@5", "precision(rel=2)@5"),
        ("nDCG(dcg='exp-log2')@10", "ndcg(dcg='exp-log2')@10"),
        ("Rprec", "rprec"),
        ("Success@10", "success@10"),
        # trec_eval's -m syntax and pytrec_eval's result keys
        ("ndcg_cut.10", "ndcg@10"),
        ("ndcg_cut_10", "ndcg@10"),
        ("P_5", "precision@5"),
        ("P.5", "precision@5"),
        ("map", "map@all"),
        ("map_cut_100", "map@100"),
        ("recall_100", "recall@100"),
        ("success_10", "success@10"),
        ("unj_10", "hole@10"),
        # ranx
        ("ndcg@10", "ndcg@10"),
        ("ndcg_burges@10", "ndcg(dcg='exp-log2')@10"),
        ("precision@5-l2", "precision(rel=2)@5"),
        ("hit_rate@10", "success@10"),
        ("r-precision", "rprec"),
        ("map@100-l1", "map@100"),
        # BEIR and MTEB
        ("NDCG@10", "ndcg@10"),
        ("MAP@100", "map@100"),
        ("Recall@100", "recall@100"),
        ("MRR@10", "mrr@10"),
        ("R_cap@10", "r_cap@10"),
        ("Hole@10", "hole@10"),
        ("Accuracy@10", "success@10"),
    ],
)
def test_every_spelling_finds_the_canonical_key(report, name: str, key: str) -> None:
    assert report.metric_key(name) == key
    assert report.metric(name) == report.metrics[key]
    assert report.metric(name, "q1") == report.per_query["q1"][key]


def test_metrics_keeps_the_canonical_keys(report) -> None:
    assert list(report.metrics) == list(METRICS)  # each of METRICS is its canonical key
    with pytest.raises(KeyError):
        report.metrics["nDCG@10"]


def test_a_missing_measure_says_its_key_and_what_is_there(report) -> None:
    with pytest.raises(KeyError) as info:
        report.metric("ndcg_cut_20")
    message = info.value.args[0]
    assert message.startswith("'ndcg_cut_20' is ndcg@20 in ef-evaluation's spelling")
    assert "it holds ndcg@10, precision@5, map@all" in message


def test_an_unknown_name_says_why(report) -> None:
    with pytest.raises(KeyError, match=r"'nDGC@10' names no measure \(unknown retrieval metric"):
        report.metric("nDGC@10")
    with pytest.raises(KeyError, match="no query 'q9' in this report's per_query"):
        report.metric("nDCG@10", "q9")


def test_a_name_of_several_keys_is_refused() -> None:
    report = evaluate_run(RUN, QRELS, metrics=("map", "map@all"), k_values=(10,))
    # ours: map at every cutoff (map@10); trec_eval's: the whole ranking (map@all)
    with pytest.raises(KeyError, match="'map' could be any of map@10, map@all"):
        report.metric("map")
    assert report.metric("map_cut_10") == report.metrics["map@10"]
    several = evaluate_run(RUN, QRELS, metrics=("ndcg",), k_values=(5, 10))
    with pytest.raises(KeyError, match="'ndcg' could be any of ndcg@5, ndcg@10"):
        several.metric("ndcg")


def test_a_name_in_our_spelling_needs_no_parsing() -> None:
    assert resolve_key("anything at all", ["anything at all"]) == "anything at all"


def test_ranx_names_ranx_has_and_we_do_not_are_refused() -> None:
    with pytest.raises(ValueError, match="ranx's 'hits' is not implemented"):
        parse_ranx_measure("hits@10")
    with pytest.raises(ValueError, match="ranx's 'rbp' is not implemented"):
        parse_ranx_measure("rbp.95")
    with pytest.raises(ValueError, match="ranx writes the cutoff after '@'"):
        parse_ranx_measure("ndcg.10")


def test_ranx_dcg_names_are_our_dcg() -> None:
    assert parse_ranx_measure("dcg@10").key == "dcg@10"
    assert parse_ranx_measure("dcg").key == "dcg@all"  # ranx's k=0: the whole ranking
    assert parse_ranx_measure("dcg_burges@5").key == "dcg(dcg='exp-log2')@5"
    assert parse_ranx_measure("dcg_burges@5-l2").key == "dcg(dcg='exp-log2',rel=2)@5"


def test_comparison_pairs_are_found_by_any_spelling() -> None:
    other = {"q1": {"d3": 2.0, "d2": 1.0}, "q2": {"d5": 1.0}}
    report = compare({"a": RUN, "b": other}, QRELS, metrics=("ndcg@10",))
    assert report.pair("a", "b", "nDCG@10") == report.pair("a", "b", "ndcg@10")
    assert report.pair("a", "b", "ndcg_cut_10") == report.pair("a", "b")
    with pytest.raises(KeyError, match="'P_5' is precision@5"):
        report.pair("a", "b", "P_5")
