"""The store of evaluations on each backend: what a record holds comes back equal, the reads
agree with a plain-Python oracle over the records, the schema is versioned and migrated."""

from __future__ import annotations

import math
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    Record,
    RetrievalEvalReport,
    StoreError,
    StoreSchemaError,
    evaluate_run,
    open_store,
)
from ef.evaluation._store import SCHEMA_VERSION, Store, schema
from ef.evaluation._store import store as store_module

from ..profiles_hypothesis import examples

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _report(values: dict[str, float]) -> RetrievalEvalReport:
    return RetrievalEvalReport(values, {"q1": values, "q2": values}, 2, (10,))


def _record(system: str, dataset: str, value: float, minutes: int = 0, **fields) -> Record:
    return Record(
        system=system,
        dataset=dataset,
        report=_report({"ndcg@10": value, "recall@10": 1 - value}),
        recorded_at=T0 + timedelta(minutes=minutes),
        **fields,
    )


def _raw(store: Store, sql: str, *parameters: object) -> None:
    with store._transaction(write=True) as cursor:
        cursor.execute(store._sql(sql), parameters)


def test_a_real_report_comes_back_equal(store_url: str, tmp_path: Path) -> None:
    run = tmp_path / "bm25.trec"
    run.write_text("q1 Q0 d1 1 2.0 x\nq1 Q0 d2 2 1.0 x\nq2 Q0 d3 1 1.0 x\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d2 1\nq2 0 d3 2\nq3 0 d9 1\n")
    report = evaluate_run(run, qrels, k_values=(1, 10))
    record = Record(
        system="bm25",
        dataset="toy",
        report=report,
        recorded_at=datetime(2026, 3, 1, 12, tzinfo=timezone(timedelta(hours=2))),
        commit="0" * 40,
        tags=("baseline", "k1=0.9"),
    )
    with open_store(store_url) as store:
        written = store.record(record)
        (read,) = store.records()
    assert written.id is not None
    assert read == written == attrs.evolve(record, id=written.id)
    assert read.report.manifest == report.manifest  # the parameters and the digests
    assert read.report.per_query == report.per_query
    assert read.report.manifest["inputs"]["run"]["sha256"]  # the run's digest is kept


def test_nan_and_infinite_means_round_trip(store_url: str) -> None:
    report = _report({"ndcg@10": math.nan, "num_ret": math.inf})
    with open_store(store_url) as store:
        store.record(Record(system="s", dataset="d", report=report, recorded_at=T0))
        (read,) = store.records()
        (row,) = store.history("ndcg@10").rows
    assert math.isnan(read.report.metrics["ndcg@10"])
    assert read.report.metrics["num_ret"] == math.inf
    assert math.isnan(row.value)


# A small grammar of record lists: a few systems and datasets, times that may tie.
entries = st.lists(
    st.tuples(
        st.sampled_from(["bm25", "dense", "splade"]),
        st.sampled_from(["scifact", "nfcorpus"]),
        st.floats(0, 1),
        st.integers(0, 5),
    ),
    max_size=12,
)


def _check_reads(store: Store, entries: list[tuple[str, str, float, int]]) -> None:
    written = [store.record(_record(*entry)) for entry in entries]
    # The oracle: time order, ties by the order they were written.
    in_order = sorted(written, key=lambda r: (r.recorded_at, r.id))
    assert store.records() == in_order
    for dataset in ("scifact", "nfcorpus"):
        assert store.records(dataset=dataset) == [r for r in in_order if r.dataset == dataset]
        last = {r.system: r for r in in_order if r.dataset == dataset}
        board = store.leaderboard(dataset, "nDCG@10")  # another syntax, the same key
        expected = sorted(last.values(), key=lambda r: (-r.report.metrics["ndcg@10"], r.system))
        assert [(row.system, row.id) for row in board.rows] == [(r.system, r.id) for r in expected]
        for system in ("bm25", "dense"):
            assert store.last(system, dataset) == last.get(system)
            history = store.history("ndcg@10", system=system, dataset=dataset)
            assert [(row.id, row.value) for row in history.rows] == [
                (r.id, r.report.metrics["ndcg@10"])
                for r in in_order
                if (r.system, r.dataset) == (system, dataset)
            ]


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=entries)
def test_the_reads_agree_with_an_oracle_over_the_records(tmp_path: Path, entries) -> None:
    with open_store(tmp_path / f"{len(list(tmp_path.iterdir()))}.sqlite") as store:
        _check_reads(store, entries)


