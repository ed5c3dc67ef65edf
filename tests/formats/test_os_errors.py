"""Every OS error names its file: bad inputs are refused up front, failed writes leave no
temporary file, and a killed writer's temporary file is cleaned up by the next write."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ef.evaluation import convert, read_qrels, write_qrels
from ef.evaluation._formats import _io
from ef.evaluation._formats._io import atomic_writer, open_binary

QRELS = {"q1": {"d1": 1}}


def _entries(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# Reading


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=f"no such file: {tmp_path / 'gone.txt'}"):
        read_qrels(tmp_path / "gone.txt", format="trec")


def test_a_directory_where_a_file_is_expected(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError, match=f"{tmp_path} is a directory; expected a file"):
        open_binary(tmp_path)
    with pytest.raises(IsADirectoryError, match=f"{tmp_path} is a directory"):
        convert(tmp_path, tmp_path / "out.run", kind="run", to_format="trec")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_up_front_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "qrels.txt"
    os.mkfifo(fifo)
    message = f"{fifo} is a FIFO \\(named pipe\\), not a regular file"
    with pytest.raises(OSError, match=message):
        read_qrels(fifo)  # detection too: it would block on open
    with pytest.raises(OSError, match=message):
        convert(fifo, tmp_path / "out.txt", to_format="trec")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_character_device_is_refused() -> None:
    with pytest.raises(OSError, match="/dev/zero is a character device, not a regular file"):
        read_qrels("/dev/zero", format="trec")


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    if len(str(path)) > 100:
        pytest.skip("the path is too long for a Unix socket")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(OSError, match=f"{path} is a socket"):
            open_binary(path)


def test_an_unreadable_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "qrels.txt"
    write_qrels(path, QRELS)
    monkeypatch.setattr("os.access", lambda *_: False)  # as for a non-root user, mode 000
    with pytest.raises(PermissionError, match=f"{path}: permission denied; cannot read it"):
        read_qrels(path, format="trec")


# Writing


class _Failing:
    """A file whose writes fail with ``number``, as a full disk or a size limit makes them."""

    def __init__(self, handle: Any, number: int) -> None:
        self._handle, self._number = handle, number

    def write(self, data: bytes) -> int:
        raise OSError(self._number, os.strerror(self._number))

    def close(self) -> None:
        self._handle.close()


@pytest.mark.parametrize(
    ("number", "words", "kind"),
    [
        (errno.ENOSPC, "no space left on the device", OSError),
        (errno.EFBIG, "the file is too large", OSError),
        (errno.EROFS, "the file system is read-only", OSError),
        (errno.EACCES, "permission denied", PermissionError),
    ],
)
def test_a_failed_write_names_the_target_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int, words: str, kind: type[OSError]
) -> None:
    real_open = open
    monkeypatch.setattr(
        "builtins.open",
        lambda file, *a, **k: (
            _Failing(real_open(file, *a, **k), number)
            if isinstance(file, int)
            else real_open(file, *a, **k)
        ),
    )
    target = tmp_path / "qrels.txt"
    with pytest.raises(kind, match=f"^{target}: cannot write it: {words}") as caught:
        write_qrels(target, QRELS)
    assert isinstance(caught.value, OSError)
    assert caught.value.errno == number
    assert "Errno" not in str(caught.value)
    assert _entries(tmp_path) == set()


@pytest.mark.parametrize("number", [errno.EROFS, errno.EACCES])
def test_a_temporary_file_that_cannot_be_made_names_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr("tempfile.mkstemp", refuse)
    with pytest.raises(OSError, match=f"^{tmp_path / 'q.txt'}: cannot write it"):
        write_qrels(tmp_path / "q.txt", QRELS)


def test_a_directory_in_the_way_of_the_target(tmp_path: Path) -> None:
    (tmp_path / "qrels.txt").mkdir()
    with pytest.raises(IsADirectoryError, match=f"{tmp_path / 'qrels.txt'} is a directory"):
        write_qrels(tmp_path / "qrels.txt", QRELS)
    assert _entries(tmp_path) == {"qrels.txt"}


def test_a_reader_error_during_a_write_keeps_its_own_file_name(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(FileNotFoundError, match="no such file: elsewhere"), atomic_writer(target):
        raise FileNotFoundError("no such file: elsewhere")
    assert _entries(tmp_path) == set()


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_file_size_limit_in_a_real_process(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        from ef.evaluation import write_qrels
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
        try:
            write_qrels({str(tmp_path / "big.txt")!r}, {{"q1": {{f"d{{i}}": 1 for i in range(500)}}}})
        except OSError as exc:
            print(exc)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(_io.__file__).parents[3])}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.startswith(f"{tmp_path / 'big.txt'}: cannot write it: the file is too large")
    assert _entries(tmp_path) == set()


def test_the_cli_says_a_write_error_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from ef.evaluation.cli import cli

    source = tmp_path / "qrels.txt"
    write_qrels(source, QRELS)
    real_open = open
    monkeypatch.setattr(
        "builtins.open",
        lambda file, *a, **k: (
            _Failing(real_open(file, *a, **k), errno.ENOSPC)
            if isinstance(file, int)
            else real_open(file, *a, **k)
        ),
    )
    result = CliRunner().invoke(
        cli, ["convert", str(source), str(tmp_path / "q.tsv"), "--to", "beir"]
    )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: {tmp_path / 'q.tsv'}: cannot write it: no space left on the device; nothing "
        "was written"
    ]
    assert _entries(tmp_path) == {"qrels.txt"}


# Temporary files


def test_the_temporary_file_has_a_recognisable_name(tmp_path: Path) -> None:
    target = tmp_path / "run.trec"
    with atomic_writer(target) as out:
        out.write("x\n")
        (temp,) = _entries(tmp_path)
        assert temp.startswith(f".run.trec.ef-tmp-{os.getpid()}-")
    assert _entries(tmp_path) == {"run.trec"}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_next_write_removes_a_killed_writers_temporary_file_only(tmp_path: Path) -> None:
    stale = tmp_path / f".qrels.txt.ef-tmp-{_dead_pid()}-abc123"
    live_pid = os.getppid()  # alive: this test's parent
    live = tmp_path / f".qrels.txt.ef-tmp-{live_pid}-def456"
    other = tmp_path / f".other.txt.ef-tmp-{_dead_pid()}-x"
    for path in (stale, live, other):
        path.write_text("half")
    write_qrels(tmp_path / "qrels.txt", QRELS)
    assert _entries(tmp_path) == {"qrels.txt", live.name, other.name}
