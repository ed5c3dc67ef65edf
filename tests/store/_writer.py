"""A process that writes to a store, for the tests of concurrent and killed writers.

``_writer.py URL write NAME COUNT``: print ``ready``, wait for a line on stdin, then open
the store and record COUNT records of the system NAME (tagged 0, 1, ...), and print ``done``.

``_writer.py FOLDER rounds NAME ROUNDS``: for each round r, print ``ready``, wait for a line,
open the new store ``FOLDER/r.sqlite``, record one record of NAME, and print ``done``.

``_writer.py URL hang-record`` and ``_writer.py URL hang-migrate``: open the store (for
``hang-migrate``, a new one) and stop inside the transaction (of a record, after its row is
written and before its metrics are; of the migration, after its first step), print
``inside``, and wait there until killed.
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from typing import Any

from ef.evaluation import Record, RetrievalEvalReport, open_store
from ef.evaluation._store import schema, store


def report(value: float) -> RetrievalEvalReport:
    return RetrievalEvalReport({"ndcg@10": value}, {"q1": {"ndcg@10": value}}, 1, (10,))


def record(system: str, value: float, tag: str = "") -> Record:
    return Record(
        system=system,
        dataset="d",
        report=report(value),
        recorded_at=datetime.now(timezone.utc),
        tags=(tag,) if tag else (),
    )


def _stop_here(*_args: Any) -> Any:
    print("inside", flush=True)
    sys.stdin.read()  # never returns: the test kills this process
    raise AssertionError("not killed")


def main(url: str, mode: str, *args: str) -> None:
    if mode == "write":
        name, count = args[0], int(args[1])
        print("ready", flush=True)
        sys.stdin.readline()
        with open_store(url) as opened:
            for i in range(count):
                opened.record(record(name, i / count, str(i)))
        print("done", flush=True)
    elif mode == "rounds":
        for round_ in range(int(args[1])):
            print("ready", flush=True)
            sys.stdin.readline()
            with open_store(f"{url}/{round_}.sqlite") as opened:
                opened.record(record(args[0], 0.5))
            print("done", flush=True)
    elif mode == "hang-record":
        with open_store(url) as opened:
            store.metric_rows = _stop_here  # type: ignore[attr-defined,assignment]
            opened.record(record("killed", 0.5))
    elif mode == "hang-migrate":
        first = schema.STEPS[0]

        def step(*step_args: Any) -> None:
            first(*step_args)
            _stop_here()

        schema.STEPS[0] = step
        open_store(url)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(*sys.argv[1:])
