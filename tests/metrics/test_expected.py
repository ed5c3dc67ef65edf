"""The tie-averaged metrics equal the mean of the reference functions over every order of
every tie group, computed by brute force."""

from __future__ import annotations

import importlib
import inspect
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import Registry
from ef.evaluation._hits import JudgedHits
from ef.evaluation.metrics.retrieval.average_precision import (
    average_precision,
    average_precision_batch,
    average_precision_expected,
    gm_average_precision,
)
from ef.evaluation.metrics.retrieval.binary_gain import BINARY_GAIN, binary_gain, binary_gain_batch
from ef.evaluation.metrics.retrieval.bpref import bpref, bpref_batch, bpref_expected, gm_bpref
from ef.evaluation.metrics.retrieval.capped_recall import (
    capped_recall_at_k,
    capped_recall_batch,
    capped_recall_expected,
)
from ef.evaluation.metrics.retrieval.counts import (
    num_nonrel_judged_ret,
    num_nonrel_judged_ret_batch,
    num_nonrel_judged_ret_expected,
    num_rel,
    num_rel_batch,
    num_rel_expected,
    num_rel_ret,
    num_rel_ret_batch,
    num_rel_ret_expected,
    num_ret,
    num_ret_batch,
    num_ret_expected,
)
from ef.evaluation.metrics.retrieval.dcg import dcg_at_k, dcg_batch, dcg_expected
from ef.evaluation.metrics.retrieval.err import err_at_k, err_batch, err_expected
from ef.evaluation.metrics.retrieval.f1 import f1_at_k, f1_batch, f1_expected
from ef.evaluation.metrics.retrieval.hole import hole_at_k, hole_batch, hole_expected
from ef.evaluation.metrics.retrieval.infap import (
    inferred_average_precision,
    inferred_average_precision_batch,
    inferred_average_precision_expected,
)
from ef.evaluation.metrics.retrieval.iprec_at_recall import (
    IPREC_AT_RECALL,
    iprec_at_recall,
    iprec_at_recall_batch,
)
from ef.evaluation.metrics.retrieval.iprec_avg import IPREC_AVG, iprec_avg, iprec_avg_batch
from ef.evaluation.metrics.retrieval.judged import judged_at_k, judged_batch, judged_expected
from ef.evaluation.metrics.retrieval.ndcg import ndcg_at_k, ndcg_batch, ndcg_expected
from ef.evaluation.metrics.retrieval.ndcg_rel import NDCG_REL, ndcg_rel, ndcg_rel_batch
from ef.evaluation.metrics.retrieval.normalized_gain import (
    NORMALIZED_GAIN,
    normalized_gain,
    normalized_gain_batch,
)
from ef.evaluation.metrics.retrieval.precision import (
    precision_at_k,
    precision_batch,
    precision_expected,
)
from ef.evaluation.metrics.retrieval.r_precision import (
    r_precision,
    r_precision_batch,
    r_precision_expected,
)
from ef.evaluation.metrics.retrieval.rbp import (
    rbp,
    rbp_batch,
    rbp_expected,
    rbp_residual,
    rbp_residual_batch,
    rbp_residual_expected,
)
from ef.evaluation.metrics.retrieval.recall import recall_at_k, recall_batch, recall_expected
from ef.evaluation.metrics.retrieval.reciprocal_rank import (
    reciprocal_rank,
    reciprocal_rank_batch,
    reciprocal_rank_expected,
)
from ef.evaluation.metrics.retrieval.rndcg import RNDCG, rndcg, rndcg_batch
from ef.evaluation.metrics.retrieval.rprec_mult import (
    rprec_mult,
    rprec_mult_batch,
    rprec_mult_expected,
)
from ef.evaluation.metrics.retrieval.set_map import SET_MAP, set_map, set_map_batch
from ef.evaluation.metrics.retrieval.success import success_at_k, success_batch, success_expected
from ef.evaluation.metrics.retrieval.utility import utility, utility_batch, utility_expected

from ..strategies import PARAMETERS, cutoffs, doc_ids, judgements
from ..tie_averaging import through_engine

