"""benchmarks/: the data generator is deterministic and its runs score alike on both paths.

Only correctness is tested here. How fast anything runs is for benchmarks/run.py to show.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest

from ef.evaluation import RunTable, evaluate_run, read_qrels, read_run

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    run, qrels = load("generate").generate("S", tmp_path_factory.mktemp("bench"))
    return run, qrels


def test_the_generator_writes_the_same_bytes_every_time(small, tmp_path) -> None:
    run, qrels = load("generate").generate("S", tmp_path)
    assert run.read_bytes() == small[0].read_bytes()
    assert qrels.read_bytes() == small[1].read_bytes()


def test_the_generated_run_has_the_documented_shape(small) -> None:
    run, qrels = read_run(small[0]), read_qrels(small[1])
    assert len(run) == 198 + 2  # 1% of the judged queries missing, 1% unjudged added
    assert all(len(docs) == 100 for docs in run.values())
    assert len(set(qrels) - set(run)) == 2
    assert len(set(run) - set(qrels)) == 2
    tied = sum(len(set(docs.values())) < len(docs) for docs in run.values())
    assert tied > 150  # scores rounded to 3 decimals: most queries have ties


def test_both_paths_score_the_generated_run_alike(small) -> None:
    metrics = ("ndcg@10", "recall@100", "mrr@10", "map@1000", "precision@10")
    fast = evaluate_run(small[0], small[1], metrics=metrics)
    reference = evaluate_run(read_run(small[0]), read_qrels(small[1]), metrics=metrics)
    assert fast.n_queries == reference.n_queries
    for key, value in fast.metrics.items():
        assert math.isclose(value, reference.metrics[key], abs_tol=1e-12)


def test_the_agreement_check_lists_what_differs(capsys) -> None:
    run = load("run")
    ours = {"values": {"map": 0.5, "P@10": 0.1}, "values_over_qrels": {"map": 0.4, "P@10": 0.1}}
    run.agreement(
        {
            "ef (API)": [ours],
            "pytrec_eval": [{"values": {"map": 0.5, "P@10": 0.2}}],
            "ranx": [{"values": {"map": 0.4, "P@10": 0.1}, "averaging": "qrels"}],
        }
    )
    out = capsys.readouterr().out
    assert "pytrec_eval: same map; P@10 differs: 0.200000 vs ef 0.100000" in out
    assert "ranx: same P@10, map" in out


# What trec_eval 10.0 prints for `-q -m ndcg_cut.10 -m recall.100 -m recip_rank -m map -m P.10`:
# per-query lines first (their second column is the query id), then the "all" means.
TREC_EVAL_OUT = """\
map                   \t101\t0.5000
recip_rank            \t101\t1.0000
map                   \tall\t0.2512
recip_rank            \tall\t0.4870
P_10                  \tall\t0.0931
ndcg_cut_10           \tall\t0.3108
recall_100            \tall\t0.8420
"""


def test_the_c_rows_all_lines_are_parsed_into_the_rows_names() -> None:
    values = load("run").c_values(TREC_EVAL_OUT)
    # recip_rank has no cut-off: not mrr@10, so not among the compared values.
    assert values == {"ndcg@10": 0.3108, "recall@100": 0.842, "map": 0.2512, "P@10": 0.0931}


def test_a_measure_trec_eval_did_not_print_is_an_error() -> None:
    text = "".join(line + "\n" for line in TREC_EVAL_OUT.splitlines() if "P_10" not in line)
    with pytest.raises(SystemExit, match="no 'all' line for P_10"):
        load("run").c_values(text)


def test_the_c_row_agrees_to_its_four_printed_decimals_only(capsys) -> None:
    run = load("run")
    ours = {"values": {"map": 0.25123, "P@10": 0.0931}}
    c_row = {"values": run.c_values(TREC_EVAL_OUT), "tolerance": run.C_TOLERANCE}
    c_row["values"]["map"] = 0.2512  # 0.25123 printed: within half the last digit
    c_row["values"]["P@10"] = 0.0932  # a digit off: listed
    del c_row["values"]["ndcg@10"], c_row["values"]["recall@100"]
    run.agreement({"ef (API)": [ours], run.C_TOOL: [c_row]})
    out = capsys.readouterr().out
    assert "trec_eval (C) (prints rounded means: within 5e-05): same map; P@10 differs" in out


def test_a_skipped_row_says_why(capsys) -> None:
    run = load("run")
    run.report({run.C_TOOL: [{"skipped": "no make or cc: cannot build trec_eval"}]})
    assert (
        "| trec_eval (C) | skipped: no make or cc: cannot build trec_eval |"
        in capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("scale", "flag", "reason"),
    [("S", False, "build.sh is absent"), ("XL", True, "--no-c-at-xl")],
)
def test_the_c_row_is_skipped_with_its_reason_not_failed(
    tmp_path, monkeypatch, scale, flag, reason
) -> None:
    import argparse

    run = load("run")
    monkeypatch.setattr(run, "ORACLES", tmp_path / "build.sh")  # none: nothing built or run
    args = argparse.Namespace(scale=scale, tools=run.C_TOOL, repeat=2, no_c_at_xl=flag)
    results = run.rounds(args, tmp_path / "run.trec", tmp_path / "qrels.txt")
    (row,) = results[run.C_TOOL]  # one row, whatever the repeat
    assert list(row) == ["skipped"]
    assert row["skipped"].endswith(reason)


@pytest.mark.parametrize("batches", [False, True])
def test_the_breakdown_times_every_stage_it_names(small, monkeypatch, batches) -> None:
    from ef.evaluation.evaluate import streamed

    if batches:  # the scale S run read as large runs are: in batches of whole queries
        monkeypatch.setattr(streamed, "STREAM_FROM", 0)
        monkeypatch.setattr(streamed, "BLOCK_BYTES", 1 << 16)
    breakdown = load("breakdown")
    read = RunTable.read
    result = breakdown.child(str(small[0]), str(small[1]))
    assert RunTable.read == read  # the timers are gone again
    assert result["missing"] == []  # every stage's function was found
    for label, *_ in breakdown.STAGES + breakdown.BESIDE:
        assert result["times"][label] > 0, label
    rows = breakdown.rows([result["times"]], 0.01)
    assert rows[0] == ("interpreter start (python -c pass)", 0.01)
    labels = [label.strip() for label, _ in rows]
    assert labels.count("(rest)") == 4  # of the command, evaluate_run, the ids, the score
    assert labels[-1] == "in-process total"


def test_a_sliced_scale_is_grouped_and_shaped_like_the_others(small, tmp_path) -> None:
    # XL is written a slice of queries at a time; S written so checks how (XL is 8 GB).
    generate = load("generate")
    generate.SLICED["S"] = 37
    try:
        run_path, qrels_path = generate.generate("S", tmp_path)
    finally:
        del generate.SLICED["S"]
    run, qrels = read_run(run_path), read_qrels(qrels_path)
    assert len(run) == 198 + 2
    assert all(len(docs) == 100 for docs in run.values())
    assert len(set(qrels) - set(run)) == 2
    assert qrels_path.read_bytes() == small[1].read_bytes()  # drawn before the run's slices
    lines = run_path.read_text().splitlines()
    firsts = [line.split()[0] for line in lines]
    assert len([q for i, q in enumerate(firsts) if i == 0 or q != firsts[i - 1]]) == len(run)
