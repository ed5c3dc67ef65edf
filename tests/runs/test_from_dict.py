"""RunTable.from_dict: a scored mapping is checked in bulk, not sorted, and gives the table
and the errors of the plain definition; a list-backed table hashes its docs once."""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ef.evaluation._runs.order import check_scores, order
from ef.evaluation._runs.table import RunTable

from ..profiles_hypothesis import examples

_SCORES = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -1e308, 10**400, True, False, "1.0", None]),
    st.floats(allow_nan=False, allow_infinity=False).map(np.float64),
    st.integers(-5, 5).map(np.int64),
)
_RUNS = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3"]),
    st.dictionaries(st.sampled_from(["d1", "d2", "d3", "q1", "q2"]), _SCORES, max_size=5),
    max_size=3,
)


def _first_fault(run: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The message for the first score, in order, that is no finite number: the rule as
    the docs state it, written out plainly."""
    for query_id, ranked in run.items():
        for doc_id, score in ranked.items():
            if isinstance(score, bool) or not isinstance(score, (int, float)):
                return f"run[{query_id!r}][{doc_id!r}] = {score!r}: not a number"
            try:
                finite = math.isfinite(score)
            except OverflowError:
                finite = False
            if not finite:
                return f"run[{query_id!r}][{doc_id!r}] = {reprlib.repr(score)}: not finite"
    return None


@given(_RUNS)
@settings(max_examples=examples(300))
# The faults a check of the sum alone could miss or misname: each must name its score.
@example({"q1": {"d1": 1.0, "d2": math.nan}})
@example({"q1": {"d1": 2, "d2": 0.5}, "q2": {"d1": -math.inf, "d3": math.inf}})
@example({"q1": {"d1": 1e308, "d2": 1e308}})  # finite, though the sum overflows
@example({"q1": {"d1": 10**400, "d2": 1.0}})
@example({"q1": {"d1": 10**400, "d2": -(10**400)}})  # the sum is 0
@example({"q1": {"d1": 1, "d2": True}})
def test_from_dict_is_the_plain_definition(run: dict[str, dict[str, Any]]) -> None:
    fault = _first_fault(run)
    if fault is not None:
        with pytest.raises(ValueError, match=r"^run\[") as caught:
            RunTable.from_dict(run)
        assert str(caught.value) == fault
        return
    table = RunTable.from_dict(run)
    assert list(table.query_ids) == list(run)
    for query_id, ranked in run.items():
        docs, scores = list(ranked), [float(s) for s in ranked.values()]
        got_docs, got_scores = table.docs_and_scores(query_id)
        assert list(got_docs) == docs
        assert np.array_equal(np.asarray(got_scores, dtype=np.float64), scores)
        for policy in ("trec_eval", "docno_asc", "input_order"):
            assert table.ranking(query_id, policy) == order(scores, docs, policy)


def test_check_scores_says_whether_numpy_may_convert_them() -> None:
    assert check_scores("q1", {"d1": 2**60 + 1, "d2": 0.5}) is True
    # A subclass of float or int, and finite scores whose sum overflows, pass one by one.
    assert check_scores("q1", {"d1": np.float64(1.0)}) is False
    assert check_scores("q1", {"d1": 1e308, "d2": 1e308}) is False
    with pytest.raises(ValueError, match=r"^run\['q1'\]\['d2'\] = True: not a number$"):
        check_scores("q1", {"d1": 1, "d2": True})
    with pytest.raises(ValueError, match=r"^run\['q1'\]\['d1'\] = 1000.*0: not finite$"):
        check_scores("q1", {"d1": 10**400})


def _without_identical_ids(run: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    return {q: {d: s for d, s in ranked.items() if d != q} for q, ranked in run.items()}


@given(
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3"]),
        st.dictionaries(
            st.sampled_from(["d1", "d2", "d3", "q1", "q2", "q3"]),
            st.integers(0, 3).map(float),
            min_size=1,
        ),
        min_size=1,
    ),
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3"]),
        st.dictionaries(st.sampled_from(["d1", "d2", "q1", "q3"]), st.integers(-1, 2)),
    ),
)
def test_hashes_kept_from_a_lookup_serve_the_table_without_identical_ids(
    run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]]
) -> None:
    # The first lookup hashes every doc and keeps the hashes; the table without the
    # identical ids keeps the hashes of its rows, which must be its own docs' hashes.
    query_ids = list(qrels)
    judgements = [qrels[q] for q in query_ids]
    table = RunTable.from_dict(run)
    assert table.judged_queries(query_ids, judgements) == RunTable.from_dict(run).judged_queries(
        query_ids, judgements
    )
    kept = table.without_identical_ids()
    fresh = RunTable.from_dict(_without_identical_ids(run))
    got, want = kept.judged_hits(query_ids, judgements), fresh.judged_hits(query_ids, judgements)
    for field in ("query", "rank", "grade", "n_relevant", "n_retrieved"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
    assert kept.judged_queries(query_ids, judgements) == fresh.judged_queries(query_ids, judgements)
