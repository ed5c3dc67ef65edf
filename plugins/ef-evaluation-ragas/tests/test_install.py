"""The bridge installs as its README says: the README's own commands, run in a fresh venv
with pip's resolver, resolve without backtracking and move no version of what ef installed
(but the packages the README names, with the reason).

It reaches the package registry (and nothing else), and takes a minute or two with a warm
pip cache, so it runs only with ``EF_TEST_INSTALL=1``: the ragas tox env sets it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

needs_registry = pytest.mark.skipif(
    os.environ.get("EF_TEST_INSTALL") != "1",
    reason="installs from the package registry: set EF_TEST_INSTALL=1 (tox -e ragas does)",
)

BRIDGE = Path(__file__).parents[1]
ROOT = BRIDGE.parents[1]
#: The ef dependencies the bridge moves, each named with its reason in the README's Install:
#: rich, because every instructor release caps it below the newest.
MOVED = {"rich"}
#: The message pip's resolver prints each time it backtracks.
BACKTRACKING = "pip is looking at multiple versions of"
#: A cap, not a measure: the resolution took 7 s here; the old bounds took 9 to 22 minutes.
RESOLVE_CAP_S = 600


def install_commands(text: str) -> list[list[str]]:
    """The ``pip install`` commands of the first console block under ``## Install``."""
    section = text.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    return [
        shlex.split(line.split("#", 1)[0])[2:]
        for line in block.splitlines()
        if line.startswith("pip install ")
    ]


def run(*args: str, timeout: float = RESOLVE_CAP_S) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        args, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{shlex.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def versions(python: str) -> dict[str, str]:
    listed = json.loads(run(python, "-m", "pip", "list", "--format=json").stdout)
    return {re.sub(r"[-_.]+", "-", p["name"]).lower(): p["version"] for p in listed}


def test_the_readme_and_the_docs_give_the_same_install_commands() -> None:
    readme = install_commands((BRIDGE / "README.md").read_text(encoding="utf-8"))
    docs = (ROOT / "docs" / "ragas.md").read_text(encoding="utf-8")
    assert readme == [["."], ["./plugins/ef-evaluation-ragas"]]
    for args in readme:
        assert f"pip install {shlex.join(args)}" in docs


@pytest.mark.install
@needs_registry
def test_a_fresh_venv_installs_the_bridge_as_the_readme_says(tmp_path: Path) -> None:
    readme = (BRIDGE / "README.md").read_text(encoding="utf-8")
    core, bridge = install_commands(readme)
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", str(venv))
    python = str(venv / "bin" / "python")
    run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip")  # today's resolver

    run(python, "-m", "pip", "install", "--quiet", *core)
    before = versions(python)
    assert "ef-evaluation" in before

    report = tmp_path / "report.json"
    start = time.perf_counter()
    resolved = run(python, "-m", "pip", "install", "--dry-run", "--report", str(report), *bridge)
    seconds = time.perf_counter() - start
    print(f"resolution of the bridge: {seconds:.1f} s")  # shown with -rP; the cap is the check
    assert BACKTRACKING not in resolved.stdout + resolved.stderr, "pip backtracked"
    planned: list[dict[str, Any]] = json.loads(report.read_text())["install"]
    assert "ef-evaluation-ragas" in {item["metadata"]["name"] for item in planned}

    run(python, "-m", "pip", "install", "--quiet", *bridge)
    after = versions(python)
    moved = {
        name: (version, after.get(name))
        for name, version in before.items()
        if after.get(name) != version and name not in {"pip", "setuptools"}
    }
    print(f"ef dependencies the bridge moved: {moved}")
    # Exactly the named ones: no other moves, and the README's claim is still true.
    assert set(moved) == MOVED, f"the bridge changed ef's installed dependencies: {moved}"
    install = readme.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    for name in MOVED:
        assert f"`{name}`" in install, f"the README's Install section does not name {name}"
    run(python, "-m", "pip", "check")

    # What was installed works: the plugin loads, Ragas imports (offline, telemetry off).
    code = (
        "import ragas, ef_evaluation_ragas; from ef.evaluation import list_plugins;"
        "assert any(p.name == 'ragas' for p in list_plugins()); print(ragas.__version__)"
    )
    env = {**os.environ, "RAGAS_DO_NOT_TRACK": "true", "XDG_DATA_HOME": str(tmp_path / "xdg")}
    env.pop("EF_EVALUATION_DISABLE_PLUGINS", None)
    imported = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "0.4.3"
