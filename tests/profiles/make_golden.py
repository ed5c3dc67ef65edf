"""Write the golden files of the compatibility profiles: BEIR, MTEB and ranx run for real.

Not a test module (pytest collects ``test_*.py`` only; the ``--doctest-modules`` import is
harmless: every tool is imported inside a function). Each tool lives in its own scratch venv,
outside the repository, so the script runs once per venv, from the repository root::

    /work/venv-beir/bin/python tests/profiles/make_golden.py --tool beir
    /work/venv-mteb/bin/python tests/profiles/make_golden.py --tool mteb
    .venv/bin/python tests/profiles/make_golden.py --tool ranx

It needs only the tool's venv (not ``ef.evaluation``). Each run writes
``tests/profiles/golden/<tool>-<input>.json`` for the fixtures of ``tests/profiles/fixtures``
and, when the shared data folder is present, for the two SciFact BM25 runs. A file holds the
tool's name and version, the Python version, the command, the inputs, the options, the
aggregate values exactly as the tool returns them (BEIR and MTEB rounded as they round) and
per-query values where the tool exposes them. See ``SEMANTICS.md`` beside this file.

Dict-based tools see the fixtures' lines in file order: a query's docs are inserted into its
dict in the order of their first line, which is the insertion order that a stable sort keeps
on ties (BEIR's custom metrics) and that ranx's quicksort starts from.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import importlib.metadata
import json
import os
import platform
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures"
GOLDEN = HERE / "golden"
SHARED = Path(os.environ.get("EF_EVALUATION_SHARED", ROOT.parent / "shared"))

#: BEIR's default k_values (EvaluateRetrieval.__init__), used for every tool.
K_VALUES = (1, 3, 5, 10, 100, 1000)

#: The fixtures: name -> (qrels, run), TREC format, relative to tests/profiles/fixtures.
FIXTURE_NAMES = ("ties", "zeros", "extra")

#: The SciFact inputs: name -> run file under shared/datasets/scifact-runs.
SCIFACT_RUNS = {
    "scifact-bm25-k1_0.9-b_0.4": "run.scifact.test.bm25s-lucene-k1_0.9-b_0.4.txt.gz",
    "scifact-bm25-k1_1.2-b_0.75": "run.scifact.test.bm25s-lucene-k1_1.2-b_0.75.txt.gz",
}
#: SciFact qrels: BEIR's test.tsv (BEIR, MTEB) and the same pairs in TREC format (ranx).
SCIFACT_BEIR_DIR = "datasets/scifact"
SCIFACT_TREC_QRELS = "datasets/beir-anserini/qrels.beir-v1.0.0-scifact.test.txt"

#: Per-query values kept for SciFact (the files stay small): tool key -> metric.
RANX_METRICS = ("ndcg", "ndcg_burges", "map", "mrr", "precision", "recall", "hit_rate")
RANX_UNCUT = ("r-precision", "bpref")

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]


# Inputs -----------------------------------------------------------------------------------
class Input:
    """One input pair: paths, how they are shown in the golden files, and readers."""

    def __init__(self, name: str, qrels: Path, run: Path, shown: dict[str, str]) -> None:
        self.name = name
        self.qrels = qrels
        self.run = run
        self.shown = shown
        self.is_fixture = name in FIXTURE_NAMES


def inputs(selected: list[str] | None) -> Iterator[Input]:
    for name in FIXTURE_NAMES:
        if selected and name not in selected:
            continue
        qrels, run = FIXTURES / f"{name}.qrels", FIXTURES / f"{name}.run"
        yield Input(name, qrels, run, {"qrels": _rel(qrels), "run": _rel(run)})
    for name, run_file in SCIFACT_RUNS.items():
        if selected and name not in selected:
            continue
        run = SHARED / "datasets" / "scifact-runs" / run_file
        if not run.exists():
            print(f"skip {name}: {run} is absent", file=sys.stderr)
            continue
        yield Input(
            name,
            SHARED / SCIFACT_TREC_QRELS,
            run,
            {
                "qrels_beir": f"/work/shared/{SCIFACT_BEIR_DIR}/qrels/test.tsv",
                "qrels_trec": f"/work/shared/{SCIFACT_TREC_QRELS}",
                "run": f"/work/shared/datasets/scifact-runs/{run_file}",
            },
        )


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _open(path: Path) -> Any:
    return gzip.open(path, "rt") if path.suffix == ".gz" else path.open()


def read_trec_qrels(path: Path) -> Qrels:
    """``qid iter docid rel`` lines, in file order; a repeated pair keeps its last grade."""
    qrels: Qrels = {}
    with _open(path) as lines:
        for line in lines:
            if line.strip():
                qid, _, doc, rel = line.split()
                qrels.setdefault(qid, {})[doc] = int(rel)
    return qrels


def read_beir_qrels(path: Path) -> Qrels:
    """BEIR's ``qrels/test.tsv`` as ``GenericDataLoader._load_qrels`` reads it (header skipped)."""
    import csv

    qrels: Qrels = {}
    with path.open(encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_MINIMAL)
        next(reader)
        for row in reader:
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def read_trec_run(path: Path) -> Run:
    """``qid Q0 docid rank score tag`` lines, as ``beir.util.load_runfile`` reads them: the
    rank column ignored, the score a Python float, docs in order of first line."""
    run: Run = {}
    with _open(path) as lines:
        for line in lines:
            if line.strip():
                qid, _, doc, _, score, _ = line.strip().split(" ")
                run.setdefault(qid, {})[doc] = float(score)
    return run


