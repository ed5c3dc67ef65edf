"""Process pools that cannot hang or leak: a fork-started pool is refused before anything is
sent to it, a forkserver or spawn pool gives the inline numbers after any earlier work, and
the workers of ``ef-eval evaluate --workers`` exit when their parent is killed."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import errno
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import ef.evaluation
from ef.evaluation import evaluate_run, evaluate_shards
from ef.evaluation._evaluate.pools import SAFE_POOL, check_start_method, start_method
from ef.evaluation.testing.dists import make_dist

from ..conftest import short_scratch
from .shards import METRICS, QRELS, entry, same, sharded_files

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process tree from /proc (Linux)"
)

REFUSAL = (
    "executor= is a process pool started by fork, which can deadlock once polars' or numpy's "
    "threads have started (reading any file starts them); start it by forkserver or spawn "
    f"instead: {SAFE_POOL}"
)


class NeverSubmit(cf.ProcessPoolExecutor):
    """A fork-started pool that fails the test if anything is sent to it (a forked worker
    could hang the test instead)."""

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a task was sent to a fork-started pool")


@linux_only
def test_a_fork_started_pool_is_refused_before_anything_is_sent(tmp_path) -> None:
    _, paths = sharded_files(tmp_path)
    pool = NeverSubmit(2, mp_context=multiprocessing.get_context("fork"))
    with pytest.raises(ValueError, match=f"^{re.escape(REFUSAL)}$"):
        evaluate_shards(paths, QRELS, executor=pool)
    assert 'multiprocessing.get_context("forkserver")' in REFUSAL
    pool.shutdown()


@linux_only
@pytest.mark.skipif(
    multiprocessing.get_all_start_methods()[0] != "fork", reason="fork is not the default here"
)
def test_the_default_process_pool_is_refused_where_it_forks() -> None:
    # ProcessPoolExecutor() forks on Linux before Python 3.14: the common case.
    pool = cf.ProcessPoolExecutor(2)
    with pytest.raises(ValueError, match=re.escape(SAFE_POOL)):
        check_start_method(pool)
    del pool._mp_context  # private: without it, the process's default start method is used
    assert start_method(pool) == (multiprocessing.get_start_method(allow_none=True) or "fork")
    pool.shutdown()


def test_other_executors_pass() -> None:
    with cf.ThreadPoolExecutor(1) as threads:
        check_start_method(threads)
    for method in ("spawn", "forkserver"):
        if method in multiprocessing.get_all_start_methods():
            pool = cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method))
            check_start_method(pool)
            pool.shutdown()


HANG = """
import concurrent.futures as cf, multiprocessing, sys
from ef.evaluation import evaluate_shards

if __name__ == "__main__":
    shards, qrels = sys.argv[1:-1], sys.argv[-1]
    evaluate_shards(shards, qrels)  # earlier work: polars' threads run from here on
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        try:
            evaluate_shards(shards, qrels, executor=pool)
        except ValueError as exc:
            print(exc)
"""


@linux_only
def test_a_fork_pool_after_earlier_work_is_refused_where_it_used_to_hang(tmp_path) -> None:
    # Before the refusal, the second evaluate_shards waited forever: run it in a process of
    # its own, in a session of its own, so that a hang fails this test and leaves nothing.
    _, paths = sharded_files(tmp_path)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items())
    )
    script = tmp_path / "hang.py"
    script.write_text(HANG)
    out = _finished([sys.executable, str(script), *map(str, paths), str(qrels)], tmp_path)
    assert out.strip() == REFUSAL


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_a_safe_pool_after_earlier_work_gives_the_inline_numbers(tmp_path, method) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    whole, paths = sharded_files(tmp_path)
    expected = evaluate_run(whole, QRELS, metrics=METRICS)  # polars' threads have started
    inline = evaluate_shards(paths, QRELS, metrics=METRICS)
    context = multiprocessing.get_context(method)
    with cf.ProcessPoolExecutor(2, mp_context=context) as pool:
        got = evaluate_shards(paths, QRELS, metrics=METRICS, executor=pool)
    same(got, expected)
    same(got, inline)
    assert list(got.manifest["inputs"]["run"]) == [entry(p) for p in paths]


#: A run format whose reader blocks on ``<shard>.fifo`` until a writer opens it, so a test
#: knows a worker is in the middle of a shard: the FIFO's writer can open once it reads.
BLOCKING_FORMAT = """
from ef.evaluation import DatasetFormat, hookimpl

def read_run(path):
    with open(f"{path}.fifo", "rb") as fifo:
        fifo.read()  # never written to: blocks until the test is done
    return {}

