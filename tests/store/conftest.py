"""The stores the tests run on: a SQLite file, and a database on a real PostgreSQL server.

The server is a throwaway cluster: ``initdb`` in a temporary folder, started by ``pg_ctl``
on 127.0.0.1 at a free port (and a unix socket in the same folder), trust authentication,
stopped and removed at the end of the session. ``initdb`` refuses to run as root, so under
root (as CI runs) the cluster belongs to the ``postgres`` user and its commands run through
``runuser``. Each test gets a database of its own. Where psycopg or the server's programs
are absent, the PostgreSQL tests skip with the reason (and fail in the ``postgresql`` tox
env, which installs them: see conftest.py).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


def _program(name: str) -> str | None:
    """A PostgreSQL server program: on PATH, or in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A running throwaway PostgreSQL cluster."""

    def __init__(self, folder: Path, port: int, as_user: list[str]) -> None:
        self.folder, self.port, self.as_user = folder, port, as_user
        self._names = itertools.count()

    def run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_user, *command], capture_output=True, text=True, check=False
        )
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"ef_test_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgresql_server() -> Iterator[Server]:
    pytest.importorskip("psycopg", reason="psycopg is not installed (the postgresql extra)")
    initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("no PostgreSQL server: initdb and pg_ctl are not installed")
    # Under root, the cluster is the postgres user's: initdb refuses root. runuser lives in
    # sbin, which a user's PATH may leave out.
    runuser = shutil.which("runuser", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    as_user = [runuser or "runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    folder = Path(tempfile.mkdtemp(prefix="ef-postgresql-"))
    data = folder / "data"
    server = Server(folder, _free_port(), as_user)
    started = False
    try:
        if as_user:
            shutil.chown(folder, "postgres", "postgres")
        server.run(initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-c listen_addresses=127.0.0.1 -p {server.port} -k {folder} -c fsync=off"
        log = str(folder / "log")
        server.run(pg_ctl, "-D", str(data), "-l", log, "-o", options, "-w", "start")
        started = True
        yield server
    finally:
        if started:
            server.run(pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty store, of each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    server: Server = request.getfixturevalue("postgresql_server")
    return server.new_database()
