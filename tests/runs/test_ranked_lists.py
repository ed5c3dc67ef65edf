"""``RankedLists.without_identical_ids`` (BEIR's ``ignore_identical_ids``) drops each
query's own id from its list and leaves every other list as it was, in the run's order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation._runs.ranked import RankedLists

IDS = ["q1", "q2", "q3", "d1", "d2", "d3"]

runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3"]),
    st.lists(st.sampled_from(IDS), unique=True, max_size=6),
    max_size=3,
)


@given(runs)
def test_each_list_loses_its_query_id_and_nothing_else(run) -> None:
    kept = RankedLists(run, checked=True).without_identical_ids()
    assert kept.query_ids == list(run)
    assert [list(ranking) for ranking in kept.rankings(list(run))] == [
        [doc for doc in docs if doc != query_id] for query_id, docs in run.items()
    ]


def test_a_run_is_left_as_it_was() -> None:
    run = RankedLists({"q1": ("q1", "d1"), "q2": ("d2",)}, checked=True)
    assert run.without_identical_ids().rankings(["q1", "q2"]) == [["d1"], ("d2",)]
    assert run.rankings(["q1", "q2"]) == [("q1", "d1"), ("d2",)]