def test_the_reads_agree_with_the_oracle_on_each_backend(store_url: str) -> None:
    fixed = [("bm25", "scifact", 0.6, 0), ("dense", "scifact", 0.7, 1), ("bm25", "scifact", 0.8, 1),
             ("bm25", "nfcorpus", 0.3, 0), ("dense", "scifact", 0.5, 1), ("splade", "nfcorpus", 0.4, 2)]  # fmt: skip
    with open_store(store_url) as store:
        _check_reads(store, fixed)


def test_reads_as_reports_and_data_frames(store_url: str) -> None:
    with open_store(store_url) as store:
        for entry in [("bm25", "d", 0.5, 0), ("dense", "d", 0.75, 1), ("bm25", "d", 0.625, 2)]:
            store.record(_record(*entry, commit="abcdef0123456789", tags=("t",)))
        history = store.history("ndcg@10", system="bm25")
        board = store.leaderboard("d", "ndcg@10")
    frame = history.to_pandas()
    assert list(frame["value"]) == [0.5, 0.625]
    assert str(frame["recorded_at"].dt.tz) == "UTC"
    assert list(board.to_pandas()["system"]) == ["dense", "bm25"]
    assert board.to_csv().splitlines()[1:] == [
        "1,dense,0.75,2026-01-01 00:01:00+00:00,abcdef012345",
        "2,bm25,0.625,2026-01-01 00:02:00+00:00,abcdef012345",
    ]
    assert "| 2 | bm25 | 0.6250 |" in board.to_markdown()
    assert history.to_dict()["rows"][0]["tags"] == ["t"]


def test_an_unknown_metric_names_the_closest(store_url: str) -> None:
    with open_store(store_url) as store:
        store.record(_record("bm25", "d", 0.5))
        with pytest.raises(ValueError, match=r"'ndgc@10' \(did you mean 'ndcg@10'\?\)"):
            store.history("ndgc@10")
        assert store.leaderboard("other", "ndcg@10").rows == ()


def test_a_newer_store_is_refused(store_url: str) -> None:
    with open_store(store_url) as store:
        store.record(_record("bm25", "d", 0.5))
        _raw(store, "UPDATE ef_meta SET value = ? WHERE key = 'schema_version'", "99")
    with pytest.raises(StoreSchemaError, match="schema version 99, written by a newer") as caught:
        open_store(store_url)
    assert (caught.value.found, caught.value.supported) == (99, SCHEMA_VERSION)


def test_an_older_store_is_migrated(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A store of version 1: the records alone, their reports the only copy of the metrics.
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 1)
    older = [_record("bm25", "d", 0.5, 0), _record("dense", "d", 0.75, 1)]
    with open_store(store_url) as store:
        assert store.schema_version == 1
        for record in older:
            _raw(
                store,
                "INSERT INTO ef_records (system, dataset, recorded_at, commit_sha, tags, report) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                *schema.record_row(record)[:6],
            )
    monkeypatch.undo()
    with open_store(store_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        records = store.records()
        board = store.leaderboard("d", "ndcg@10")
    assert [r.report for r in records] == [r.report for r in older]
    assert [(row.system, row.value) for row in board.rows] == [("dense", 0.75), ("bm25", 0.5)]


def test_a_sqlite_store_is_in_wal_mode(tmp_path: Path) -> None:
    open_store(f"sqlite:///{tmp_path}/s.sqlite").close()
    with sqlite3.connect(tmp_path / "s.sqlite") as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_file_that_is_no_store_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "not.sqlite"
    path.write_bytes(b"not a database, " * 100)
    with pytest.raises(StoreError, match=f"{path}") as caught:
        open_store(path)
    assert caught.value.url == str(path)


def test_an_unknown_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown store URL 'mysql://u:\*\*\*@h/db'"):
        open_store("mysql://u:secret@h/db")
