"""Where the time of one ``ef-eval evaluate`` goes, stage by stage, in a fresh process.

    python benchmarks/breakdown.py RUN QRELS            # the table, medians of 3 processes
    python benchmarks/run.py M --breakdown              # the same, after the tools' table

Each process imports what the command needs (timed as "imports"), then runs the command's
``main()`` in-process with a timer around each stage's function (a stage is a function of
ef-evaluation, named in STAGES: if one is renamed, its row says so). A stage's time includes
its sub-stages; "(rest)" is the part of a stage its sub-stages do not cover. The byte checks
and sha256 run in a thread beside the parse, so their row overlaps the parse's and is not
subtracted from anything. Interpreter start is ``python -c pass``; ``-X importtime`` splits
the imports by package. A script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

MEASURES = "ndcg@10,recall@100,mrr@10,map@1000,precision@10"

#: (label, where its functions are, parent label): the stages of ``ef-eval evaluate``, whole
#: file or in batches. A stage's functions are ``module:attribute`` in ef.evaluation, one per
#: name it is called by (a module that imported it by name calls its own copy).
STAGES: list[tuple[str, str, str | None]] = [
    ("evaluate_run", "evaluate.run:evaluate_run", None),
    ("detect the formats", "formats.files:format_for evaluate.streamed:format_for", "evaluate_run"),
    ("read the qrels", "evaluate.inputs:read_qrels", "evaluate_run"),
    ("parse (polars)", "formats.trec_fast:_parse formats.trec_stream:_parse", "evaluate_run"),
    ("ids, checks", "formats.trec_fast:_columns formats.trec_stream:_columns", "evaluate_run"),
    ("doc twice?", "formats.trec_fast:_repeats_a_doc", "ids, checks"),
    ("RunTable", "runs.table:RunTable.from_columns", "evaluate_run"),
    ("score", "evaluate.run:score_rankings engine.batches:score_rankings", "evaluate_run"),
    ("judged docs' ranks", "runs.table:RunTable.judged_hits", "score"),
    ("metrics", "engine.scoring:score_all", "score"),
    ("tie statistics", "runs.table:RunTable.tie_stats", "score"),
    ("manifest (input hashes)", "engine.manifest:file_entry", "evaluate_run"),
    ("report", "evaluate.run:retrieval_report", "evaluate_run"),
    ("write the JSON", "cli._evaluate:emit_report", None),
]  # fmt: skip
#: Beside the stages: work in another thread, overlapping them.
BESIDE = [("byte checks + sha256 (thread)", "formats.trec_fast:_Beside.run")]

#: What ``ef-eval evaluate`` imports before it reads a line.
IMPORTS = [
    "ef.evaluation.cli",
    "ef.evaluation.cli._evaluate",
    "ef.evaluation.evaluate.run",
    "numpy",
    "polars",
    "ef.evaluation.runs.table",
    "ef.evaluation.engine.scoring",
    "ef.evaluation.formats.trec_fast",
    "ef.evaluation.formats.trec_stream",
    "ef.evaluation.engine.batches",
]


def _timed(times: dict[str, float], label: str, func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            times[label] += time.perf_counter() - start

    return wrapper


def _install(
    stages: list[tuple[str, str, Any]], times: dict[str, float], undo: list[Callable[[], None]]
) -> list[str]:
    """Wrap each stage's functions with a timer (``undo`` gets what puts each back); the
    ``module:attribute`` of those not found."""
    missing = []
    for label, targets, *_ in stages:
        for target in targets.split():
            module_name, attribute = target.split(":")
            owner: Any = importlib.import_module(f"ef.evaluation.{module_name}")
            *path, name = attribute.split(".")
            for part in path:
                owner = getattr(owner, part, None)
            # A class attribute as stored (a classmethod stays one); a module's as it is.
            found = (
                None
                if owner is None
                else vars(owner).get(name)
                if path
                else getattr(owner, name, None)
            )
            if found is None:
                missing.append(target)
                continue
            if isinstance(found, classmethod):
                setattr(owner, name, classmethod(_timed(times, label, found.__func__)))
            else:
                setattr(owner, name, _timed(times, label, found))
            undo.append(functools.partial(setattr, owner, name, found))
    return missing


def child(run: str, qrels: str) -> dict[str, Any]:
    """One process's stage times (seconds), from its first import to the report written."""
    start = time.perf_counter()
    for module in IMPORTS:
        importlib.import_module(module)
    from ef.evaluation.plugin_engine.registry import registry_or_default

    registry_or_default(None)  # the plugins load on the first evaluation: count it here
    times: dict[str, float] = defaultdict(float)
    times["imports and plugins"] = time.perf_counter() - start
    undo: list[Callable[[], None]] = []
    missing = _install(STAGES + BESIDE, times, undo)  # type: ignore[arg-type]
    from ef.evaluation.cli import cli

    args = ["evaluate", qrels, run, "-m", MEASURES, "--averaging", "intersection", "-o", "json"]
    command = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cli.main(args, prog_name="ef-eval", standalone_mode=False)
    finally:
        for put_back in undo:
            put_back()
    times["the command"] = time.perf_counter() - command
    times["in-process total"] = time.perf_counter() - start
    return {"times": dict(times), "missing": missing}


