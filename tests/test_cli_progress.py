"""ef-eval's progress bars: on stderr for a terminal only, off with --no-progress, and never
a change to stdout. (download's are tested with its local server, in test_download.py.)

A terminal is made by replacing the CLI's check of stderr; the bar is drawn at once (DELAY
0), so nothing here depends on timing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ef.evaluation._progress as progress_module
import ef.evaluation.cli._options as options
from ef.evaluation import demo_path, read_run, write_run
from ef.evaluation.cli import cli

DEMO = demo_path()
DEMO_RUN = Path(__file__).parents[1] / "examples" / "run.overlap.trec"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(progress_module, "DELAY", 0.0)


@pytest.fixture
def second_run(tmp_path: Path) -> Path:
    base = read_run(DEMO_RUN)
    path = tmp_path / "reversed.trec"
    write_run(path, {q: {d: -s for d, s in docs.items()} for q, docs in base.items()})
    return path


def commands(tmp_path: Path, second_run: Path) -> dict[str, list[str]]:
    return {
        "evaluate": ["evaluate", str(DEMO), str(DEMO_RUN), "-o", "json"],
        "convert": ["convert", str(DEMO_RUN), str(tmp_path / "out.tsv"), "--to", "msmarco",
                    "--drop", "scores,tag"],
        "compare": ["compare", str(DEMO), str(DEMO_RUN), str(second_run), "-t", "bootstrap",
                    "--n-resamples", "200", "--seed", "1", "-o", "json"],
    }  # fmt: skip


#: What each command's bars say, on a terminal.
BARS = {
    "evaluate": ("reading run.overlap.trec", "scoring"),
    "convert": ("converting run.overlap.trec",),
    "compare": ("reading run.overlap.trec", "reading reversed.trec", "resampling (bootstrap)"),
}


@pytest.mark.parametrize("command", list(BARS))
def test_no_bar_when_stderr_is_no_terminal(tmp_path: Path, second_run: Path, command: str) -> None:
    code, _, err = run(*commands(tmp_path, second_run)[command])
    assert code == 0, err
    assert not any(label in err for label in BARS[command]), err
    assert "━" not in err


@pytest.mark.parametrize("command", list(BARS))
def test_a_terminal_gets_bars_on_stderr_and_the_same_stdout(
    tmp_path: Path, second_run: Path, command: str, on_a_terminal: None
) -> None:
    args = commands(tmp_path, second_run)[command]
    code, out, err = run(*args)
    assert code == 0, err
    for label in BARS[command]:
        assert label in err, err
    code, plain, quiet = run(*args, "--no-progress")
    assert code == 0, quiet
    assert not any(label in quiet for label in BARS[command]), quiet
    if command == "convert":
        assert out == plain  # "converted run: ..." either way
    else:
        assert json.loads(out) == json.loads(plain)  # stdout holds the report alone


@pytest.mark.parametrize("command", list(BARS))
def test_every_long_command_takes_no_progress(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "--no-progress" in out
