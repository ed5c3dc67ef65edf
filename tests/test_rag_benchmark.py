"""benchmarks/rag.py runs at a tiny size and reports what it says it does.

How fast anything runs is for the script to show; nothing here looks at a time.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from .conftest import load_script

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


def load() -> ModuleType:
    return load_script(BENCHMARKS / "rag.py", "rag_benchmark")


def test_it_times_ef_beside_the_squad_functions(capsys, monkeypatch, tmp_path) -> None:
    # what the script sets before importing ragas, put back after the test
    monkeypatch.setenv("RAGAS_DO_NOT_TRACK", "true")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert load().main(["-n", "200", "--repeat", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["samples"], result["repeat"]) == (200, 1)
    assert list(result["seconds"])[:3] == [
        "ef evaluate_rag",
        "ef evaluate_rag (EM, F1)",
        "SQuAD v1.1 (EM, F1)",
    ]
    assert result["ratio_to_squad"]["SQuAD v1.1 (EM, F1)"] == 1.0
    assert result["ef_squad_disagreements"] == 0  # the same EM and F1 on every sample
    ragas_ran = "Ragas non-LLM" in result["seconds"]
    assert ragas_ran != ("Ragas non-LLM" in result["skipped"])  # timed, or skipped with why


def test_the_samples_are_deterministic_and_exercise_the_normalisation() -> None:
    bench = load()
    samples = bench.make_samples(500)
    assert samples == bench.make_samples(500)
    assert len({s["id"] for s in samples}) == 500
    assert all(len(s["retrieved_contexts"]) == 4 for s in samples)
    exact = sum(bench.squad_exact_match_score(s["response"], s["reference"]) for s in samples)
    assert 50 < exact < 200  # about a fifth answer exactly, up to case and punctuation
    assert any(any(p in s["response"] for p in ",.;!?") for s in samples)


def test_the_restated_squad_functions_are_the_scripts() -> None:
    bench = load()
    assert bench.squad_normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert bench.squad_exact_match_score("The Eiffel Tower", "eiffel tower")
    assert round(bench.squad_f1_score("quick brown fox", "quick brown dog"), 4) == 0.6667
    assert bench.squad_f1_score("", "") == 0  # the script's quirk: no common token is 0


def test_the_report_shows_the_ratios(capsys) -> None:
    assert load().main(["-n", "50", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "50 synthetic samples, best of 1" in out
    assert "differ from the SQuAD functions' on 0 samples" in out
    assert "x SQuAD" in out


def test_bad_sizes_are_exit_2(capsys) -> None:
    assert load().main(["-n", "0"]) == 2
    assert "must be at least 1" in capsys.readouterr().err
