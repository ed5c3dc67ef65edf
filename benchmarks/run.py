"""Time ef-evaluation against pytrec-eval-terrier, ranx, ir-measures and the C trec_eval.

    python benchmarks/run.py M            # 7,000 queries x 1,000 docs (generated if absent)
    python benchmarks/run.py L --repeat 1 # 50,000 queries x 1,000 docs
    python benchmarks/run.py M --tools "" --breakdown  # where ef-eval evaluate's time goes

Every measurement runs in its own fresh process, so peak RSS is that tool's alone. Each tool
reads the same TREC run and qrels and computes ndcg@10, recall@100, mrr@10, map (full depth)
and P@10. The script prints medians, ratios to pytrec_eval, and peak RSS, then checks that
the tools that share trec_eval's tie rule agree with ef's numbers (to 1e-9) and prints any
that differ, each against ef's values under its own averaging. ef's values are the "ef (API)"
row's; without it (at XL it is not run) the "ef (CLI)" row's report, and, for the rows that
average over every judged query, one more CLI call with ``--averaging qrels`` after the
rounds, untimed. Timings are never asserted anywhere: this is a script, not a test.

The "trec_eval (C)" row is the C trec_eval 10.0 (built from ../shared/oracles with its
build.sh) computing the same measures with ``-c`` (every judged query averaged in), its
"all" lines parsed; where it cannot be built the row says why. It holds the run in C
structures, not Python objects, so it runs at XL too (``--no-c-at-xl`` leaves it out
there). It prints 4 decimals, so it can agree with ef to 5e-5 only.

Then it times ``ef-trec-eval -q -c -m all_trec`` against the C trec_eval (9.0.8 and 10.0),
end to end on the same files, prints the ratio and checks that the two outputs are the
same bytes (``--no-trec-eval`` skips this). Both read the whole run into memory, so at XL
it is skipped unless ``--trec-eval-at-xl`` is given.

Needs: ef-evaluation (polars is a dependency), and ``benchmarks/requirements.txt``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import IO

HERE = Path(__file__).parent

# Each snippet prints one JSON object: load and score seconds, the mean of each measure.
TOOLS: dict[str, str] = {
    "ef (API)": """
        import time
        t0 = time.perf_counter()
        from ef.evaluation import RunTable, evaluate_run, read_qrels
        run, qrels = RunTable.read(RUN), read_qrels(QRELS)
        t1 = time.perf_counter()
        metrics = ("ndcg@10", "recall@100", "mrr@10", "map@1000", "precision@10")
        report = evaluate_run(run, qrels, metrics=metrics, averaging="intersection")
        t2 = time.perf_counter()
        # ranx averages over every judged query (missing ones score 0): ef's default.
        over_qrels = evaluate_run(run, qrels, metrics=metrics).metrics
        del run, qrels  # the warm call below holds its own table, not a second one
        t3 = time.perf_counter()
        # A second, warm call in the same process: a fresh one should cost no more than 1.5x.
        run2, qrels2 = RunTable.read(RUN), read_qrels(QRELS)
        evaluate_run(run2, qrels2, metrics=metrics, averaging="intersection")
        t4 = time.perf_counter()
        def named(m):
            return {"ndcg@10": m["ndcg@10"], "recall@100": m["recall@100"],
                    "mrr@10": m["mrr@10"], "map": m["map@1000"], "P@10": m["precision@10"]}
        emit(t1 - t0, t2 - t1, named(report.metrics), warm=t4 - t3,
             values_over_qrels=named(over_qrels))
    """,
    "pytrec_eval": """
        import time
        t0 = time.perf_counter()
        import pytrec_eval
        with open(QRELS) as f:
            qrels = pytrec_eval.parse_qrel(f)
        with open(RUN) as f:
            run = pytrec_eval.parse_run(f)
        t1 = time.perf_counter()
        measures = {"ndcg_cut.10", "recall.100", "recip_rank", "map", "P.10"}
        per_query = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
        t2 = time.perf_counter()
        def mean(name):
            return sum(v[name] for v in per_query.values()) / len(per_query)
        # trec_eval has no cut-off for recip_rank: "mrr@10" is not comparable, so not compared.
        emit(t1 - t0, t2 - t1, {"ndcg@10": mean("ndcg_cut_10"), "recall@100": mean("recall_100"),
             "map": mean("map"), "P@10": mean("P_10")})
    """,
    "ir_measures": """
        import time
        t0 = time.perf_counter()
        import ir_measures
        from ir_measures import AP, P, R, RR, nDCG
        qrels = list(ir_measures.read_trec_qrels(QRELS))
        run = list(ir_measures.read_trec_run(RUN))
        t1 = time.perf_counter()
        values = ir_measures.calc_aggregate([nDCG@10, R@100, RR@10, AP, P@10], qrels, run)
        t2 = time.perf_counter()
        # ir_measures averages over every judged query, a missing one scoring 0: ef's default.
        emit(t1 - t0, t2 - t1, {"ndcg@10": values[nDCG@10], "recall@100": values[R@100],
             "mrr@10": values[RR@10], "map": values[AP], "P@10": values[P@10]},
             averaging="qrels")
    """,
    "ranx": """
        import time
        t0 = time.perf_counter()
        from ranx import Qrels, Run, evaluate
        qrels, run = Qrels.from_file(QRELS, kind="trec"), Run.from_file(RUN, kind="trec")
        t1 = time.perf_counter()
        metrics = ["ndcg@10", "recall@100", "mrr@10", "map", "precision@10"]
        # make_comparable: the judged queries missing from the run score 0, the others go.
        values = evaluate(qrels, run, metrics, make_comparable=True)
        t2 = time.perf_counter()
        qrels, run = Qrels.from_file(QRELS, kind="trec"), Run.from_file(RUN, kind="trec")
        t3 = time.perf_counter()
        evaluate(qrels, run, metrics, make_comparable=True)
        t4 = time.perf_counter()
        emit(t1 - t0, t2 - t1, {"ndcg@10": values["ndcg@10"], "recall@100": values["recall@100"],
             "mrr@10": values["mrr@10"], "map": values["map"], "P@10": values["precision@10"]},
             warm_load=t3 - t2, warm_score=t4 - t3, averaging="qrels")
    """,
}

PRELUDE = """
import json, sys
RUN, QRELS = sys.argv[1], sys.argv[2]
def emit(load, score, values, **extra):
    print(json.dumps({"load": load, "score": score, "values": values, **extra}))
