"""``judged_queries`` (the doc-id check's count) is the set of queries that ``judged_hits``
has hits for, on every kind of run: a table of a list of ids, of a polars Series (a file's),
and ranked lists."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import RunTable
from ef.evaluation._formats.trec.fast import RunColumns
from ef.evaluation._runs.ranked import RankedLists, RankedRun

from ..profiles_hypothesis import examples

DOCS = [f"d{i}" for i in range(8)]

runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q4"]),
    st.dictionaries(st.sampled_from(DOCS), st.floats(0, 3, allow_nan=False), max_size=5),
    max_size=4,
)
# Judgements of some queries, the run's or not, their docs retrieved or not; a grade 0 counts.
judged = st.lists(
    st.tuples(
        st.sampled_from(["q1", "q2", "q3", "q4", "q5"]),
        st.dictionaries(st.sampled_from([*DOCS, "D1", "x"]), st.sampled_from([0.0, 1.0, 2.0])),
    ),
    max_size=5,
    unique_by=lambda pair: pair[0],
)


def _runs(run: dict[str, dict[str, float]]) -> list[RankedRun]:
    pl = pytest.importorskip("polars")
    docs = [doc for ranked in run.values() for doc in ranked]
    offsets = np.cumsum([0, *map(len, run.values())]).astype(np.int64)
    values = np.asarray([s for ranked in run.values() for s in ranked.values()], dtype=np.float64)
    columns = RunColumns(list(run), offsets, values, pl.Series(docs, dtype=pl.String))
    lists = RankedLists({q: list(ranked) for q, ranked in run.items()})
    return [RunTable.from_dict(run), RunTable.from_columns(columns), lists]


@settings(max_examples=examples(300))
@given(runs, judged)
def test_judged_queries_are_the_queries_with_hits(run, pairs) -> None:
    query_ids = [q for q, _ in pairs]
    judgements = [j for _, j in pairs]
    expected = {
        i
        for i, (q, j) in enumerate(pairs)
        if any(doc in run.get(q, {}) for doc in j)  # a judged doc of its own, any grade
    }
    for ranked in _runs(run):
        assert ranked.judged_queries(query_ids, judgements) == expected
        hits = ranked.judged_hits(query_ids, judgements, "input_order")
        assert set(hits.query.tolist()) == expected


def _hits_of(
    ranked: RankedRun, query_ids: list[str], judgements: list[dict[str, float]]
) -> list[list[float]]:
    hits = ranked.judged_hits(query_ids, judgements, "trec_eval")
    return [hits.query.tolist(), hits.rank.tolist(), hits.grade.tolist()]


grades = st.dictionaries(st.sampled_from([*DOCS, "x"]), st.sampled_from([0.0, 1.0, 2.0]))


@settings(max_examples=examples(200))
@given(
    runs,
    st.lists(st.sampled_from(["q1", "q2", "q3", "q4", "q5"]), min_size=1, max_size=4, unique=True),
    st.data(),
)
def test_a_run_asked_in_turn_answers_each_as_a_fresh_one(run, query_ids, data) -> None:
    # A run keeps its last search for judged docs (the doc-id check, then the scores, ask
    # for the same). An ask that differs from the last in its queries (their order too), a
    # doc or a grade must be searched again.
    def fresh() -> list[RankedRun]:
        return [RunTable.from_dict(run), RankedLists({q: list(r) for q, r in run.items()})]

    kept = fresh()
    judgements = [data.draw(grades) for _ in query_ids]
    for _ in range(3):
        ids = data.draw(st.permutations(query_ids))
        if data.draw(st.booleans()):  # else the same judgements, for other queries
            judgements = [data.draw(grades) for _ in ids]
        for asked, new in zip(kept, fresh(), strict=True):
            assert asked.judged_queries(ids, judgements) == new.judged_queries(ids, judgements)
            assert _hits_of(asked, ids, judgements) == _hits_of(new, ids, judgements)


@pytest.mark.parametrize("order", [["q1", "q2", "q3"], ["q2", "q3", "q1"]])
def test_the_doc_id_check_and_the_scores_search_the_run_once(monkeypatch, order) -> None:
    # Whatever order the run lists its queries in, the check asks as the scores do, and the
    # table answers the scores from the check's search.
    from ef.evaluation import evaluate_run

    searches = []
    search = RunTable._search_judged_rows

    def counted(self, *args):
        searches.append(args)
        return search(self, *args)

    monkeypatch.setattr(RunTable, "_search_judged_rows", counted)
    run = {q: {"d1": 2.0, f"{q}-d2": 1.0} for q in order}
    qrels = {"q1": {"d1": 1}, "q2": {"q2-d2": 1, "x": 0}, "q3": {"d1": 0}, "q4": {"d1": 1}}
    report = evaluate_run(RunTable.from_dict(run), qrels, metrics=["recall@1", "precision@2"])
    assert len(searches) == 1
    assert report.per_query["q2"]["recall@1"] == 0.0  # its judged doc ranks second
    assert report.per_query["q2"]["precision@2"] == 0.5
