"""Compatibility profiles: ``evaluate_run(..., profile=...)`` against each tool's own numbers.

* ``profile="beir"`` and ``profile="mteb"`` against the golden files that BEIR 2.2.0 and
  MTEB 2.26.24 wrote (``golden/``, made by ``make_golden.py`` in the tools' own venvs): equal
  once both sides are rounded to 5 decimals, as BEIR and MTEB round.
* ``profile="ranx"`` against ranx 0.3.21 run live, to 1e-9, per query and averaged.
* ``profile="trec_eval"`` against trec_eval's C code through pytrec-eval-terrier, live, to 1e-9.

The inputs are the fixtures of ``fixtures/`` (built so the tools disagree; see its README) and
the two SciFact BM25 runs of the shared data folder (skipped when it is absent). The exact
semantics each profile must reproduce are in ``SEMANTICS.md``. The golden files also hold what
each tool refused (BEIR's ZeroDivisionError and KeyError, MTEB's KeyError); those metrics are
not compared here.
"""

from __future__ import annotations

import gzip
import json
import math
import warnings
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import RetrievalEvalReport, evaluate_run
from ef.evaluation._engine.measures import parse_measure

from ..conftest import shared_path

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
GOLDEN = HERE / "golden"

#: BEIR's default k_values; the golden files were made with them for every tool.
K_VALUES = (1, 3, 5, 10, 100, 1000)
FIXTURE_NAMES = ("ties", "zeros", "extra")
SCIFACT_RUNS = {
    "scifact-bm25-k1_0.9-b_0.4": "run.scifact.test.bm25s-lucene-k1_0.9-b_0.4.txt.gz",
    "scifact-bm25-k1_1.2-b_0.75": "run.scifact.test.bm25s-lucene-k1_1.2-b_0.75.txt.gz",
}
INPUTS = FIXTURE_NAMES + tuple(SCIFACT_RUNS)
TOLERANCE = 1e-9

#: BEIR's key prefixes (EvaluateRetrieval.evaluate / evaluate_custom) -> our metric names.
BEIR_NAMES = {
    "NDCG": "ndcg",
    "MAP": "map",
    "Recall": "recall",
    "P": "precision",
    "MRR": "mrr",
    "R_cap": "r_cap",
    "Hole": "hole",
    "Accuracy": "success",
}
#: MTEB's score keys (make_score_dict) -> our metric names; "accuracy" is recall_at_1 again.
MTEB_NAMES = {
    "ndcg": "ndcg",
    "map": "map",
    "recall": "recall",
    "precision": "precision",
    "mrr": "mrr",
    "hit_rate": "success",
}
#: MTEB's recall_cap and hole functions (retrieval_metrics.py) -> our metric names.
MTEB_EXTRA_NAMES = {"R_cap": "r_cap", "Hole": "hole"}
#: ranx metric -> our measure (the cutoff and ``rel`` are added per case).
RANX_CUT = {
    "ndcg": "ndcg",
    "ndcg_burges": "ndcg(dcg='exp-log2')",
    "dcg": "dcg",
    "dcg_burges": "dcg(dcg='exp-log2')",
    "map": "map",
    "mrr": "mrr",
    "precision": "precision",
    "recall": "recall",
    "hit_rate": "success",
}
RANX_UNCUT = {"r-precision": "rprec", "bpref": "bpref"}
#: pytrec_eval measure -> our measure; the families are asked at every cutoff of K_VALUES.
TREC_CUT = {"ndcg_cut": "ndcg", "map_cut": "map", "recall": "recall", "P": "precision"}
TREC_CUT_SUCCESS = {"success": "success"}
TREC_UNCUT = {"recip_rank": "recip_rank", "map": "map@all", "Rprec": "rprec", "bpref": "bpref"}


def evaluate(run: Path, qrels: Path, **options: Any) -> RetrievalEvalReport:
    """``evaluate_run`` with ``profile=`` among the options (added with the profiles)."""
    return evaluate_run(run, qrels, **options)


# Inputs and golden files ------------------------------------------------------------------
def input_paths(name: str, qrels_format: str) -> tuple[Path, Path]:
    """``(run, qrels)`` of an input; SciFact's qrels as BEIR's test.tsv or in TREC format."""
    if name in FIXTURE_NAMES:
        return FIXTURES / f"{name}.run", FIXTURES / f"{name}.qrels"
    run = shared_path("datasets", "scifact-runs", SCIFACT_RUNS[name])
    if qrels_format == "beir":
        return run, shared_path("datasets", "scifact", "qrels", "test.tsv")
    return run, shared_path("datasets", "beir-anserini", "qrels.beir-v1.0.0-scifact.test.txt")


