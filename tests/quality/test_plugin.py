"""The pytest plugin, run inside pytester: every gate passing and failing, the summary, JUnit
properties and the JSON file. The entry point is checked in pyproject.toml separately: the
installed metadata may be another checkout's."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import scipy.stats  # noqa: F401

# pytester's in-process runs drop the modules they imported; numpy and scipy cannot load twice
# in one process, so they are imported here, outside the inner runs.
import ef.evaluation._runs.table  # noqa: F401

pytest_plugins = ["pytester"]

ROOT = Path(__file__).parents[2]

# Twenty queries, one relevant doc each, found at a fixed rank: "base" at ranks 1-3, "bad"
# three ranks lower everywhere (a drop of 0.33 in nDCG@10, p ~ 2e-7), "noisy" the same ranks
# shuffled between queries (a drop of 0.007, p ~ 0.9).
CONFTEST = """
import os
import pytest
from ef.evaluation import evaluate_run

QRELS = {f"q{i}": {f"d{i}": 1} for i in range(20)}
RANKS = {
    "base": [i % 3 + 1 for i in range(20)],
    "bad": [i % 3 + 4 for i in range(20)],
    "noisy": [(i + 1) % 3 + 1 if i % 2 else i % 3 + 1 for i in range(20)],
}


def report(name):
    run = {f"q{i}": [f"x{i}_{j}" for j in range(r - 1)] + [f"d{i}"]
           for i, r in enumerate(RANKS[name])}
    return evaluate_run(run, QRELS, k_values=(5, 10))


@pytest.fixture
def current():
    # The system under test; EF_SYSTEM lets one test file see a changed system.
    return report(os.environ.get("EF_SYSTEM", "base"))
"""


@pytest.fixture
def gates(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("EF_SYSTEM", raising=False)
    pytester.makeconftest(CONFTEST)
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # The plugin by module name; its entry point (if some install has one) is blocked so it
    # cannot register twice.
    return pytester.runpytest(
        "-p", "no:ef_evaluation", "-p", "ef.evaluation.quality.plugin", "-p", "no:cacheprovider",
        *args,
    )  # fmt: skip


def test_a_passing_threshold_is_listed_in_the_summary(gates: pytest.Pytester) -> None:
    gates.makepyfile(
        test_q="""
        def test_quality(ef_quality, current):
            ef_quality.check(current, {"ndcg@10": ">= 0.7", "recall@10": "== 1.0"})
        """
    )
    result = run(gates)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "*= ef quality gates =*",
            "PASS    test_q.py::test_quality check ndcg@10 = 0.7208 >= 0.7",
            "PASS    test_q.py::test_quality check recall@10 = 1.0000 == 1",
            "2 gates: 2 passed, 0 failed",
        ]
    )


def test_a_failing_threshold_names_every_failing_metric(gates: pytest.Pytester) -> None:
    gates.makepyfile(
        test_q="""
        def test_quality(ef_quality, current):
            ef_quality.check(current, {"ndcg@10": ">= 0.9", "recall@10": ">= 1", "P@5": "> 0.5"})
        """
    )
    result = run(gates)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*GateFailure: quality gate failed:",
            "*  ndcg@10 = 0.7208, expected >= 0.9",
            "*  precision@5 = 0.2000, expected > 0.5",
        ]
    )
    assert "recall@10 = 1.0000, expected" not in result.stdout.str()  # it passed
    result.stdout.fnmatch_lines(["FAIL    test_q.py::test_quality check ndcg@10 = 0.7208 >= 0.9"])


@pytest.mark.parametrize(
    ("thresholds", "message"),
    [
        ('{"ndcg@10": "0.9"}', "*ValueError: bad threshold '0.9' for ndcg@10: write an operator*"),
        ('{"ndcg@10": "=> 0.9"}', "*bad threshold '=> 0.9' for ndcg@10*"),
        ('{"ndcg@10": ">= high"}', "*bad threshold '>= high'*"),
        ('{"ndcg@11": ">= 0.9"}', "*ValueError: unknown metric 'ndcg@11': the report has ndcg@5, ndcg@10*"),
    ],
)  # fmt: skip
def test_a_bad_threshold_or_metric_is_a_clear_error(
    gates: pytest.Pytester, thresholds: str, message: str
) -> None:
    gates.makepyfile(
        test_q=f"""
        def test_quality(ef_quality, current):
            ef_quality.check(current, {thresholds})
        """
    )
    result = run(gates)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([message])


BASELINE_TEST = """
def test_quality(ef_quality, current):
    ef_quality.baseline("main", current, tolerance=0.01)
