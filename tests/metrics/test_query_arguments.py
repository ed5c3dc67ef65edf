"""The per-query metric functions refuse arguments of the wrong shape with a TypeError naming
the function, the argument and the expected shape (issue 25): swapped arguments, a whole run or
qrels, a str, a set or a ``{doc: score}`` dict as the ranking (silently wrong numbers before),
doc ids as the judgements. Arguments of the right shape give the numbers they gave."""

from __future__ import annotations

import math
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
    # reciprocal_rank stopped at d1 and gave 1.0 without reading d2's grade 'x': no longer.
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


# Issue 25: a grade that is no finite number gave a number (dcg_at_k 0.0 for NaN, ndcg_at_k
# NaN for an infinity) where evaluate_run refuses it.

NOT_FINITE = [
    ({"d1": math.nan}, r"relevant\['d1'\] = nan"),
    ({"d1": math.inf}, r"relevant\['d1'\] = inf"),
    ({"d2": 1, "d1": -math.inf, "d3": 0}, r"relevant\['d1'\] = -inf"),
    ({"d1": np.float64("nan"), "d2": 1.0}, r"relevant\['d1'\] = np\.float64\(nan\)|= nan"),
    ({"d1": 10**400}, r"relevant\['d1'\] = 1000000.*\.\.\..*0"),  # no float holds it
    (
        {f"d{i}": math.nan for i in range(1, 6)},
        r"relevant\['d1'\] = nan, relevant\['d2'\] = nan, relevant\['d3'\] = nan and 2 more",
    ),
]


@pytest.mark.parametrize(("relevant", "shown"), NOT_FINITE)
@pytest.mark.parametrize("function", PRIMITIVES, ids=lambda f: f.__name__)
def test_a_primitive_refuses_a_grade_that_is_no_finite_number(
    function: Callable[..., float], relevant: dict[str, float], shown: str
) -> None:
    signature = re.escape(f"{function.__name__}(ranked, relevant, k): ")
    message = f"^{signature}(?:{shown}): a grade is a finite number, e.g. 0, 1 or 2$"
    for ranked in (["d1"], ("d1",), ["x"]):  # the doc retrieved or not, any sequence
        with pytest.raises(ValueError, match=message):
            function(ranked, relevant, 1)


@pytest.mark.parametrize("name", sorted(get_registry().retrieval_metrics))
def test_every_retrieval_metric_function_refuses_a_grade_that_is_no_finite_number(
    name: str,
) -> None:
    func = get_registry().retrieval_metric(name).func
    for grade in (math.nan, math.inf):
        with pytest.raises(ValueError, match=r"relevant\['d1'\] = (nan|inf): a grade is a finite"):
            func(["d1", "d2"], {"d1": grade, "d2": 1}, 10)


def test_finite_grades_whose_sum_overflows_are_scored() -> None:
    # The check sums the grades; a sum past a float's range looks at each and finds none bad.
    relevant = {"d1": 1e308, "d2": 1e308}
    assert ndcg_at_k(["d1", "d2"], relevant, 2) == 1.0
    assert precision_at_k(["d1", "x"], relevant, 2) == 0.5


# Issue 25: a keyword argument that the measure string refuses gave a number when passed to
# the function itself (dcg="exp_log2" scored log2 gains; recall=2 gave 0; rel=nan gave 0).

#: Per parameter, values its measure string refuses.
BAD_ARGUMENTS: dict[str, list[object]] = {
    "rel": [0, -1, math.nan, math.inf, "2"],
    "gains": [{1: math.nan}, {1: math.inf}, {"a": 1}, [1, 2]],
    "dcg": ["exp_log2", "exp"],
    "p": [0, 1, 1.5, math.nan],
    "recall": [2, -0.5, math.nan],
    "recalls": ["0.5,2", "x"],
    "rounding": ["lroud"],
    "mult": [0, -1, 1e300, math.nan],
    "max_grade": [0, 2000, math.inf],
    "beta2": [-1, math.nan],
    "collection": [-1, 1.5],
    "rel_ret": [math.nan, math.inf],
    "nonrel_ret": [-math.inf],
    "rel_unret": [math.nan],
    "nonrel_unret": [math.inf],
}

_FUNCTIONS = [
    (name, param.name)
    for name, metric in sorted(get_registry().retrieval_metrics.items())
    for param in metric.params
    if param.name in BAD_ARGUMENTS
]


@pytest.mark.parametrize(("name", "param"), _FUNCTIONS)
def test_every_metric_function_refuses_an_argument_its_measure_string_refuses(
    name: str, param: str
) -> None:
    metric = get_registry().retrieval_metric(name)
    func = metric.func
    said = re.escape(f"parameter '{param}' ")
    call = re.escape(f"{func.__name__}(ranked, relevant, k): ")
    for value in BAD_ARGUMENTS[param]:
        with pytest.raises(ValueError, match=f"^{said}"):
            metric.param(param).convert(value)  # the measure string refuses it ...
        with pytest.raises(ValueError, match=f"^{call}{said}"):
            func(["d1", "x"], {"d1": 2, "d2": 1}, 10, **{param: value})  # ... and so does func


def test_the_primitives_still_take_their_own_values() -> None:
    ranked, relevant = ["d1", "x", "d2"], {"d1": 2, "d2": 1}
    assert ndcg_at_k(ranked, relevant, 3, dcg="exp-log2", gains={1: 3}, rel=1) == ndcg_at_k(
        ranked, relevant, 3, dcg="exp-log2", gains={1: 3.0}, rel=1.0
    )
    assert precision_at_k(ranked, relevant, 3, rel=2) == 1 / 3