"""


def measure(code: str, run: Path, qrels: Path, env: dict[str, str]) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; its JSON line, plus its wall time and peak RSS."""
    script = PRELUDE + textwrap.dedent(code)
    return _timed([sys.executable, "-c", script, str(run), str(qrels)], env)


#: The "ef (CLI)" row's measures: as its report names them, and as the rows' values name them.
CLI_NAMES = {"ndcg@10": "ndcg@10", "recall@100": "recall@100", "mrr@10": "mrr@10",
             "map@1000": "map", "precision@10": "P@10"}  # fmt: skip


def cli_command(run: Path, qrels: Path, averaging: str) -> list[str]:
    """``ef-eval evaluate`` of the five measures, its JSON report on stdout."""
    return [sys.executable, "-m", "ef.evaluation", "evaluate", str(qrels), str(run),
            "-m", ",".join(CLI_NAMES), "--averaging", averaging, "-o", "json"]  # fmt: skip


def cli_values(metrics: dict[str, float]) -> dict[str, float]:
    """The means of the CLI's report, named as the other rows' values.

    >>> cli_values({"ndcg@10": 0.4, "recall@100": 0.8, "mrr@10": 0.3, "map@1000": 0.3,
    ...             "precision@10": 0.07})
    {'ndcg@10': 0.4, 'recall@100': 0.8, 'mrr@10': 0.3, 'map': 0.3, 'P@10': 0.07}
    """
    return {ours: metrics[theirs] for theirs, ours in CLI_NAMES.items()}


def _spawn(
    command: list[str],
    stdout: IO[bytes],
    stderr: IO[bytes] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int, float, float]:
    """Run ``command`` to its end, its output to the files given: its exit code, its wall
    seconds and its peak RSS in MB (its own: one fresh process)."""
    import time

    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait again
    return child.returncode, wall, usage.ru_maxrss / 1024  # kilobytes on Linux


def _timed(command: list[str], env: dict[str, str], report: bool = False) -> dict[str, object]:
    """Run ``command``: its JSON line (or, with ``report``, its report's ``metrics``: the
    CLI prints a whole JSON report), plus its wall time and peak RSS."""
    with tempfile.TemporaryFile() as sink:
        code, wall, rss_mb = _spawn(command, sink, env=env)
        sink.seek(0)
        out = sink.read().decode()
    if code != 0:
        raise SystemExit(f"{command[:3]} failed with status {code}")
    try:
        if report:  # kept for the agreement check: the CLI's means are ef's too
            result: dict[str, object] = {"metrics": json.loads(out)["metrics"]}
        else:  # a tool snippet prints one JSON line, its last
            result = json.loads(out.strip().splitlines()[-1])
    except (IndexError, KeyError, TypeError, json.JSONDecodeError):
        printed = "report" if report else "JSON line"
        raise SystemExit(f"{command[:3]} printed no {printed}") from None
    result["wall"] = wall
    result["rss_mb"] = rss_mb
    return result


