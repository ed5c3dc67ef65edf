"""ef-eval imports what the command run needs, and nothing of the other commands.

Each check runs ``ef-eval`` in a fresh interpreter (``main()``, as the console script does) and
reads back the modules it imported; third-party plugins are not loaded, so that what one of
them imports cannot hide or fake a module of ours.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from ef.evaluation.cli import cli

#: Every command of ef-eval, and the module under cli/ that is it.
_MODULES = {
    "agree": "_agree",
    "compare": "_compare",
    "convert": "_convert",
    "diversity": "_diversity",
    "download": "_download",
    "evaluate": "_evaluate",
    "experiment": "_experiment",
    "fuse": "_fuse",
    "fusions": "_fuse",
    "history": "_store",
    "leaderboard": "_store",
    "metrics": "_metrics",
    "pipeline": "_pipeline",
    "plugins": "_plugins",
    "pool": "_pool",
    "rag": "_rag",
    "retrieve": "_retrieve",
    "site": "_site",
    "trec_eval": "_trec_eval",
}
#: What every command's module imports: the group, the shared options and printing, the
#: spelling of library messages in the options' names, and the pause of garbage collection
#: while the modules load (cli/_gc.py).
_APP = {"_app", "_gc", "_options", "_render", "_spelling"}
#: What the other commands run: never imported by ef-eval evaluate.
_OTHERS_WORK = (
    "ef.evaluation._evaluate.compare",
    "ef.evaluation._evaluate.fuse",
    "ef.evaluation._evaluate.pipeline",
    "ef.evaluation._evaluate.pooling",
    "ef.evaluation._evaluate.rag",
    "ef.evaluation._engine.retrieve",
    "ef.evaluation._engine.stats",
    "ef.evaluation._engine.trec_eval",
    "ef.evaluation._formats.convert",
    "ef.evaluation._formats.download",
    "ef.evaluation._formats.answers",
    "ef.evaluation._presentation.catalogue",
)

# The listing is written as the process ends: evaluate and trec_eval end it in cli._exit_now,
# which runs the atexit functions and nothing after main().#: What scoring a run needs none of: the store of evaluations (without --record), the other
#: kinds of report.
_NOT_FOR_A_RUN = (
    "ef.evaluation._store",
    "ef.evaluation._store.recording",
    "ef.evaluation._reports.comparison",
    "ef.evaluation._reports.fusion",
    "ef.evaluation._reports.pipeline",
    "ef.evaluation._reports.pool",
    "ef.evaluation._reports.rag",
    # The RAG metrics: the registry collects retrieval metrics without them.
    "ef.evaluation.metrics.rag",
    "ef.evaluation.metrics.lexical",
    "ef.evaluation.metrics.normalize",
    "ef.evaluation.metrics.overlap",
    "ef.evaluation.metrics._claims",
    "ef.evaluation.metrics._nuggets",
    "ef.evaluation.metrics.has_answer",
    "ef.evaluation._evaluate.rag",
    # The readers of ir_datasets ids and of URLs: local files need neither.
    "ef.evaluation._formats.irds",
    "ef.evaluation._formats.remote",
    "ef.evaluation._evaluate.irds_level",
    # The dataset values (a corpus, a dataset): read for a dataset, never for a run.
    "ef.evaluation._dataset",
    # The values of the other kinds of plugin: the registry builds none of their classes.
    "ef.evaluation.interfaces._adapters",
    "ef.evaluation.interfaces._fusion",
    "ef.evaluation.interfaces._rag",
)

#: What a plain run file below the batch size needs none of: the engine of batches (streamed
#: or sharded runs), and gzip and zlib (a plain file's readers catch their errors only once a
#: gzip file loaded them).
_NOT_FOR_A_SMALL_FILE = (
    "ef.evaluation._engine.batched",
    "ef.evaluation._evaluate.sharded",
    "ef.evaluation._evaluate.streamed",
    "ef.evaluation._formats.trec.stream",
    "gzip",
    "zlib",
)

_SCRIPT = """
import atexit, sys
from ef.evaluation.cli import main

def listing(out=sys.argv[1]):
    names = sorted(sys.modules)  # before this listing's own json
    import json
    with open(out, "w") as f:
        json.dump(names, f)

