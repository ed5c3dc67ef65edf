"""The rising-score check (issue 25) of a run read in batches or in shards: each part's
counts travel back with its values and add up to the whole run's, so the run is warned of
as the same run read whole is, and only then."""

from __future__ import annotations

import itertools
import pickle
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import RunTable, evaluate_run, evaluate_shards
from ef.evaluation._engine.batched import merge_batches, score_batch
from ef.evaluation._engine.options import Scoring
from ef.evaluation._engine.score_order import ScoreOrder, score_order
from ef.evaluation._engine.scoring import resolve_measures
from ef.evaluation._formats.trec.stream import iter_trec_batches
from ef.evaluation._plugin_engine.registry import registry_or_default

from ..profiles_hypothesis import examples
from .shards import write_run

QRELS = {f"q{i:02d}": {f"d{i}": 1} for i in range(40)}
#: Distances: lower is better, each query listed best first (so its scores rise).
DISTANCES = {f"q{i:02d}": {f"d{i + j}": 0.1 * j for j in range(8)} for i in range(40)}
#: The same run with a tenth of its queries in rank order: 36 of 40 rising, still warned of.
MOSTLY = {q: ({d: -s for d, s in docs.items()} if i % 10 == 0 else docs)
          for i, (q, docs) in enumerate(DISTANCES.items())}  # fmt: skip
#: A fifth in rank order: 32 of 40 rising, under 90%: nothing said.
SOME = {q: ({d: -s for d, s in docs.items()} if i % 5 == 0 else docs)
        for i, (q, docs) in enumerate(DISTANCES.items())}  # fmt: skip


def outcome(run: Any, **options: Any) -> tuple[Mapping[str, float], list[str], list[str]]:
    """The metrics, the warnings' messages, and the files they point at."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate = evaluate_shards if isinstance(run, list) else evaluate_run  # the journey
        got = evaluate(run, QRELS, metrics=("mrr@10",), **options).metrics
    return got, [str(w.message) for w in caught], [w.filename for w in caught]


def shards(folder: Path, run: dict[str, dict[str, float]], k: int = 4) -> list[Path]:
    items = list(run.items())
    size = -(-len(items) // k)
    return [
        write_run(folder / f"part-{n}.trec", dict(items[n * size : (n + 1) * size]))
        for n in range(k)
    ]


CASES = {"all rising": (DISTANCES, 40), "36 of 40": (MOSTLY, 36), "32 of 40": (SOME, None)}


@pytest.mark.parametrize("case", list(CASES))
def test_a_run_read_in_batches_is_warned_of_as_the_whole_run(tmp_path, small_blocks, case):
    run, rising = CASES[case]
    path = write_run(tmp_path / "run.trec", run)
    expected = outcome(path)  # read whole: a small file
    said = f"the run {path} lists its docs by rising score in {rising} of its 40 queries"
    assert [said in m for m in expected[1]] == ([True] if rising else [])
    small_blocks(200, stream_from=0, whole=False)
    assert len(list(iter_trec_batches(path, 200))) > 10
    assert outcome(path) == expected
    assert expected[2] in ([], [__file__])  # a warning points at the caller


@pytest.mark.parametrize("case", list(CASES))
def test_a_sharded_run_is_warned_of_as_the_whole_run(tmp_path, small_blocks, case) -> None:
    run, _ = CASES[case]
    parts = shards(tmp_path, run)
    expected = outcome(RunTable.read(write_run(tmp_path / "whole.trec", run)))
    assert outcome(parts) == expected
    small_blocks(200, stream_from=0, whole=False)  # each shard in batches too
    assert outcome(parts) == expected


def test_the_shards_counts_travel_back_from_a_process_pool(tmp_path, process_pool) -> None:
    parts = shards(tmp_path, DISTANCES)
    got = outcome(parts, executor=process_pool)
    assert got == outcome(parts)
    assert "in 40 of its 40 queries" in got[1][0]


def test_the_counts_of_parts_add_up_to_the_whole_run_s(tmp_path) -> None:
    table = RunTable.read(write_run(tmp_path / "run.trec", MOSTLY))
    whole = score_order(table)
    assert (whole.varied, whole.rising, whole.first) == (40, 36, ("q01", "q02", "q03"))
    measures = resolve_measures(["mrr@10"], (10,), registry_or_default(None))
    batches = [RunTable.read(p) for p in shards(tmp_path, MOSTLY, k=5)]
    parts = [score_batch(b, QRELS, measures, Scoring()) for b in batches]
    merged = merge_batches(parts).order
    assert (merged.varied, merged.rising, merged.as_ranks, merged.first) == (
        whole.varied, whole.rising, whole.as_ranks, whole.first
    )  # fmt: skip
    assert merged.log_orders == pytest.approx(whole.log_orders)
    assert pickle.loads(pickle.dumps(parts[0])).order == parts[0].order
    # A mapping's order says nothing: no count.
    assert score_order(RunTable.from_dict(MOSTLY)) == ScoreOrder()


@settings(max_examples=examples(200))
@given(
    st.lists(
        st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0, 1.0000001]), max_size=6),
        max_size=6,
    )
)
def test_rising_is_counted_as_one_query_at_a_time_would_count_it(blocks) -> None:
    # Empty queries, one-row ones, ties and float32 ties among them: the vectorised count
    # against the rule, a query at a time.
    run = {f"q{i}": {f"d{j}": score for j, score in enumerate(b)} for i, b in enumerate(blocks)}
    steps, rising, as_ranks = RunTable.from_dict(run, listed=True).rising()
    for i, scores in enumerate(blocks):
        kept = [float(np.float32(x)) for x in scores]  # as trec_eval keeps them
        pairs = list(itertools.pairwise(kept))
        ups, downs = sum(b > a for a, b in pairs), sum(b < a for a, b in pairs)
        assert steps[i] == ups + downs
        assert rising[i] == (ups > 0 and downs == 0)
        assert as_ranks[i] == (bool(rising[i]) and scores == list(range(1, len(scores) + 1)))
