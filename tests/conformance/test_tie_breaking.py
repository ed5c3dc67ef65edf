"""trec_eval's ordering of a scored run: score descending as C ``float``, ties by docno
descending (``strcmp``), the rank column ignored. Each case is built so that the order
decides the value; the expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ef.evaluation import evaluate_run
from ef.evaluation._runs.order import ranking_of

METRICS = ("mrr@1000", "precision@1", "precision@3", "recall@1", "ndcg@3", "map@1000")


def test_three_way_tie_ranks_the_relevant_doc_last() -> None:
    # All three score 0.5, so the order is docno descending: d3, d2, d1. The only relevant
    # doc, d1, is at rank 3: RR = 1/3, P@1 = 0, P@3 = 1/3, R@1 = 0,
    # nDCG@3 = (1 / log2(3 + 1)) / (1 / log2(1 + 1)) = 1/2, AP = (1/3) / 1 = 1/3.
    # (Ascending or input order would put d1 first and give 1 for all but P@3.)
    run = {"q": {"d1": 0.5, "d2": 0.5, "d3": 0.5}}
    assert ranking_of("q", run["q"]) == ["d3", "d2", "d1"]
    values = evaluate_run(run, {"q": {"d1": 1}}, metrics=METRICS).per_query["q"]
    assert values == pytest.approx(
        {
            "mrr@1000": 1 / 3,
            "precision@1": 0.0,
            "precision@3": 1 / 3,
            "recall@1": 0.0,
            "ndcg@3": 0.5,
            "map@1000": 1 / 3,
        },
        abs=1e-12,
    )


def test_ties_use_byte_order_not_natural_order() -> None:
    # strcmp, descending: "d9" > "d10" ('9' 0x39 > '1' 0x31) and "d10" > "D9" ('d' 0x64 >
    # 'D' 0x44), so the order is d9, d10, D9 with grades 0, 2, 1.
    # DCG@3 = 0/log2(2) + 2/log2(3) + 1/log2(4) = 1.2618595 + 0.5 = 1.7618595
    # IDCG@3 (grades 2, 1)   = 2/log2(2) + 1/log2(3) = 2 + 0.6309298 = 2.6309298
    # nDCG@3 = 0.6696718; RR = 1/2; AP = (1/2 + 2/3) / 2 = 7/12; P@1 = 0.
    # (Natural order d10, d9, D9 would give RR = 1; ascending D9, d10, d9 gives RR = 1 too.)
    run = {"q": {"d10": 7.0, "D9": 7.0, "d9": 7.0}}
    assert ranking_of("q", run["q"]) == ["d9", "d10", "D9"]
    values = evaluate_run(run, {"q": {"d10": 2, "D9": 1}}, metrics=METRICS).per_query["q"]
    ndcg = (2 / math.log2(3) + 1 / math.log2(4)) / (2 + 1 / math.log2(3))
    assert ndcg == pytest.approx(0.6696718165, abs=1e-10)
    assert values["ndcg@3"] == pytest.approx(ndcg, abs=1e-12)
    assert values["mrr@1000"] == 0.5
    assert values["map@1000"] == pytest.approx(7 / 12, abs=1e-12)
    assert values["precision@1"] == 0.0


def test_scores_equal_in_float32_tie() -> None:
    # float32(1.0 + 1e-9) == float32(1.0): a tie for trec_eval, so docno descending puts b
    # first and the relevant a at rank 2: RR = 1/2. 1.0 + 2**-20 is a distinct float32 above
    # 1.0, so a ranks first there: RR = 1.
    qrels = {"q": {"a": 1}}
    tied = evaluate_run({"q": {"a": 1.0 + 1e-9, "b": 1.0}}, qrels, metrics=("mrr@10",))
    apart = evaluate_run({"q": {"a": 1.0 + 2**-20, "b": 1.0}}, qrels, metrics=("mrr@10",))
    assert tied.per_query["q"]["mrr@10"] == 0.5
    assert apart.per_query["q"]["mrr@10"] == 1.0


def test_score_beats_docno() -> None:
    # Docno only breaks ties: a (0.9) ranks above z (0.1), so the relevant a is first: RR = 1.
    report = evaluate_run({"q": {"z": 0.1, "a": 0.9}}, {"q": {"a": 1}}, metrics=("mrr@10",))
    assert report.per_query["q"]["mrr@10"] == 1.0


def test_run_file_rank_column_is_ignored(tmp_path: Path) -> None:
    # The file's rank column says d1, d2, d3, but the scores tie, so trec_eval's order is
    # d3, d2, d1 (see the first test): RR = 1/3, nDCG@3 = 1/2. A ranked list, by contrast,
    # is used in the order given: d1 first, RR = 1.
    run = tmp_path / "run.txt"
    run.write_text("q Q0 d1 1 0.5 tag\nq Q0 d2 2 0.5 tag\nq Q0 d3 3 0.5 tag\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q 0 d1 1\nq 0 d2 0\n")
    from_file = evaluate_run(run, qrels, metrics=("mrr@10", "ndcg@3")).per_query["q"]
    assert from_file == pytest.approx({"mrr@10": 1 / 3, "ndcg@3": 0.5}, abs=1e-12)
    as_list = evaluate_run({"q": ["d1", "d2", "d3"]}, qrels, metrics=("mrr@10",))
    assert as_list.per_query["q"]["mrr@10"] == 1.0