def _children() -> dict[str | None, list[str]]:
    tree: dict[str | None, list[str]] = defaultdict(list)
    for label, _, parent in STAGES:
        tree[parent].append(label)
    return tree


def rows(samples: list[dict[str, float]], start_up: float) -> list[tuple[str, float]]:
    """(indented label, median seconds) in stage order, with each parent's "(rest)"."""
    tree = _children()
    for sample in samples:  # each process's "(rest)", so that the medians are of those
        for parent, children in tree.items():
            total = sample["the command"] if parent is None else sample.get(parent, 0.0)
            sample[f"(rest of {parent})"] = total - sum(sample.get(c, 0.0) for c in children)
    median = {k: statistics.median(s.get(k, 0.0) for s in samples) for k in samples[0]}
    out = [("interpreter start (python -c pass)", start_up)]
    out.append(("imports and plugins", median["imports and plugins"]))
    out.append(("the command", median["the command"]))

    def walk(parent: str | None, depth: int) -> None:
        for label in tree[parent]:
            out.append(("  " * depth + label, median.get(label, float("nan"))))
            if tree.get(label):
                walk(label, depth + 1)
        out.append(("  " * depth + "(rest)", median[f"(rest of {parent})"]))

    walk(None, 1)
    for label, *_ in BESIDE:
        out.append((label, median.get(label, float("nan"))))
    out.append(("in-process total", median["in-process total"]))
    return out


_NAMED = {"numpy", "polars", "click", "rich", "ef.evaluation"}
_OTHER = "other (stdlib, attrs, pluggy, ...)"


def import_summary(python: str, repeat: int = 3) -> list[tuple[str, float]]:
    """Seconds of ``-X importtime`` self time per top-level package, the largest first."""
    code = "; ".join(f"import {m}" for m in IMPORTS)
    runs: list[dict[str, float]] = []
    for _ in range(repeat):
        done = subprocess.run(
            [python, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True
        )
        per: dict[str, float] = defaultdict(float)
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "|" not in line:
                continue
            self_us, _, name = (part.strip() for part in line[12:].split("|"))
            if not self_us.isdigit():
                continue  # the header line
            top = "ef.evaluation" if name.startswith("ef") else name.split(".")[0]
            per[top if top in _NAMED else _OTHER] += int(self_us) / 1e6
        runs.append(per)
    groups = {g for r in runs for g in r}
    summary = [(g, statistics.median(r.get(g, 0.0) for r in runs)) for g in groups]
    return sorted(summary, key=lambda item: -item[1])


def start_up(python: str, repeat: int = 5) -> float:
    walls = []
    for _ in range(repeat):
        begin = time.perf_counter()
        subprocess.run([python, "-c", "pass"], check=True)
        walls.append(time.perf_counter() - begin)
    return statistics.median(walls)


def breakdown(run: Path, qrels: Path, repeat: int = 3, python: str = sys.executable) -> None:
    """Print the stage table (medians of ``repeat`` fresh processes) and the imports."""
    samples = []
    missing: set[str] = set()
    for _ in range(repeat):
        done = subprocess.run(
            [python, __file__, "--child", str(run), str(qrels)],
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(done.stdout.strip().splitlines()[-1])
        samples.append(result["times"])
        missing |= set(result["missing"])
    print(f"\nWhere ef-eval evaluate's time goes (medians of {repeat} fresh processes):\n")
    print("| stage | s |\n|---|---:|")
    for label, seconds in rows(samples, start_up(python)):
        shown = label.replace("  ", "· ")
        print(f"| {shown} | {seconds:.3f} |")
    from ef.evaluation.evaluate.streamed import STREAM_FROM

    print(
        f"\nIn batches (a run of {STREAM_FROM >> 20} MB or more), the next batch is parsed and"
        " checked on a worker\nwhile the last is scored: those rows overlap, so a (rest) can"
        " come out below 0."
    )
    if missing:
        print(f"\n(not found, so not timed: {', '.join(sorted(missing))})")
    print("\nImports by package (-X importtime self time, medians):\n")
    print("| package | s |\n|---|---:|")
    for group, seconds in import_summary(python):
        print(f"| {group} | {seconds:.3f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("qrels", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(str(args.run), str(args.qrels))))
    else:
        breakdown(args.run, args.qrels, args.repeat)


if __name__ == "__main__":
    main()