def qrels_for_dict_tools(item: Input) -> tuple[Qrels, str]:
    if item.is_fixture:
        return read_trec_qrels(item.qrels), "TREC qrels read in file order (make_golden.py)"
    path = SHARED / SCIFACT_BEIR_DIR / "qrels" / "test.tsv"
    return read_beir_qrels(path), "BEIR qrels/test.tsv as GenericDataLoader._load_qrels reads it"


# Helpers ----------------------------------------------------------------------------------
def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _call(func: Callable[[], Any]) -> tuple[Any, str | None]:
    try:
        return func(), None
    except Exception as exc:  # the tool's own failure is part of its behaviour
        return None, _error(exc)


def _plain(value: Any) -> Any:
    """numpy scalars and arrays to Python floats and lists (json keeps float repr exact)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return _plain(value.tolist())
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    return float(value)


def _removed(before: Run, after: Run) -> list[str]:
    """The queries whose own id was popped from their results (``ignore_identical_ids``)."""
    return sorted(q for q in before if q in before[q] and q not in after.get(q, {}))


def header(tool: str, dist: str, deps: tuple[str, ...], item: Input) -> dict[str, Any]:
    command = [
        os.path.relpath(sys.executable, ROOT)
        if sys.executable.startswith(str(ROOT))
        else sys.executable,
        *sys.argv,
    ]
    return {
        "tool": tool,
        "version": _version(dist),
        "dependencies": {d: _version(d) for d in deps},
        "python": platform.python_version(),
        "command": " ".join(command),
        "input": {"name": item.name, **item.shown},
        "insertion_order": "dicts filled in file order: a query's docs in the order of their "
        "first line (the fixtures' rank column is not score order on purpose; every tool "
        "ignores it)",
        "k_values": list(K_VALUES),
    }


def write(tool: str, item: Input, payload: dict[str, Any]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    path = GOLDEN / f"{tool}-{item.name}.json"
    path.write_text(json.dumps(payload, indent=1, sort_keys=False) + "\n")
    print(f"wrote {_rel(path)}")


# BEIR -------------------------------------------------------------------------------------
def run_beir(selected: list[str] | None) -> None:
    from beir import util
    from beir.datasets.data_loader import GenericDataLoader
    from beir.retrieval.evaluation import EvaluateRetrieval

    for item in inputs(selected):
        if item.is_fixture:
            qrels, qrels_how = qrels_for_dict_tools(item)
            results = util.load_runfile(str(item.run))
            run_how = "beir.util.load_runfile(run)"
        else:
            _, _, qrels = GenericDataLoader(data_folder=str(SHARED / SCIFACT_BEIR_DIR)).load(
                split="test"
            )
            qrels_how = "beir.datasets.data_loader.GenericDataLoader(scifact).load('test')"
            results = read_trec_run(item.run)
            run_how = "gunzip + the reader of beir.util.load_runfile (split(' '), float)"
        assert results == read_trec_run(item.run)
        assert [list(d) for d in results.values()] == [
            list(d) for d in read_trec_run(item.run).values()
        ], "insertion order"
        cases = []
        for ignore in (True, False):
            mutable = copy.deepcopy(results)
            aggregate: dict[str, Any] = {}
            errors: dict[str, str] = {}
            out, err = _call(
                partial(
                    EvaluateRetrieval.evaluate,
                    qrels,
                    mutable,
                    list(K_VALUES),
                    ignore_identical_ids=ignore,
                )
            )
            if err:
                errors["evaluate"] = err
            else:
                for part in out:
                    aggregate.update(part)
            # As BEIR's examples do: evaluate_custom on the same (mutated) results.
            for metric in ("mrr", "r_cap", "hole", "top_k_accuracy"):
                out, err = _call(
                    partial(
                        EvaluateRetrieval.evaluate_custom,
                        qrels,
                        mutable,
                        list(K_VALUES),
                        metric=metric,
                    )
                )
                if err:
                    errors[metric] = err
                else:
                    aggregate.update(out)
            cases.append(
                {
                    "options": {"ignore_identical_ids": ignore},
                    "calls": "EvaluateRetrieval.evaluate(qrels, results, k_values, "
                    "ignore_identical_ids=...) then evaluate_custom(qrels, results, k_values, "
                    "metric=m) for m in mrr, r_cap, hole, top_k_accuracy, on the same results "
                    "dict (evaluate pops identical ids from it in place)",
                    "identical_ids_removed_from": _removed(results, mutable),
                    "aggregate": aggregate,
                    "errors": errors,
                }
            )
        payload = header("beir", "beir", ("pytrec-eval-terrier", "numpy"), item)
        payload["input"].update({"qrels_loader": qrels_how, "run_loader": run_how})
        payload["per_query"] = "not exposed: EvaluateRetrieval returns aggregates only"
        payload["cases"] = cases
        write("beir", item, payload)


# MTEB -------------------------------------------------------------------------------------
def run_mteb(selected: list[str] | None) -> None:
    from mteb._evaluators.retrieval_evaluator import RetrievalEvaluator
    from mteb._evaluators.retrieval_metrics import hole, make_score_dict, recall_cap

    for item in inputs(selected):
        qrels, qrels_how = qrels_for_dict_tools(item)
        results = read_trec_run(item.run)
        cases = []
        for ignore in (False, True):
            mutable = copy.deepcopy(results)
            # RetrievalEvaluator.evaluate does not use self (noqa PLR6301 in MTEB's source).
            out, err = _call(
                partial(
                    RetrievalEvaluator.evaluate,
                    None,
                    qrels,
                    mutable,
                    list(K_VALUES),
                    ignore_identical_ids=ignore,
                    skip_first_result=False,
                )
            )
            case: dict[str, Any] = {
                "options": {"ignore_identical_ids": ignore, "skip_first_result": False},
                "calls": "RetrievalEvaluator.evaluate(qrels, results, k_values, "
                "ignore_identical_ids=..., skip_first_result=False) -> "
                "calculate_retrieval_scores; scores = make_score_dict(...) as "
                "AbsTaskRetrieval._evaluate_subset builds them (nAUC keys dropped here)",
                "identical_ids_removed_from": _removed(results, mutable),
                "errors": {},
            }
            if err:
                case["errors"]["evaluate"] = err
            else:
                (all_scores, ndcg, _map, recall, precision, naucs, mrr, naucs_mrr, hit_rate) = out
                scores = make_score_dict(
                    ndcg=ndcg,
                    _map=_map,
                    recall=recall,
                    precision=precision,
                    mrr=mrr,
                    naucs=naucs,
                    naucs_mrr=naucs_mrr,
                    hit_rate=hit_rate,
                    task_scores={},
                )
                case["scores"] = {k: v for k, v in scores.items() if not k.startswith("nauc")}
                case["scores_on_disk"] = {
                    k: round(v, 6) for k, v in case["scores"].items()
                }  # TaskResult._round_scores(scores, 6) in TaskResult.to_disk
                # Per query (all_scores, pytrec_eval's dict): everything for a fixture; for
                # SciFact ndcg_cut_10 of the default case only, to keep the file small.
                keep = None if item.is_fixture else ("ndcg_cut_10",)
                if item.is_fixture or not ignore:
                    case["per_query_pytrec"] = {
                        q: {m: v for m, v in s.items() if keep is None or m in keep}
                        for q, s in all_scores.items()
                    }
            # recall_cap is what MTEB's LMEB tasks add (mean over non-None, unrounded);
            # hole is defined in retrieval_metrics.py but called by no MTEB task.
            for name, func in (("recall_cap", recall_cap), ("hole", hole)):
                per, err = _call(partial(func, qrels, mutable, list(K_VALUES)))
                if err:
                    case["errors"][name] = err
                    continue
                per = dict(per)
                valid = {k: [x for x in v if x is not None] for k, v in per.items()}
                case.setdefault("extra_functions", {})[name] = {
                    "mean_over_non_none": {
                        k: (sum(v) / len(v) if v else 0.0) for k, v in valid.items()
                    },
                    "n_values": {k: len(v) for k, v in per.items()},
                    "n_none": {k: sum(x is None for x in v) for k, v in per.items()},
                }
            cases.append(case)
        payload = header("mteb", "mteb", ("pytrec-eval-terrier", "numpy", "torch"), item)
        payload["input"].update(
            {"qrels_loader": qrels_how, "run_loader": "make_golden.read_trec_run (file order)"}
        )
        payload["cases"] = _plain(cases)
        write("mteb", item, payload)


# ranx -------------------------------------------------------------------------------------
def ranx_metric_names() -> list[str]:
    names = [f"{m}@{k}" for m in RANX_METRICS for k in K_VALUES] + list(RANX_UNCUT)
    return names + [f"{n}-l2" for n in names]


def ranx_order(docs: dict[str, float], passes: int) -> list[str]:
    """ranx's ranking of one query's docs: numba's quicksort argsort of the negated scores,
    run ``passes`` times from the file order (pure-Python twin of the jitted sort that
    ``ranx.data_structures.common.sort_dict_by_value`` calls)."""
    import numpy as np
    from numba.misc.quicksort import make_py_quicksort

    sort = make_py_quicksort(is_argsort=True)
    items = list(docs.items())
    for _ in range(passes):
        order = sort.run_quicksort(np.array([-score for _, score in items]))
        items = [items[int(i)] for i in order]
    return [doc for doc, _ in items]


def run_ranx(selected: list[str] | None) -> None:
    import numpy as np
    from ranx import Qrels, Run, evaluate

    names = ranx_metric_names()
    for item in inputs(selected):
        qrels = Qrels.from_file(str(item.qrels), kind="trec")
        kind = "gz" if item.run.suffix == ".gz" else "trec"
        run = Run.from_file(str(item.run), kind=kind)
        file_run = read_trec_run(item.run)
        # ranx's default call (make_comparable=False) when the query sets match; else the
        # call ranx asks for. make_comparable re-sorts the Run in place: one more pass.
        comparable = set(qrels.keys()) != set(run.keys())
        strict_err = None
        if comparable:
            _, strict_err = _call(partial(evaluate, qrels, run, "ndcg@10"))
        per_query, err = _call(
            partial(evaluate, qrels, run, names, return_mean=False, make_comparable=comparable)
        )
        query_ids = list(run.get_query_ids())
        ranked = {q: list(run.run[q].keys()) for q in file_run if q in run.run}
        passes = 2 if comparable else 1
        twin = {q: ranx_order(file_run[q], passes) for q in ranked}
        payload = header("ranx", "ranx", ("numba", "numpy"), item)
        payload["input"]["qrels_loader"] = "ranx.Qrels.from_file(qrels, kind='trec')"
        payload["input"]["run_loader"] = f"ranx.Run.from_file(run, kind={kind!r})"
        payload["options"] = {"make_comparable": comparable}
        payload["calls"] = (
            "ranx.evaluate(qrels, run, metrics, return_mean=False, make_comparable=...) on "
            "fresh Qrels/Run objects, once; make_comparable=True only when the query sets "
            "differ (ranx asserts otherwise). aggregate = numpy.mean over the query axis "
            "(what return_mean=True returns)"
        )
        payload["without_make_comparable"] = strict_err or "no error (query sets match)"
        payload["sort_passes"] = passes
        payload["tie_order_reproduced_by_numba_py_quicksort"] = all(
            twin[q] == ranked[q] for q in ranked
        )
        if err:
            payload["errors"] = {"evaluate": err}
        else:
            aggregate = {m: float(np.mean(v)) for m, v in per_query.items()}
            payload["aggregate"] = aggregate
            keep = names if item.is_fixture else ["ndcg@10", "mrr@10"]
            payload["per_query"] = {
                m: dict(zip(query_ids, _plain(per_query[m]), strict=True)) for m in keep
            }
            # The same call again on the same Run object: make_comparable sorts it once more.
            again = evaluate(qrels, run, names, make_comparable=comparable)
            payload["second_call_on_same_run_changes"] = sorted(
                m
                for m in names
                if not (np.isnan(again[m]) and np.isnan(aggregate[m])) and again[m] != aggregate[m]
            )
        if item.is_fixture:
            payload["ranked_doc_ids"] = ranked
        write("ranx", item, payload)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True, choices=("beir", "mteb", "ranx"))
    parser.add_argument("--input", action="append", help="an input name (default: all)")
    args = parser.parse_args(argv)
    {"beir": run_beir, "mteb": run_mteb, "ranx": run_ranx}[args.tool](args.input)


if __name__ == "__main__":
    main()
