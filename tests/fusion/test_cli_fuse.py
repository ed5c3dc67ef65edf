"""ef-eval fuse and ef-eval fusions: the run written, its tag, and one-line errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import Registry, evaluate_run, fuse, read_run, write_run
from ef.evaluation._formats._records import run_tags
from ef.evaluation.cli import cli

BM25 = {"q1": {"d1": 12.0, "d2": 9.0, "d3": 4.0}, "q2": {"d4": 3.0, "d5": 1.0}}
DENSE = {"q1": {"d3": 0.9, "d1": 0.8, "d6": 0.1}, "q2": {"d5": 0.7, "d4": 0.2}}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    bm25, dense = tmp_path / "bm25.trec", tmp_path / "dense.trec"
    write_run(bm25, BM25)
    write_run(dense, DENSE)
    return bm25, dense


def test_fuse_writes_the_fused_run_as_trec_with_a_tag(runs, tmp_path: Path) -> None:
    out = tmp_path / "rrf.trec"
    code, stdout, stderr = run("fuse", *map(str, runs), "-o", str(out), "--method", "rrf")
    assert code == 0, stderr
    assert stdout == f"fused 2 runs (rrf): 2 queries, 6 docs -> {out}\n"
    assert run_tags(out) == ["rrf"]
    expected = fuse(list(runs), method="rrf")
    assert read_run(out) == expected.to_dict()
    lines = out.read_text().splitlines()
    assert lines[0].split() == ["q1", "Q0", "d1", "1", repr(1 / 61 + 1 / 62), "rrf"]
    # What is written scores as the fused run does.
    qrels = {"q1": {"d3": 1}, "q2": {"d5": 1}}
    assert evaluate_run(out, qrels).metrics == evaluate_run(expected, qrels).metrics


def test_fuse_options_reach_fuse(runs, tmp_path: Path) -> None:
    out = tmp_path / "wsum.trec.gz"
    code, stdout, stderr = run(
        "fuse", *map(str, runs), "-o", str(out), "--norm", "zmuv", "--weights", "0.3,0.7",
        "--tag", "hybrid", "--ties", "docno_asc",
    )  # fmt: skip
    assert code == 0, stderr
    assert "(wsum, norm zmuv)" in stdout
    with gzip.open(out, "rt") as written:
        assert written.readline().endswith(" hybrid\n")
    expected = fuse(list(runs), norm="zmuv", weights=(0.3, 0.7), tie_policy="docno_asc")
    assert read_run(out) == expected.to_dict()
    out = tmp_path / "rrf10.trec"
    code, _, stderr = run("fuse", *map(str, runs), "-o", str(out), "--method", "rrf", "-p", "k=10")
    assert code == 0, stderr
    assert read_run(out) == fuse(list(runs), method="rrf", params={"k": 10}).to_dict()
    code, _, stderr = run("fuse", *map(str, runs), "-o", str(out), "--norm", "none", "-m", "sum")
    assert code == 2  # -m is no option of fuse
    code, _, stderr = run(
        "fuse", *map(str, runs), "-o", str(out), "--norm", "none", "--method", "sum"
    )
    assert code == 0, stderr
    assert read_run(out)["q1"]["d1"] == pytest.approx(12.8)


def test_a_query_a_run_lacks_is_a_warning_line(runs, tmp_path: Path) -> None:
    partial = tmp_path / "partial.trec"
    write_run(partial, {"q1": DENSE["q1"]})
    code, _, stderr = run("fuse", str(runs[0]), str(partial), "-o", str(tmp_path / "f.trec"))
    assert code == 0
    assert stderr.startswith(f"warning: {partial} lacks 1 of the 2 queries ('q2')")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "rff"], "Error: unknown fusion method 'rff'; did you mean 'rrf'?"),
        (["-p", "k=10"], "Error: fusion method 'wsum' has no parameter 'k'."),
        (["--method", "rrf", "-p", "k=1.5"], "Error: parameter 'k' must be an int, got 1.5"),
        (["--method", "rrf", "-p", "k"], "is not NAME=VALUE (e.g. k=60)"),
        (["--weights", "0.3,x"], "is not comma-separated numbers (e.g. 0.3,0.7)"),
        (["--weights", "1,2,3"], "Error: parameter 'weights' holds one number per run: 2 runs"),
        (["--norm", "l2"], "Invalid value for '--norm'"),
        (["--ties", "expected"], "Invalid value for '--ties'"),
        (["--tag", "my run"], "Error: run tag 'my run' cannot be written"),
    ],
)
def test_bad_options_are_one_line(runs, tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "f.trec"
    code, _, stderr = run("fuse", *map(str, runs), "-o", str(out), *args)
    assert code == 2
    assert message in stderr
    assert "Traceback" not in stderr
    assert not out.exists()  # nothing is written unless the fusion succeeded


def test_bad_inputs_are_one_line(runs, tmp_path: Path) -> None:
    out = tmp_path / "f.trec"
    code, _, stderr = run("fuse", str(runs[0]), "-o", str(out))
    assert (code, stderr) == (2, "Error: fuse needs two or more runs, got 1\n")
    code, _, stderr = run("fuse", str(runs[0]), str(tmp_path / "nope.trec"), "-o", str(out))
    assert code == 2
    assert stderr.startswith("Error: ")
    assert "nope.trec" in stderr
    bad = tmp_path / "bad.trec"
    bad.write_text("q1 Q0 d1 1 not-a-score tag\n")
    code, _, stderr = run("fuse", str(runs[0]), str(bad), "-o", str(out))
    assert code == 2
    assert stderr.startswith(f"Error: {bad}:1:")
    assert len(stderr.splitlines()) == 1
    assert not out.exists()


def test_fusions_lists_every_method_with_its_plugin() -> None:
    code, out, _ = run("fusions", "-o", "json")
    assert code == 0
    entries = {entry["name"]: entry for entry in json.loads(out)}
    assert list(entries) == sorted(entries)
    assert len(entries) == 25  # ranx 0.3.21's methods
    assert {"anz", "isr", "rrf", "wsum", "bordafuse", "condorcet", "probfuse", "posfuse"} <= set(
        entries
    )
    assert entries["rrf"]["uses"] == "ranks"
    assert entries["rrf"]["parameters"][0] | {"description": ""} == {
        "name": "k", "type": "int", "per_run": False, "default": 60, "description": "",
        "required": False, "learned": False, "vector": False, "grid": list(range(10, 101, 10)),
    }  # fmt: skip
    assert entries["wsum"]["parameters"][0]["per_run"] is True
    assert {entry["plugin"] for entry in entries.values()} == {"builtin.fusion"}
    assert "Cormack" in entries["rrf"]["citation"]
    code, out, _ = run("fusions", "-o", "csv")
    assert code == 0
    assert out.splitlines()[0] == "name,reads,parameters,formula,plugin"
    assert "wsum,scores,weights (one per run)," in out
    code, out, _ = run("plugins", "-o", "json")
    plugins = {plugin["name"]: plugin for plugin in json.loads(out)}
    assert plugins["builtin.fusion"]["provides"] == {"fusion": list(entries)}


def test_fusions_json_gives_each_parameters_flags(builtin_registry: Registry) -> None:
    code, out, _ = run("fusions", "-o", "json")
    assert code == 0
    entries = {entry["name"]: entry for entry in json.loads(out)}
    for name, method in builtin_registry.fusion_methods.items():
        entry = entries[name]
        assert entry["supervised"] is (method.train is not None)
        assert [p["name"] for p in entry["parameters"]] == [p.name for p in method.params]
        for shown, param in zip(entry["parameters"], method.params, strict=True):
            flags = {key: shown[key] for key in ("per_run", "required", "learned", "vector")}
            assert flags == {
                "per_run": param.per_run,
                "required": param.required,
                "learned": param.learned,
                "vector": param.vector,
            }
            assert shown["grid"] == list(param.grid)
    # Every kind is there: the supervised methods, and ranx's required gamma and phi.
    assert {n for n, e in entries.items() if e["supervised"]} == {
        "bayesfuse", "mapfuse", "posfuse", "probfuse", "segfuse", "slidefuse",
    }  # fmt: skip
    assert entries["gmnz"]["parameters"][0]["required"] is True
    assert entries["probfuse"]["parameters"][0]["vector"] is True
    assert entries["rrf"]["parameters"][0]["grid"] == list(range(10, 101, 10))
    code, out, _ = run("fusions", "-o", "csv")
    assert "gmnz,scores,gamma (required)," in out
    assert '"probs (one vector per run, learned), n_segments=' in out
    assert 'mapfuse,ranks,"map_scores (one per run, learned)",' in out
