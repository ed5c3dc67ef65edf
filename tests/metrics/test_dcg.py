"""The dcg metric: by hand, against a plain reference written here, as nDCG's numerator, and
under every tie policy (``expected`` against the mean over every order of the tied docs)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import Registry, evaluate_run
from ef.evaluation._engine.measures import parse_measure
from ef.evaluation._hits import JudgedHits
from ef.evaluation.metrics.retrieval.dcg import dcg_at_k, dcg_batch, dcg_expected
from ef.evaluation.metrics.retrieval.ndcg import ndcg_at_k

from ..profiles_hypothesis import examples
from ..strategies import PARAMETERS, cutoffs, doc_ids, rankings

Params = dict[str, object]

#: Grades -1 .. 3 and a few fractional ones: DCG's gains are the grades themselves.
grades = st.one_of(st.integers(-1, 3), st.sampled_from([0.5, 1.25, 2.75]))
graded = st.dictionaries(doc_ids, grades, max_size=10)
maybe_cutoffs = st.one_of(st.none(), cutoffs)


@st.composite
def ranked_and_judged(draw: st.DrawFn) -> tuple[list[str], dict[str, float]]:
    """A ranking and judgements, drawn apart or the ranking a shuffle of judged docs and
    others: drawn apart, most rankings hold no judged doc, and a gain rule goes untried."""
    if draw(st.booleans()):
        return draw(rankings), draw(st.one_of(graded, st.just({})))
    judged = draw(st.dictionaries(doc_ids, grades, min_size=1, max_size=10))
    shuffled = draw(st.permutations(sorted(set(judged) | set(draw(rankings)))))
    return shuffled[: draw(st.integers(1, len(shuffled)))], judged


params = st.fixed_dictionaries(
    {name: PARAMETERS[name] for name in ("gains", "dcg", "judged_only", "rel")}
)


def gain_of(grade: float | None, p: Mapping[str, object]) -> float:
    """The gain of one judged grade (None: unjudged), written out from the definition."""
    rel = p.get("rel")
    if grade is None or (rel is not None and grade < rel):  # type: ignore[operator]
        return 0.0
    gains = p.get("gains") or {}
    value = float(gains[grade]) if grade in gains else max(float(grade), 0.0)  # type: ignore[operator,index]
    return 2.0**value - 1.0 if p.get("dcg") == "exp-log2" else value


def reference_dcg(
    ranked: Sequence[str], judged: Mapping[str, float], k: int | None, p: Mapping[str, object]
) -> float:
    """Plain DCG@k: the first k distinct docs (without the unjudged and negative ones under
    judged_only), each gain over log2(rank + 1)."""
    top: list[str] = []
    for doc in dict.fromkeys(ranked):
        if p.get("judged_only") and judged.get(doc, -1) < 0:
            continue
        top.append(doc)
    top = top if k is None else top[:k]
    return math.fsum(
        gain_of(judged.get(doc), p) / math.log2(rank + 1) for rank, doc in enumerate(top, 1)
    )


def test_by_hand() -> None:
    ranked = ["a", "x", "b", "n", "m", "c"]  # x unjudged, n judged 0, m -1
    judged = {"a": 2, "b": 1, "n": 0, "m": -1, "c": 3}
    assert dcg_at_k(ranked, judged, 3) == 2 + 1 / 2  # a at 1, b at 3: 1 / log2(4)
    assert dcg_at_k(ranked, judged, 3, dcg="exp-log2") == 3 + 1 / 2  # Burges: 2 ** g - 1
    whole = 2 + 1 / 2 + 3 / math.log2(7)  # n and m gain nothing
    assert dcg_at_k(ranked, judged, None) == pytest.approx(whole, abs=1e-15)
    assert dcg_at_k(ranked, judged, 100) == dcg_at_k(ranked, judged, None)
    assert dcg_at_k(ranked, judged, 3, rel=2) == 2.0  # b (1) is below the level
    assert dcg_at_k(ranked, judged, 3, gains={1: 9.0}) == 2 + 9 / 2
    assert dcg_at_k(ranked, judged, 5, gains={-1: 4.0}) == pytest.approx(
        2.5 + 4 / math.log2(6), abs=1e-15
    )
    # judged_only: x and m leave the ranking, so b is at rank 2 and c at rank 4.
    assert dcg_at_k(ranked, judged, 4, judged_only=True) == pytest.approx(
        2 + 1 / math.log2(3) + 3 / math.log2(5), abs=1e-15
    )
    assert dcg_at_k(["x"], {}, 5) == 0.0


def test_a_negative_gain_subtracts_in_every_form() -> None:
    # gains may map a grade below 0: the batch and tie-averaged forms must not drop it.
    ranked, judged = ["a", "b"], {"a": 2, "b": 1}
    gains: dict[float, float] = {1: -1.0}
    want = 2 - 1 / math.log2(3)
    hits = JudgedHits.from_rankings([ranked], [judged])
    assert dcg_at_k(ranked, judged, 2, gains=gains) == pytest.approx(want, abs=1e-15)
    assert dcg_batch(hits, 2, gains=gains).tolist() == pytest.approx([want], abs=1e-15)
    assert dcg_expected(hits, 2, gains=gains).tolist() == pytest.approx([want], abs=1e-15)


def test_it_is_not_normalised() -> None:
    # A perfect ranking: nDCG is 1, DCG the ideal DCG itself.
    ranked, judged = ["a", "b"], {"a": 3, "b": 1}
    assert ndcg_at_k(ranked, judged, 2) == 1.0
    assert dcg_at_k(ranked, judged, 2) == 3 + 1 / math.log2(3)


def test_a_bad_cutoff_is_refused() -> None:
    with pytest.raises(ValueError, match="cutoff k must be a positive int, got 0"):
        dcg_at_k(["a"], {"a": 1}, 0)
    with pytest.raises(ValueError, match="parameter 'rel' must be > 0"):
        parse_measure("dcg(rel=0)@10")
    with pytest.raises(ValueError, match="exp-log2"):
        parse_measure("dcg(dcg='exp')@10")


def test_it_is_registered_as_a_mean_at_every_cutoff() -> None:
    registry = Registry.load(autoload=False)
    metric = registry.retrieval_metric("dcg")
    assert (metric.func, metric.batch, metric.expected) == (dcg_at_k, dcg_batch, dcg_expected)
    assert (metric.cutoff, metric.aggregate) == (True, "mean")
    assert [p.name for p in metric.params] == ["gains", "dcg", "judged_only", "rel"]
    assert registry.provider("dcg").name == "builtin.retrieval_metrics"
    assert [m.key for m in parse_measure("dcg", k_values=(1, 10))] == ["dcg@1", "dcg@10"]
    run = {"q1": {"a": 2.0, "x": 1.0, "b": 0.5}, "q2": {"c": 1.0}}
    qrels = {"q1": {"a": 1, "b": 2}, "q2": {"c": 3}}
    report = evaluate_run(run, qrels, metrics=("dcg@3",))
    assert report.per_query == {"q1": {"dcg@3": 2.0}, "q2": {"dcg@3": 3.0}}
    assert report.metrics == {"dcg@3": 2.5}  # the mean over the queries


@settings(max_examples=examples(300))
@given(data=ranked_and_judged(), k=maybe_cutoffs, p=params)
def test_dcg_is_the_plain_sum(data, k, p) -> None:
    ranked, judged = data
    want = reference_dcg(ranked, judged, k, p)
    assert math.isclose(dcg_at_k(ranked, judged, k, **p), want, rel_tol=1e-12, abs_tol=1e-12)
    [value] = dcg_batch(JudgedHits.from_rankings([ranked], [judged]), k, **p)
    assert math.isclose(value, want, rel_tol=1e-12, abs_tol=1e-12)


@settings(max_examples=examples(300))
@given(ranked=rankings, judged=graded, k=maybe_cutoffs, p=params)
def test_ndcg_is_dcg_over_the_ideal_dcg(ranked, judged, k, p) -> None:
    # The ideal: every judged doc with a positive gain, best first (judged_only drops none).
    ideal_order = sorted(
        (d for d in judged if gain_of(judged[d], p) > 0), key=lambda d: -gain_of(judged[d], p)
    )
    ideal = dcg_at_k(ideal_order, judged, k, **{**p, "judged_only": False})
    want = dcg_at_k(ranked, judged, k, **p) / ideal if ideal > 0 else 0.0
    assert math.isclose(ndcg_at_k(ranked, judged, k, **p), want, rel_tol=1e-12, abs_tol=1e-12)


def _f32(x: float) -> float:
    return float(np.float32(x))


def policy_order(scores: Mapping[str, float], policy: str) -> list[str]:
    """The docs in the order a deterministic tie policy names (scores as float32)."""
    if policy == "trec_eval":
        return sorted(scores, key=lambda d: (_f32(scores[d]), d), reverse=True)
    if policy == "docno_asc":
        return sorted(scores, key=lambda d: (-_f32(scores[d]), d))
    return sorted(scores, key=lambda d: -_f32(scores[d]))  # input_order: stable


def every_order(scores: Mapping[str, float]) -> list[list[str]]:
    """Every ranking of ``scores`` that orders its groups of equal scores one way."""
    order = policy_order(scores, "trec_eval")
    groups = [list(g) for _, g in itertools.groupby(order, key=lambda d: _f32(scores[d]))]
    return [
        [doc for group in choice for doc in group]
        for choice in itertools.product(*(itertools.permutations(g) for g in groups))
    ]


@st.composite
def tied_runs(draw: st.DrawFn) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """Two queries of up to 6 docs with few distinct scores (so most tie), graded qrels."""
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, float]] = {}
    for q in ("q1", "q2"):
        docs = draw(st.lists(doc_ids, unique=True, min_size=1, max_size=6))
        run[q] = {d: draw(st.sampled_from([0.5, 1.5, 2.5]), label=d) for d in docs}
        qrels[q] = draw(graded, label=q) | {draw(doc_ids): draw(st.integers(1, 3))}
    return run, qrels


MEASURES = ("dcg", "dcg(dcg='exp-log2')", "dcg(rel=2)", "dcg(gains={1:3,2:0.5})")
KS = (1, 2, 4)


def _keys() -> list[tuple[str, str, int]]:
    """(report key, measure, k) of every measure of MEASURES at every cutoff of KS."""
    out = []
    for spec in MEASURES:
        for m in parse_measure(spec, k_values=KS):
            assert m.k is not None
            out.append((m.key, spec, m.k))
    return out


def _params(spec: str) -> Params:
    (m,) = parse_measure(f"{spec}@1")
    params = dict(m.params)
    if "gains" in params:  # held as (grade, gain) pairs
        params["gains"] = dict(params["gains"])
    return params


@pytest.mark.parametrize("policy", ["trec_eval", "docno_asc", "input_order"])
@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
@given(data=tied_runs())
def test_every_deterministic_tie_policy_gives_the_dcg_of_its_order(policy, data) -> None:
    run, qrels = data
    report = evaluate_run(
        run, qrels, metrics=MEASURES, k_values=KS, tie_policy=policy, check_doc_ids=False
    )  # random runs: one that meets no judged doc is no misspelling
    for q, scores in run.items():
        ranked = policy_order(scores, policy)
        for key, spec, k in _keys():
            want = reference_dcg(ranked, qrels[q], k, _params(spec))
            got = report.per_query[q][key]
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), (q, key)


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
@given(data=tied_runs())
def test_expected_is_the_mean_over_every_order_of_the_tied_docs(data) -> None:
    run, qrels = data
    report = evaluate_run(
        run, qrels, metrics=MEASURES, k_values=KS, tie_policy="expected", check_doc_ids=False
    )  # random runs: one that meets no judged doc is no misspelling
    for q, scores in run.items():
        orders = every_order(scores)
        for key, spec, k in _keys():
            p = _params(spec)
            want = math.fsum(reference_dcg(o, qrels[q], k, p) for o in orders) / len(orders)
            got = report.per_query[q][key]
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), (q, key)


def test_expected_by_hand_for_a_constant_scorer() -> None:
    # a (grade 2) and b (1) among four tied docs: each rank r of 1..4 has chance 1/4, so
    # E[DCG@2] = (2 + 1) * (1 + 1/log2(3)) / 4.
    run = {"q": {"a": 1.0, "x": 1.0, "b": 1.0, "y": 1.0}}
    report = evaluate_run(run, {"q": {"a": 2, "b": 1}}, metrics=("dcg@2",), tie_policy="expected")
    assert report.metrics["dcg@2"] == pytest.approx(3 * (1 + 1 / math.log2(3)) / 4, abs=1e-15)