#: What holds the whole run in memory: at XL (200 million lines) the peers need far more than
#: 24 GB (pytrec_eval took 1.2 GB for M's 7 million lines), so they are not run there, nor
#: the "ef (API)" snippet, which reads a RunTable; the CLI reads the file in batches.
IN_MEMORY = {
    "pytrec_eval": "the whole run as Python objects",
    "ir_measures": "the whole run as Python objects",
    "ranx": "the whole run as Python objects",
    "ef (API)": "a RunTable of the whole run (the CLI row reads it in batches)",
}


#: The C trec_eval's row of the main table, measured in the rounds with the others.
C_TOOL = "trec_eval (C)"
#: With -c. Without it trec_eval averages over the judged queries of the run, one with no
#: relevant doc included (ef's ``averaging="run"``, docs/semantics.md), but 10.0 then stops at
#: a judged query the run lacks ("result qid ... not found in qrels"), and the generated run
#: lacks 1% of them. With -c, every judged query is averaged in, a missing one scoring 0:
#: ef's "qrels", as every generated judged query has a relevant doc (ranx, ir_measures too).
C_FLAGS = ["-c"] + [
    arg for m in ("ndcg_cut.10", "recall.100", "recip_rank", "map", "P.10") for arg in ("-m", m)
]
#: trec_eval's printed names, as the rows' values name them. recip_rank has no cut-off, so,
#: as pytrec_eval's, it is not comparable with mrr@10 and not compared.
C_NAMES = {"ndcg_cut_10": "ndcg@10", "recall_100": "recall@100", "map": "map", "P_10": "P@10"}
#: trec_eval prints a mean as ``%6.4f``: it can agree with ef to half its last digit only
#: (and a float's fuzz), not to the 1e-9 of the other rows.
C_TOLERANCE = 0.5e-4 + 1e-12


def c_values(text: str) -> dict[str, float]:
    r"""The means on trec_eval's "all" lines (``measure \t all \t value``), named as the
    other rows' values; a measure missing from ``text`` is an error, not a gap.

    >>> c_values("map                   \tall\t0.2500\nrecip_rank            \tall\t0.5000\n"
    ...          "P_10                  \tall\t0.1000\nndcg_cut_10           \tall\t0.3010\n"
    ...          "recall_100            \tall\t0.8500\n")
    {'ndcg@10': 0.301, 'recall@100': 0.85, 'map': 0.25, 'P@10': 0.1}
    """
    printed: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "all":
            printed[fields[0]] = fields[2]
    missing = [name for name in C_NAMES if name not in printed]
    if missing:
        raise SystemExit(f"trec_eval printed no 'all' line for {', '.join(missing)}")
    return {ours: float(printed[theirs]) for theirs, ours in C_NAMES.items()}


