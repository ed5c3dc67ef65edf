"""Packed ids and qrels read as the list and the dict of dicts they hold; the batches'
values are combined from them."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import evaluate_run, evaluate_shards
from ef.evaluation._engine.batched import BatchScores, combine_batches
from ef.evaluation._engine.options import Scoring
from ef.evaluation._engine.scoring import resolve_measures
from ef.evaluation._runs import packed
from ef.evaluation._runs.packed import PackedQrels, PackedStrings
from ef.evaluation.types import FrozenDict

ids = st.text(max_size=6)  # any text: empty, non-ASCII, a newline inside
grades = st.one_of(st.integers(-2, 4), st.floats(-2, 4, allow_nan=False))
qrels_maps = st.dictionaries(ids, st.dictionaries(ids, grades, max_size=5), max_size=12)


@given(strings=st.lists(ids, max_size=20), at=st.integers(-25, 25))
def test_packed_strings_read_as_the_list(strings: list[str], at: int) -> None:
    got = PackedStrings(strings)
    assert list(got) == strings
    assert len(got) == len(strings)
    assert got == strings
    assert got[1:-1:2] == strings[1:-1:2]
    if -len(strings) <= at < len(strings):
        assert got[at] == strings[at]
    else:
        with pytest.raises(IndexError):
            got[at]
    assert list(pickle.loads(pickle.dumps(got))) == strings


@given(qrels=qrels_maps, probes=st.lists(st.one_of(ids, st.integers()), max_size=8))
def test_packed_qrels_read_as_the_dict_of_dicts(
    qrels: dict[str, dict[str, float]], probes: list[object]
) -> None:
    got = PackedQrels.of(qrels)
    as_floats = {q: {d: float(g) for d, g in judged.items()} for q, judged in qrels.items()}
    assert got == as_floats
    assert as_floats == dict(got.items())
    assert list(got) == list(qrels)
    assert len(got) == len(qrels)
    assert [list(judged) for judged in got.values()] == [list(j) for j in qrels.values()]
    for probe in [*qrels, *probes]:
        assert (probe in got) == (probe in qrels)
        assert got.get(probe) == as_floats.get(probe)  # type: ignore[call-overload]  # any key
    assert pickle.loads(pickle.dumps(got)) == as_floats  # its index made again on arrival
    assert PackedQrels.of(got) is got


def test_queries_whose_hashes_clash_are_told_apart_by_their_ids(monkeypatch) -> None:
    monkeypatch.setattr(packed, "hash", lambda _: 7, raising=False)  # every id the same hash
    got = PackedQrels.of({"q2": {"a": 1}, "q1": {"b": 2}, "q3": {}})
    assert got["q1"] == {"b": 2.0}
    assert got["q2"] == {"a": 1.0}
    assert got["q3"] == {}
    assert "q4" not in got
    with pytest.raises(KeyError, match="q4"):
        got["q4"]


def test_packed_qrels_are_read_only_and_unhashable_as_a_dict() -> None:
    got = PackedQrels.of({"q1": {"d1": 1}})
    got["q1"]["d1"] = 5.0  # a fresh dict each read: the qrels do not change
    assert got["q1"] == {"d1": 1.0}
    with pytest.raises(TypeError, match="does not support item assignment"):
        got["q2"] = {}  # type: ignore[index]
    with pytest.raises(TypeError, match="unhashable"):
        hash(got)


def test_a_part_that_scores_a_query_it_does_not_hold_is_refused(builtin_registry) -> None:
    measures = resolve_measures(["recall@2"], (10,), builtin_registry)
    ties: FrozenDict[str, frozenset[str]] = FrozenDict(
        {name: frozenset() for name in ("tied", "at_cutoff", "at_relevant")}
    )
    part = BatchScores(("q1",), {"q2": {"recall@2": 1.0}}, ties)
    with pytest.raises(ValueError, match="a part scores query 'q2', not one of its queries"):
        combine_batches([part], {"q2": {"a": 1}}, measures, Scoring())


@pytest.mark.parametrize("sharded", [True, False], ids=["sharded", "streamed"])
def test_qrels_with_an_id_not_a_str_are_refused_as_when_read_whole(
    tmp_path, small_blocks, sharded
) -> None:
    """Packing needs str ids: qrels of int ids are kept as they are, for the check that says
    the run's ids are str and theirs are not (not a TypeError from inside the packing)."""
    path = tmp_path / "run.trec"
    path.write_text("1 Q0 d1 1 2.0 r\n2 Q0 d2 1 1.0 r\n")
    qrels = {1: {"d1": 1}, 2: {"d2": 1}}
    with pytest.raises(ValueError, match="the run's query ids are str, qrels' are int") as whole:
        evaluate_run(path, qrels, metrics=("mrr@10",))  # type: ignore[arg-type]  # int ids
    small_blocks(16, stream_from=0)  # the file read in batches
    evaluate = evaluate_shards if sharded else evaluate_run
    with pytest.raises(ValueError, match=f"^{re.escape(str(whole.value))}$"):
        evaluate(path, qrels, metrics=("mrr@10",))  # type: ignore[arg-type]  # int ids
