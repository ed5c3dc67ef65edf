"""Writers in real processes: two at once lose nothing, and one killed with SIGKILL inside
its transaction leaves the store as it was. Each process says where it is on a pipe, and
the test acts on that line: no sleep, no timing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ef.evaluation import open_store
from ef.evaluation._store import SCHEMA_VERSION

from ._writer import record

WRITER = Path(__file__).with_name("_writer.py")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def _start(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WRITER), url, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def _expect(process: subprocess.Popen[str], line: str) -> None:
    assert process.stdout is not None
    said = process.stdout.readline().strip()
    assert said == line, f"the writer said {said!r}, not {line!r} (exit {process.poll()})"


def _kill(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL
    for stream in (process.stdin, process.stdout):
        assert stream is not None
        stream.close()


@pytest.mark.parametrize(("names", "count"), [("ab", 40), ("abcdefgh", 5)])
def test_writers_at_once_lose_nothing(store_url: str, names: str, count: int) -> None:
    # All open the new store (building its schema, switching SQLite to WAL) and write on the
    # same signal. Eight at once met SQLite's "database is locked" on the switch to WAL,
    # which waits for no busy timeout.
    writers = [_start(store_url, "write", name, str(count)) for name in names]
    for writer in writers:
        _expect(writer, "ready")
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer in writers:
        _expect(writer, "done")
        writer.communicate()
        assert writer.returncode == 0
    with open_store(store_url) as store:
        records = store.records()
        assert store.schema_version == SCHEMA_VERSION
        history = store.history("ndcg@10", dataset="d")
    assert len({r.id for r in records}) == len(records) == len(names) * count
    kept = Counter((r.system, r.tags) for r in records)
    assert kept == Counter((name, (str(i),)) for name in names for i in range(count))
    # Each writer's own records keep its order, and every metric row was written.
    for name in names:
        mine = [r for r in records if r.system == name]
        assert [r.tags for r in mine] == [(str(i),) for i in range(count)]
        assert [row.value for row in history.rows if row.system == name] == [
            i / count for i in range(count)
        ]


def test_processes_opening_one_new_sqlite_file_at_once_all_open_it(tmp_path: Path) -> None:
    # Eight processes open a new file at once, round after round: the switch to WAL mode
    # answers "database is locked" at once to all but one (it waits for no busy timeout).
    names, rounds = "abcdefgh", 40
    writers = [_start(str(tmp_path), "rounds", name, str(rounds)) for name in names]
    for _ in range(rounds):
        for writer in writers:
            _expect(writer, "ready")
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        for writer in writers:
            _expect(writer, "done")
    for writer in writers:
        writer.communicate()
        assert writer.returncode == 0
    for round_ in range(rounds):
        with open_store(tmp_path / f"{round_}.sqlite") as store:
            assert sorted(r.system for r in store.records()) == list(names)


def _integrity(store_url: str) -> None:
    if "://" not in store_url:  # SQLite: the file itself is sound
        with sqlite3.connect(store_url) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_a_writer_killed_inside_its_transaction_leaves_the_store_as_it_was(
    store_url: str,
) -> None:
    with open_store(store_url) as store:
        before = store.record(record("kept", 0.25))
    writer = _start(store_url, "hang-record")
    _expect(writer, "inside")  # its record row is written, uncommitted
    _kill(writer)
    _integrity(store_url)
    with open_store(store_url) as store:
        assert store.records() == [before]
        assert [row.system for row in store.history("ndcg@10").rows] == ["kept"]
        after = store.record(record("next", 0.75))  # the write lock was released
        assert store.records() == [before, after]
        assert store.leaderboard("d", "ndcg@10").systems == ("next", "kept")


def test_a_migration_killed_half_way_is_rolled_back_and_run_again(store_url: str) -> None:
    writer = _start(store_url, "hang-migrate")
    _expect(writer, "inside")  # version 1's tables made, uncommitted
    _kill(writer)
    _integrity(store_url)
    with open_store(store_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        written = store.record(record("a", 0.5))
        assert store.records() == [written]