def measure_c(binary: str, run: Path, qrels: Path) -> dict[str, object]:
    """The C trec_eval in a fresh process: wall seconds, peak RSS and its means."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "trec_eval.out")
        result = _timed_to([binary, *C_FLAGS, str(qrels), str(run)], out, check=False)
        if "failed" in result:  # a row that says why (trec_eval fails at XL), not a crash
            return result
        result["values"] = c_values(out.read_text())
    result["tolerance"] = C_TOLERANCE
    result["averaging"] = "qrels"  # -c
    return result


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scale", choices=["S", "M", "L", "XL"])
    parser.add_argument("--data", type=Path, default=HERE / "data")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per tool")
    # pytrec_eval and the CLI side by side in each round: the ratio of the targets.
    order = ["pytrec_eval", "ef (CLI)", C_TOOL, "ef (API)", "ir_measures", "ranx"]
    parser.add_argument("--tools", default=",".join(order), help='"" for none')
    parser.add_argument(
        "--breakdown", action="store_true", help="then where ef-eval evaluate's time goes"
    )
    parser.add_argument("--peers-at-xl", action="store_true", help="run them anyway at XL")
    parser.add_argument("--no-c-at-xl", action="store_true", help=f'no "{C_TOOL}" row at XL')
    parser.add_argument(
        "--no-trec-eval", action="store_true", help="skip ef-trec-eval against the C trec_eval"
    )
    parser.add_argument(
        "--trec-eval-at-xl", action="store_true", help="run ef-trec-eval against it at XL too"
    )
    return parser.parse_args()


def main() -> None:
    args = arguments()
    run, qrels = args.data / f"run.{args.scale}.trec", args.data / f"qrels.{args.scale}.txt"
    if not run.exists() or not qrels.exists():
        sys.path.insert(0, str(HERE))
        from generate import generate

        generate(args.scale, args.data)
    print(f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores")
    print(f"run {run} ({run.stat().st_size / 1e6:.0f} MB), qrels {qrels}\n")
    compiled()

    results = rounds(args, run, qrels)
    if results:
        cli_over_qrels(results, run, qrels, dict(os.environ))
        report(results)
    if args.breakdown:
        sys.path.insert(0, str(HERE))
        from breakdown import breakdown

        breakdown(run, qrels, args.repeat)
    if args.no_trec_eval:
        return
    if args.scale == "XL" and not args.trec_eval_at_xl:
        print("\nef-trec-eval against trec_eval: skipped at XL, both read the whole run into "
              "memory (--trec-eval-at-xl runs it)")  # fmt: skip
        return
    trec_eval_commands(run, qrels, args.repeat)


def rounds(args: argparse.Namespace, run: Path, qrels: Path) -> dict[str, list[dict[str, object]]]:
    """Every tool of ``args.tools`` measured ``args.repeat`` times, round by round."""
    tools = list(filter(None, args.tools.split(",")))
    results: dict[str, list[dict[str, object]]] = {tool: [] for tool in tools}
    # Built (or found built) before the rounds, so no build is timed; a reason if it cannot be.
    c_skipped = "--no-c-at-xl" if args.scale == "XL" and args.no_c_at_xl else None
    if C_TOOL in tools and c_skipped is None:
        binaries = oracle_binaries()
        c_skipped = binaries if isinstance(binaries, str) else None
    env = dict(os.environ)
    for round_ in range(args.repeat):
        # Round by round, every tool once: a slow spell of the machine hits all of them.
        for tool in tools:
            if tool == "ranx" and round_ > 0:
                continue  # measured once: its first call, JIT compilation included
            if args.scale == "XL" and tool in IN_MEMORY and not args.peers_at_xl:
                results[tool] = [{"out_of_memory": IN_MEMORY[tool]}]
            elif tool == C_TOOL and c_skipped is not None:
                results[tool] = [{"skipped": c_skipped}]
            else:
                results[tool].append(measure_tool(tool, run, qrels, env))
        print(f"round {round_ + 1} of {args.repeat} measured", flush=True)
    return results


def measure_tool(tool: str, run: Path, qrels: Path, env: dict[str, str]) -> dict[str, object]:
    """One fresh process of ``tool``: the CLI, the C trec_eval or a snippet of TOOLS."""
    if tool == "ef (CLI)":
        result = _timed(cli_command(run, qrels, "intersection"), env, report=True)
        result["values"] = cli_values(result.pop("metrics"))  # type: ignore[arg-type]
        return result
    if tool == C_TOOL:
        binaries = oracle_binaries()
        assert not isinstance(binaries, str)  # rounds() skips the row otherwise
        return measure_c(binaries["10.0"], run, qrels)
    with tempfile.TemporaryDirectory() as numba_cache:
        env["NUMBA_CACHE_DIR"] = numba_cache  # ranx's first call: a fresh environment
        return measure(TOOLS[tool], run, qrels, env)


#: Where build.sh builds the C trec_eval from the source archives: ../shared/oracles beside
#: the checkout, or under ``EF_EVALUATION_SHARED`` (as the tests' shared folder).
SHARED = Path(os.environ.get("EF_EVALUATION_SHARED", HERE.parents[1] / "shared"))
ORACLES = SHARED / "oracles" / "build.sh"


@functools.cache
def oracle_binaries() -> dict[str, str] | str:
    """The C trec_eval binaries build.sh built, by version; or why there are none."""
    if not ORACLES.exists():
        return f"{ORACLES} is absent"
    built = subprocess.run(["bash", str(ORACLES)], capture_output=True, text=True, check=False)
    if built.returncode != 0:
        return built.stderr.strip() or f"{ORACLES} failed with status {built.returncode}"
    return dict(zip(("10.0", "9.0.8"), built.stdout.split(), strict=True))


def _timed_to(command: list[str], out: Path, *, check: bool = True) -> dict[str, object]:
    """Run ``command`` with stdout to ``out``: wall seconds and peak RSS (MB). A failure
    stops the script, or (``check`` False) is the result's ``failed``: its exit status and
    the last lines of its stderr."""
    with open(out, "wb") as sink, tempfile.TemporaryFile() as errors:
        code, wall, rss_mb = _spawn(command, sink, errors)
        errors.seek(0)
        said = errors.read().decode(errors="replace").strip().splitlines()
    result: dict[str, object] = {"wall": wall, "rss_mb": rss_mb}
    if code != 0:
        why = f"exit status {code}: {' / '.join(said[-2:])}"
        if check:
            raise SystemExit(f"{command[:4]} failed, {why}")
        result["failed"] = why
    return result


def trec_eval_commands(run: Path, qrels: Path, repeat: int) -> None:
    """``ef-trec-eval -q -c -m all_trec`` against the C trec_eval, end to end, and whether
    their outputs are the same bytes."""
    binaries = oracle_binaries()
    if isinstance(binaries, str):
        print(f"\nef-trec-eval against trec_eval: skipped, {binaries}")
        return
    flags = ["-q", "-c", "-m", "all_trec", str(qrels), str(run)]
    print("\n| command (-q -c -m all_trec) | process s | x trec_eval | peak RSS MB | same bytes |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for version in ("9.0.8", "10.0"):
            theirs, mine = Path(tmp, f"c-{version}"), Path(tmp, f"ef-{version}")
            ef = [sys.executable, "-m", "ef.evaluation", "trec_eval", "--compat", version, *flags]
            c_runs = [_timed_to([binaries[version], *flags], theirs) for _ in range(repeat)]
            ef_runs = [_timed_to(ef, mine) for _ in range(repeat)]
            same = "yes" if theirs.read_bytes() == mine.read_bytes() else "NO"
            c_wall = _median(c_runs, "wall")
            ef_wall = _median(ef_runs, "wall")
            print(f"| trec_eval {version} (C) | {c_wall:.2f} | 1.000 | "
                  f"{_median(c_runs, 'rss_mb'):.0f} | |")  # fmt: skip
            print(f"| ef-trec-eval --compat {version} | {ef_wall:.2f} | {ef_wall / c_wall:.3f} | "
                  f"{_median(ef_runs, 'rss_mb'):.0f} | {same} |")  # fmt: skip


def compiled() -> None:
    """Compile ef-evaluation's bytecode first, as ``pip install`` does: with
    ``PYTHONDONTWRITEBYTECODE`` set, every process would compile it again."""
    import compileall

    import ef.evaluation

    compileall.compile_dir(Path(ef.evaluation.__file__).parent, quiet=1)


def _median(runs: list[dict[str, object]], key: str) -> float:
    return statistics.median(float(r[key]) for r in runs)  # type: ignore[arg-type]


def report(results: dict[str, list[dict[str, object]]]) -> None:
    base = results.get("pytrec_eval")
    if base and base[0].get("out_of_memory"):
        base = None
    base_total = _median(base, "load") + _median(base, "score") if base else None
    base_score = _median(base, "score") if base else None
    base_rss = _median(base, "rss_mb") if base else None
    base_wall = _median(base, "wall") if base else None
    print(
        "\n| tool | load s | score s | load+score s | x pytrec_eval | score x | process s "
        "| process x | peak RSS MB | RSS x |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for tool, runs in results.items():
        if runs and runs[0].get("out_of_memory"):
            print(f"| {tool} | out of memory, not run: it holds {runs[0]['out_of_memory']} |")
            continue
        if runs and runs[0].get("skipped"):
            print(f"| {tool} | skipped: {runs[0]['skipped']} |")
            continue
        if runs and runs[0].get("failed"):
            print(
                f"| {tool} | failed after {runs[0]['wall']:.1f} s (peak RSS "
                f"{runs[0]['rss_mb']:.0f} MB), {runs[0]['failed']} |"
            )
            continue
        wall, rss = _median(runs, "wall"), _median(runs, "rss_mb")
        if "load" in runs[0]:
            load, score = _median(runs, "load"), _median(runs, "score")
            total = load + score
            cells = [f"{load:.2f}", f"{score:.3f}", f"{total:.2f}"]
            cells.append(f"{total / base_total:.3f}" if base_total else "-")
            cells.append(f"{score / base_score:.3f}" if base_score else "-")
        else:
            cells = ["-", "-", "-", "-", "-"]
        cells += [f"{wall:.2f}", f"{wall / base_wall:.3f}" if base_wall else "-"]
        cells += [f"{rss:.0f}", f"{rss / base_rss:.2f}" if base_rss else "-"]
        print(f"| {tool} | " + " | ".join(cells) + " |")
    for tool, runs in results.items():
        if "warm" in runs[0]:
            first = _median(runs, "load") + _median(runs, "score")
            print(f"\n{tool}: first call {first:.2f} s, warm call {_median(runs, 'warm'):.2f} s "
                  f"(fresh/warm = {first / _median(runs, 'warm'):.2f})")  # fmt: skip
        if "warm_score" in runs[0]:
            warm = _median(runs, "warm_load") + _median(runs, "warm_score")
            print(f"{tool}: warm call load {_median(runs, 'warm_load'):.2f} s, "
                  f"score {_median(runs, 'warm_score'):.2f} s, total {warm:.2f} s")  # fmt: skip
    agreement(results)


def cli_over_qrels(
    results: dict[str, list[dict[str, object]]], run: Path, qrels: Path, env: dict[str, str]
) -> None:
    """When the "ef (CLI)" row is ef's reference (no "ef (API)" row measured) and a row
    averages over every judged query, ef's values so averaged: the CLI once more, untimed,
    with ``--averaging qrels`` (the timed rows run ``intersection``, pytrec_eval's)."""
    if reference(results)[0] != "ef (CLI)":
        return
    over_qrels = [
        tool
        for tool, runs in results.items()
        if not tool.startswith("ef") and runs and "values" in runs[0]
        if runs[0].get("averaging") == "qrels"
    ]
    if not over_qrels:
        return
    print(f"ef (CLI) once more with --averaging qrels, untimed: ef's values for "
          f"{', '.join(over_qrels)}", flush=True)  # fmt: skip
    result = _timed(cli_command(run, qrels, "qrels"), env, report=True)
    results["ef (CLI)"][0]["values_over_qrels"] = cli_values(result["metrics"])  # type: ignore[arg-type]


def reference(
    results: dict[str, list[dict[str, object]]],
) -> tuple[str | None, dict[str, dict[str, float]]]:
    """The row whose values are ef's ("ef (API)" if it ran, else "ef (CLI)") and its values
    by averaging: ``intersection`` (the timed calls') and ``qrels`` if it has them."""
    for tool in ("ef (API)", "ef (CLI)"):
        runs = results.get(tool)
        if runs and "values" in runs[0]:  # not out of memory, not skipped
            by_averaging = {"intersection": runs[0]["values"]}
            if "values_over_qrels" in runs[0]:
                by_averaging["qrels"] = runs[0]["values_over_qrels"]
            return tool, by_averaging  # type: ignore[return-value]
    return None, {}


def agreement(results: dict[str, list[dict[str, object]]]) -> None:
    ours, by_averaging = reference(results)
    if ours is None:
        return
    print(f'\nAgreement with ef (the "{ours}" row; ties: score desc, docno desc), '
          "|difference| > 1e-9 listed:")  # fmt: skip
    if ours == "ef (CLI)" and "qrels" in by_averaging:
        print("  (averaged over qrels: ef's values from the untimed --averaging qrels call)")
    for tool, runs in results.items():
        values: dict[str, float] = runs[0].get("values", {}) if runs else {}  # type: ignore[assignment]
        if tool.startswith("ef") or not values:
            continue
        # Never across averagings: a tool is compared with ef's values averaged as it does.
        averaging = str(runs[0].get("averaging", "intersection"))
        # A tool that prints rounded means (the C trec_eval) says how close it can agree.
        tolerance = float(runs[0].get("tolerance", 1e-9))  # type: ignore[arg-type]
        label = (
            tool if tolerance == 1e-9 else f"{tool} (prints rounded means: within {tolerance:.0e})"
        )
        if averaging not in by_averaging:
            print(f"  {label}: not compared, no ef values averaged over {averaging}")
            continue
        reference_values = by_averaging[averaging]
        differ = {
            name: (value, reference_values[name])
            for name, value in values.items()
            if abs(value - reference_values[name]) > tolerance
        }
        same = sorted(set(values) - set(differ))
        print(f"  {label}: same {', '.join(same) or '-'}", end="")
        for name, (theirs, mine) in differ.items():
            print(f"; {name} differs: {theirs:.6f} vs ef {mine:.6f}", end="")
        print()


if __name__ == "__main__":
    main()
