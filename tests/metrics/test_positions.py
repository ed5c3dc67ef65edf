"""The position helpers of the batch forms, held to their plain definitions: an entry's
position among its query's entries, and how many flagged entries of its query come before it
(both read a query array sorted as ``JudgedHits.query`` is)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation._hits import position_in_query
from ef.evaluation.metrics.retrieval.kernels import before_in_query

entries = st.lists(st.tuples(st.integers(0, 6), st.booleans()), max_size=40)


def _sorted(pairs: list[tuple[int, bool]]) -> tuple[np.ndarray, np.ndarray]:
    pairs = sorted(pairs, key=lambda pair: pair[0])  # by query; the flags keep their order
    query = np.asarray([q for q, _ in pairs], dtype=np.int64)
    return query, np.asarray([flag for _, flag in pairs], dtype=bool)


@given(entries)
def test_position_in_query_counts_the_query_s_entries_before(pairs) -> None:
    query, _ = _sorted(pairs)
    expected = [int(np.sum(query[:i] == q)) for i, q in enumerate(query.tolist())]
    assert position_in_query(query).tolist() == expected


@given(entries)
def test_before_in_query_counts_the_query_s_flagged_entries_before(pairs) -> None:
    query, flags = _sorted(pairs)
    expected = [int(np.sum((query[:i] == q) & flags[:i])) for i, q in enumerate(query.tolist())]
    assert before_in_query(query, flags).tolist() == expected