#: The built-ins without a closed tie-averaged form: evaluations average their batch form.
BY_THE_ENGINE = (
    BINARY_GAIN,
    IPREC_AT_RECALL,
    IPREC_AVG,
    NDCG_REL,
    NORMALIZED_GAIN,
    RNDCG,
    SET_MAP,
)
ENGINE = {metric.name: through_engine(metric) for metric in BY_THE_ENGINE}

#: (reference, batch, expected) for every built-in metric: its expected form, or the
#: engine's average of its batch form for one without (:data:`BY_THE_ENGINE`).
TRIPLES = [
    (ndcg_at_k, ndcg_batch, ndcg_expected),
    (dcg_at_k, dcg_batch, dcg_expected),
    (recall_at_k, recall_batch, recall_expected),
    (
        precision_at_k,
        precision_batch,
        precision_expected,
    ),
    (
        reciprocal_rank,
        reciprocal_rank_batch,
        reciprocal_rank_expected,
    ),
    (
        average_precision,
        average_precision_batch,
        average_precision_expected,
    ),
    (
        r_precision,
        r_precision_batch,
        r_precision_expected,
    ),
    (bpref, bpref_batch, bpref_expected),
    (
        inferred_average_precision,
        inferred_average_precision_batch,
        inferred_average_precision_expected,
    ),
    (
        success_at_k,
        success_batch,
        success_expected,
    ),
    (f1_at_k, f1_batch, f1_expected),
    (judged_at_k, judged_batch, judged_expected),
    (hole_at_k, hole_batch, hole_expected),
    (num_ret, num_ret_batch, num_ret_expected),
    (num_rel, num_rel_batch, num_rel_expected),
    (
        num_rel_ret,
        num_rel_ret_batch,
        num_rel_ret_expected,
    ),
    (rbp, rbp_batch, rbp_expected),
    (
        rbp_residual,
        rbp_residual_batch,
        rbp_residual_expected,
    ),
    (err_at_k, err_batch, err_expected),
    (
        capped_recall_at_k,
        capped_recall_batch,
        capped_recall_expected,
    ),
    (gm_average_precision, average_precision_batch, average_precision_expected),
    (gm_bpref, bpref_batch, bpref_expected),
    (iprec_at_recall, iprec_at_recall_batch, ENGINE["iprec_at_recall"]),
    (iprec_avg, iprec_avg_batch, ENGINE["iprec_avg"]),
    (rprec_mult, rprec_mult_batch, rprec_mult_expected),
    (utility, utility_batch, utility_expected),
    (binary_gain, binary_gain_batch, ENGINE["binary_gain"]),
    (normalized_gain, normalized_gain_batch, ENGINE["normalized_gain"]),
    (ndcg_rel, ndcg_rel_batch, ENGINE["ndcg_rel"]),
    (rndcg, rndcg_batch, ENGINE["rndcg"]),
    (set_map, set_map_batch, ENGINE["set_map"]),
    (num_nonrel_judged_ret, num_nonrel_judged_ret_batch, num_nonrel_judged_ret_expected),
]
IDS = [reference.__name__ for reference, _, _ in TRIPLES]
#: Every metric module (some share their name with their reference function, which the
#: package's attribute is: hence import_module).
MODULES = tuple(
    importlib.import_module(f"ef.evaluation.metrics.retrieval.{name}")
    for name in (
        "ndcg",
        "dcg",
        "recall",
        "precision",
        "reciprocal_rank",
        "average_precision",
        "r_precision",
        "bpref",
        "infap",
        "success",
        "f1",
        "capped_recall",
        "judged",
        "hole",
        "counts",
        "rbp",
        "err",
        "iprec_at_recall",
        "iprec_avg",
        "rprec_mult",
        "utility",
        "binary_gain",
        "normalized_gain",
        "ndcg_rel",
        "rndcg",
        "set_map",
    )
)


#: Grades -1 .. 3, and a few fractional ones (nDCG's gains are the grades themselves).
graded = st.dictionaries(
    doc_ids,
    st.one_of(st.integers(-1, 3), st.sampled_from([0.5, 1.25, 2.75])),
    max_size=10,
)