@cache
def golden(tool: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{tool}-{name}.json").read_text())
    return data


def key(measure: str) -> str:
    """Our canonical report key of one measure string."""
    [parsed] = parse_measure(measure)
    return parsed.key


def split_tool_key(tool_key: str, separator: str) -> tuple[str, int]:
    """``"NDCG@10"`` -> ``("NDCG", 10)``; ``"ndcg_at_10"`` -> ``("ndcg", 10)``."""
    name, _, k = tool_key.rpartition(separator)
    return name, int(k)


def read_trec(path: Path, *, qrels: bool) -> dict[str, dict[str, Any]]:
    """A TREC file as the dict-based tools see it: docs in order of first line."""
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else None
    out: dict[str, dict[str, Any]] = {}
    for line in (text if text is not None else path.read_text()).splitlines():
        fields = line.split()
        if qrels:
            out.setdefault(fields[0], {})[fields[2]] = int(fields[3])
        else:
            out.setdefault(fields[0], {})[fields[2]] = float(fields[4])
    return out


def same_5(ours: float, theirs: float) -> bool:
    """Equal once both are rounded to 5 decimals, as BEIR and MTEB round."""
    return round(ours, 5) == round(theirs, 5)


def same_float(ours: float, theirs: float) -> bool:
    if math.isnan(theirs):
        return math.isnan(ours)
    return abs(ours - theirs) <= TOLERANCE


def mismatches(
    expected: Mapping[str, float], got: Mapping[str, float], *, rounded: bool
) -> dict[str, tuple[float, float | None]]:
    """``{key: (expected, ours)}`` for every expected key that we miss or get wrong."""
    equal = same_5 if rounded else same_float
    return {k: (v, got.get(k)) for k, v in expected.items() if k not in got or not equal(got[k], v)}


# BEIR -------------------------------------------------------------------------------------
def beir_cases() -> Iterator[Any]:
    for name in INPUTS:
        for ignore in (True, False):
            yield pytest.param(name, ignore, id=f"{name}-ignore_identical_ids={ignore}")


def beir_expected(name: str, ignore: bool) -> dict[str, float]:
    [case] = [
        c for c in golden("beir", name)["cases"] if c["options"]["ignore_identical_ids"] is ignore
    ]
    out = {}
    for tool_key, value in case["aggregate"].items():
        prefix, k = split_tool_key(tool_key, "@")
        out[key(f"{BEIR_NAMES[prefix]}@{k}")] = value
    return out


@pytest.mark.parametrize(("name", "ignore"), list(beir_cases()))
def test_beir_profile(name: str, ignore: bool) -> None:
    expected = beir_expected(name, ignore)
    run, qrels = input_paths(name, "beir")
    names = sorted({k.partition("@")[0] for k in expected})
    report = evaluate(
        run, qrels, metrics=names, k_values=K_VALUES, profile="beir", ignore_identical_ids=ignore
    )
    assert mismatches(expected, report.metrics, rounded=True) == {}


@pytest.mark.parametrize("name", INPUTS)
def test_beir_profile_ignores_identical_ids_by_default(name: str) -> None:
    # EvaluateRetrieval.evaluate(..., ignore_identical_ids=True) is BEIR's default: the
    # numbers BEIR publishes. Only "ties" has a doc whose id is its query's (q6).
    expected = beir_expected(name, ignore=True)
    run, qrels = input_paths(name, "beir")
    names = sorted({k.partition("@")[0] for k in expected})
    report = evaluate(run, qrels, metrics=names, k_values=K_VALUES, profile="beir")
    assert mismatches(expected, report.metrics, rounded=True) == {}


def test_beir_golden_mixes_denominators() -> None:
    # The golden file itself, against pytrec_eval run here: BEIR's pytrec metrics average
    # over the queries of both run and qrels; its MRR over every qrels query (q3 is missing).
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run = read_trec(FIXTURES / "ties.run", qrels=False)
    qrels = read_trec(FIXTURES / "ties.qrels", qrels=True)
    scores = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recip_rank"}).evaluate(run)
    [case] = [
        c for c in golden("beir", "ties")["cases"] if not c["options"]["ignore_identical_ids"]
    ]
    assert sorted(scores) == ["q1", "q2", "q5", "q6", "q7"]
    ndcg = sum(s["ndcg_cut_10"] for s in scores.values()) / len(scores)
    assert case["aggregate"]["NDCG@10"] == round(ndcg, 5)
    # MRR@10 by insertion order on ties, in float64: q1 1/3, q2 1, q5 1/2, q6 1, q7 1/2, q3 0.
    assert case["aggregate"]["MRR@10"] == round((1 / 3 + 1 + 1 / 2 + 1 + 1 / 2) / 6, 5)


# MTEB -------------------------------------------------------------------------------------
def mteb_cases() -> Iterator[Any]:
    for name in INPUTS:
        for ignore in (False, True):
            if "scores" in mteb_case(name, ignore):  # "extra": MTEB raises KeyError
                yield pytest.param(name, ignore, id=f"{name}-ignore_identical_ids={ignore}")


def mteb_case(name: str, ignore: bool) -> dict[str, Any]:
    [case] = [
        c for c in golden("mteb", name)["cases"] if c["options"]["ignore_identical_ids"] is ignore
    ]
    return case  # type: ignore[no-any-return]


@pytest.mark.parametrize(("name", "ignore"), list(mteb_cases()))
def test_mteb_profile(name: str, ignore: bool) -> None:
    expected = {}
    for tool_key, value in mteb_case(name, ignore)["scores"].items():
        if tool_key == "accuracy":  # recall_at_1 under another name
            continue
        prefix, k = split_tool_key(tool_key, "_at_")
        expected[key(f"{MTEB_NAMES[prefix]}@{k}")] = value
    run, qrels = input_paths(name, "beir")
    report = evaluate(
        run,
        qrels,
        metrics=sorted(set(MTEB_NAMES.values())),
        k_values=K_VALUES,
        profile="mteb",
        ignore_identical_ids=ignore,
    )
    assert mismatches(expected, report.metrics, rounded=True) == {}


@pytest.mark.parametrize(("name", "ignore"), list(mteb_cases()))
def test_mteb_profile_r_cap_and_hole(name: str, ignore: bool) -> None:
    # MTEB's recall_cap (as its LMEB tasks average it: over the queries with a relevant doc)
    # and hole (over the run's queries), from mteb/_evaluators/retrieval_metrics.py.
    expected = {}
    for function in mteb_case(name, ignore)["extra_functions"].values():
        for tool_key, value in function["mean_over_non_none"].items():
            prefix, k = split_tool_key(tool_key, "_at_")
            expected[key(f"{MTEB_EXTRA_NAMES[prefix]}@{k}")] = value
    run, qrels = input_paths(name, "beir")
    report = evaluate(
        run,
        qrels,
        metrics=["r_cap", "hole"],
        k_values=K_VALUES,
        profile="mteb",
        ignore_identical_ids=ignore,
    )
    assert mismatches(expected, report.metrics, rounded=True) == {}


@pytest.mark.parametrize("name", [n for n in INPUTS if "scores" in mteb_case(n, ignore=False)])
def test_mteb_profile_keeps_identical_ids_by_default(name: str) -> None:
    # AbsTaskRetrieval.ignore_identical_ids defaults to False: the opposite of BEIR.
    expected = {
        key(f"ndcg@{k}"): mteb_case(name, ignore=False)["scores"][f"ndcg_at_{k}"] for k in K_VALUES
    }
    run, qrels = input_paths(name, "beir")
    report = evaluate(run, qrels, metrics=["ndcg"], k_values=K_VALUES, profile="mteb")
    assert mismatches(expected, report.metrics, rounded=True) == {}


# ranx (live) ------------------------------------------------------------------------------
def ranx_measures() -> dict[str, str]:
    """``{ranx metric string: our measure string}``, with and without ``-l2``."""
    out = {}
    for level, suffix in ((None, ""), (2, "-l2")):
        for ranx_name, ours in RANX_CUT.items():
            for k in K_VALUES:
                out[f"{ranx_name}@{k}{suffix}"] = f"{with_rel(ours, level)}@{k}"
        for ranx_name, ours in RANX_UNCUT.items():
            out[f"{ranx_name}{suffix}"] = with_rel(ours, level)
    return out


def with_rel(measure: str, level: int | None) -> str:
    if level is None:
        return measure
    if measure.endswith(")"):
        return f"{measure[:-1]},rel={level})"
    return f"{measure}(rel={level})"


def ranx_scores(name: str, measures: list[str]) -> tuple[list[str], dict[str, Any]]:
    """ranx run here: ``(query ids, {metric: per-query array})``.

    One call on fresh objects, as in the golden files: ``make_comparable=True`` only when
    the query sets differ (ranx asserts otherwise); it re-sorts the Run, which moves tied
    docs (SEMANTICS.md, ranx).
    """
    ranx = pytest.importorskip("ranx", reason="ranx is a test dependency")
    from numba.core.errors import NumbaTypeSafetyWarning

    run_path, qrels_path = input_paths(name, "trec")
    with warnings.catch_warnings():
        # numba's JIT warns about ranx's uint64 -> int64 hash cast while compiling.
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        qrels = ranx.Qrels.from_file(str(qrels_path), kind="trec")
        run = ranx.Run.from_file(str(run_path), kind="gz" if run_path.suffix == ".gz" else "trec")
        comparable = set(qrels.keys()) != set(run.keys())
        scores = ranx.evaluate(qrels, run, measures, return_mean=False, make_comparable=comparable)
    return list(run.get_query_ids()), scores


def ranx_unstable(qrels_path: Path) -> set[str]:
    """ranx's bpref at a level where some query has no relevant doc: the 0/0 raises inside
    numba's prange loop, is swallowed, and that query and every later one of the same
    thread's chunk keep 0.0 (SEMANTICS.md, ranx bpref). Not a number to reproduce."""
    qrels = read_trec(qrels_path, qrels=True)
    return {
        f"bpref{suffix}"
        for level, suffix in ((1, ""), (2, "-l2"))
        if any(all(grade < level for grade in docs.values()) for docs in qrels.values())
    }


@pytest.mark.peers
@pytest.mark.parametrize("name", INPUTS)
def test_ranx_profile(name: str) -> None:
    unstable = ranx_unstable(input_paths(name, "trec")[1])
    measures = {k: v for k, v in ranx_measures().items() if k not in unstable}
    query_ids, scores = ranx_scores(name, list(measures))
    # ranx's bpref is NaN (an unguarded 0/0) for a query with a relevant doc retrieved and no
    # judged non-relevant doc at the level: not a number to reproduce; the profile keeps
    # trec_eval's value there. Only bpref may be NaN.
    nan = {theirs for theirs in measures if math.isnan(float(scores[theirs].mean()))}
    assert all(theirs.startswith("bpref") for theirs in nan), nan
    measures = {theirs: ours for theirs, ours in measures.items() if theirs not in nan}
    expected = {key(ours): float(scores[theirs].mean()) for theirs, ours in measures.items()}
    run, qrels = input_paths(name, "trec")
    report = evaluate(
        run, qrels, metrics=sorted(set(measures.values())), k_values=K_VALUES, profile="ranx"
    )
    assert mismatches(expected, report.metrics, rounded=False) == {}
    wrong = {}
    for theirs, ours in measures.items():
        for qid, value in zip(query_ids, scores[theirs], strict=True):
            got = report.per_query.get(qid, {}).get(key(ours))
            if qid in report.per_query and (got is None or not same_float(got, float(value))):
                wrong[(qid, key(ours))] = (float(value), got)
    assert wrong == {}


@pytest.mark.peers
@pytest.mark.parametrize("name", INPUTS)
def test_ranx_golden_still_matches_ranx(name: str) -> None:
    # The golden files record what ranx 0.3.21 gave; a different ranx or numba shows here.
    recorded = golden("ranx", name)
    measures = list(recorded["aggregate"])
    _, scores = ranx_scores(name, measures)
    live = {m: float(scores[m].mean()) for m in measures}
    assert mismatches(recorded["aggregate"], live, rounded=False) == {}


# trec_eval (live, through pytrec-eval-terrier) --------------------------------------------
def trec_measures() -> dict[str, str]:
    """``{pytrec_eval result name: our measure string}``."""
    out = {
        f"{trec}_{k}": f"{ours}@{k}"
        for trec, ours in (TREC_CUT | TREC_CUT_SUCCESS).items()
        for k in K_VALUES
    }
    return out | TREC_UNCUT


@pytest.mark.parametrize("name", INPUTS)
def test_trec_eval_profile(name: str) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run_path, qrels_path = input_paths(name, "trec")
    ks = ",".join(map(str, K_VALUES))
    asked = {f"{family}.{ks}" for family in TREC_CUT | TREC_CUT_SUCCESS} | set(TREC_UNCUT)
    evaluator = pytrec_eval.RelevanceEvaluator(read_trec(qrels_path, qrels=True), asked)
    scores = evaluator.evaluate(read_trec(run_path, qrels=False))
    measures = trec_measures()
    # trec_eval 9 without -c: the mean over the queries of both run and qrels, a judged query
    # with no relevant doc included (it scores 0).
    expected = {
        key(ours): sum(s[theirs] for s in scores.values()) / len(scores)
        for theirs, ours in measures.items()
    }
    report = evaluate(
        run_path,
        qrels_path,
        metrics=sorted(set(measures.values())),
        k_values=K_VALUES,
        profile="trec_eval",
    )
    assert mismatches(expected, report.metrics, rounded=False) == {}
    assert report.n_queries == len(scores)
    wrong = {
        (qid, key(ours)): (s[theirs], report.per_query.get(qid, {}).get(key(ours)))
        for qid, s in scores.items()
        for theirs, ours in measures.items()
        if not same_float(report.per_query.get(qid, {}).get(key(ours), math.nan), s[theirs])
    }
    assert wrong == {}
