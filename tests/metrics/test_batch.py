"""The vectorised metrics equal the per-query reference functions, query by query."""

from __future__ import annotations

import inspect
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import Registry, RetrievalMetric, evaluate_run
from ef.evaluation._hits import JudgedHits
from ef.evaluation.errors import PluginError
from ef.evaluation.metrics.retrieval.average_precision import (
    average_precision,
    average_precision_batch,
    gm_average_precision,
)
from ef.evaluation.metrics.retrieval.binary_gain import binary_gain, binary_gain_batch
from ef.evaluation.metrics.retrieval.bpref import bpref, bpref_batch, gm_bpref
from ef.evaluation.metrics.retrieval.capped_recall import capped_recall_at_k, capped_recall_batch
from ef.evaluation.metrics.retrieval.counts import (
    num_nonrel_judged_ret,
    num_nonrel_judged_ret_batch,
    num_rel,
    num_rel_batch,
    num_rel_ret,
    num_rel_ret_batch,
    num_ret,
    num_ret_batch,
)
from ef.evaluation.metrics.retrieval.dcg import dcg_at_k, dcg_batch
from ef.evaluation.metrics.retrieval.err import err_at_k, err_batch
from ef.evaluation.metrics.retrieval.f1 import f1_at_k, f1_batch
from ef.evaluation.metrics.retrieval.hole import hole_at_k, hole_batch
from ef.evaluation.metrics.retrieval.infap import (
    inferred_average_precision,
    inferred_average_precision_batch,
)
from ef.evaluation.metrics.retrieval.iprec_at_recall import iprec_at_recall, iprec_at_recall_batch
from ef.evaluation.metrics.retrieval.iprec_avg import iprec_avg, iprec_avg_batch
from ef.evaluation.metrics.retrieval.judged import judged_at_k, judged_batch
from ef.evaluation.metrics.retrieval.ndcg import ndcg_at_k, ndcg_batch
from ef.evaluation.metrics.retrieval.ndcg_rel import ndcg_rel, ndcg_rel_batch
from ef.evaluation.metrics.retrieval.normalized_gain import normalized_gain, normalized_gain_batch
from ef.evaluation.metrics.retrieval.precision import precision_at_k, precision_batch
from ef.evaluation.metrics.retrieval.r_precision import r_precision, r_precision_batch
from ef.evaluation.metrics.retrieval.rbp import rbp, rbp_batch, rbp_residual, rbp_residual_batch
from ef.evaluation.metrics.retrieval.recall import recall_at_k, recall_batch
from ef.evaluation.metrics.retrieval.reciprocal_rank import reciprocal_rank, reciprocal_rank_batch
from ef.evaluation.metrics.retrieval.rndcg import rndcg, rndcg_batch
from ef.evaluation.metrics.retrieval.rprec_mult import rprec_mult, rprec_mult_batch
from ef.evaluation.metrics.retrieval.set_map import set_map, set_map_batch
from ef.evaluation.metrics.retrieval.success import success_at_k, success_batch
from ef.evaluation.metrics.retrieval.utility import utility, utility_batch
from ef.evaluation.testing import registry_with

from ..strategies import PARAMETERS, cutoffs, judgements, rankings

PAIRS = [
    (ndcg_at_k, ndcg_batch),
    (dcg_at_k, dcg_batch),
    (recall_at_k, recall_batch),
    (precision_at_k, precision_batch),
    (reciprocal_rank, reciprocal_rank_batch),
    (
        average_precision,
        average_precision_batch,
    ),
    (r_precision, r_precision_batch),
    (bpref, bpref_batch),
    (inferred_average_precision, inferred_average_precision_batch),
    (success_at_k, success_batch),
    (f1_at_k, f1_batch),
    (judged_at_k, judged_batch),
    (hole_at_k, hole_batch),
    (num_ret, num_ret_batch),
    (num_rel, num_rel_batch),
    (num_rel_ret, num_rel_ret_batch),
    (rbp, rbp_batch),
    (rbp_residual, rbp_residual_batch),
    (err_at_k, err_batch),
    (capped_recall_at_k, capped_recall_batch),
    (gm_average_precision, average_precision_batch),
    (gm_bpref, bpref_batch),
    (iprec_at_recall, iprec_at_recall_batch),
    (iprec_avg, iprec_avg_batch),
    (rprec_mult, rprec_mult_batch),
    (utility, utility_batch),
    (binary_gain, binary_gain_batch),
    (normalized_gain, normalized_gain_batch),
    (ndcg_rel, ndcg_rel_batch),
    (rndcg, rndcg_batch),
    (set_map, set_map_batch),
    (num_nonrel_judged_ret, num_nonrel_judged_ret_batch),
]

#: Fractional grades too: nDCG's gains are the grades themselves.
graded = st.dictionaries(
    st.sampled_from([f"d{i}" for i in range(12)]),
    st.one_of(st.integers(-1, 3), st.sampled_from([0.5, 1.25, 2.75])),
    max_size=10,
)
queries = st.lists(st.tuples(rankings, st.one_of(judgements, graded)), min_size=1, max_size=8)
#: A cutoff, or None for the whole ranking.
maybe_cutoffs = st.one_of(st.none(), cutoffs)