@st.composite
def tied_queries(
    draw: st.DrawFn, max_docs: int = 8, max_group: int = 4
) -> tuple[dict[str, float], dict[str, float]]:
    """One query's scores and judgements: up to ``max_docs`` docs in groups of 1 to
    ``max_group`` equal scores, so that every order of every group is at most a few hundred
    rankings. Most retrieved docs are judged (grades -1 .. 3, a few fractional; nDCG's gains
    are the grades themselves), some are not, and a few judged docs are not retrieved."""
    docs = draw(st.lists(doc_ids, unique=True, max_size=max_docs))
    scores: dict[str, float] = {}
    level = 10.0
    while len(scores) < len(docs):
        size = draw(st.integers(1, min(max_group, len(docs) - len(scores))), label="group")
        for doc in docs[len(scores) : len(scores) + size]:
            scores[doc] = level
        level -= draw(st.sampled_from([0.5, 1.0]))
    grade = st.one_of(st.none(), st.integers(-1, 3), st.sampled_from([0.5, 1.25, 2.75]))
    qrels = {doc: g for doc in docs if (g := draw(grade, label=doc)) is not None}
    qrels |= draw(st.one_of(judgements, graded), label="more judgements")
    return scores, qrels


queries = st.lists(tied_queries(), min_size=1, max_size=3)
#: The whole ranking, or a cutoff that often cuts a tie group.
maybe_cutoffs = st.one_of(st.none(), st.integers(1, 6), cutoffs)


def ranked(scores: Mapping[str, float]) -> list[str]:
    """trec_eval's order: score descending, then doc id descending."""
    return sorted(scores, key=lambda doc: (scores[doc], doc), reverse=True)


def tie_groups(hits: JudgedHits, runs: Sequence[Mapping[str, float]]) -> JudgedHits:
    """``hits`` with ``above`` and ``tied`` set from each query's scores."""
    above: list[int] = []
    tied: list[int] = []
    rankings = [ranked(scores) for scores in runs]
    for query, rank in zip(hits.query.tolist(), hits.rank.tolist(), strict=True):
        scores = runs[query]
        score = scores[rankings[query][rank - 1]]
        above.append(sum(1 for s in scores.values() if s > score))
        tied.append(sum(1 for s in scores.values() if s == score))
    return attrs.evolve(hits, above=above, tied=tied)


def tied_hits(
    runs: Sequence[Mapping[str, float]], qrels: Sequence[Mapping[str, float]]
) -> JudgedHits:
    """The hits of each query's trec_eval ranking, with its tie groups."""
    hits = JudgedHits.from_rankings([ranked(scores) for scores in runs], qrels)
    return tie_groups(hits, runs)