"""


def test_a_baseline_is_written_then_a_drop_beyond_tolerance_fails(
    gates: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    gates.makepyfile(test_q=BASELINE_TEST)
    result = run(gates, "--ef-update-baselines")
    result.assert_outcomes(passed=1)
    stored = gates.path / "tests" / "ef_baselines" / "main.json"
    assert json.loads(stored.read_text(encoding="utf-8"))["kind"] == "retrieval"
    result.stdout.fnmatch_lines(["UPDATED test_q.py::test_quality baseline ndcg@10 = 0.7208 *"])

    run(gates).assert_outcomes(passed=1)  # the same system holds its baseline

    monkeypatch.setenv("EF_SYSTEM", "noisy")  # 0.0065 lower: within the tolerance of 0.01
    run(gates).assert_outcomes(passed=1)

    monkeypatch.setenv("EF_SYSTEM", "bad")
    result = run(gates)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*GateFailure: quality dropped below baseline 'main':",
            "*  ndcg@10 = 0.3930, baseline 0.7208, a drop of 0.3278 > tolerance 0.01",
            "*  if the drop is intended, run pytest --ef-update-baselines",
        ]
    )
    assert "recall@10 = " not in result.stdout.str().split("ef quality gates")[0]  # recall held


def test_a_baseline_metric_saved_as_null_fails_its_gate_and_the_summary_counts_it(
    gates: pytest.Pytester,
) -> None:
    gates.makepyfile(test_q=BASELINE_TEST)
    run(gates, "--ef-update-baselines").assert_outcomes(passed=1)
    stored = gates.path / "tests" / "ef_baselines" / "main.json"
    document = json.loads(stored.read_text(encoding="utf-8"))
    asked = len(document["report"]["metrics"])
    document["report"]["metrics"]["ndcg@10"] = None  # what save_report writes for a NaN
    stored.write_text(json.dumps(document), encoding="utf-8")
    result = run(gates)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*GateFailure: baseline 'main' cannot gate 1 metric:",
            f"*  ndcg@10: the baseline {stored} holds ndcg@10 = NaN, no number to hold the "
            "report to",
            "*  re-save the baseline from a report where the metric is a number (pytest "
            "--ef-update-baselines), or leave it out of the gate (pass metrics= without it)",
            "FAIL    test_q.py::test_quality baseline ndcg@10 = 0.7208 baseline main: a number: *",
            f"{asked} gates: {asked - 1} passed, 1 failed",
        ]
    )


def test_a_missing_baseline_fails_and_says_how_to_create_it(gates: pytest.Pytester) -> None:
    gates.makepyfile(test_q=BASELINE_TEST)
    result = run(gates)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*GateFailure: no baseline 'main' at *main.json; run pytest --ef-update-baselines to create it"]
    )  # fmt: skip


def test_the_baselines_folder_is_an_ini_option(gates: pytest.Pytester) -> None:
    gates.makeini("[pytest]\nef_baselines_dir = quality/stored\n")
    gates.makepyfile(test_q=BASELINE_TEST)
    run(gates, "--ef-update-baselines").assert_outcomes(passed=1)
    assert (gates.path / "quality" / "stored" / "main.json").is_file()
    assert not (gates.path / "tests").exists()


NOT_WORSE_TEST = """
from conftest import report

def test_quality(ef_quality, current):
    ef_quality.not_worse(current, report("base"), metric="ndcg@10")