atexit.register(listing)
sys.argv = ["ef-eval", *sys.argv[2:]]
main()
"""


def _ef_eval(
    tmp_path: Path, *args: str, script: str = _SCRIPT
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``ef-eval ARGS`` in a fresh interpreter: how it ended, and the modules it imported."""
    listing = tmp_path / "modules.json"
    env = {**os.environ, "EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD": "1", "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(listing), *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    return done, set(json.loads(listing.read_text()))


def _trec_files(tmp_path: Path) -> tuple[Path, Path]:
    """A small TREC qrels file and run, every query scored 1.0 by map@10."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n")
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 1.0 t\n")
    return qrels, run


def _cli_modules(loaded: set[str]) -> set[str]:
    return {name for name in loaded if name.startswith("ef.evaluation.cli._")}


def test_evaluate_imports_no_other_command(tmp_path) -> None:
    qrels, run = _trec_files(tmp_path)
    done, loaded = _ef_eval(
        tmp_path, "evaluate", str(qrels), str(run), "-m", "map@10", "-o", "json"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["metrics"] == {"map@10": 1.0}
    assert "ef.evaluation._evaluate.run" in loaded  # the work was done in this process
    assert not loaded & {*_OTHERS_WORK, "rich"}  # -o json prints no table
    assert "hashlib" in loaded  # its manifest holds the files' sha256
    assert not loaded & set(_NOT_FOR_A_RUN)
    assert not loaded & set(_NOT_FOR_A_SMALL_FILE)
    assert _cli_modules(loaded) == {f"ef.evaluation.cli.{m}" for m in _APP | {"_evaluate"}}


#: What reading and scoring TREC files, and printing a table, need none of: JSON, the
#: temporary files and folders of a write, a package's resources (the demo dataset), the
#: sha256 of the files for a manifest that no table shows (OpenSSL's load: 5 ms).
_NOT_FOR_TREC_FILES = ("json", "tempfile", "shutil", "importlib.resources", "hashlib")


def test_evaluates_table_imports_no_json_no_writing_and_no_rich(tmp_path) -> None:
    qrels, run = _trec_files(tmp_path)
    done, loaded = _ef_eval(tmp_path, "evaluate", str(qrels), str(run), "-m", "map@10")
    assert done.returncode == 0, done.stderr
    assert "│ map    │ 1.0000 │" in done.stdout  # the table was drawn in this process
    assert not loaded & {*_NOT_FOR_TREC_FILES, *_NOT_FOR_A_SMALL_FILE}
    assert "rich" not in loaded  # off a terminal, its box is drawn without rich


def test_the_default_measures_load_no_other_tools_vocabulary(tmp_path) -> None:
    # Measures in our syntax are read without trec_eval's vocabulary (its names, its sets)
    # or ranx's: those load for a measure written in theirs.
    qrels, run = _trec_files(tmp_path)
    vocabularies = {
        "ef.evaluation._engine.syntax.trec_eval",
        "ef.evaluation._engine.trec_vocabulary",
        "ef.evaluation._engine.syntax.ranx",
    }
    done, loaded = _ef_eval(tmp_path, "evaluate", str(qrels), str(run))
    assert done.returncode == 0, done.stderr
    assert "│ ndcg      │ 1.0000 │" in done.stdout  # the default measures, scored here
    assert not loaded & vocabularies
    done, loaded = _ef_eval(tmp_path, "evaluate", str(qrels), str(run), "-m", "ndcg_cut.10")
    assert done.returncode == 0, done.stderr
    assert "ef.evaluation._engine.syntax.trec_eval" in loaded  # read in trec_eval's syntax


def test_ef_trec_eval_imports_what_it_scores_with_alone(tmp_path) -> None:
    # Issue 26: ef-trec-eval never imports fusion, compare, retrievers, RAG or rich; nor the
    # store, the other reports, or the dataset values of a corpus.
    qrels, run = _trec_files(tmp_path)
    script = _SCRIPT.replace("import main", "import trec_eval_main as main")
    done, loaded = _ef_eval(tmp_path, "-m", "all_trec", str(qrels), str(run), script=script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("runid")
    assert "ef.evaluation._engine.trec_eval" in loaded  # the work was done in this process
    never = {
        *(name for name in _OTHERS_WORK if name != "ef.evaluation._engine.trec_eval"),
        *_NOT_FOR_A_RUN,
        "rich",
        "ef.evaluation._fusion",
        "ef.evaluation._retrievers",
        "ef.evaluation._dataset",
        *_NOT_FOR_TREC_FILES,
        *_NOT_FOR_A_SMALL_FILE,
    }
    assert not loaded & never
    # Its warnings are printed as ef-eval prints them (_options, _spelling); no other command.
    own = {"_gc", "_trec_eval", "_options", "_spelling"}
    assert _cli_modules(loaded) == {f"ef.evaluation.cli.{m}" for m in own}


def test_the_help_lists_every_command_and_imports_none(tmp_path) -> None:
    done, loaded = _ef_eval(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("Commands:\n")[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(_MODULES)
    assert "  evaluate     Score the run file RUN against the judgements in QRELS, as..." in listed
    assert not {name for name in loaded if name.startswith("ef.evaluation._evaluate")}
    assert _cli_modules(loaded) == {"ef.evaluation.cli._app", "ef.evaluation.cli._gc"}


@pytest.mark.parametrize("command", sorted(_MODULES))
def test_a_commands_help_imports_its_module_alone(tmp_path, command: str) -> None:
    done, loaded = _ef_eval(tmp_path, command, "-h" if command == "trec_eval" else "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout
    own = f"ef.evaluation.cli.{_MODULES[command]}"
    assert own in loaded
    assert _cli_modules(loaded) <= {own, *(f"ef.evaluation.cli.{m}" for m in _APP)}
    # What the command runs is imported when it runs: its options need none of it.
    assert not {name for name in loaded if name.startswith("ef.evaluation._evaluate")}
    assert not loaded & {"numpy", "rich", "ef.evaluation._engine.scoring"}


@pytest.mark.skipif(
    not hasattr(click.exceptions, "NoSuchCommand"), reason="click < 8.4 suggests no name"
)
def test_a_misspelt_command_is_still_suggested(tmp_path) -> None:
    done, _ = _ef_eval(tmp_path, "evaluat")
    assert done.returncode == 2
    assert "Error: No such command 'evaluat'. Did you mean 'evaluate'?" in done.stderr


@pytest.mark.parametrize("width", [30, 50, 80, 120])
def test_the_listing_is_what_click_makes_of_the_commands(width: int) -> None:
    # Each line of `ef-eval --help` is written without importing the command: it must be
    # the line click makes from the command itself, shortened as click shortens it.
    ctx = click.Context(cli, info_name="ef-eval")
    names = cli.list_commands(ctx)
    assert names == sorted(_MODULES)
    commands = [cli.get_command(ctx, name) for name in names]
    loaded = click.Group(commands=[c for c in commands if c is not None])
    ours, clicks = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
    cli.format_commands(ctx, ours)
    loaded.format_commands(ctx, clicks)
    assert ours.getvalue() == clicks.getvalue()


@pytest.mark.parametrize("command", sorted(_MODULES))
def test_every_command_takes_debug_after_its_name(command: str) -> None:
    loaded = cli.get_command(click.Context(cli), command)
    assert loaded is not None
    assert [p.opts for p in loaded.params if "--debug" in p.opts] == [["--debug"]]


#: The kind of report each command prints (render.REPORT_OUTPUTS), if it prints one.
_KINDS = {
    "agree": "rows",
    "compare": "comparison",
    "diversity": "retrieval",
    "evaluate": "retrieval",
    "experiment": "comparison",
    "fusions": "rows",
    "history": "rows",
    "leaderboard": "rows",
    "metrics": "rows",
    "pipeline": "pipeline",
    "plugins": "rows",
    "rag": "rag",
    "retrieve": "retrieval",
}


@pytest.mark.parametrize("command", sorted(_MODULES))
def test_a_commands_outputs_are_those_render_declares(command: str) -> None:
    from ef.evaluation._render import OUTPUTS, REPORT_OUTPUTS

    loaded = cli.get_command(click.Context(cli), command)
    assert loaded is not None
    choices = [
        tuple(p.type.choices)
        for p in loaded.params
        if p.name == "output" and isinstance(p.type, click.Choice)
    ]
    kind = _KINDS.get(command)
    if kind is None:
        assert choices == []
        return
    assert choices == [REPORT_OUTPUTS[kind]]
    # render() draws each of them, but trec_eval's lines, which the CLI prints itself.
    assert set(REPORT_OUTPUTS[kind]) <= {*OUTPUTS, "trec"}


def test_ordinary_qrels_load_no_diversity_path(tmp_path) -> None:
    # Whether qrels may be subtopic qrels is told without the diversity scoring and the
    # subtopic reader (_evaluate/_subtopic_gate.py); a subtopic file, named or detected by a
    # diversity measure, still takes that path.
    diversity = {
        "ef.evaluation._evaluate._diversity",
        "ef.evaluation._formats.trec._subtopics",
        # Nor the diversity measures, to tell that a metric's name is none of theirs.
        "ef.evaluation._engine._diversity",
        "ef.evaluation.metrics.retrieval.diversity",
    }
    qrels, run = _trec_files(tmp_path)
    for measures in (["-m", "map@10"], [], ["-m", "nDCG@10", "-m", "P@5"]):
        done, loaded = _ef_eval(tmp_path, "evaluate", str(qrels), str(run), *measures)
        assert done.returncode == 0, done.stderr
        assert not loaded & diversity
    subtopics = tmp_path / "subtopics.txt"
    subtopics.write_text("q1 1 d1 1\nq1 2 d1 1\nq1 2 d2 1\nq2 1 d3 1\n")
    done, loaded = _ef_eval(
        tmp_path, "evaluate", str(subtopics), str(run), "-m", "alpha_nDCG@10", "-o", "json"
    )
    assert done.returncode == 0, done.stderr
    assert diversity <= loaded
    assert set(json.loads(done.stdout)["metrics"]) == {"alpha_ndcg@10"}
