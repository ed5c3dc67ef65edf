"""ef.evaluation.compat.ranx against ranx 0.3.21 on the same inputs (ranx's numba JIT makes
the first call slow: the module's ranx results are computed once)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning, write_qrels, write_run
from ef.evaluation.compat import ranx as ours

from ..profiles_hypothesis import examples
from .helpers import Qrels, Run, inputs, unchanged

pytestmark = pytest.mark.peers  # ranx, with its numba JIT

#: Random runs that may meet the qrels in no or few queries: the shim says so (ranx scores
#: them 0), which is not what these tests are about.
DOC_IDS_SAID = pytest.mark.filterwarnings(
    r"ignore:(no scored query retrieves|only \d+ of the \d+ scored queries|the run's doc ids "
    r"match|the run's rankings are empty):ef.evaluation.InputWarning"
)

ranx = pytest.importorskip("ranx")

METRICS = [
    "ndcg@10", "ndcg", "map@100", "map", "mrr", "mrr@5", "precision@5", "recall@10",
    "hit_rate@5", "f1@10", "r-precision", "ndcg_burges@10", "map@100-l2", "precision@5-l2",
    "ndcg@10-l2", "bpref", "dcg@10", "dcg", "dcg_burges@10", "dcg_burges", "dcg@10-l2",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _quiet_numba() -> Iterator[None]:
    from numba.core.errors import NumbaTypeSafetyWarning

    with warnings.catch_warnings():
        # numba's JIT warns about ranx's uint64 -> int64 hash cast while compiling.
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        yield


def _comparable(seed: int, ties: bool) -> tuple[Qrels, Run]:
    """qrels and a run over the same queries (ranx refuses others without make_comparable),
    each query with a relevant doc and a judged non-relevant one (else ranx's bpref is a
    0/0: NaN, or 0.0 for the other queries of its thread's chunk)."""
    qrels, run = inputs(seed, ties=ties)
    relevant = {
        q
        for q, judged in qrels.items()
        if any(g > 0 for g in judged.values()) and any(g <= 0 for g in judged.values())
    }
    run = {q: r for q, r in run.items() if q in relevant}
    qrels = {q: j for q, j in qrels.items() if q in run}
    return qrels, run


def _theirs(
    qrels: Mapping[str, Mapping[str, float]], run: Run, metrics: Any, **options: Any
) -> Any:
    return ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), metrics, **options)


def _ours(qrels: Mapping[str, Mapping[str, float]], run: Run, metrics: Any, **options: Any) -> Any:
    """The shim called as :func:`_theirs` calls ranx: on a Qrels and a Run (ranx orders tied
    docs by how it is called: a plain dict another way, see the call-shape test below)."""
    return ours.evaluate(ours.Qrels(qrels), ours.Run(run), metrics, **options)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("ties", [True, False])
def test_evaluate_gives_ranx_numbers(seed: int, ties: bool) -> None:
    qrels, run = _comparable(seed, ties)
    still = unchanged(qrels, run)
    got = _ours(qrels, run, METRICS)
    expected = _theirs(qrels, run, METRICS)
    assert list(got) == METRICS
    for metric in METRICS:
        assert got[metric] == pytest.approx(expected[metric], abs=1e-9, rel=0), metric
    still()


DOCS = [f"d{i}" for i in range(10)]


@st.composite
def tied_inputs(draw: st.DrawFn) -> tuple[Qrels, Run]:
    """qrels and a run over the same three queries: each query's docs drawn from a few
    scores (so most tie, and ranx's quicksort orders them), grades -1 .. 3 (ranx's are
    whole), a judged doc often not retrieved and a query sometimes with nothing relevant."""
    qrels: Qrels = {}
    run: Run = {}
    for q in ("q1", "q2", "q3"):
        docs = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=10))
        run[q] = {d: draw(st.sampled_from([0.25, 0.5, 1.0, 1.5]), label=d) for d in docs}
        grades = st.integers(-1, 3)
        qrels[q] = draw(st.dictionaries(st.sampled_from(DOCS), grades, min_size=1, max_size=8))
    return qrels, run


@DOC_IDS_SAID
@settings(
    max_examples=examples(100),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=tied_inputs(), k=st.integers(1, 12))
def test_dcg_and_dcg_burges_are_ranx_s(data: tuple[Qrels, Run], k: int) -> None:
    # _quiet_numba, function-scoped, only filters warnings: sharing it across examples is fine.
    qrels, run = data
    metrics = [
        f"dcg@{k}", f"dcg_burges@{k}", "dcg", "dcg_burges", f"dcg@{k}-l2", "dcg_burges-l2",
    ]  # fmt: skip
    got = _ours(qrels, run, metrics, return_mean=False)
    expected = _theirs(qrels, run, metrics, return_mean=False)
    for metric in metrics:
        np.testing.assert_allclose(got[metric], expected[metric], atol=1e-9, rtol=0, err_msg=metric)
    means = _ours(qrels, run, metrics)
    for metric in metrics:
        assert means[metric] == pytest.approx(float(np.mean(expected[metric])), abs=1e-9, rel=0)