"""


def test_not_worse_fails_on_a_clearly_worse_system(
    gates: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    gates.makepyfile(test_q=NOT_WORSE_TEST)
    monkeypatch.setenv("EF_SYSTEM", "bad")
    result = run(gates)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*GateFailure: significantly worse (paired-t, holm correction, alpha 0.05):",
            "*  ndcg@10: significantly worse than the baseline: difference -0.3278 (mean 0.3930 "
            "vs 0.7208 over 20), p = 2.164e-07, corrected p = 2.164e-07, effect size d = -1.758",
        ]
    )


@pytest.mark.parametrize("system", ["base", "noisy"])
def test_not_worse_passes_on_the_same_or_a_noisy_system(
    gates: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    gates.makepyfile(test_q=NOT_WORSE_TEST)
    monkeypatch.setenv("EF_SYSTEM", system)
    result = run(gates, "-W", "ignore::RuntimeWarning")  # the same system: scipy's 0/0
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["PASS    test_q.py::test_quality not_worse ndcg@10 = *"])


def test_not_worse_against_a_stored_baseline(
    gates: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    gates.makepyfile(
        test_q="""
        def test_store(ef_quality, current):
            ef_quality.baseline("main", current)

        def test_quality(ef_quality, current):
            ef_quality.not_worse(current, "main", metric=["ndcg@10", "mrr@10"])
        """
    )
    run(gates, "--ef-update-baselines", "-k", "store").assert_outcomes(passed=1, deselected=1)
    monkeypatch.setenv("EF_SYSTEM", "bad")
    result = run(gates, "-k", "quality")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines(
        ["*  ndcg@10: significantly worse than baseline main: *", "*  mrr@10: significantly *"]
    )


GATES = """
def test_good(ef_quality, current):
    ef_quality.check(current, {"ndcg@10": ">= 0.7"})

def test_bad(ef_quality, current):
    ef_quality.check(current, {"mrr@10": "> 0.9"})
"""


def test_junit_xml_carries_every_gate(gates: pytest.Pytester) -> None:
    gates.makepyfile(test_q=GATES)
    run(gates, "--junitxml=out.xml").assert_outcomes(passed=1, failed=1)
    tree = ET.parse(gates.path / "out.xml")
    found = {
        case.get("name"): [
            json.loads(prop.get("value") or "")
            for prop in case.iter("property")
            if prop.get("name") == "ef_gate"
        ]
        for case in tree.iter("testcase")
    }
    assert [(g["metric"], g["status"], g["expected"]) for g in found["test_good"]] == [
        ("ndcg@10", "pass", ">= 0.7")
    ]
    assert [(g["metric"], g["status"], g["value"]) for g in found["test_bad"]] == [
        ("mrr@10", "fail", 0.625)
    ]


def test_the_gates_json_file(gates: pytest.Pytester) -> None:
    gates.makepyfile(test_q=GATES)
    result = run(gates, "--ef-gates-json=reports/gates.json")
    result.assert_outcomes(passed=1, failed=1)
    document: dict[str, Any] = json.loads((gates.path / "reports" / "gates.json").read_text())
    assert document["total"] == 2
    assert document["failed"] == 1
    assert [(g["test_id"], g["gate"], g["metric"], g["status"]) for g in document["gates"]] == [
        ("test_q.py::test_good", "check", "ndcg@10", "pass"),
        ("test_q.py::test_bad", "check", "mrr@10", "fail"),
    ]
    result.stdout.fnmatch_lines(["2 gates: 1 passed, 1 failed"])


def test_no_gate_no_summary_and_an_empty_json(gates: pytest.Pytester) -> None:
    gates.makepyfile(test_q="def test_plain():\n    assert True\n")
    result = run(gates, "--ef-gates-json=gates.json")
    result.assert_outcomes(passed=1)
    assert "ef quality gates" not in result.stdout.str()
    assert json.loads((gates.path / "gates.json").read_text()) == {
        "gates": [],
        "total": 0,
        "failed": 0,
    }


def test_pyproject_declares_the_pytest11_entry_point() -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["entry-points"]["pytest11"] == {
        "ef_evaluation": "ef.evaluation.quality.plugin"
    }


def test_loading_the_plugin_imports_nothing_heavy() -> None:
    code = textwrap.dedent(
        """
        import json, sys
        import ef.evaluation.quality.plugin
        print(json.dumps(sorted(sys.modules)))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    loaded = set(json.loads(out.stdout))
    heavy = {"numpy", "scipy", "pandas", "polars", "statsmodels", "rich", "click", "matplotlib"}
    assert not heavy & {name.split(".")[0] for name in loaded}
    assert not [m for m in loaded if m.startswith("ef.evaluation._default_plugins")]