@hookimpl
def ef_evaluation_formats():
    return [DatasetFormat(name="blocking", read_run=read_run, detect=lambda p: p.suffix == ".blocking")]
"""


@linux_only
def test_ef_eval_workers_exit_when_their_parent_is_killed(tmp_path) -> None:
    site = tmp_path / "site"
    make_dist(
        site,
        "ef-evaluation-blocking",
        "0.1",
        {"blocking": "blocking_fmt"},
        {"blocking_fmt": BLOCKING_FORMAT},
    )
    sys.path.remove(str(site))  # only the command's processes load it
    (tmp_path / "a.trec").write_text("q1 Q0 d1 1 2.0 r\n")
    (tmp_path / "b.blocking").write_text("q2\n")
    fifo = tmp_path / "b.blocking.fifo"
    os.mkfifo(fifo)
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq2 0 d1 1\n")
    with short_scratch("ef-pool-") as scratch:  # the killed parent's pymp-* folder goes there
        _kill_the_parent(tmp_path, site, fifo, scratch)


def _kill_the_parent(tmp_path: Path, site: Path, fifo: Path, scratch: Path) -> None:
    """Start ``ef-eval evaluate --workers 2`` on a shard that blocks, kill it once a worker
    reads, and check that its workers, forkserver and tracker exit."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), *sys.path]),
        "EF_EVALUATION_PLUGINS": "blocking",
        "EF_EVALUATION_DISABLE_PLUGINS": "",
        "EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD": "",
        "TMPDIR": str(scratch),
    }
    command = [
        sys.executable,
        "-m",
        "ef.evaluation",
        "evaluate",
        "--workers",
        "2",
        str(tmp_path / "qrels.txt"),
        str(tmp_path / "a.trec"),
        str(tmp_path / "b.blocking"),
    ]
    log = tmp_path / "stderr.txt"
    with (
        log.open("wb") as err,
        subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True
        ) as parent,
    ):
        writer = None
        try:
            writer = _writer_once_read(fifo, parent, log)  # a worker is now reading the shard
            started = _descendants(parent.pid)
            assert len(started) >= 2, started  # the workers, the forkserver, the tracker
            os.kill(parent.pid, signal.SIGKILL)
            parent.wait(timeout=30)
            left = _alive_after(started, seconds=30)
            assert not left, f"still running 30 s after their parent was killed: {_shown(left)}"
        finally:
            with contextlib.suppress(ProcessLookupError):  # all of its session, whatever is left
                os.killpg(parent.pid, signal.SIGKILL)
            if writer is not None:
                os.close(writer)


def _finished(command: list[str], folder: Path) -> str:
    """The stdout of ``command``, which must end within 120 s; if it does not, it and every
    process it started are killed and the test fails."""
    # The package this test imports, wherever it runs from (PYTHONPATH may be relative).
    env = {**os.environ, "PYTHONPATH": str(Path(ef.evaluation.__path__[0]).parents[1])}
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"{command[1]} still running after 120 s: it hangs")
    assert process.returncode == 0, err
    return out


def _writer_once_read(fifo: Path, parent: subprocess.Popen[bytes], log: Path) -> int:
    """A writer's descriptor of ``fifo``, opened once a process has it open to read."""
    deadline = time.monotonic() + 120
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:  # ENXIO: no reader yet
            if exc.errno != errno.ENXIO:
                raise
        if parent.poll() is not None:
            pytest.fail(f"ef-eval ended before a worker read the shard: {log.read_text()}")
        if time.monotonic() > deadline:
            pytest.fail("no worker read the shard within 120 s")
        time.sleep(0.05)


def _parents() -> dict[int, int]:
    """Each running process's parent, from /proc."""
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None:
                found[int(name)] = int(stat[1])
    return found


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name: state, parent, ..."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _descendants(pid: int) -> list[int]:
    parents = _parents()
    found, todo = [], [pid]
    while todo:
        at = todo.pop()
        children = [child for child, parent in parents.items() if parent == at]
        found += children
        todo += children
    return found


def _alive_after(pids: list[int], seconds: float) -> list[int]:
    """Those of ``pids`` still running (a zombie is not) after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        alive = [p for p in pids if (_stat(p) or ["Z"])[0] != "Z"]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.2)


def _shown(pids: list[int]) -> str:
    shown = []
    for pid in pids:
        with contextlib.suppress(OSError):
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            shown.append(f"{pid}: {line[:120]}")
    return "; ".join(shown)
