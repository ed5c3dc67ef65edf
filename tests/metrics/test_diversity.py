"""The diversity measures: hand-worked values, ndeval's rules (the greedy ideal's tie break,
the run's tie order, queries with no relevant judgement, the means), the measure strings,
the subtopic qrels reader, and properties. Equality with ndeval itself is
test_diversity_pyndeval.py (the peers group)."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormatError,
    InputWarning,
    SubtopicQrels,
    UnknownNameError,
    evaluate_diversity,
    evaluate_run,
)
from ef.evaluation._engine._diversity import parse_diversity_measure, parse_diversity_measures
from ef.evaluation._engine.measures import parse_measures
from ef.evaluation.metrics.retrieval.diversity import (
    DIVERSITY_MEASURES,
    alpha_dcg_at_k,
    alpha_ndcg_at_k,
    ap_ia,
    err_ia_at_k,
    intent_judgements,
    nerr_ia_at_k,
    nnrbp,
    nrbp,
    p_ia_at_k,
    subtopic_recall_at_k,
)

from ..profiles_hypothesis import examples

# Subtopic 1: a and b; subtopic 2: b and c; subtopic 3 judged, nothing relevant (not counted).
INTENTS = {"1": {"a": 1, "b": 1}, "2": {"b": 2, "c": 1}, "3": {"z": 0}}
RUN = ["c", "a", "x", "b"]  # gains 1, 1, 0, 0.5 + 0.5
L3, L5 = math.log2(3), math.log2(5)


def test_hand_worked_values() -> None:
    # The greedy ideal: b (gain 2), then c (0.5; tied with a, the larger id), then a (0.5).
    ideal_dcg = 2 + 0.5 / L3 + 0.5 / 2
    assert alpha_ndcg_at_k(RUN, INTENTS, 4) == pytest.approx((1 + 1 / L3 + 1 / L5) / ideal_dcg)
    ideal_ideal = 2 + 1 / L3 + 0.5 / 2 + 0.25 / L5
    assert alpha_dcg_at_k(RUN, INTENTS, 4) == pytest.approx((1 + 1 / L3 + 1 / L5) / ideal_ideal)
    assert err_ia_at_k(RUN, INTENTS, 2) == pytest.approx((1 + 1 / 2) / (2 + 1 / 2))
    assert nerr_ia_at_k(RUN, INTENTS, 4) == pytest.approx(
        (1 + 1 / 2 + 1 / 4) / (2 + 0.5 / 2 + 0.5 / 3)
    )
    assert nrbp(RUN, INTENTS) == pytest.approx((1 - 0.5 * 0.5) / 2 * (1 + 0.5 + 1 / 8))
    assert nnrbp(RUN, INTENTS) == pytest.approx((1 + 0.5 + 1 / 8) / (2 + 0.25 + 0.125))
    # Subtopic 1: a at 2, b at 4 -> (1/2 + 2/4) / 2; subtopic 2: c at 1, b at 4 -> (1 + 2/4) / 2.
    assert ap_ia(RUN, INTENTS) == pytest.approx((0.5 + 0.75) / 2)
    assert p_ia_at_k(RUN, INTENTS, 4) == pytest.approx(4 / (4 * 2))
    assert p_ia_at_k(RUN, INTENTS, 10) == pytest.approx(4 / (10 * 2))  # / k, as ndeval
    assert subtopic_recall_at_k(RUN, INTENTS, 1) == 0.5
    assert subtopic_recall_at_k(RUN, INTENTS, 2) == 1.0


def test_alpha_and_rel_change_the_gains() -> None:
    # alpha = 0: no novelty discount; b's second subtopic counts in full.
    assert alpha_ndcg_at_k(["b"], INTENTS, 1, alpha=0.0) == 1.0
    # rel=2: only b is relevant, to subtopic 2 alone.
    assert subtopic_recall_at_k(["b"], INTENTS, 1, rel=2) == 1.0
    assert p_ia_at_k(["c"], INTENTS, 1, rel=2) == 0.0


def test_the_greedy_ideal_breaks_ties_to_the_larger_doc_id() -> None:
    # a, b and e each cover two subtopics. ndeval takes e first (the larger id), then b
    # gains 2 more; taking a first (doc id ascending) would leave only 1.5 for the second.
    intents = {"1": {"b": 1}, "2": {"a": 1, "e": 1}, "3": {"e": 1}, "4": {"a": 1, "b": 1}}
    assert alpha_ndcg_at_k(["e", "b"], intents, 2) == 1.0
    assert alpha_ndcg_at_k(["a", "b"], intents, 2) == pytest.approx((2 + 1.5 / L3) / (2 + 2 / L3))


def test_a_query_with_no_relevant_judgement_scores_zero_everywhere() -> None:
    intents = {"1": {"a": 0}, "2": {"b": -1}}
    for measure in DIVERSITY_MEASURES.values():
        args = (["a", "b"], intents, 3) if measure.cutoff else (["a", "b"], intents)
        assert measure.func(*args) == 0.0, measure.name  # type: ignore[operator]


def test_a_repeated_doc_counts_at_its_first_rank() -> None:
    assert alpha_ndcg_at_k(["c", "c", "a"], INTENTS, 2) == alpha_ndcg_at_k(["c", "a"], INTENTS, 2)
    assert ap_ia(["c", "c", "a", "b"], INTENTS) == ap_ia(["c", "a", "b"], INTENTS)


def test_parameter_checks() -> None:
    with pytest.raises(ValueError, match="cutoff k must be an int >= 1"):
        alpha_ndcg_at_k(RUN, INTENTS, 0)
    with pytest.raises(ValueError, match=r"'alpha' must be in \[0, 1\]"):
        err_ia_at_k(RUN, INTENTS, 5, alpha=1.5)
    with pytest.raises(ValueError, match="normaliser 1 - \\(1 - alpha\\) beta = 0"):
        nrbp(RUN, INTENTS, alpha=0.0, beta=1.0)


def test_the_run_is_ranked_by_trec_evals_rule() -> None:
    """Tied scores: doc id descending (ndeval -traditional, trec_eval); pyndeval, and so
    ir_measures, take them ascending."""
    qrels = {"q1": {"1": {"a": 1}, "2": {"b": 1, "c": 1}}}
    run = {"q1": {"a": 1.0, "c": 1.0, "b": 1.0}}  # ranked c, b, a
    report = evaluate_diversity(run, qrels, metrics=["alpha_ndcg@2", "ERR_IA@1"])
    as_listed = evaluate_diversity({"q1": ["c", "b", "a"]}, qrels, metrics=["alpha_ndcg@2"])
    ascending = evaluate_diversity({"q1": ["a", "b", "c"]}, qrels, metrics=["alpha_ndcg@2"])
    assert report.metrics["alpha_ndcg@2"] == as_listed.metrics["alpha_ndcg@2"]
    assert report.metrics["alpha_ndcg@2"] != ascending.metrics["alpha_ndcg@2"]
    assert report.metrics["err_ia@1"] == 0.5  # normalised at k = 1 too (ndeval: 1)


def test_averaging_and_the_query_lists() -> None:
    qrels = {
        "q1": INTENTS,
        "q2": {"1": {"d": 1}},
        "q3": {"1": {"e": 0}},  # judged, nothing relevant: 0, and counted (as ndeval)
    }
    run = {"q1": RUN, "q3": ["e"], "q9": ["a"]}
    over_qrels = evaluate_diversity(run, qrels, metrics=["strec@2"])
    both = evaluate_diversity(run, qrels, metrics=["strec@2"], averaging="intersection")
    assert over_qrels.per_query == {
        "q1": {"subtopic_recall@2": 1.0},
        "q3": {"subtopic_recall@2": 0.0},
        "q2": {"subtopic_recall@2": 0.0},
    }
    assert over_qrels.metrics == {"subtopic_recall@2": 1 / 3}
    assert both.metrics == {"subtopic_recall@2": 1 / 2}
    assert over_qrels.missing == ("q2",)
    assert over_qrels.extra == ("q9",)
    assert over_qrels.n_queries == 3
    assert both.n_queries == 2


def test_a_run_with_no_judged_query_is_refused() -> None:
    with pytest.raises(ValueError, match="no query in common between the run and qrels"):
        evaluate_diversity({"q9": ["a"]}, {"q1": INTENTS})
    with pytest.raises(ValueError, match="averaging must be"):
        evaluate_diversity({"q1": ["a"]}, {"q1": INTENTS}, averaging="run")  # type: ignore[arg-type]


def test_the_default_metrics_are_ndevals() -> None:
    report = evaluate_diversity({"q1": RUN}, {"q1": INTENTS})
    assert list(report.metrics) == [
        f"{name}@{k}" if cut else name
        for name, cut in [
            ("err_ia", True),
            ("alpha_ndcg", True),
            ("nrbp", False),
            ("ap_ia", False),
            ("p_ia", True),
            ("subtopic_recall", True),
        ]
        for k in ((5, 10, 20) if cut else (None,))
    ]
    assert report.k_values == (5, 10, 20)


@pytest.mark.parametrize(
    ("spec", "keys"),
    [
        ("alpha_nDCG@20", ["alpha_ndcg@20"]),
        ("\u03b1_nDCG@20", ["alpha_ndcg@20"]),
        ("alpha-nDCG@20", ["alpha_ndcg@20"]),
        ("alpha_ndcg(alpha=0.3)@20", ["alpha_ndcg(alpha=0.3)@20"]),
        ("alpha_nDCG(alpha=0.5)@20", ["alpha_ndcg@20"]),
        ("ERR_IA@10", ["err_ia@10"]),
        ("nERR-IA@10", ["nerr_ia@10"]),
        ("NRBP", ["nrbp"]),
        ("NRBP(alpha=0.3, beta=0.8)", ["nrbp(alpha=0.3,beta=0.8)"]),
        ("nNRBP", ["nnrbp"]),
        ("AP_IA", ["ap_ia"]),
        ("MAP_IA", ["ap_ia"]),
        ("MAP-IA", ["ap_ia"]),
        ("P_IA@5", ["p_ia@5"]),
        ("P_IA(rel=2)@5", ["p_ia(rel=2)@5"]),
        ("StRecall@20", ["subtopic_recall@20"]),
        ("strec", ["subtopic_recall@5", "subtopic_recall@10"]),
    ],
)
def test_measure_strings_in_the_three_syntaxes(spec: str, keys: list[str]) -> None:
    assert [m.key for m in parse_diversity_measure(spec, (5, 10))] == keys


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alpha_ndcg(judged_only=True)@5", "judged_only is not offered"),
        ("p_ia(alpha=0.3)@5", "takes the parameters rel, not 'alpha'"),
        ("alpha_ndcg(alpha=2)@5", r"'alpha' must be in \[0, 1\]"),
        ("nrbp(alpha=0, beta=1)", "normaliser"),
        ("nrbp@10", "takes no @k"),
        ("alpha_ndcg@all", "needs a cutoff k"),
        ("ERR_IA(rel=0)@5", "'rel' must be > 0"),
    ],
)
def test_bad_measure_strings(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_diversity_measure(spec, (5,))


def test_an_unknown_name_lists_ours_and_a_diversity_name_in_evaluate_run_says_where() -> None:
    with pytest.raises(UnknownNameError, match="valid: alpha_ndcg, alpha_dcg"):
        parse_diversity_measures(["ndcg@10"], (5,))
    with pytest.raises(ValueError, match=r"a diversity measure needs subtopic qrels"):
        evaluate_run({"q": {"a": 1.0}}, {"q": {"a": 1}}, metrics=["alpha_nDCG@20"])
    with pytest.raises(UnknownNameError, match=r"evaluate_run\(run, subtopic_qrels"):
        parse_measures(["alpha_nDCG@20"])  # what evaluate_shards reads: no diversity there


def test_each_key_is_computed_once() -> None:
    specs = parse_diversity_measures(["alpha_nDCG@5", "alpha_ndcg@5", "alpha-nDCG"], (5, 10))
    assert [s.key for s in specs] == ["alpha_ndcg@5", "alpha_ndcg@10"]


# The reader.


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "qrels.diversity.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_reader_reads_subtopic_lines(tmp_path: Path) -> None:
    path = _write(tmp_path, "# TREC Web 2009 style\n1 1 d1 1\n1 2 d1 0\n1 2 d2 1\n2 1 d3 1\n")
    qrels = SubtopicQrels.read(path)
    assert qrels.judgements == {
        "1": {"1": {"d1": 1}, "2": {"d1": 0, "d2": 1}},
        "2": {"1": {"d3": 1}},
    }
    report = evaluate_diversity({"1": ["d2", "d1"], "2": ["d3"]}, path, metrics=["strec@1"])
    assert report.per_query == {"1": {"subtopic_recall@1": 0.5}, "2": {"subtopic_recall@1": 1.0}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 1 d1\n", r":1: expected 4 columns \(query_id subtopic doc_id grade\), got 3"),
        ("1 1 d1 1\n1 2 d1 x\n", ":2: relevance 'x' is not an integer"),
        ("1 1 d1 1\n1 2 d1 1\n1 1 d1 0\n", ":3: doc 'd1' is judged twice for subtopic '1'"),
        ("# nothing\n", "the file is empty; expected subtopic qrels lines"),
    ],
)
def test_the_reader_names_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DatasetFormatError, match=message) as info:
        SubtopicQrels.read(path)
    assert str(path) in str(info.value)


def test_ordinary_qrels_read_as_subtopics_are_warned_about(tmp_path: Path) -> None:
    path = _write(tmp_path, "1 0 d1 1\n2 0 d2 1\n")
    with pytest.warns(InputWarning, match="every query has a single subtopic"):
        SubtopicQrels.read(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SubtopicQrels.read(_write(tmp_path, "1 0 d1 1\n1 1 d2 1\n"))


def test_subtopic_qrels_values() -> None:
    qrels = SubtopicQrels({"q1": {"1": {"d1": 1}}})
    with pytest.raises(TypeError, match="read-only"):
        qrels.judgements["q2"] = {}  # type: ignore[index]
    with pytest.raises(ValueError, match="a grade is a number"):
        SubtopicQrels({"q1": {"1": {"d1": True}}})
    with pytest.raises(ValueError, match="must be finite"):
        SubtopicQrels({"q1": {"1": {"d1": float("nan")}}})
    with pytest.raises(TypeError, match=r"SubtopicQrels\['q1'\]: expected"):
        SubtopicQrels({"q1": ["d1"]})  # type: ignore[dict-item]
    assert SubtopicQrels.from_records([("q1", "1", "d1", 1)]) == qrels


# Properties.

DOCS = list("abcdefgh")
intents_strategy = st.dictionaries(
    st.sampled_from(["1", "2", "3", "4"]),
    st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 2), min_size=1, max_size=6),
    min_size=1,
)
ranking_strategy = st.lists(st.sampled_from([*DOCS, "u1", "u2"]), unique=True, max_size=10)


@settings(max_examples=examples(300), deadline=None)
@given(intents_strategy, ranking_strategy, st.sampled_from([0.0, 0.3, 0.5, 1.0]))
def test_every_value_is_between_0_and_1(
    intents: dict[str, dict[str, int]], ranked: list[str], alpha: float
) -> None:
    for k in (1, 3, 10):
        for func in (alpha_dcg_at_k, err_ia_at_k):  # over the "ideal ideal": a true bound
            assert 0.0 <= func(ranked, intents, k, alpha=alpha) <= 1.0 + 1e-12
        # Over ndeval's greedy ideal, which a ranking can beat (alpha=1: e, then d, when a
        # and d cover all four subtopics): at least 0, and above 1 only so, as in ndeval.
        for func in (alpha_ndcg_at_k, nerr_ia_at_k):
            assert func(ranked, intents, k, alpha=alpha) >= 0.0
        assert 0.0 <= p_ia_at_k(ranked, intents, k) <= 1.0
        assert 0.0 <= subtopic_recall_at_k(ranked, intents, k) <= 1.0
    assert nnrbp(ranked, intents, alpha=alpha, beta=0.5) >= 0.0
    assert 0.0 <= ap_ia(ranked, intents) <= 1.0


def test_the_greedy_ideal_can_be_beaten() -> None:
    """ndeval's ideal ranking is greedy (the best is NP-hard): a ranking may score above it."""
    intents = {"1": {"a": 1}, "2": {"d": 1}, "3": {"e": 1, "a": 1}, "4": {"d": 1, "e": 1}}
    assert alpha_ndcg_at_k(["a", "d"], intents, 3, alpha=1.0) > 1.0


@settings(max_examples=examples(300), deadline=None)
@given(intents_strategy, st.sampled_from([0.3, 0.5, 1.0]))
def test_the_greedy_ideal_scores_one(intents: dict[str, dict[str, int]], alpha: float) -> None:
    """Ranked as ndeval's greedy ideal ranks them, the docs score 1 on the normalised measures."""
    judged = intent_judgements(intents)
    if not judged.n_intents:
        return
    gain = [1.0] * len(judged.n_relevant)
    left = {d: s for d, s in judged.covers.items() if s}
    ideal = []
    while left:
        scores = {d: sum(gain[j] for j in s) for d, s in left.items()}
        best = max(scores, key=lambda d: (scores[d], d))
        ideal.append(best)
        for j in left.pop(best):
            gain[j] *= 1.0 - alpha
    for k in (1, 2, 5):
        assert alpha_ndcg_at_k(ideal, intents, k, alpha=alpha) == pytest.approx(1.0)
        assert nerr_ia_at_k(ideal, intents, k, alpha=alpha) == pytest.approx(1.0)
    assert nnrbp(ideal, intents, alpha=alpha) == pytest.approx(1.0)
    assert subtopic_recall_at_k(ideal, intents, len(ideal)) == 1.0