def brute_force(
    reference: Callable[..., float],
    scores: Mapping[str, float],
    qrels: Mapping[str, float],
    k: int | None,
    params: Mapping[str, object],
) -> float:
    """The mean of ``reference`` over every order of every group of equal scores."""
    order = ranked(scores)
    groups = [list(group) for _, group in itertools.groupby(order, key=scores.__getitem__)]
    values = [
        reference([doc for group in orders for doc in group], qrels, k, **params)
        for orders in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    return math.fsum(values) / len(values)


def _keywords(function: object) -> set[str]:
    return {
        name
        for name, p in inspect.signature(function).parameters.items()  # type: ignore[arg-type]
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }


def _draw_params(
    reference: Callable[..., float], choices: st.DataObject, *, engine: bool = False
) -> dict[str, object]:
    names = sorted(_keywords(reference))
    params: dict[str, object] = {name: choices.draw(PARAMETERS[name], label=name) for name in names}
    if params.get("graded") and params.get("rel") is not None:
        params["rel"] = None  # refused together (test_rbp_graded_refuses_rel)
    if engine:
        params.pop("nan_if_empty", None)  # an evaluation refuses a NaN, whatever the form
    return params


@pytest.mark.parametrize("triple", TRIPLES, ids=IDS)
@given(data=queries, k=maybe_cutoffs, choices=st.data())
def test_expected_equals_the_mean_over_every_order(triple, data, k, choices) -> None:
    reference, vectorised, tie_averaged = triple
    assert _keywords(tie_averaged) == _keywords(vectorised) == _keywords(reference)
    params = _draw_params(reference, choices, engine=tie_averaged in ENGINE.values())
    runs = [scores for scores, _ in data]
    qrels = [judged for _, judged in data]
    values = tie_averaged(tied_hits(runs, qrels), k, **params)
    assert len(values) == len(data)
    for value, scores, judged in zip(values, runs, qrels, strict=True):
        truth = brute_force(reference, scores, judged, k, params)
        if math.isnan(truth):  # trec_eval's 0 / 0 (nan_if_empty): an empty ranking
            assert math.isnan(value)
            continue
        assert math.isclose(value, truth, rel_tol=1e-12, abs_tol=1e-12), (value, truth)


@pytest.mark.parametrize("triple", TRIPLES, ids=IDS)
@given(data=queries, k=maybe_cutoffs, choices=st.data())
def test_without_ties_expected_is_batch(triple, data, k, choices) -> None:
    reference, vectorised, tie_averaged = triple
    params = _draw_params(reference, choices, engine=tie_averaged in ENGINE.values())
    rankings = [ranked(scores) for scores, _ in data]
    qrels = [judged for _, judged in data]
    hits = JudgedHits.from_rankings(rankings, qrels)
    want = vectorised(hits, k, **params)
    assert np.array_equal(tie_averaged(hits, k, **params), want, equal_nan=True)
    # Every doc its own group, said explicitly.
    alone = attrs.evolve(hits, above=hits.rank - 1, tied=np.ones_like(hits.rank))
    assert np.array_equal(tie_averaged(alone, k, **params), want, equal_nan=True)


def test_every_builtin_registers_its_expected_form() -> None:
    registry = Registry.load(autoload=False)
    builtins = {
        (m.func, m.batch, m.expected)
        for m in registry.retrieval_metrics.values()
        if registry.provider(m.name).name == "builtin.retrieval_metrics"
    }
    engine = set(ENGINE.values())
    assert builtins == {(f, b, None if e in engine else e) for f, b, e in TRIPLES}
    # ... and no metric module exports a tie-averaged form that TRIPLES leaves out.
    exported = {n for module in MODULES for n in module.__all__ if n.endswith("_expected")}
    assert {f.__name__ for _, _, f in TRIPLES if f not in engine} == exported


def _constant(docs: Sequence[str], qrels: Mapping[str, float]) -> JudgedHits:
    """The hits of a constant scorer: every doc in one tie group."""
    return tied_hits([dict.fromkeys(docs, 1.0)], [qrels])


def _value(function: Callable[..., object], hits: JudgedHits, k: int | None, **params) -> float:
    values = function(hits, k, **params)
    return float(values[0])  # type: ignore[index]


def test_a_constant_scorer_by_hand() -> None:
    # Four docs, one relevant (d1): d1 is at rank 1, 2, 3 or 4 with chance 1/4 each.
    hits = _constant(["a", "b", "c", "d1"], {"d1": 1, "a": 0})
    assert _value(reciprocal_rank_expected, hits, None) == pytest.approx(
        float(Fraction(1, 4) * (1 + Fraction(1, 2) + Fraction(1, 3) + Fraction(1, 4))),
        rel=1e-15,
    )  # 25/48: R = 1, so AP is RR too
    assert _value(average_precision_expected, hits, None) == pytest.approx(25 / 48)
    assert _value(precision_expected, hits, 2) == 0.25  # (2 of 4 ranks) / k = 2
    assert _value(recall_expected, hits, 2) == 0.5
    assert _value(success_expected, hits, 1) == 0.25
    assert _value(num_rel_ret_expected, hits, 3) == 0.75
    assert _value(ndcg_expected, hits, 4) == pytest.approx(
        (1 + 1 / math.log2(3) + 1 / 2 + 1 / math.log2(5)) / 4, rel=1e-15
    )
    # (1 - p) * (1 + p + p^2 + p^3) / 4 at p = 0.5: 0.5 * 1.875 / 4.
    assert _value(rbp_expected, hits, None, p=0.5) == 0.234375
    assert _value(judged_expected, hits, 2) == 0.5  # d1 and a, half the time each
    # bpref: a (judged non-relevant) is above d1 half the time: 1 - 1/2 * min(1, 1) / 1.
    assert _value(bpref_expected, hits, None) == 0.5
    # Two relevant docs of four: the first of them is at rank 1, 2 or 3 with chance 1/2,
    # 1/3, 1/6, so RR = 1/2 + 1/6 + 1/18 = 13/18.
    two = _constant(["a", "b", "d1", "d2"], {"d1": 1, "d2": 2})
    assert _value(reciprocal_rank_expected, two, None) == pytest.approx(13 / 18)
    assert _value(success_expected, two, 1) == 0.5
    assert _value(success_expected, two, 2) == pytest.approx(5 / 6)  # 1 - C(2,2)/C(4,2)


def test_judged_only_regroups_the_judged_docs() -> None:
    # x is unjudged, n pooled (-1): -J drops both, leaving d1 and z tied at ranks 1 and 2.
    hits = _constant(["x", "n", "d1", "z"], {"n": -1, "d1": 1, "z": 0})
    assert hits.tied is not None
    assert hits.tied.tolist() == [4, 4, 4]
    regrouped = hits.judged_only()
    assert regrouped.above is not None
    assert regrouped.tied is not None
    assert (regrouped.above.tolist(), regrouped.tied.tolist()) == ([0, 0], [2, 2])
    rr = reciprocal_rank_expected
    assert _value(rr, hits, None, judged_only=True) == 0.75  # (1 + 1/2) / 2
    assert _value(rr, hits, None) == pytest.approx(25 / 48)  # 1 relevant among 4
    assert _value(precision_expected, hits, 1, judged_only=True) == 0.5


def test_rbp_graded_refuses_rel() -> None:
    hits = _constant(["a", "d1"], {"d1": 1})
    with pytest.raises(ValueError, match=r"rbp: rel does not apply to graded gains"):
        rbp_expected(hits, None, rel=1.0, graded=True)


@pytest.mark.parametrize(("reference", "vectorised", "tie_averaged"), TRIPLES, ids=IDS)
@pytest.mark.parametrize("k", [None, 2, 4, 6])
def test_a_group_of_seven_that_mixes_everything(reference, vectorised, tie_averaged, k) -> None:
    # d0 alone on top, then 7 tied docs (5040 orders): two relevant (grades 1 and 3), one
    # judged 0, one pooled (-1), three unjudged; then two more tied, one of them relevant.
    scores = {"d0": 3.0} | dict.fromkeys(["d1", "d2", "d3", "d4", "x1", "x2", "x3"], 2.0)
    scores |= {"d5": 1.0, "x4": 1.0}
    qrels = {"d0": 0, "d1": 1, "d2": 3, "d3": 0, "d4": -1, "d5": 2, "d9": 1}
    hits = tied_hits([scores], [qrels])
    rel = {"rel": 2.0} if "rel" in _keywords(reference) else {}
    for params in ({}, rel, {"judged_only": True} if "judged_only" in _keywords(reference) else {}):
        value = _value(tie_averaged, hits, k, **params)
        truth = brute_force(reference, scores, qrels, k, params)
        assert math.isclose(value, truth, rel_tol=1e-12, abs_tol=1e-12), (params, value, truth)


def test_large_groups_have_their_closed_forms() -> None:
    # One group of 60 docs (far past brute force), 3 of them relevant; exact in fractions:
    # AP sums E[precision] of each relevant doc at a uniform rank j, with (j - 1) * 2 / 59
    # other relevant docs above it on average; the first relevant doc is at rank j with
    # chance C(60 - j, 2) / C(60, 3); success@k fails with chance C(57, k) / C(60, k).
    docs = [f"d{i}" for i in range(60)]
    qrels = {"d0": 1, "d1": 2, "d2": 1} | {f"d{i}": 0 for i in range(3, 8)}
    qrels |= {f"d{i}": -1 for i in range(8, 12)}
    hits = _constant(docs, qrels)
    t, r = 60, 3
    ap = sum(Fraction(r, t) * (1 + Fraction((j - 1) * (r - 1), t - 1)) / j for j in range(1, t + 1))
    rr = sum(Fraction(math.comb(t - j, r - 1), math.comb(t, r)) / j for j in range(1, t + 1))
    assert _value(average_precision_expected, hits, None) == pytest.approx(float(ap / r), rel=1e-13)
    assert _value(reciprocal_rank_expected, hits, None) == pytest.approx(float(rr), rel=1e-13)
    for k in (1, 10, 59):
        assert _value(success_expected, hits, k) == pytest.approx(
            1 - math.comb(t - r, k) / math.comb(t, k), rel=1e-14
        )
        assert _value(precision_expected, hits, k) == pytest.approx(r / t, rel=1e-14)
