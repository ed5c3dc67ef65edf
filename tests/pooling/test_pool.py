"""pool(): the union of each run's top docs per query, less the judged ones; what each run
contributes; merge_qrels(); checked against a plain reference on hypothesis's runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import Pool, RunTable, merge_qrels, pool, write_qrels, write_run

BM25 = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d5": 1.0}}
DENSE = {"q1": {"d3": 0.9, "d4": 0.8, "d1": 0.1}}


def test_the_pool_is_the_union_of_the_top_docs_less_the_judged() -> None:
    pooled = pool({"bm25": BM25, "dense": DENSE}, depth=2, qrels={"q1": {"d1": 0}})
    assert pooled.docs == {"q1": ("d2", "d3", "d4"), "q2": ("d5",)}
    assert pooled.judged == {"q1": ("d1",), "q2": ()}
    assert pooled.runs == ("bm25", "dense")
    assert pooled.contributed == {
        "bm25": {"q1": ("d2",), "q2": ("d5",)},
        "dense": {"q1": ("d3", "d4")},
    }
    assert pooled.unique("bm25") == {"q1": ("d2",), "q2": ("d5",)}
    assert pooled.unique("dense") == {"q1": ("d3", "d4")}
    assert len(pooled) == 4


def test_without_qrels_every_top_doc_is_pooled_and_runs_are_named_by_place() -> None:
    pooled = pool([BM25, DENSE], depth=1)
    assert pooled.runs == ("runs[0]", "runs[1]")
    assert pooled.docs == {"q1": ("d1", "d3"), "q2": ("d5",)}
    assert pooled.unique("runs[0]") == {"q1": ("d1",), "q2": ("d5",)}


def test_a_doc_two_runs_bring_is_no_ones_unique_contribution() -> None:
    pooled = pool({"a": {"q1": {"d1": 2.0, "d2": 1.0}}, "b": {"q1": {"d1": 5.0}}}, depth=2)
    assert pooled.contributed["b"] == {"q1": ("d1",)}
    assert pooled.unique("b") == {"q1": ()}
    assert pooled.unique("a") == {"q1": ("d2",)}
    rows = {
        (r["run"], r["query"]): (r["contributed"], r["unique"])
        for r in pooled.to_dict()["contributions"]
    }
    assert rows == {("a", "q1"): (2, 1), ("b", "q1"): (1, 0)}


def test_ties_at_the_depth_follow_the_tie_policy() -> None:
    run = {"q1": {"d1": 1.0, "d2": 1.0, "d3": 1.0}}
    assert pool([run], depth=1).docs == {"q1": ("d3",)}  # trec_eval: doc id descending
    assert pool([run], depth=1, tie_policy="docno_asc").docs == {"q1": ("d1",)}
    listed = {"q1": {"d2": 1.0, "d1": 1.0, "d3": 1.0}}
    assert pool([listed], depth=1, tie_policy="input_order").docs == {"q1": ("d2",)}
    # float32: 1.0 and 1.0 + 1e-9 tie, as trec_eval stores scores
    assert pool([{"q1": {"d1": 1.0 + 1e-9, "d2": 1.0}}], depth=1).docs == {"q1": ("d2",)}


def test_ranked_lists_and_run_files_are_read_as_evaluate_run_reads_them(tmp_path) -> None:
    path = tmp_path / "bm25.trec"
    write_run(path, BM25)
    qrels = tmp_path / "qrels.txt"
    write_qrels(qrels, {"q1": {"d2": 1}})
    pooled = pool([path, {"q1": ["d9", "d8"]}], depth=2, qrels=qrels)
    assert pooled.runs == (str(path), "runs[1]")
    assert pooled.docs == {"q1": ("d1", "d8", "d9"), "q2": ("d5",)}
    named = RunTable.from_dict(DENSE, name="dense")
    assert pool([named], depth=1).runs == ("dense",)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "depth must be a positive int"),
        ({"depth": True}, "depth must be a positive int"),
        ({"depth": 2.0}, "depth must be a positive int"),
        ({"tie_policy": "expected"}, "a pool needs one order"),
        ({"tie_policy": "random"}, "tie_policy must be one of"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        pool([BM25], **kwargs)


def test_bad_runs_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="needs one or more runs"):
        pool([])
    with pytest.raises(TypeError, match="a sequence of runs"):
        pool("run.trec")
    with pytest.raises(ValueError, match="'x' is given twice"):
        pool([RunTable.from_dict(BM25, name="x"), RunTable.from_dict(DENSE, name="x")])
    with pytest.raises(ValueError, match=r"^bad: run\['q1'\]\['d1'\] = nan: not finite"):
        pool({"bad": {"q1": {"d1": float("nan")}}})


def test_merge_qrels_adds_the_judged_pool_and_changes_no_input() -> None:
    old = {"q1": {"d1": 1}}
    judged = {"q1": {"d1": 1, "d2": 0}, "q2": {"d5": 2}}
    assert merge_qrels(old, judged) == {"q1": {"d1": 1, "d2": 0}, "q2": {"d5": 2}}
    assert old == {"q1": {"d1": 1}}


def test_merge_qrels_refuses_conflicting_grades_naming_each() -> None:
    old = {"q1": {"d1": 1, "d2": 0}, "q2": {"d5": 2}}
    judged = {"q1": {"d1": 2, "d2": 0}, "q2": {"d5": 0}}
    with pytest.raises(ValueError, match="grades 2 docs") as info:
        merge_qrels(old, judged)
    message = str(info.value)
    assert "query 'q1' doc 'd1' (qrels 1, pool 2)" in message
    assert "query 'q2' doc 'd5' (qrels 2, pool 0)" in message
    assert "'d2'" not in message


def test_the_pool_prints_its_contributions() -> None:
    pooled = pool({"bm25": BM25, "dense": DENSE}, depth=2)
    assert (
        repr(pooled) == "<Pool depth 2 of 2 runs: 5 docs to judge for 2 queries, 0 judged already>"
    )
    tables = pooled.tables(details=True)
    assert [t.title for t in tables][1] == "per query"
    assert tables[0].rows == (("bm25", "3", "3", "1.50"), ("dense", "2", "2", "1.00"))
    assert pooled.csv_table().header == ("run", "contributed", "unique", "per query")
    with pytest.raises(KeyError, match="no run 'x'"):
        pooled.unique("x")
    assert isinstance(pooled, Pool)


# --- hypothesis: the pool against a plain reference ---------------------------------------

DOCS = [f"d{i}" for i in range(8)]


@st.composite
def runs_and_qrels(
    draw: st.DrawFn,
) -> tuple[list[dict[str, dict[str, float]]], dict[str, dict[str, int]]]:
    # Scores from a few values, so ties straddle the depth often.
    scores = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5])
    queries = st.sampled_from(["q1", "q2", "q3"])
    run = st.dictionaries(
        queries, st.dictionaries(st.sampled_from(DOCS), scores, min_size=1), min_size=1
    )
    runs = draw(st.lists(run, min_size=1, max_size=4))
    qrels = draw(
        st.dictionaries(queries, st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 2)))
    )
    return runs, qrels


def _top(ranked: dict[str, float], depth: int, tie_policy: str) -> list[str]:
    keys = {doc: float(np.float32(score)) for doc, score in ranked.items()}
    if tie_policy == "docno_asc":
        return sorted(keys, key=lambda d: (-keys[d], d))[:depth]
    return sorted(keys, key=lambda d: (keys[d], d), reverse=True)[:depth]


@settings(max_examples=150, deadline=None)
@given(runs_and_qrels(), st.integers(1, 6), st.sampled_from(["trec_eval", "docno_asc"]))
def test_the_pool_is_the_reference_pool(data, depth, tie_policy) -> None:
    runs, qrels = data
    pooled = pool(runs, depth=depth, qrels=qrels or None, tie_policy=tie_policy)
    tops = [{q: _top(ranked, depth, tie_policy) for q, ranked in run.items()} for run in runs]
    queries = {q for run in runs for q in run}
    assert set(pooled.docs) == queries
    for q in queries:
        union = {doc for top in tops for doc in top.get(q, [])}
        done = qrels.get(q, {})
        assert set(pooled.docs[q]) == {d for d in union if d not in done}
        assert set(pooled.judged[q]) == {d for d in union if d in done}
        assert list(pooled.docs[q]) == sorted(pooled.docs[q])
        brought = [set(pooled.contributed[f"runs[{i}]"].get(q, ())) for i in range(len(runs))]
        assert set().union(*brought) == set(pooled.docs[q])
        for i, top in enumerate(tops):
            assert list(pooled.contributed[f"runs[{i}]"].get(q, ())) == [
                d for d in top.get(q, []) if d not in done
            ]
            others = set().union(*(b for j, b in enumerate(brought) if j != i))
            assert set(pooled.unique(f"runs[{i}]").get(q, ())) == brought[i] - others