@DOC_IDS_SAID
@settings(
    max_examples=examples(50),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=tied_inputs(), fractions=st.lists(st.sampled_from([-1.5, -0.5, 0.5, 1.5, 2.7])))
def test_fractional_grades_are_truncated_as_ranx_truncates_them(
    data: tuple[Qrels, Run], fractions: list[float]
) -> None:
    whole, run = data
    qrels: dict[str, dict[str, float]] = {q: dict(docs) for q, docs in whole.items()}
    judged = [(q, d) for q, docs in qrels.items() for d in docs]
    for (q, d), grade in zip(judged, fractions, strict=False):
        qrels[q][d] = grade
    metrics = ["ndcg@5", "dcg_burges@10", "map", "precision@5-l2", "mrr"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        got = _ours(qrels, run, metrics, return_mean=False)
    expected = _theirs(qrels, run, metrics, return_mean=False)
    for metric in metrics:
        np.testing.assert_allclose(got[metric], expected[metric], atol=1e-9, rtol=0, err_msg=metric)
    # The grades cut, said once; random runs may also meet few judged docs (said apart).
    cut = [w for w in caught if "ranx holds whole grades" in str(w.message)]
    assert len(cut) == (1 if fractions[: len(judged)] else 0)


def test_the_return_shapes_are_ranx_s() -> None:
    qrels, run = _comparable(3, True)
    one = _ours(qrels, run, "ndcg@10")
    assert isinstance(one, float)
    assert one == pytest.approx(_theirs(qrels, run, "ndcg@10"), abs=1e-9)
    assert isinstance(ours.evaluate(qrels, run, ["ndcg@10"]), float)  # one in a list: a float
    per_query = _ours(qrels, run, ["ndcg@10", "mrr"], return_mean=False)
    expected = _theirs(qrels, run, ["ndcg@10", "mrr"], return_mean=False)
    for metric in ("ndcg@10", "mrr"):
        assert isinstance(per_query[metric], np.ndarray)
        np.testing.assert_allclose(per_query[metric], expected[metric], atol=1e-9, rtol=0)
    with_std = _ours(qrels, run, ["ndcg@10", "mrr"], return_std=True)
    expected_std = _theirs(qrels, run, ["ndcg@10", "mrr"], return_std=True)
    for metric in ("ndcg@10", "mrr"):
        assert with_std[metric] == pytest.approx(expected_std[metric], abs=1e-9)


def test_query_sets_that_differ_are_refused_as_ranx_refuses_them() -> None:
    qrels, run = inputs(4)  # q0..q2 unjudged, q12 and q13 not in the run
    with pytest.raises(AssertionError, match="Qrels and Run query ids do not match"):
        _theirs(qrels, run, "ndcg@10")
    with pytest.raises(ValueError, match="Qrels and Run query ids do not match: 2 judged") as info:
        ours.evaluate(qrels, run, "ndcg@10")
    assert "3 queries of the run are not judged ('q0', 'q1', 'q2')" in str(info.value)
    comparable = [m for m in METRICS if m != "bpref"]  # q13 has no relevant doc: see above
    got = _ours(qrels, run, comparable, make_comparable=True)
    expected = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), comparable, make_comparable=True)
    for metric in comparable:
        assert got[metric] == pytest.approx(expected[metric], abs=1e-9, rel=0), metric


def test_the_run_is_not_written_to() -> None:
    qrels, run = _comparable(5, True)
    wrapped = ours.Run(run, name="bm25")
    ours.evaluate(ours.Qrels(qrels), wrapped, "ndcg@10", save_results_in_run=True)
    assert wrapped.to_dict() == run
    assert not hasattr(wrapped, "mean_scores")


