"""The doc-id check (issue 25) of a run read in batches or in shards: the counts of each part
travel back with its values and add up to the whole run's, so the run is refused, or warned
of, as the same run read whole is, before any report is made."""

from __future__ import annotations

import pickle
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import InputWarning, RunTable, evaluate_run, evaluate_shards
from ef.evaluation._engine.batched import merge_batches, score_batch, scored_parts
from ef.evaluation._engine.doc_overlap import FOLDS, LOOKED, DocOverlap, _respelt, doc_overlap
from ef.evaluation._engine.options import Scoring
from ef.evaluation._engine.scoring import resolve_measures
from ef.evaluation._formats.trec.stream import iter_trec_batches
from ef.evaluation._plugin_engine.registry import registry_or_default

from .shards import write_run

QRELS = {f"q{i:02d}": {f"DOC-{i}": 1, f"DOC-{i + 100}": 0} for i in range(40)}
RUN = {f"q{i:02d}": {f"DOC-{i + j}": 10.0 - j for j in range(8)} for i in range(40)}


def lower(run: dict[str, dict[str, float]], queries: Any = None) -> dict[str, dict[str, float]]:
    return {
        q: {(d.lower() if queries is None or q in queries else d): s for d, s in docs.items()}
        for q, docs in run.items()
    }


def elsewhere(run: dict[str, dict[str, float]], keep: int) -> dict[str, dict[str, float]]:
    """``run`` with every query after the first ``keep`` retrieving docs nobody judged."""
    return {
        q: (docs if i < keep else {f"other-{i}-{d}": s for d, s in docs.items()})
        for i, (q, docs) in enumerate(run.items())
    }


