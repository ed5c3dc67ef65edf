"""The values plugins return: names and callables are checked when they are made."""

from __future__ import annotations

import attrs
import pytest

from ef.evaluation import DatasetFormat, RagMetric, RetrievalMetric, RetrieverAdapter, ndcg_at_k


@pytest.mark.parametrize(
    "name", ["Hits", "hits@10", "1hits", "", "ragas..bleu", "a-b", "ragas.Bleu"]
)
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(
        ValueError,
        match=rf"^RetrievalMetric: 'name' must match regex .* \({name!r} doesn't\) \(names are lower-case",
    ):
        RetrievalMetric(name=name, func=ndcg_at_k)


def test_a_name_must_be_a_string() -> None:
    with pytest.raises(
        TypeError, match=r"^RagMetric: 'name' must be <class 'str'> \(got 3 that is"
    ):
        RagMetric(name=3, func=len)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["hits", "hit_rate", "ragas.bleu", "a1.b2.c3"])
def test_good_names(name: str) -> None:
    assert RagMetric(name=name, func=lambda s: 1.0).name == name


def test_funcs_must_be_callable() -> None:
    with pytest.raises(TypeError, match=r"^RetrievalMetric: 'func' must be callable \(got 'ndcg'"):
        RetrievalMetric(name="x", func="ndcg")  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match=r"^RetrieverAdapter: 'accepts' must be callable \(got True"
    ):
        RetrieverAdapter(name="x", accepts=True, adapt=len)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^DatasetFormat: 'detect' must be callable \(got 'yes'"):
        DatasetFormat(name="x", detect="yes")  # type: ignore[arg-type]


def test_values_are_frozen_and_describe_themselves() -> None:
    metric = RetrievalMetric(name="ndcg", func=ndcg_at_k)
    assert metric.description.startswith("Normalized DCG at cutoff")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        metric.name = "other"  # type: ignore[misc]
    assert RetrievalMetric(name="ndcg", func=ndcg_at_k) == metric


def test_a_missing_function_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^RagMetric: 'func' must be callable \(got None"):
        RagMetric(name="x", func=None)  # type: ignore[arg-type]
    # An adapter needs adapt=, adapt_batch=, or both; each must be callable.
    with pytest.raises(TypeError, match=r"RetrieverAdapter 'x' needs adapt= .*adapt_batch="):
        RetrieverAdapter(name="x", accepts=callable, adapt=None)
    with pytest.raises(TypeError, match=r"^RetrieverAdapter: 'adapt' must be callable \(got 3 "):
        RetrieverAdapter(name="x", accepts=callable, adapt=3)  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match=r"^RetrieverAdapter: 'adapt_batch' must be callable \(got 3 "
    ):
        RetrieverAdapter(name="x", accepts=callable, adapt_batch=3)  # type: ignore[arg-type]
    only_batch = RetrieverAdapter(name="x", accepts=callable, adapt_batch=lambda obj: obj)
    assert only_batch.adapt is None
    assert DatasetFormat(name="x").read_dataset is None  # a format's capabilities are optional


def test_the_other_fields_are_checked_by_attrs_too() -> None:
    with pytest.raises(
        ValueError, match=r"^RetrievalMetric: 'aliases' must match regex .*\('Hit' doesn't\)"
    ):
        RetrievalMetric(name="x", func=ndcg_at_k, aliases=["Hit"])
    with pytest.raises(
        TypeError, match=r"^RetrievalMetric: 'params' must be <class .*MetricParam'> \(got 'p'"
    ):
        RetrievalMetric(name="x", func=ndcg_at_k, params=["p"])  # type: ignore[list-item]
    with pytest.raises(
        ValueError,
        match=r"^RetrievalMetric: 'aggregate' must be in \('mean', 'sum', 'geometric'\) "
        r"\(got 'max'\)",
    ):
        RetrievalMetric(name="x", func=ndcg_at_k, aggregate="max")
