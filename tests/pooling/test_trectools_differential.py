"""pool() against trectools' depth-k pooling, live: ``TrecPoolMaker().make_pool(runs,
strategy="topX", topX=k)``.

trectools reads a run with pandas and sorts each query's docs by score descending, then doc
id ascending (``sort_values(["query", "score", "docid"], ascending=[True, False, True])``);
the rank column is not read, and scores compare as float64. That is ef's ``docno_asc`` tie
policy on scores that float32 keeps apart. Under ef's default, trec_eval's rule, tied docs go
doc id descending, so where a group of tied docs straddles the depth the two pools take
different docs of it: the runs here are scored with multiples of 1/2, so ties are common and
the default's difference is seen, and both sides agree on every tie.

The runs are written as TREC files that trectools reads itself. Their ids start with a
letter: pandas would read ``007`` as the number 7.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import pool, write_run

pytestmark = [
    pytest.mark.peers,
    # trectools sorts with pandas' inplace=True, which pandas 3.1 deprecates (Pandas4Warning):
    # the peer's own warning, not ours.
    pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame"),
]

trectools = pytest.importorskip("trectools", reason="trectools is a test dependency (test-peers)")

DOCS = [f"d{i}" for i in range(10)]
QUERIES = ["q1", "q2", "q3"]
Runs = list[dict[str, dict[str, float]]]


@st.composite
def runs_of(draw: st.DrawFn) -> Runs:
    scores = st.integers(0, 8).map(lambda n: n / 2)
    ranked = st.dictionaries(st.sampled_from(DOCS), scores, min_size=1)
    run = st.dictionaries(st.sampled_from(QUERIES), ranked, min_size=1)
    return draw(st.lists(run, min_size=1, max_size=4))


def _trectools_pool(paths: list[Path], depth: int) -> dict[str, set[str]]:
    runs = [trectools.TrecRun(str(path)) for path in paths]
    made = trectools.TrecPoolMaker().make_pool(runs, strategy="topX", topX=depth)
    return {str(query): set(docs) for query, docs in made.pool.items()}


def _written(runs: Runs, folder: Path) -> list[Path]:
    paths = []
    for index, run in enumerate(runs):
        path = folder / f"run{index}.trec"
        write_run(path, run)
        paths.append(path)
    return paths


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(runs=runs_of(), depth=st.integers(1, 6))
def test_docno_asc_pools_are_trectools_pools(tmp_path_factory, runs: Runs, depth: int) -> None:
    paths = _written(runs, tmp_path_factory.mktemp("runs"))
    theirs = _trectools_pool(paths, depth)
    ours = pool(paths, depth=depth, tie_policy="docno_asc")
    assert {q: set(docs) for q, docs in ours.docs.items()} == theirs


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(runs=runs_of(), depth=st.integers(1, 6), data=st.data())
def test_with_qrels_the_pool_is_trectools_pool_less_the_judged(
    tmp_path_factory, runs: Runs, depth: int, data: st.DataObject
) -> None:
    qrels = data.draw(
        st.dictionaries(
            st.sampled_from(QUERIES), st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2))
        )
    )
    paths = _written(runs, tmp_path_factory.mktemp("runs"))
    theirs = _trectools_pool(paths, depth)
    ours = pool(paths, depth=depth, qrels=qrels or None, tie_policy="docno_asc")
    for query, docs in theirs.items():
        judged = qrels.get(query, {})
        assert set(ours.docs[query]) == {d for d in docs if d not in judged}
        assert set(ours.judged[query]) == {d for d in docs if d in judged}


def test_the_default_tie_policy_differs_only_in_ties_at_the_depth(tmp_path: Path) -> None:
    run = {"q1": {"d1": 2.0, "d2": 1.0, "d3": 1.0}}
    paths = _written([run], tmp_path)
    assert _trectools_pool(paths, 2) == {"q1": {"d1", "d2"}}  # doc id ascending
    assert pool(paths, depth=2).docs == {"q1": ("d1", "d3")}  # trec_eval: descending
    assert pool(paths, depth=2, tie_policy="docno_asc").docs == {"q1": ("d1", "d2")}
    untied = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    paths = _written([untied], tmp_path)
    assert {q: set(d) for q, d in pool(paths, depth=2).docs.items()} == _trectools_pool(paths, 2)
