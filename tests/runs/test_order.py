"""order(): the one sort of a query's docs by a tie policy, and the vectorised ranks beside it.

order() is checked against the policies' definitions (scores never rise down its result;
within equal scores, ids fall, rise, or keep the run's order). RunTable ranks whole runs
without sorting (counting, per judged doc, the docs above it and those of its tie group that
the policy puts first): its ranks, tie groups, ``ranking()`` and ``tie_stats()`` are checked
equal to order()'s on runs full of ties, with both of its doc columns (a list; a polars
Series, which compares strings in its own code).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation._formats.trec.fast import RunColumns
from ef.evaluation._runs.order import TIE_POLICIES, order, tie_break
from ef.evaluation._runs.table import RunTable

from ..profiles_hypothesis import examples

POLICIES = tuple(TIE_POLICIES)  # "expected" ranks as trec_eval

# Few scores, so ties everywhere: 1.0 and 1.0 + 1e-9 (and 2**24 and 2**24 + 1) are one
# float32 but two float64s; 0.0 and -0.0 are equal; 1e39 and 3.5e38 are +inf as float32.
SCORES = (1.0, 1.0 + 1e-9, 0.5, 2.0, -3.25, 0.0, -0.0, 2.0**24, 2.0**24 + 1, 1e39, 3.5e38, -1e39)
scores = st.sampled_from(SCORES)
# Ids of mixed length, case and digits, and non-ASCII ones (a str compares by code point,
# polars by UTF-8 byte: the same order).
doc_ids = st.one_of(
    st.sampled_from(
        ["d1", "d10", "d9", "D1", "d01", "1", "10", "9", "a", "A", "é1", "Ω", "\U0001d538"]
    ),
    st.text(alphabet="aAzZ019_-.é€\U0001d538", min_size=1, max_size=5),
)
query = st.dictionaries(doc_ids, scores, min_size=1, max_size=9)
Run = dict[str, dict[str, float]]
runs = st.dictionaries(st.sampled_from(["q1", "q2", "q3", "q4"]), query, min_size=1, max_size=4)


def _keys(values: list[float], float64: bool) -> list[float]:
    """The scores as the policies compare them."""
    with np.errstate(over="ignore"):
        as_given = np.asarray(values, dtype=np.float64)
        keys: list[float] = (as_given if float64 else as_given.astype(np.float32)).tolist()
    return keys


@pytest.mark.parametrize("float64", [False, True])
@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=examples(500), deadline=None)
@given(ranked=query)
def test_order_is_the_policy_definition(
    ranked: dict[str, float], policy: str, float64: bool
) -> None:
    docs = list(ranked)
    got = order(list(ranked.values()), docs, policy, float64=float64)
    assert sorted(got) == sorted(docs)
    key = dict(zip(docs, _keys(list(ranked.values()), float64), strict=True))
    place = {doc: i for i, doc in enumerate(docs)}
    for a, b in itertools.pairwise(got):
        assert key[a] >= key[b]
        if key[a] == key[b]:
            breaks = tie_break(policy)
            if breaks == "id_descending":
                assert a > b
            elif breaks == "id_ascending":
                assert a < b
            else:
                assert place[a] < place[b]


def test_order_refuses_an_unknown_policy_and_a_length_mismatch() -> None:
    with pytest.raises(ValueError, match="tie_policy must be one of"):
        order([1.0], ["d1"], "random")
    with pytest.raises(ValueError, match="2 scores for 1 docs"):
        order([1.0, 2.0], ["d1"])


def _tables(run: Run) -> list[RunTable]:
    """The run as a table of a list of ids and as one of a polars Series (a file's)."""
    pl = pytest.importorskip("polars")
    listed = RunTable.from_dict(run)
    docs = [doc for ranked in run.values() for doc in ranked]
    offsets = np.cumsum([0, *map(len, run.values())]).astype(np.int64)
    values = np.asarray([s for ranked in run.values() for s in ranked.values()], dtype=np.float64)
    columns = RunColumns(list(run), offsets, values, pl.Series(docs, dtype=pl.String))
    return [listed, RunTable.from_columns(columns)]


def _check_tables(run: Run, policy: str, float64: bool) -> None:
    query_ids = list(run)
    # Every doc judged, its grade its place in the query (1, 2, ...): a hit names its doc.
    judgements = [{doc: float(i) for i, doc in enumerate(ranked, 1)} for ranked in run.values()]
    cutoffs = [1, 2, 3, 5]
    for table in _tables(run):
        hits = table.judged_hits(query_ids, judgements, policy, float64=float64)
        assert hits.above is not None
        assert hits.tied is not None
        has_ties, at_cutoff = table.tie_stats(query_ids, cutoffs, float64=float64)
        for qi, (query_id, ranked) in enumerate(run.items()):
            docs = list(ranked)
            want = order(list(ranked.values()), docs, policy, float64=float64)
            assert table.ranking(query_id, policy, float64=float64) == want
            mine = hits.query == qi
            named = [docs[int(g) - 1] for g in hits.grade[mine].tolist()]
            assert named == want  # every doc, in order()'s order
            assert hits.rank[mine].tolist() == list(range(1, len(want) + 1))
            key = dict(zip(docs, _keys(list(ranked.values()), float64), strict=True))
            ranked_keys = [key[doc] for doc in want]
            above = [sum(k > key[doc] for k in ranked_keys) for doc in want]
            tied = [ranked_keys.count(key[doc]) for doc in want]
            assert hits.above[mine].tolist() == above
            assert hits.tied[mine].tolist() == tied
            adjacent = [a == b for a, b in itertools.pairwise(ranked_keys)]
            assert bool(has_ties[qi]) == any(adjacent)
            assert bool(at_cutoff[qi]) == any(k < len(want) and adjacent[k - 1] for k in cutoffs)


@pytest.mark.parametrize("float64", [False, True])
@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run=runs)
def test_the_vectorised_ranks_are_orders(run: Run, policy: str, float64: bool) -> None:
    _check_tables(run, policy, float64)


@pytest.mark.parametrize("float64", [False, True])
@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run=runs)
def test_the_vectorised_ranks_of_a_run_in_trec_eval_order_are_orders(
    run: Run, policy: str, float64: bool
) -> None:
    # Rows already in trec_eval's order: RunTable counts in each row's run of equal scores,
    # and ranking() returns the rows as they are, without order().
    ordered = {
        q: {d: ranked[d] for d in order(list(ranked.values()), list(ranked))}
        for q, ranked in run.items()
    }
    _check_tables(ordered, policy, float64)
