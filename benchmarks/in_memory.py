"""ef against its peers on a run held in memory, in one process: the dicts that pytrec_eval,
BEIR and ranx users pass, ``{qid: {doc: score}}`` and ``{qid: {doc: grade}}``.

    python benchmarks/in_memory.py                      # SciFact's BM25 run (../shared)
    python benchmarks/in_memory.py RUN QRELS --repeat 15

The run (TREC) and the qrels (TREC or BEIR's TSV) are read once into dicts. Then, in each
round, in alternating order, each pair of paths scores the same dicts with the same
measures, the peer's call beside the one-line switch to ef:

* pytrec_eval: ``RelevanceEvaluator(qrels, measures).evaluate(run)`` (nDCG@10, MAP,
  recall@100, P@10 and the reciprocal rank), against ef's pytrec_eval shim, and against
  ``evaluate_run(run, qrels, metrics=...)`` on the same five measures;
* BEIR: what ``EvaluateRetrieval.evaluate(qrels, results, k_values)`` runs (pytrec_eval with
  ``map_cut``, ``ndcg_cut``, ``recall`` and ``P`` at 1, 3, 5, 10, 100 and 1000), against
  ef's BEIR shim;
* ranx (where installed): ``evaluate(Qrels(qrels), Run(run), metrics)``, warm (its JIT
  compiled by a first call), against ef's ranx shim.

It prints each path's median and best seconds, ef's median over the peer's beside the
range of the rounds' own ratios (the noise of a shared machine), and, where both give each
query's values (pytrec_eval's ``{qid: {measure: value}}``, and evaluate_run's report under
pytrec_eval's names), whether they gave the same numbers (within 1e-9; the differential
tests check the rest). A peer that is not installed is a row that says so. A script, not a
test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ef.evaluation import evaluate_run, read_qrels, read_run

HERE = Path(__file__).parent
SHARED = Path(os.environ.get("EF_EVALUATION_SHARED", HERE.parent.parent / "shared"))
DEFAULT_RUN = SHARED / "datasets/scifact-runs/run.scifact.test.bm25s-lucene-k1_0.9-b_0.4.txt.gz"
DEFAULT_QRELS = SHARED / "datasets/scifact/qrels/test.tsv"
#: evaluate_run's keys of the five measures, each with pytrec_eval's name of it (``map``
#: and ``recip_rank`` are of the whole ranking: ``@all``).
SAME_MEASURES = {
    "ndcg@10": "ndcg_cut_10",
    "map@all": "map",
    "recall@100": "recall_100",
    "precision@10": "P_10",
    "mrr@all": "recip_rank",
}
PYTREC_MEASURES, EF_METRICS = tuple(SAME_MEASURES.values()), tuple(SAME_MEASURES)
BEIR_K = (1, 3, 5, 10, 100, 1000)
RANX_METRICS = ("ndcg@10", "map@100", "recall@100", "precision@10", "mrr")

Run = dict[str, dict[str, float]]


Call = Callable[[], Any]


def _pairs(run: Run, qrels: Run) -> dict[str, tuple[Call | None, Call]]:
    """Each comparison's peer call (None where the peer is not installed) and ef's, on the
    same dicts."""
    from ef.evaluation.compat import beir as ef_beir
    from ef.evaluation.compat import pytrec_eval as ef_pytrec
    from ef.evaluation.compat import ranx as ef_ranx

    measures = set(PYTREC_MEASURES)
    beir_measures = {
        f"{name}.{','.join(map(str, BEIR_K))}" for name in ("map_cut", "ndcg_cut", "recall", "P")
    }
    pytrec, ranx = _module("pytrec_eval"), _module("ranx")

    def pytrec_call(names: set[str]) -> Call | None:
        if pytrec is None:
            return None
        return lambda: pytrec.RelevanceEvaluator(qrels, names).evaluate(run)

    def ranx_call() -> Any:
        return ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), list(RANX_METRICS), False)

    def ef_ranx_call() -> Any:
        return ef_ranx.evaluate(ef_ranx.Qrels(qrels), ef_ranx.Run(run), list(RANX_METRICS), False)

    return {
        "pytrec_eval shim": (
            pytrec_call(measures),
            lambda: ef_pytrec.RelevanceEvaluator(qrels, measures).evaluate(run),
        ),
        "evaluate_run": (
            pytrec_call(measures),
            lambda: evaluate_run(run, qrels, metrics=EF_METRICS),
        ),
        "BEIR shim": (
            pytrec_call(beir_measures),
            lambda: ef_beir.EvaluateRetrieval.evaluate(qrels, run, list(BEIR_K)),
        ),
        "ranx shim": (None if ranx is None else ranx_call, ef_ranx_call),
    }


def _module(name: str) -> Any:
    return importlib.import_module(name) if importlib.util.find_spec(name) else None


def _per_query(result: Any) -> dict[str, dict[str, float]] | None:
    """Each query's values from a pytrec_eval-shaped answer, or from evaluate_run's report
    under pytrec_eval's names; None for another shape, whose numbers are not compared here."""
    per_query = getattr(result, "per_query", None)
    if per_query is not None:
        return {
            q: {SAME_MEASURES[key]: value for key, value in values.items()}
            for q, values in per_query.items()
        }
    if isinstance(result, Mapping) and all(isinstance(v, Mapping) for v in result.values()):
        return {q: dict(v) for q, v in result.items()}
    return None


