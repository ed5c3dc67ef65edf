"""check_retrieval_metric passes on every built-in metric and fails on broken ones."""

from __future__ import annotations

import math
from typing import Any

import attrs
import pytest

from ef.evaluation import MetricParam, Registry, RetrievalMetric
from ef.evaluation.metrics import retrieval
from ef.evaluation.metrics.retrieval.ndcg import ndcg_expected
from ef.evaluation.metrics.retrieval.precision import precision_batch, precision_cutoffs
from ef.evaluation.metrics.retrieval.reciprocal_rank import reciprocal_rank_batch
from ef.evaluation.testing import JudgedHits, check_retrieval_metric

from ..tie_averaging import through_engine

BUILTINS = Registry.load(autoload=False).retrieval_metrics
ENGINES = ["random", "hypothesis"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(BUILTINS))
def test_every_builtin_metric_passes(name: str, engine: str) -> None:
    metric = BUILTINS[name]
    assert metric.batch is not None
    if metric.expected is None:  # the kit checks the engine's average over the ties instead
        metric = attrs.evolve(metric, expected=through_engine(metric))
    check_retrieval_metric(metric, examples=100, seed=1, engine=engine)


def test_the_default_engine_and_declared_parameters_and_range() -> None:
    check_retrieval_metric(BUILTINS["ndcg"], value_range=(0.0, 1.0))
    check_retrieval_metric(BUILTINS["rbp"], params={"p": 0.5, "graded": True}, value_range=(0, 1))
    check_retrieval_metric(BUILTINS["precision"], params={"rel": 2}, examples=50)
    with pytest.raises(ValueError, match=r"'ndcg' has no parameter nope"):
        check_retrieval_metric(BUILTINS["ndcg"], params={"nope": 1})
    with pytest.raises(TypeError, match=r"takes a RetrievalMetric"):
        check_retrieval_metric(retrieval.ndcg_at_k)  # type: ignore[arg-type]


def _shifted(hits: JudgedHits, k: int | None, **params: Any) -> Any:
    """Precision's batch form, but every doc counted one rank higher than it is."""
    return precision_batch(attrs.evolve(hits, rank=hits.rank - 1), k, **params)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_batch_form_off_by_one_rank_fails(engine: str) -> None:
    broken = attrs.evolve(BUILTINS["precision"], name="broken_precision", batch=_shifted)
    with pytest.raises(AssertionError) as info:
        check_retrieval_metric(broken, engine=engine)
    message = str(info.value)
    assert message.startswith("retrieval metric 'broken_precision': batch gave ")
    assert " but func gave " in message
    assert "judgements" in message
    assert "at k=" in message


@pytest.mark.parametrize("engine", ENGINES)
def test_an_expected_form_that_ignores_ties_fails(engine: str) -> None:
    broken = attrs.evolve(BUILTINS["mrr"], name="untied_mrr", expected=reciprocal_rank_batch)
    with pytest.raises(
        AssertionError,
        match=r"'untied_mrr': expected gave .* but the mean of func over every order of the ties gave",
    ):
        check_retrieval_metric(broken, engine=engine)


def _above_one(ranked, relevant, k):
    return 1.0 + retrieval.recall_at_k(ranked, relevant, k)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_out_of_range_value_fails(engine: str) -> None:
    metric = RetrievalMetric(name="too_high", func=_above_one)
    check_retrieval_metric(
        metric, engine=engine, examples=20
    )  # no declared range: finite is enough
    with pytest.raises(
        AssertionError,
        match=r"'too_high': func gave 1\.\d+, outside its range \[0, 1\], on ranking",
    ):
        check_retrieval_metric(metric, value_range=(0, 1), engine=engine)


def _nan_when_nothing_is_retrieved(ranked, relevant, k):
    return math.nan if not ranked else 0.0


def _nan_batch(hits, k):
    return [math.nan] * hits.n_queries


