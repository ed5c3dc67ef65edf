"""benchmarks/: the data generator is deterministic and its runs score alike on both paths.

Only correctness is tested here. How fast anything runs is for benchmarks/run.py to show.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import pytest

from ef.evaluation import RunTable, evaluate_run, read_qrels, read_run

from .conftest import load_script

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    return load_script(BENCHMARKS / f"{name}.py", name)


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


def test_without_the_api_row_the_cli_rows_values_are_efs_per_averaging(capsys) -> None:
    # At XL: no "ef (API)" row. The C row (-c, over qrels) is compared with the CLI's values
    # over qrels, never its intersection ones; pytrec_eval with the intersection ones.
    run = load("run")
    cli = {"values": {"map": 0.5, "P@10": 0.1}, "values_over_qrels": {"map": 0.49, "P@10": 0.1}}
    c_row = {"values": {"map": 0.49, "P@10": 0.1}, "averaging": "qrels"}
    run.agreement(
        {
            "ef (CLI)": [cli],
            "ef (API)": [{"out_of_memory": run.IN_MEMORY["ef (API)"]}],
            run.C_TOOL: [{**c_row, "tolerance": run.C_TOLERANCE}],
            "pytrec_eval": [{"values": {"map": 0.5, "P@10": 0.11}}],
        }
    )
    out = capsys.readouterr().out
    assert 'Agreement with ef (the "ef (CLI)" row;' in out
    assert "from the untimed --averaging qrels call" in out
    assert "trec_eval (C) (prints rounded means: within 5e-05): same P@10, map\n" in out
    assert "pytrec_eval: same map; P@10 differs: 0.110000 vs ef 0.100000" in out


def test_a_row_is_not_compared_with_ef_values_averaged_otherwise(capsys) -> None:
    run = load("run")
    # ranx's values equal the CLI's intersection ones, but ranx averages over qrels.
    run.agreement(
        {
            "ef (CLI)": [{"values": {"map": 0.5}}],
            "ranx": [{"values": {"map": 0.5}, "averaging": "qrels"}],
        }
    )
    out = capsys.readouterr().out
    assert "ranx: not compared, no ef values averaged over qrels" in out
    assert "same" not in out


def test_the_api_row_stays_the_reference_when_it_ran(capsys) -> None:
    run = load("run")
    api = {"values": {"map": 0.5}, "values_over_qrels": {"map": 0.4}}
    run.agreement(
        {
            "ef (CLI)": [{"values": {"map": 0.9}}],  # not the reference: never compared
            "ef (API)": [api],
            "ranx": [{"values": {"map": 0.4}, "averaging": "qrels"}],
        }
    )
    out = capsys.readouterr().out
    assert 'Agreement with ef (the "ef (API)" row;' in out
    assert "ranx: same map" in out


def test_the_cli_row_keeps_its_report_and_runs_over_qrels_once_more(small, capsys) -> None:
    import os

    import ef.evaluation

    run = load("run")
    env = dict(os.environ, PYTHONPATH=str(Path(ef.evaluation.__file__).parents[2]))
    results = {
        "ef (CLI)": [run.measure_tool("ef (CLI)", small[0], small[1], env)],
        "ir_measures": [{"values": {"map": 0.3}, "averaging": "qrels"}],
    }
    run.cli_over_qrels(results, small[0], small[1], env)
    assert "ef (CLI) once more with --averaging qrels, untimed" in capsys.readouterr().out
    row = results["ef (CLI)"][0]
    assert "metrics" not in row  # the report is read into the row's values
    metrics = tuple(run.CLI_NAMES)
    for key, report in (
        ("values", evaluate_run(small[0], small[1], metrics=metrics, averaging="intersection")),
        ("values_over_qrels", evaluate_run(small[0], small[1], metrics=metrics)),  # qrels
    ):
        assert row[key] == run.cli_values(dict(report.metrics)), key
    # 2 judged queries are missing from the run: over qrels, they score 0.
    assert row["values_over_qrels"]["map"] < row["values"]["map"]


@pytest.mark.parametrize(
    "results",
    [
        {  # the API row gives ef's values over qrels itself
            "ef (API)": [{"values": {"map": 0.5}, "values_over_qrels": {"map": 0.4}}],
            "ef (CLI)": [{"values": {"map": 0.5}}],
            "ranx": [{"values": {"map": 0.4}, "averaging": "qrels"}],
        },
        {  # no row averages over qrels
            "ef (CLI)": [{"values": {"map": 0.5}}],
            "pytrec_eval": [{"values": {"map": 0.5}}],
        },
        {  # the row that would has no values: out of memory at XL
            "ef (CLI)": [{"values": {"map": 0.5}}],
            "ranx": [{"out_of_memory": "the whole run as Python objects"}],
        },
        {"ef (CLI)": [{"out_of_memory": "-"}], "ranx": [{"values": {}, "averaging": "qrels"}]},
    ],
)
def test_the_cli_runs_once_more_only_when_a_row_needs_it(tmp_path, monkeypatch, results) -> None:
    run = load("run")

    def no_call(command, env, report=False):
        raise AssertionError(f"called {command}")

    monkeypatch.setattr(run, "_timed", no_call)
    before = repr(results)
    run.cli_over_qrels(results, tmp_path / "run.trec", tmp_path / "qrels.txt", {})
    assert repr(results) == before


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
    printed = {
        "map": 0.2512,  # 0.25123 printed: within half the last digit
        "P@10": 0.0932,  # a digit off: listed
    }
    c_row = {"values": printed, "tolerance": run.C_TOLERANCE}
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


def test_a_snippet_gives_its_last_json_line_with_its_wall_time_and_rss() -> None:
    import os
    import sys

    run = load("run")
    env = dict(os.environ)
    snippet = "print('loading'); print('{\"load\": 0.5}')"
    result = run._timed([sys.executable, "-c", snippet], env)
    assert result.keys() == {"load", "wall", "rss_mb"}
    assert result["load"] == 0.5
    assert float(result["wall"]) > 0
    assert float(result["rss_mb"]) > 1  # a Python process: MBs
    with pytest.raises(SystemExit, match="failed with status 3"):
        run._timed([sys.executable, "-c", "raise SystemExit(3)"], env)
    with pytest.raises(SystemExit, match="printed no JSON line"):
        run._timed([sys.executable, "-c", "print('no json')"], env)


def test_a_tool_that_fails_is_a_row_saying_why_not_a_crash(tmp_path, capsys) -> None:
    # The C trec_eval fails at XL (its Malloc truncates sizes to 32 bits): the table says so.
    run = load("run")
    command = ["sh", "-c", "echo 'trec_eval: Quit in file run' >&2; exit 3"]
    failed = run._timed_to(command, tmp_path / "out", check=False)
    assert failed["failed"] == "exit status 3: trec_eval: Quit in file run"
    with pytest.raises(SystemExit, match="exit status 3"):
        run._timed_to(command, tmp_path / "out")
    run.report({run.C_TOOL: [failed]})
    row = next(line for line in capsys.readouterr().out.splitlines() if "trec_eval (C)" in line)
    assert "failed after" in row
    assert row.endswith("exit status 3: trec_eval: Quit in file run |")


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


#: The stages of each reader that the others do not reach.
_NUMPY_STAGES = {"read the run (numpy)", "parse, in parts on threads"}
_POLARS_STAGES = {"parse (polars)", "ids, checks (polars)", "byte checks + sha256 (thread)"}


@pytest.mark.parametrize("reader", ["numpy", "polars", "batches"])
def test_the_breakdown_times_every_stage_it_names(small, small_blocks, reader, monkeypatch) -> None:
    from ef.evaluation._formats.trec import fast as trec_fast

    if reader == "batches":  # the scale S run read as large runs are: in batches of whole queries
        small_blocks(1 << 16, stream_from=0)
    elif reader == "polars":  # read whole by polars, as a run above SMALL_RUN_BYTES is
        monkeypatch.setattr(trec_fast, "SMALL_RUN_BYTES", 0)
    breakdown = load("breakdown")
    read = RunTable.read
    result = breakdown.child(str(small[0]), str(small[1]))
    assert RunTable.read == read  # the timers are gone again
    assert result["missing"] == []  # every stage's function was found
    not_reached = _POLARS_STAGES if reader == "numpy" else _NUMPY_STAGES
    for label, *_ in breakdown.STAGES + breakdown.BESIDE:
        if label in not_reached:
            assert label not in result["times"], label
        else:
            assert result["times"][label] > 0, label
    rows = breakdown.rows([result["times"]], 0.01)
    assert rows[0] == ("interpreter start (python -c pass)", 0.01)
    labels = [label.strip() for label, _ in rows]
    assert not set(labels) & not_reached  # a stage not reached has no row (no nan)
    # The rests of the command, evaluate_run and the score; and the numpy reader's.
    assert labels.count("(rest)") == (4 if reader == "numpy" else 3)
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


# breakdown.py by scale: stages.py in a fresh process, the rest with a fake process timer.


def _env() -> dict[str, str]:
    import os

    import ef.evaluation

    return dict(os.environ, PYTHONPATH=str(Path(ef.evaluation.__file__).parents[2]))


@pytest.mark.parametrize(
    ("args", "outputs"),
    [
        (["evaluate"], "ndcg"),
        (["trec_eval", "-q", "-c", "-m", "all_trec"], "num_q"),
    ],
)
def test_stages_charges_every_kind_of_a_command(small, tmp_path, args, outputs) -> None:
    import json
    import subprocess
    import sys

    stages = load("stages")
    report = tmp_path / "stages.json"
    command = [sys.executable, str(BENCHMARKS / "stages.py"), str(report), *args]
    done = subprocess.run(
        [*command, str(small[1]), str(small[0])],
        capture_output=True,
        text=True,
        env=_env(),
        check=True,
    )
    assert outputs in done.stdout  # the command ran, its output to stdout
    result = json.loads(report.read_text())
    assert result["status"] == 0
    assert result["missing"] == []  # every timed function found once its module loaded
    assert list(result["spent"]) == list(stages.KINDS)
    for kind in ("imports", "plugin discovery", "reading", "scoring", "output"):
        assert result["spent"][kind] > 0, kind
    assert sum(result["spent"].values()) == pytest.approx(result["total"], rel=1e-9)


def _fake_process(command: list[str], out: Path) -> dict[str, object]:
    """What breakdown._measure returns, without a process: ef's commands take 1 s and the
    peers 2 s; stages.py writes its report; the warm snippets print 0.5 s and 0.25 s."""
    import json

    text = " ".join(command)
    if "stages.py" in text:
        spent = dict.fromkeys(load("stages").KINDS, 0.1)
        Path(command[2]).write_text(json.dumps({"spent": spent, "missing": [], "status": 0,
                                                "total": 0.6}))  # fmt: skip
        return {"wall": 0.7, "rss_mb": 50.0}
    if "ir_measures" in text:
        return {"wall": 0.1, "rss_mb": 30.0, "failed": "exit status 1: ImportError: boom"}
    if "warm=" in text:
        out.write_text('{"warm": %s}\n' % (0.5 if "evaluate_run" in text else 0.25))
        return {"wall": 3.0, "rss_mb": 90.0}
    out.write_bytes(b"the same output")
    if text.endswith(" pass"):
        return {"wall": 0.01, "rss_mb": 10.0}
    ef = "ef-eval" in text or "ef-trec-eval" in text or "ef.evaluation" in text
    return {"wall": 1.0 if ef else 2.0, "rss_mb": 120.0 if ef else 60.0}


@pytest.fixture
def fake_scales(tmp_path, monkeypatch) -> tuple[ModuleType, Path]:
    """breakdown.py with a fake process timer, and a shared folder of tiny CACM and SciFact
    files (the SciFact run gzipped)."""
    import gzip
    import types

    breakdown = load("breakdown")
    shared = tmp_path / "shared"
    for part in (*breakdown.REAL["cacm"], *breakdown.REAL["scifact"]):
        (shared / part).parent.mkdir(parents=True, exist_ok=True)
    for qrels, run in (breakdown.REAL["cacm"], breakdown.REAL["scifact"]):
        (shared / qrels).write_text("1 0 d1 1\n")
        lines = b"1 Q0 d1 1 2.0 bm25\n1 Q0 d2 2 1.0 bm25\n"
        if run.endswith(".gz"):
            (shared / run).write_bytes(gzip.compress(lines))
        else:
            (shared / run).write_bytes(lines)
    monkeypatch.setenv("EF_EVALUATION_SHARED", str(shared))
    monkeypatch.setattr(breakdown, "_measure", _fake_process)
    monkeypatch.setattr(breakdown, "_tools", lambda: types.SimpleNamespace(compiled=lambda: None))
    monkeypatch.setattr(breakdown, "c_trec_eval", lambda: ("/oracles/trec_eval", ""))
    monkeypatch.setattr(breakdown, "heavy_imports", lambda: {"modules": []})
    monkeypatch.setattr(breakdown, "import_summary", lambda *a, **k: [("numpy", 0.1)])
    monkeypatch.setattr(breakdown, "installed", lambda name: True)  # the peers are faked too
    return breakdown, shared


def _rows(out: str, *cells: str) -> int:
    """How many table rows have cells that start with ``cells``."""
    start = "| " + " | ".join(cells) + " |"
    return sum(line.startswith(start) for line in out.splitlines())


def test_by_scale_prints_every_row_with_its_ratio(fake_scales, monkeypatch, capsys) -> None:
    breakdown, _ = fake_scales
    monkeypatch.setattr(breakdown, "installed", lambda module: module != "ranx")
    breakdown.main(["--scales", "cacm,scifact", "--repeat", "2"])
    out = capsys.readouterr().out
    # The stage rows: 0.1 s a kind, 0.7 s a process: exit = 0.7 - 0.01 (start) - 0.6.
    row = "| 0.010 | 0.100 | 0.100 | 0.100 | 0.100 | 0.100 | 0.100 | 0.090 | 0.700 | 50 |"
    assert out.count(f"| ef-eval evaluate {row}") == 2  # cacm, scifact
    assert out.count(f"| ef-trec-eval -q -c -m all_trec {row}") == 2
    assert "300,000" not in out
    assert "(2 lines, " in out  # the SciFact run, decompressed to count and read
    for peer in ("pytrec_eval (process)", "trec_eval 9.0.8 (C), same measures"):
        assert _rows(out, "ef-eval evaluate", "1.000", peer, "2.000", "0.500") == 2
    assert out.count("| ir_measures (process) | failed, ir_measures (process): exit status 1") == 2
    ranx = "| ranx, warm (2nd call) | not installed (pip install ranx==0.3.21) |"
    assert out.count(ranx) == 2
    assert (
        out.count(
            "| trec_eval 9.0.8 (C) -q -c -m all_trec | 2.000 | 0.500 | 0.50 to 0.50 | 120 | 60 | yes |"
        )
        == 2
    )
    numpy = ("ef-trec-eval -c -m all_trec", "1.000", 'python -c "import numpy"', "2.000")
    assert _rows(out, *numpy) == 1  # CACM's alone
    # The targets, each ratio against its limit.
    assert "| ef-eval evaluate / pytrec_eval process | cacm | 0.500 | ≤ 2 | met |" in out
    assert "| ef-eval evaluate / pytrec_eval process | scifact | 0.500 | ≤ 0.5 | met |" in out
    assert (
        "| ef-trec-eval -q -c -m all_trec: peak RSS MB | scifact | 120 | ≤ 100 | NOT met |" in out
    )
    assert f"| {breakdown.IMPORT_VS_NUMPY} | start-up | 0.500 | ≤ 1 | met |" in out
    assert "| start-up | none | no numpy | met |" in out
    assert "| M |" not in out  # not asked for: no target row


def test_the_warm_pair_compares_the_second_calls(fake_scales, capsys) -> None:
    breakdown, _ = fake_scales
    breakdown.main(["--scales", "cacm", "--repeat", "1", "--peers", "ranx"])
    out = capsys.readouterr().out
    warm = ("evaluate_run, warm (2nd call)", "0.500", "ranx, warm (2nd call)", "0.250", "2.000")
    assert _rows(out, *warm) == 1
    assert "pytrec_eval (process)" not in out  # --peers: ranx alone


def test_a_missing_c_trec_eval_or_shared_folder_is_a_line_saying_so(
    fake_scales, tmp_path, monkeypatch, capsys
) -> None:
    breakdown, shared = fake_scales
    why = "no make or cc: cannot build trec_eval"
    monkeypatch.setattr(breakdown, "c_trec_eval", lambda: (None, why))
    (shared / breakdown.REAL["cacm"][1]).unlink()
    monkeypatch.setattr(breakdown, "DISK_NEEDED", {"XL": 1 << 60})  # XL: not generated
    breakdown.main(["--scales", "cacm,scifact,XL", "--repeat", "1", "--data", str(tmp_path)])
    out = capsys.readouterr().out
    assert "run.cacm-bm25.txt absent: the shared data folder is not beside this checkout" in out
    assert f"| trec_eval 9.0.8 (C), same measures | {why} |" in out
    assert (
        f"| ef-trec-eval -q -c -m all_trec / trec_eval 9.0.8 | scifact | {why} | ≤ 1 | - |" in out
    )
    assert "## XL\n\nskipped: not generated: " in out
    assert not list(tmp_path.glob("run.XL*"))
    assert "| cacm |" not in out  # skipped: no targets of its


def test_at_xl_the_in_memory_peers_and_trec_eval_are_rows_saying_why_not(tmp_path) -> None:
    breakdown = load("breakdown")
    run, qrels = tmp_path / "run.XL.trec", tmp_path / "qrels.XL.txt"
    pairs = breakdown.scale_plan("XL", run, qrels, ("/oracles/trec_eval", ""), breakdown.PEERS)
    not_run = {pair.key: pair.peer.why_not or pair.ef.why_not for pair in pairs}
    assert all(not_run.values()), not_run
    assert not_run["evaluate/pytrec_eval"].startswith("not run at XL: it holds the whole run")
    assert not_run["trec_eval/trec_eval"].startswith("not run at XL: it reads the whole run")
    # Nor is ef-trec-eval's time split there: it too holds the whole run.
    assert [label for label, _ in breakdown.staged_commands("XL")] == ["ef-eval evaluate"]
    assert breakdown.staged_commands("M") == list(breakdown.STAGED)
