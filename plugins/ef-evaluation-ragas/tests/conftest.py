"""Offline and quiet: no telemetry, no files in the real home, no socket to anywhere."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile

import pytest
from hypothesis import settings

# Before anything imports ragas: "true" (not "1") turns its usage tracking off, and ragas still
# writes $XDG_DATA_HOME/ragas/uuid.json, so point that at a temporary directory.
os.environ["RAGAS_DO_NOT_TRACK"] = "true"
os.environ["XDG_DATA_HOME"] = _XDG = tempfile.mkdtemp(prefix="ef-ragas-xdg-")
atexit.register(shutil.rmtree, _XDG, ignore_errors=True)  # not one folder left a run


# No test may depend on timing: no per-example deadline. On CI, the same examples every run.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


class NetworkAccessError(RuntimeError):
    """A test tried to open a connection; the suite must run with no network."""


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: socket.socket, address: object) -> None:
        raise NetworkAccessError(f"network access attempted: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


@pytest.fixture(autouse=True)
def _verdict_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each test its own verdict cache file: none shares answers, none writes to the home."""
    path = tmp_path_factory.mktemp("verdicts") / "verdicts.sqlite3"
    monkeypatch.setenv("EF_EVALUATION_RAGAS_CACHE", str(path))