def test_the_guides_example_runs_as_written(pytester: pytest.Pytester) -> None:
    """docs/quality-gates.md's test, on a run and qrels of the names it reads: it fails for
    want of its baseline, as the page says, then passes once the baseline is stored."""
    from ..test_docs_examples import DOCS, python_blocks

    [(code, _)] = python_blocks(DOCS / "quality-gates.md")
    queries = range(20)
    pytester.makefile(".txt", **{"data/qrels": "".join(f"q{i} 0 d{i} 1\n" for i in queries)})
    pytester.makefile(
        ".trec",
        **{
            "runs/bm25": "".join(
                f"q{i} Q0 d{i} 1 2.0 bm25\nq{i} Q0 x{i} 2 1.0 bm25\n" for i in queries
            )
        },
    )
    pytester.makepyfile(test_quality=code)
    missing = run(pytester)
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(
        [
            "*GateFailure: no baseline 'bm25' at *bm25.json; run pytest --ef-update-baselines to create it"
        ]
    )
    run(pytester, "--ef-update-baselines").assert_outcomes(passed=1)
    stored = run(pytester)
    stored.assert_outcomes(passed=1)
    stored.stdout.fnmatch_lines(
        [
            "PASS    test_quality.py::test_retrieval_quality check ndcg@10 = 1.0000 >= 0.65",
            "PASS    test_quality.py::test_retrieval_quality check recall@100 = 1.0000 >= 0.9",
        ]
    )


RECORDED = """
def test_record(ef_quality, current):
    assert (ef_quality.record_evaluation(current, system="bm25", dataset="toy") is None) == (
        not ef_quality.recording
    )

def test_quality(ef_quality, current):
    ef_quality.not_worse(current, recorded="bm25", dataset="toy", metric=["ndcg@10", "mrr@10"])
"""


def test_not_worse_against_the_last_recorded_evaluation(
    gates: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ef.evaluation import open_store

    store = gates.path / "evals.sqlite"
    gates.makepyfile(test_q=RECORDED)
    # Without --ef-record nothing is recorded, and there is nothing to gate on.
    result = run(gates, "--ef-store", str(store), "-k", "record")
    result.assert_outcomes(passed=1, deselected=1)
    result = run(gates, "--ef-store", str(store), "-k", "quality")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines(
        ["*GateFailure: no recorded evaluation of 'bm25' on 'toy' in the store *evals.sqlite*"]
    )
    # A bad system recorded first, then the base: the gate reads the last one.
    monkeypatch.setenv("EF_SYSTEM", "bad")
    run(gates, "--ef-record", "--ef-store", str(store), "-k", "record").assert_outcomes(
        passed=1, deselected=1
    )
    monkeypatch.setenv("EF_SYSTEM", "base")
    run(gates, "--ef-record", "--ef-store", str(store), "-k", "record").assert_outcomes(
        passed=1, deselected=1
    )
    with open_store(store) as opened:
        assert [r.report.metrics["ndcg@10"] for r in opened.records()] == pytest.approx(
            [0.3930, 0.7208], abs=1e-4
        )
        last = opened.last("bm25", "toy")
    assert last is not None
    monkeypatch.setenv("EF_SYSTEM", "bad")
    result = run(gates, "--ef-store", str(store), "-k", "quality")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines(
        [
            f"*  ndcg@10: significantly worse than recorded bm25 on toy (record {last.id}, "
            f"{last.recorded_at:%Y-%m-%d}): difference -0.3278 *",
            "*  mrr@10: significantly worse *",
        ]
    )
    # The same through the ini option, on a noisy system: it passes.
    gates.makeini(f"[pytest]\nef_store = {store}\n")
    monkeypatch.setenv("EF_SYSTEM", "noisy")
    result = run(gates, "-k", "quality", "-W", "ignore::RuntimeWarning")
    result.assert_outcomes(passed=1, deselected=1)


def test_not_worse_takes_one_baseline(gates: pytest.Pytester) -> None:
    gates.makepyfile(
        test_q="""
        import pytest
        from conftest import report

        def test_both(ef_quality, current):
            with pytest.raises(TypeError, match="not both nor neither"):
                ef_quality.not_worse(current, report("base"), recorded="bm25")
            with pytest.raises(TypeError, match="not both nor neither"):
                ef_quality.not_worse(current)

        def test_in_memory(ef_quality, current):
            with pytest.raises(ValueError, match="name it with dataset="):
                ef_quality.not_worse(current, recorded="bm25")
        """
    )
    run(gates).assert_outcomes(passed=2)