def _keywords(function: object) -> set[str]:
    return {
        name
        for name, p in inspect.signature(function).parameters.items()  # type: ignore[arg-type]
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }


@pytest.mark.parametrize(("reference", "vectorised"), PAIRS, ids=lambda f: f.__name__)
@given(data=queries, k=maybe_cutoffs, choices=st.data())
def test_batch_equals_the_per_query_function(reference, vectorised, data, k, choices) -> None:
    names = _keywords(reference)
    assert names == _keywords(vectorised)
    params = {name: choices.draw(PARAMETERS[name], label=name) for name in sorted(names)}
    if params.get("graded") and params.get("rel") is not None:
        params["rel"] = None  # refused together (test_rbp_graded_refuses_rel)
    ranked = [r for r, _ in data]
    judged = [j for _, j in data]
    values = vectorised(JudgedHits.from_rankings(ranked, judged), k, **params)
    assert len(values) == len(data)
    for value, r, j in zip(values, ranked, judged, strict=True):
        want = reference(r, j, k, **params)
        if math.isnan(want):  # trec_eval's 0 / 0, with nan_if_empty
            assert math.isnan(value)
            continue
        assert math.isclose(value, want, rel_tol=1e-12, abs_tol=1e-12)


def test_every_builtin_has_its_pair_tested() -> None:
    registry = Registry.load(autoload=False)
    builtins = {
        (m.func, m.batch)
        for m in registry.retrieval_metrics.values()
        if registry.provider(m.name).name == "builtin.retrieval_metrics"
    }
    assert builtins == set(PAIRS)


def test_hits_keep_only_judged_docs_in_rank_order() -> None:
    hits = JudgedHits.from_rankings(
        [["a", "x", "b"], [], ["c"]], [{"b": 1, "a": -1}, {"z": 2}, {"c": 3, "d": 1}]
    )
    assert hits.query.tolist() == [0, 0, 2]
    assert hits.rank.tolist() == [1, 3, 1]
    assert hits.grade.tolist() == [-1.0, 1.0, 3.0]
    assert hits.n_relevant.tolist() == [1, 1, 2]
    assert hits.ideal.tolist() == [1.0, 2.0, 3.0, 1.0]
    assert hits.ideal_offsets.tolist() == [0, 1, 2, 4]
    assert hits.judged.tolist() == [1.0, -1.0, 2.0, 3.0, 1.0]
    assert hits.judged_offsets.tolist() == [0, 2, 3, 5]
    assert hits.n_retrieved.tolist() == [3, 0, 1]
    judged_only = hits.judged_only()
    assert judged_only.query.tolist() == [0, 2]
    assert judged_only.rank.tolist() == [1, 1]  # "a" (-1) and "x" (unjudged) are dropped
    assert judged_only.n_retrieved.tolist() == [1, 0, 1]


RUN = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0, "d4": 0.5}}
QRELS = {"q1": {"d2": 1}, "q2": {"d3": 1}}


def test_a_metric_without_batch_is_called_query_by_query() -> None:
    calls: list[tuple[list[str], int]] = []

    def first_is_relevant(ranked, relevant, k):
        calls.append((list(ranked), k))
        return float(relevant.get(ranked[0], 0) > 0)

    registry = registry_with(RetrievalMetric(name="first", func=first_is_relevant))
    report = evaluate_run(RUN, QRELS, metrics=("first@1", "ndcg@2"), registry=registry)
    assert report.per_query["q1"]["first@1"] == 0.0
    assert report.per_query["q2"]["first@1"] == 1.0
    assert calls == [(["d1", "d2"], 1), (["d3", "d4"], 1)]


def test_a_plugin_batch_is_used_and_checked() -> None:
    def per_query(ranked, relevant, k):
        raise AssertionError("the batch form should be used")

    def constant(hits, k):
        return [0.25] * hits.n_queries

    registry = registry_with(RetrievalMetric(name="quarter", func=per_query, batch=constant))
    report = evaluate_run(RUN, QRELS, metrics=("quarter@3",), registry=registry)
    assert report.metrics == {"quarter@3": 0.25}

    def short(hits, k):
        return [0.25]

    registry = registry_with(RetrievalMetric(name="short", func=per_query, batch=short))
    with pytest.raises(PluginError, match=r"batch form returned 1 values for 2 queries"):
        evaluate_run(RUN, QRELS, metrics=("short@3",), registry=registry)

    def nan_for_second(hits, k):
        return [0.5, float("nan")]

    registry = registry_with(RetrievalMetric(name="bad", func=per_query, batch=nan_for_second))
    with pytest.raises(PluginError, match=r"returned nan for query 'q2'"):
        evaluate_run(RUN, QRELS, metrics=("bad@3",), registry=registry)
