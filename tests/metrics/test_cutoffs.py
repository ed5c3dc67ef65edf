"""A metric's ``batch_cutoffs`` form: each row equals its ``batch`` form at that cutoff to
the last bit, and the engine calls it once for a metric's cutoffs, checking what it returns
as it checks ``batch``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import MetricParam, Registry, RetrievalMetric, evaluate_run
from ef.evaluation._hits import JudgedHits
from ef.evaluation.errors import PluginError
from ef.evaluation.testing import registry_with

from ..strategies import PARAMETERS, cutoffs
from .test_batch import _keywords, queries

BUILTIN = Registry.load(autoload=False)
WITH_CUTOFFS = sorted(
    name for name, metric in BUILTIN.retrieval_metrics.items() if metric.batch_cutoffs
)


def test_the_default_metrics_have_a_cutoffs_form() -> None:
    assert {"ndcg", "dcg", "recall", "precision", "mrr", "map"} <= set(WITH_CUTOFFS)


@pytest.mark.parametrize("name", WITH_CUTOFFS)
@given(
    data=queries,
    ks=st.lists(st.one_of(st.none(), cutoffs, st.just(2**63 - 1)), min_size=1, max_size=5),
    choices=st.data(),
)
def test_each_row_is_the_batch_form_at_its_cutoff(name, data, ks, choices) -> None:
    metric = BUILTIN.retrieval_metric(name)
    assert metric.batch is not None
    assert metric.batch_cutoffs is not None
    names = _keywords(metric.batch)
    assert names == _keywords(metric.batch_cutoffs)
    params = {key: choices.draw(PARAMETERS[key], label=key) for key in sorted(names)}
    hits = JudgedHits.from_rankings([r for r, _ in data], [j for _, j in data])
    rows = metric.batch_cutoffs(hits, tuple(ks), **params)
    assert rows.shape == (len(ks), len(data))
    for k, row in zip(ks, rows, strict=True):
        assert np.array_equal(row, np.asarray(metric.batch(hits, k, **params)))  # bit for bit


RUN = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d4": 2.0, "d5": 1.0}}
QRELS = {"q1": {"d2": 1, "d3": 1}, "q2": {"d5": 1}}


def _top(calls: list[tuple[str, object]], answer=None) -> RetrievalMetric:
    """A metric, relevant docs in the top k, that records how its forms are called."""

    def func(ranked, relevant, k):
        return float(sum(relevant.get(doc, 0) > 0 for doc in ranked[:k]))

    def batch(hits: JudgedHits, k: int) -> np.ndarray:
        calls.append(("batch", k))
        return np.bincount(
            hits.query[(hits.grade > 0) & (hits.rank <= k)], minlength=hits.n_queries
        ).astype(float)

    def batch_cutoffs(hits: JudgedHits, ks: tuple[int, ...]) -> object:
        calls.append(("batch_cutoffs", ks))
        if answer is not None:
            return answer
        return np.stack([batch(hits, k) for k in ks])

    return RetrievalMetric(name="top", func=func, batch=batch, batch_cutoffs=batch_cutoffs)


def test_one_call_scores_a_metric_at_all_its_cutoffs() -> None:
    calls: list[tuple[str, object]] = []
    registry = registry_with(_top(calls), plugin="mine")
    report = evaluate_run(RUN, QRELS, metrics=("top@1", "top@2", "top@3"), registry=registry)
    assert report.metrics == {"top@1": 0.0, "top@2": 1.0, "top@3": 1.5}
    assert calls[0] == ("batch_cutoffs", (1, 2, 3))
    assert [form for form, _ in calls].count("batch_cutoffs") == 1
    calls.clear()
    evaluate_run(RUN, QRELS, metrics=("top@2",), registry=registry)  # one cutoff: batch
    assert calls == [("batch", 2)]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (np.zeros((1, 2)), "returned 1 values for 2 cutoffs"),
        (np.zeros(2), "not a row of values per cutoff"),
        (np.zeros((2, 3)), "returned 3 values for 2 queries"),
        (np.array([[0.0, 1.0], [np.nan, 1.0]]), "returned nan for query 'q1'"),
        ([[0.0, 1.0], [None, 1.0]], "returned None for query 'q1'"),
    ],
)
def test_what_the_cutoffs_form_returns_is_checked(answer, message) -> None:
    registry = registry_with(_top([], answer), plugin="mine")
    with pytest.raises(PluginError, match=message):
        evaluate_run(RUN, QRELS, metrics=("top@1", "top@2"), registry=registry)


def test_measures_of_other_parameters_are_scored_apart() -> None:
    # A metric of the whole ranking (no cutoff in its key) at two parameter values: each
    # scored with its own value, never both from one call with the first one's.
    calls: list[tuple[tuple[object, ...], float]] = []

    def func(ranked, relevant, k, *, floor=1.0):
        return float(sum(relevant.get(doc, 0) >= floor for doc in ranked))

    def batch_cutoffs(hits: JudgedHits, ks: tuple[object, ...], *, floor: float = 1.0) -> object:
        calls.append((ks, floor))
        counts = np.bincount(hits.query[hits.grade >= floor], minlength=hits.n_queries)
        return np.stack([counts.astype(float) for _ in ks])

    metric = RetrievalMetric(
        name="above",
        func=func,
        batch_cutoffs=batch_cutoffs,
        params=(MetricParam("floor", float, 1.0),),
        cutoff=False,
    )
    registry = registry_with(metric, plugin="mine")
    qrels = {"q1": {"d1": 1, "d2": 2, "d3": 2}, "q2": {"d5": 2}}
    report = evaluate_run(
        RUN, qrels, metrics=("above(floor=1)", "above(floor=2)"), registry=registry
    )
    assert report.metrics == {"above": 2.0, "above(floor=2)": 1.5}
    assert calls == []  # each is one measure of its parameters: no call at several cutoffs
