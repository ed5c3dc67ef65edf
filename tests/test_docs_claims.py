"""Claims of the README and docs that the code can make untrue, each checked here (issue 25):
the core dependencies, fuse against ranx on tied runs, ranx's NaN bpref, map@1000 against
trec_eval's map."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

from ef.evaluation import evaluate_run, fuse, read_qrels

from .conftest import shared_path

ROOT = Path(__file__).parents[1]
NUMBERS = {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _name(requirement: str) -> str:
    """``"importlib-metadata>=6.0"`` -> ``"importlib-metadata"`` (PEP 503 normalised)."""
    name = re.split(r"[\s<>=!~;\[(]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def _core_dependencies() -> set[str]:
    """[project].dependencies of pyproject.toml (tomllib from 3.11; before, the installed
    distribution's requirements without an extra, which are the same)."""
    if sys.version_info >= (3, 11):
        import tomllib

        with (ROOT / "pyproject.toml").open("rb") as handle:
            requirements = tomllib.load(handle)["project"]["dependencies"]
    else:  # pragma: no cover - Python 3.10
        requirements = [
            r for r in importlib.metadata.requires("ef-evaluation") or [] if "extra ==" not in r
        ]
    return {_name(r) for r in requirements}


def test_the_quickstart_lists_every_core_dependency() -> None:
    text = " ".join((ROOT / "docs" / "quickstart.md").read_text(encoding="utf-8").split())
    found = re.search(r"The core depends on (\w+) packages: (.*?)\. ", text)
    assert found is not None, "the quickstart no longer lists the core dependencies"
    listed = re.sub(r"\([^)]*\)", "", found.group(2)).replace(" and ", ", ")
    names = {_name(n) for n in listed.split(",") if n.strip()}
    assert names == _core_dependencies()
    assert NUMBERS[found.group(1)] == len(names)


def _section(text: str, heading: str) -> str:
    return text.split(heading, 1)[1].split("\n## ", 1)[0]


def test_the_readme_says_fuse_differs_from_ranx_on_tied_runs() -> None:
    fuse = " ".join(
        _section((ROOT / "README.md").read_text(encoding="utf-8"), "## Fuse runs").split()
    )
    assert "The numbers are ranx's on runs without tied scores" in fuse
    assert "numba's quicksort" in fuse
    fusion = " ".join((ROOT / "docs" / "fusion.md").read_text(encoding="utf-8").split())
    assert "ranx ranks tied docs by numba's quicksort, an order no policy reproduces" in fusion


def test_tied_input_runs_fuse_by_the_tie_policy() -> None:
    # What the README says: on tied runs the order of tied docs decides the RRF scores.
    runs = [{"q1": {"a": 1.0, "b": 1.0, "c": 0.5}}, {"q1": {"c": 2.0, "a": 1.0}}]
    by_trec_eval = fuse(runs, method="rrf").to_dict()["q1"]
    by_docno = fuse(runs, method="rrf", tie_policy="docno_asc").to_dict()["q1"]
    assert by_trec_eval != by_docno


def test_beir_test_qrels_judge_no_doc_non_relevant_and_bpref_is_trec_evals_there() -> None:
    # docs/migrating.md: ranx's bpref is NaN on such a query; ours is trec_eval's.
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = read_qrels(shared_path("datasets", "scifact", "qrels", "test.tsv"))
    assert all(grade > 0 for judged in qrels.values() for grade in judged.values())
    query = {"q1": {"d1": 1, "d2": 1, "d3": 1}}  # no judged non-relevant doc, as above
    run = {"q1": {"d1": 3.0, "x": 2.0, "d3": 1.0}}
    ours = evaluate_run(run, query, metrics=["bpref"]).per_query["q1"]["bpref"]
    theirs = pytrec_eval.RelevanceEvaluator(query, {"bpref"}).evaluate(run)["q1"]["bpref"]
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert ours == pytest.approx(2 / 3)  # each relevant doc retrieved counts 1
    migrating = " ".join((ROOT / "docs" / "migrating.md").read_text(encoding="utf-8").split())
    assert "Where a query has no judged non-relevant doc, as in every BEIR test qrels" in migrating


def test_map_at_1000_is_trec_evals_map_only_to_depth_1000() -> None:
    # docs/benchmarks.md: equal on its rankings (1,000 docs at most), not on deeper ones.
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"d5": 1, "d1100": 1}}
    deep = {"q1": {f"d{i}": 2000.0 - i for i in range(1200)}}
    metrics = evaluate_run(deep, qrels, metrics=["map@1000", "map@all"]).metrics
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(deep)["q1"]["map"]
    assert metrics["map@all"] == pytest.approx(theirs, abs=1e-12)
    assert metrics["map@1000"] < theirs
    shallow = {"q1": {d: s for d, s in deep["q1"].items() if int(d[1:]) < 1000}}
    metrics = evaluate_run(shallow, qrels, metrics=["map@1000", "map@all"]).metrics
    assert metrics["map@1000"] == metrics["map@all"]
    benchmarks = " ".join((ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").split())
    assert "on a deeper one, `map@1000` stops at rank 1,000" in benchmarks
