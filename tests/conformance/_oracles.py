"""The C trec_eval, 9.0.8 and 10.0, built once from ``../shared/oracles`` with its build.sh.

:func:`trec_eval_binary` builds both (seconds, once per cache folder) and returns one's path,
or skips the test with the reason: ``../shared`` is absent, there is no C compiler or make
(build.sh exits 3), or the build failed. The cache folder is ``EF_EVALUATION_ORACLES`` or
``$XDG_CACHE_HOME/ef-evaluation-oracles`` (build.sh's default). Nothing built is kept in the
repository.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from functools import cache
from pathlib import Path

import pytest

from ..conftest import SHARED

#: The versions build.sh prints, in its order.
VERSIONS = ("10.0", "9.0.8")


def _default_cache() -> Path:
    """build.sh's default cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ef-evaluation-oracles"


@cache
def _built() -> tuple[dict[str, Path], str]:
    """``({version: binary}, "")``, or ``({}, why not)``."""
    script = SHARED / "oracles" / "build.sh"
    if not script.exists():
        return {}, f"{script} is absent: the shared folder is not beside this checkout"
    cache_dir = os.environ.get("EF_EVALUATION_ORACLES")
    command = ["bash", str(script), *([cache_dir] if cache_dir else [])]
    # build.sh is not safe to run twice at once (it unpacks into one .tmp folder), and each
    # pytest-xdist worker may be first: one builds, the others wait and find it built.
    folder = Path(cache_dir) if cache_dir else _default_cache()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / ".build.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {}, f"cannot run {script}: {exc}"
    if done.returncode == 3:
        return {}, f"no C compiler or make to build trec_eval: {done.stderr.strip()}"
    if done.returncode != 0:
        return {}, f"{script} failed ({done.returncode}): {done.stderr.strip()}"
    paths = [Path(line) for line in done.stdout.split()]
    if len(paths) != len(VERSIONS) or not all(p.is_file() for p in paths):
        return {}, f"{script} printed {done.stdout!r}, not the two binaries' paths"
    return dict(zip(VERSIONS, paths, strict=True)), ""


def trec_eval_binary(version: str) -> Path:
    """The C trec_eval ``version`` ("9.0.8" or "10.0"), or a skip saying why there is none."""
    binaries, why = _built()
    if not binaries:
        pytest.skip(why)
    return binaries[version]
