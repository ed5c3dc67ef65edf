"""The ranx profile's order of tied docs is numba's quicksort, as ranx sorts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation._runs.ranx_order import argsort, ranx_order

from .profiles_hypothesis import examples

pytestmark = pytest.mark.peers

quicksort = pytest.importorskip("numba.misc.quicksort", reason="numba comes with ranx")

# Few distinct scores and lists past numba's insertion-sort size (15): the partitions decide.
keys = st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, -1.0]), max_size=80)


@settings(max_examples=examples(300), deadline=None)
@given(keys)
def test_argsort_is_numba_s_quicksort(values: list[float]) -> None:
    import numpy as np

    numba_sort = quicksort.make_py_quicksort(is_argsort=True)
    assert argsort(values) == [int(i) for i in numba_sort.run_quicksort(np.array(values))]


def test_ties_are_not_kept_in_input_order_past_fifteen_docs() -> None:
    # Twenty tied docs: an unstable sort moves them, so the order is not the input's.
    docs = [f"d{i:02d}" for i in range(20)]
    once = ranx_order(docs, [1.0] * 20)
    assert sorted(once) == docs
    assert once != docs
    assert ranx_order(docs, [1.0] * 20, passes=2) == ranx_order(once, [1.0] * 20)