def test_qrels_and_run_from_files_dataframes_and_parquet(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    qrels, run = _comparable(6, False)
    expected = ours.evaluate(qrels, run, ["ndcg@10", "map"])
    write_qrels(tmp_path / "qrels.txt", qrels)
    write_run(tmp_path / "run.txt", run)
    from_files = (
        ours.Qrels.from_file(tmp_path / "qrels.txt"),
        ours.Run.from_file(tmp_path / "run.txt"),
    )
    assert from_files[1].name == "ef"  # the run tag
    assert ours.evaluate(*from_files, ["ndcg@10", "map"]) == expected
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    judged = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    run_frame = pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])
    qrels_frame = pd.DataFrame(judged, columns=["q_id", "doc_id", "score"])
    from_frames = ours.Qrels.from_df(qrels_frame), ours.Run.from_df(run_frame, name="x")
    assert ours.evaluate(*from_frames, ["ndcg@10", "map"]) == expected
    with pytest.raises(AssertionError, match="dtype must be `object`"):  # pandas 3 strings
        ranx.Run.from_df(run_frame)
    pl.DataFrame(run_frame.to_dict("list")).write_parquet(tmp_path / "run.parquet")
    pl.DataFrame(qrels_frame.to_dict("list")).write_parquet(tmp_path / "qrels.parquet")
    from_parquet = (
        ours.Qrels.from_parquet(tmp_path / "qrels.parquet"),
        ours.Run.from_parquet(tmp_path / "run.parquet"),
    )
    assert ours.evaluate(*from_parquet, ["ndcg@10", "map"]) == expected
    renamed = run_frame.rename(columns={"q_id": "query"})
    assert ours.Run.from_df(renamed, q_id_col="query").to_dict() == run
    with pytest.raises(ValueError, match=r"no column 'q_id' \(run_columns="):
        ours.Run.from_df(renamed)


def test_qrels_and_run_hold_copies_and_names() -> None:
    source = {"q1": {"d1": 1}}
    qrels = ours.Qrels.from_dict(source)
    source["q1"]["d2"] = 1
    assert qrels.to_dict() == {"q1": {"d1": 1}}
    assert (qrels.name, len(qrels), list(qrels.keys()), "q1" in qrels) == (None, 1, ["q1"], True)
    assert ours.Run.from_dict({"q1": {"d1": 0.5}}, name="bm25").name == "bm25"


def test_ranx_metrics_we_lack_and_bad_strings_are_refused() -> None:
    qrels, run = _comparable(1, False)
    with pytest.raises(ValueError, match="ranx's 'hits' is not implemented"):
        ours.evaluate(qrels, run, "hits@10")
    with pytest.raises(ValueError, match=r"ranx's 'rbp' is not implemented .*its gain is the raw"):
        ours.evaluate(qrels, run, "rbp.95")
    with pytest.raises(ValueError, match="is no ranx metric"):
        ours.evaluate(qrels, run, "nDCG@10")
    with pytest.raises(ValueError, match="metrics are ranx's metric strings"):
        ours.evaluate(qrels, run, [])


@pytest.mark.parametrize("comparable", [False, True])
@pytest.mark.parametrize("shape", ["dicts", "objects"])
def test_heavy_ties_are_ordered_as_ranx_orders_each_call_shape(
    shape: str, comparable: bool
) -> None:
    # Blocks of 15 tied docs: past numba's insertion sort, the quicksort's partitions decide,
    # and a dict, a Run, and a Run sorted again by make_comparable each give another order.
    qrels = {"q1": {f"d{i}": int(i % 4 == 0) for i in range(60)}, "q2": {"d1": 1, "d7": 0}}
    run = {q: {f"d{i}": float(i // 15) for i in range(60)} for q in ("q1", "q2")}
    metrics = ["ndcg@5", "map@5", "precision@3", "mrr"]
    if shape == "dicts":
        got = ours.evaluate(qrels, run, metrics, make_comparable=comparable)
        expected = ranx.evaluate(qrels, run, metrics, make_comparable=comparable)
    else:
        got = _ours(qrels, run, metrics, make_comparable=comparable)
        expected = _theirs(qrels, run, metrics, make_comparable=comparable)
    for metric in metrics:
        assert got[metric] == pytest.approx(expected[metric], abs=1e-12, rel=0), metric


@pytest.mark.parametrize("level", ["", "-l2"])
def test_bpref_where_ranx_divides_0_by_0_is_trec_eval_s_and_said(level: str) -> None:
    # q2 judges only relevant docs (every BEIR test qrels file does): ranx's bpref is 0/0.
    qrels = {"q1": {"d1": 2, "d2": 0}, "q2": {"d3": 2, "d4": 2}}
    run = {"q1": {"d2": 0.9, "d1": 0.5}, "q2": {"d3": 0.9, "d5": 0.5}}
    theirs = _theirs(qrels, run, f"bpref{level}", return_mean=False)
    assert np.isnan(theirs[1]) or theirs[1] == 0.0  # NaN, or 0.0 by its thread chunks
    with pytest.warns(InputWarning, match=r"bpref: ranx divides 0 by 0 on 1 of 2 queries \('q2'\)"):
        got = _ours(qrels, run, f"bpref{level}", return_mean=False)
    assert got[0] == pytest.approx(theirs[0], abs=1e-12)  # where ranx's is a number, the same
    assert (
        got[1] == 0.5
    )  # trec_eval's: 1 of its 2 relevant docs retrieved, none ranked below a non-relevant