@pytest.mark.parametrize("engine", ENGINES)
def test_a_nan_fails(engine: str) -> None:
    metric = RetrievalMetric(name="nan_sometimes", func=_nan_when_nothing_is_retrieved)
    with pytest.raises(
        AssertionError,
        match=r"'nan_sometimes': func gave nan, not a finite number, on ranking \[\]",
    ):
        check_retrieval_metric(metric, engine=engine)
    metric = RetrievalMetric(name="nan_batch", func=lambda ranked, rel, k: 0.0, batch=_nan_batch)
    with pytest.raises(
        AssertionError, match=r"'nan_batch': batch gave nan, not a finite number, on query 0"
    ):
        check_retrieval_metric(metric, engine=engine)


def test_a_batch_form_with_the_wrong_length_or_that_raises_fails() -> None:
    short = RetrievalMetric(name="short", func=lambda r, q, k: 0.0, batch=lambda hits, k: [0.0])
    with pytest.raises(AssertionError, match=r"'short': batch gave 1 values for 2 queries"):
        check_retrieval_metric(short, engine="random")
    metric = RetrievalMetric(name="no_all", func=lambda ranked, rel, k: float(k))
    with pytest.raises(AssertionError, match=r"'no_all': func raised TypeError: .* at k=None"):
        check_retrieval_metric(metric, engine="random")


def test_a_bad_declaration_fails() -> None:
    metric = RetrievalMetric(name="fine", func=retrieval.recall_at_k)
    object.__setattr__(metric, "aliases", ("Bad@Alias",))
    with pytest.raises(AssertionError, match=r"'fine': the name 'Bad@Alias' does not match"):
        check_retrieval_metric(metric)
    object.__setattr__(metric, "aliases", ("fine",))
    with pytest.raises(AssertionError, match=r"its name and aliases repeat a name"):
        check_retrieval_metric(metric)
    param = MetricParam("depth", int, 3, check=lambda v: None)
    object.__setattr__(param, "check", lambda v: (_ for _ in ()).throw(ValueError("too deep")))
    metric = RetrievalMetric(
        name="deep", func=lambda ranked, rel, k, *, depth: 0.0, params=(param,)
    )
    with pytest.raises(
        AssertionError, match=r"'deep': parameter 'depth''s default fails its own check: too deep"
    ):
        check_retrieval_metric(metric)


def test_the_expected_forms_are_the_builtins_own() -> None:
    # The check compares against brute force, as tests/metrics/test_expected.py does.
    assert BUILTINS["ndcg"].expected is ndcg_expected


def _cutoffs_reversed(hits: JudgedHits, ks: Any, **params: Any) -> Any:
    """Precision at every cutoff, but its rows in the reverse order of ``ks``."""
    return precision_cutoffs(hits, tuple(reversed(ks)), **params)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cutoffs_form_with_its_rows_out_of_order_fails(engine: str) -> None:
    broken = attrs.evolve(BUILTINS["precision"], name="mixed_up", batch_cutoffs=_cutoffs_reversed)
    with pytest.raises(
        AssertionError, match=r"'mixed_up': batch_cutoffs gave .* but func gave .* at k="
    ):
        check_retrieval_metric(broken, engine=engine)


def test_a_cutoffs_form_with_a_row_missing_or_that_raises_fails() -> None:
    def one_row(hits: JudgedHits, ks: Any) -> Any:
        return [[0.0] * hits.n_queries]

    metric = RetrievalMetric(name="one_row", func=lambda r, q, k: 0.0, batch_cutoffs=one_row)
    with pytest.raises(AssertionError, match=r"'one_row': batch_cutoffs gave 1 rows for the"):
        check_retrieval_metric(metric, engine="random")

    def fails(hits: JudgedHits, ks: Any) -> Any:
        raise ZeroDivisionError("no")

    metric = RetrievalMetric(name="fails", func=lambda r, q, k: 0.0, batch_cutoffs=fails)
    with pytest.raises(AssertionError, match=r"'fails': batch_cutoffs raised ZeroDivisionError"):
        check_retrieval_metric(metric, engine="random")