def _same(peer: Any, ours: Any) -> str:
    """Whether two pytrec_eval-shaped answers hold the same values within 1e-9."""
    a, b = _per_query(peer), _per_query(ours)
    if a is None or b is None:
        return "-"
    same = a.keys() == b.keys() and all(
        a[q].keys() == b[q].keys()
        and all(math.isclose(a[q][m], b[q][m], abs_tol=1e-9) for m in a[q])
        for q in a
    )
    return "yes" if same else "NO"


def measure(run_path: Path, qrels_path: Path, repeat: int) -> dict[str, Any]:
    """Median seconds of each path over ``repeat`` alternated rounds, and ef's ratios."""
    run = {q: dict(docs) for q, docs in read_run(run_path).items()}
    # Whole grades as ints, as BEIR loads them (pytrec_eval takes no other).
    qrels = {
        q: {d: int(g) if float(g).is_integer() else g for d, g in judged.items()}
        for q, judged in read_qrels(qrels_path).items()
    }
    pairs = _pairs(run, qrels)
    rows: dict[str, dict[str, Any]] = {}
    for name, (peer, ours) in pairs.items():
        if peer is None:
            rows[name] = {"peer": None}
            continue
        same = _same(peer(), ours())  # a first call each: imports, ranx's JIT
        times: dict[str, list[float]] = {"peer": [], "ef": []}
        for round_ in range(repeat):
            order = [("peer", peer), ("ef", ours)]
            for side, call in order if round_ % 2 == 0 else order[::-1]:
                started = time.perf_counter()
                call()
                times[side].append(time.perf_counter() - started)
        ratios = [e / p for e, p in zip(times["ef"], times["peer"], strict=True)]
        rows[name] = {
            "peer": statistics.median(times["peer"]),
            "ef": statistics.median(times["ef"]),
            "best_peer": min(times["peer"]),
            "best_ef": min(times["ef"]),
            "ratio": statistics.median(times["ef"]) / statistics.median(times["peer"]),
            "rounds": (min(ratios), max(ratios)),
            "same": same,
        }
    lines = sum(len(docs) for docs in run.values())
    return {
        "run": str(run_path),
        "qrels": str(qrels_path),
        "queries": len(run),
        "lines": lines,
        "repeat": repeat,
        "rows": rows,
    }


def report(result: dict[str, Any]) -> str:
    """The result as the lines the script prints."""
    lines = [
        f"{result['run']}: {result['queries']} queries, {result['lines']} lines; "
        f"{result['qrels']}; median of {result['repeat']} alternated rounds, one process",
        f"python {sys.version.split()[0]}",
        "",
        "| ef | s | best | peer | s | best | ef / peer | rounds | same numbers |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    peers = {"ranx shim": "ranx (warm)", "BEIR shim": "pytrec_eval as BEIR calls it"}
    for name, row in result["rows"].items():
        peer = peers.get(name, "pytrec_eval")
        if row["peer"] is None:
            lines.append(f"| {name} | - | - | {peer}: not installed | - | - | - | - | - |")
            continue
        low, high = row["rounds"]
        lines.append(
            f"| {name} | {row['ef']:.4f} | {row['best_ef']:.4f} | {peer} | {row['peer']:.4f} "
            f"| {row['best_peer']:.4f} | {row['ratio']:.2f} | {low:.2f} to {high:.2f} "
            f"| {row['same']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", default=str(DEFAULT_RUN))
    parser.add_argument("qrels", nargs="?", default=str(DEFAULT_QRELS))
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
    args = parser.parse_args(argv)
    run, qrels = Path(args.run), Path(args.qrels)
    for path in (run, qrels):
        if not path.exists():
            print(f"{path} is absent: give RUN and QRELS, or the shared data", file=sys.stderr)
            return 2
    result = measure(run, qrels, args.repeat)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
