"""The per-query metric functions refuse arguments of the wrong shape with a TypeError naming
the function, the argument and the expected shape (issue 25): swapped arguments, a whole run or
qrels, a str, a set or a ``{doc: score}`` dict as the ranking (silently wrong numbers before),
doc ids as the judgements. Arguments of the right shape give the numbers they gave."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest

from ef.evaluation import (
    average_precision,
    dcg_at_k,
    get_registry,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

#: The metric primitives of the spec, each ``f(ranked, relevant, k)``.
PRIMITIVES: list[Callable[..., float]] = [
    dcg_at_k,
    ndcg_at_k,
    recall_at_k,
    precision_at_k,
    reciprocal_rank,
    average_precision,
]
RANKED = ["d2", "x", "d1"]
RELEVANT = {"d1": 2, "d2": 1, "d3": 0}

#: (ranked, relevant, what the message says) for each mistake.
MISTAKES = [
    ({"d1": 1.0}, ["d1"], r"ranked is a dict and relevant a list: are the arguments swapped\?"),
    ({"q1": {"d1": 1}}, ["d1"], r".* are the arguments swapped\?"),  # qrels, then a ranking
    ({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, r"ranked is a whole run, \{query_id: \{doc_id"),
    (["d1"], {"q1": {"d1": 1}}, r"relevant\['q1'\] is a dict: .* pass qrels\[query_id\]"),
    ("d1", RELEVANT, r"ranked is a str; .* \(\['d1'\] for one doc\)"),
    ({"d1", "d2"}, RELEVANT, r"ranked is a set, which has no order"),
    ({"x": 0.1, "d1": 0.9}, RELEVANT, r"ranked is a dict; .* pass sorted\(scores, key="),
    (None, RELEVANT, r"ranked is None; expected a sequence of doc ids"),
    (["d1"], {"d1"}, r"relevant is a set; .* dict\.fromkeys\(relevant, 1\) grades each 1"),
    (["d1"], {"d1": "1"}, r"relevant\['d1'\] = '1': a grade is a number"),
    (["d1", "d2"], {"d1": 1, "d2": "x"}, r"relevant\['d2'\] = 'x': a grade is a number"),
]


@pytest.mark.parametrize(("ranked", "relevant", "message"), MISTAKES)
@pytest.mark.parametrize("function", PRIMITIVES, ids=lambda f: f.__name__)
def test_a_primitive_names_the_argument_of_the_wrong_shape(
    function: Callable[..., float], ranked: object, relevant: object, message: str
) -> None:
    if function is reciprocal_rank and relevant == {"d1": 1, "d2": "x"}:
        assert function(ranked, relevant, 10) == 1.0  # it stops at d1: d2's grade is not read
        return
    signature = re.escape(f"{function.__name__}(ranked, relevant, k): ")
    with pytest.raises(TypeError, match=f"^{signature}{message}"):
        function(ranked, relevant, 10)


@pytest.mark.parametrize("function", PRIMITIVES, ids=lambda f: f.__name__)
def test_other_sequences_and_numbers_give_the_same_numbers(function) -> None:
    expected = function(RANKED, RELEVANT, 2)
    assert function(tuple(RANKED), RELEVANT, 2) == expected
    assert function(iter(RANKED), RELEVANT, 2) == expected
    assert function(np.array(RANKED), RELEVANT, 2) == expected
    grades = {doc: np.int64(g) for doc, g in RELEVANT.items()}
    assert function(RANKED, grades, 2) == expected
    assert function(RANKED, {}, 2) == 0.0
    assert function([], RELEVANT, 2) == 0.0


@pytest.mark.parametrize("name", sorted(get_registry().retrieval_metrics))
def test_every_retrieval_metric_function_refuses_swapped_arguments(name: str) -> None:
    func = get_registry().retrieval_metric(name).func
    with pytest.raises(TypeError, match=r"\(ranked, relevant, k\): .*swapped"):
        func({"d1": 1.0}, ["d1"], 10)
    with pytest.raises(TypeError, match=r"\(ranked, relevant, k\): relevant\['q1'\] is a dict"):
        func(["d1"], {"q1": {"d1": 1}}, 10)