def outcome(run: Any, qrels: Any = QRELS, **options: Any) -> tuple[str, list[str], list[str]]:
    """The ValueError's message or the report's metrics, the warnings' messages, and the files
    they point at."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            evaluate = evaluate_shards if isinstance(run, list) else evaluate_run  # the journey
            got = str(evaluate(run, qrels, metrics=("mrr@10",), **options).metrics)
        except ValueError as exc:
            got = str(exc)
    return got, [str(w.message) for w in caught], [w.filename for w in caught]


def shards(folder: Path, run: dict[str, dict[str, float]], k: int = 4) -> list[Path]:
    items = list(run.items())
    size = -(-len(items) // k)
    return [
        write_run(folder / f"part-{n}.trec", dict(items[n * size : (n + 1) * size]))
        for n in range(k)
    ]


CASES = {
    "case": lower(RUN),
    "a quarter respelt": lower(RUN, {f"q{i:02d}" for i in range(30, 40)}),
    "few meet": elsewhere(RUN, 12),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_run_read_in_batches_is_checked_as_the_whole_run(tmp_path, small_blocks, case) -> None:
    path = write_run(tmp_path / "run.trec", CASES[case])
    expected = outcome(RunTable.read(path))
    assert "likely cause: the ids differ in case" in expected[0] or expected[1]
    small_blocks(200, stream_from=0, whole=False)
    assert len(list(iter_trec_batches(path, 200))) > 10
    assert outcome(path) == expected
    assert expected[2] in ([], [__file__])  # a warning points at the caller


@pytest.mark.parametrize("case", list(CASES))
def test_a_sharded_run_is_checked_as_the_whole_run(tmp_path, case) -> None:
    parts = shards(tmp_path, CASES[case])
    whole = write_run(tmp_path / "whole.trec", CASES[case])
    got = outcome(parts)
    assert "likely cause: the ids differ in case" in got[0] or got[1]
    assert got == outcome(whole)


def test_large_shards_read_in_batches_are_checked_too(tmp_path, small_blocks) -> None:
    parts = shards(tmp_path, CASES["a quarter respelt"])
    expected = outcome(write_run(tmp_path / "whole.trec", CASES["a quarter respelt"]))
    assert "only once respelt" in expected[0]
    small_blocks(200, stream_from=0, whole=False)
    assert outcome(parts) == expected


def test_the_shards_counts_travel_back_from_a_process_pool(tmp_path, process_pool) -> None:
    parts = shards(tmp_path, CASES["a quarter respelt"])
    got = outcome(parts, executor=process_pool)
    assert got == outcome(parts)
    assert "of the 10 scored queries (of 40) with no judged doc" in got[0]
    assert "query 'q30' retrieves 'doc-30', qrels judges 'DOC-30'" in got[0]


def test_check_doc_ids_false_scores_every_path(tmp_path, small_blocks, process_pool) -> None:
    run = CASES["case"]
    whole = write_run(tmp_path / "whole.trec", run)
    parts = shards(tmp_path, run)
    for given in (whole, parts):
        assert outcome(given, check_doc_ids=False) == ("{'mrr@10': 0.0}", [], [])
    assert outcome(parts, check_doc_ids=False, executor=process_pool)[:2] == (
        "{'mrr@10': 0.0}",
        [],
    )
    small_blocks(200, stream_from=0, whole=False)
    assert outcome(whole, check_doc_ids=False) == ("{'mrr@10': 0.0}", [], [])
    with pytest.raises(ValueError, match=re.escape("differ in case ('doc-0' and 'DOC-0')")):
        evaluate_run(whole, QRELS)


def test_an_overlap_stays_small_however_many_parts_add_up() -> None:
    run = RunTable.from_dict(lower(RUN))
    part = doc_overlap(run, QRELS, list(QRELS))
    assert (part.scored, part.met, len(part.looked)) == (40, 0, LOOKED)
    total = DocOverlap()
    for _ in range(100):
        total += part
    assert (total.scored, total.met, total.looked) == (4000, 0, part.looked)


def test_batch_scores_carry_their_overlap_and_pickle() -> None:
    registry = registry_or_default(None)
    measures = resolve_measures(["mrr@10"], (10,), registry)
    batches = [RunTable.from_dict(dict(list(CASES["few meet"].items())[i::2])) for i in (0, 1)]
    parts = [score_batch(b, QRELS, measures, Scoring()) for b in batches]
    merged = pickle.loads(pickle.dumps(merge_batches(parts)))
    assert (merged.docs.scored, merged.docs.met) == (40, 12)
    assert merged.docs == parts[0].docs + parts[1].docs


def test_later_batches_look_only_at_what_the_earlier_left() -> None:
    # 28 queries without a judged doc over 8 batches: the parts look at 20 in all, and add up
    # to the overlap of every batch looked at in full.
    measures = resolve_measures(["mrr@10"], (10,), registry_or_default(None))
    items = list(CASES["few meet"].items())
    batches = [RunTable.from_dict(dict(items[i : i + 5])) for i in range(0, 40, 5)]
    parts = list(scored_parts(batches, QRELS, measures, Scoring()))
    assert sum(len(part.docs.looked) for part in parts) == LOOKED
    in_full = [score_batch(batch, QRELS, measures, Scoring()).docs for batch in batches]
    assert sum(len(docs.looked) for docs in in_full) == 28
    assert sum((p.docs for p in parts), DocOverlap()) == sum(in_full, DocOverlap())


def test_the_warning_of_a_streamed_run_names_the_share(tmp_path, small_blocks) -> None:
    path = write_run(tmp_path / "run.trec", CASES["few meet"])
    small_blocks(200, stream_from=0, whole=False)
    with pytest.warns(InputWarning) as caught:
        evaluate_run(path, QRELS, metrics=("mrr@10",))
    assert [str(w.message) for w in caught] == [
        "only 12 of the 40 scored queries (30%) have a judged doc anywhere in the run's "
        "ranking; the 28 others, e.g. ('q12', 'q13', 'q14', ...), score 0: are the run's doc "
        "ids those of the qrels?"
    ]


def _respelt_by_every_fold(docs: list[Any], judged: dict[Any, float]) -> tuple[Any, Any] | None:
    """The look for a respelt doc before its one-pass filter: every fold over every doc."""
    folds: list[Callable[[str], str]] = [str, *(fold for _, fold in FOLDS)]
    for fold in folds:
        wanted = {fold(str(j)): j for j in judged}
        for doc in docs:
            if fold(str(doc)) in wanted:
                return doc, wanted[fold(str(doc))]
    return None


@pytest.mark.parametrize(
    "spell",
    [
        str.lower,
        str.upper,
        lambda doc: f" {doc}",
        lambda doc: f"{doc}\t",
        lambda doc: f"00{doc}",
        lambda doc: doc.lstrip("0") or "0",
        lambda doc: int(doc) if doc.isdigit() else doc,
        lambda doc: f"doc-{doc}",  # a prefix: no fold takes it off
        lambda doc: f"{doc}.txt",  # nor a suffix
        lambda doc: doc,
    ],
)
def test_the_one_pass_filter_finds_what_every_fold_over_every_doc_does(spell: Any) -> None:
    ids = ["0042", "42", "Cacm-1938", "cacm-0007", "7", "MS 001", "ab", "0", "000"]
    for k, judged_id in enumerate(ids):
        judged = {judged_id: 1.0, f"other-{k}": 0.0}
        docs = [spell(doc) for doc in (*ids[:k], *ids[k + 1 :], judged_id)]
        assert _respelt(docs, judged) == _respelt_by_every_fold(docs, judged)
        assert _respelt(docs[:-1], {"x9": 1.0}) == _respelt_by_every_fold(docs[:-1], {"x9": 1.0})
