"""The fast readers hash the run while they read it, and the manifest uses that digest.

The byte checks and the sha256 run in a thread beside polars' parse; what they find (or
raise) reaches the reader, and a file changed after it was read is hashed again.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ef.evaluation import evaluate_run
from ef.evaluation._engine.manifest import file_entry
from ef.evaluation._formats import digests
from ef.evaluation._formats.trec import bytes_reader
from ef.evaluation._formats.trec import fast as trec_fast

RUN = b"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\nq2 Q0 d3 1 0.5 t\n"
QRELS = b"q1 0 d2 1\nq2 0 d3 1\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    run, qrels = tmp_path / "run.trec", tmp_path / "qrels.txt"
    run.write_bytes(RUN)
    qrels.write_bytes(QRELS)
    return run, qrels


@pytest.mark.parametrize(
    "read",
    [
        pytest.param(trec_fast.read_trec_columns, id="polars"),
        pytest.param(bytes_reader.read_trec_bytes, id="numpy"),
    ],
)
def test_the_manifest_gets_the_digest_taken_while_reading(files, monkeypatch, read) -> None:
    # Each fast reader records the sha256 of the bytes it read: the manifest reads no more.
    run, qrels = files
    assert read(run) is not None
    assert digests.recorded(run) == (hashlib.sha256(RUN).hexdigest(), len(RUN))
    opened = Path.open

    def no_second_read(self: Path, *args: object, **kwargs: object) -> object:
        assert self != run, "the run was read a second time for its hash"
        return opened(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", no_second_read)
    entry = evaluate_run(run, qrels, metrics=("ndcg@10",)).manifest["inputs"]["run"]
    assert entry == {"path": str(run), "sha256": hashlib.sha256(RUN).hexdigest(), "bytes": len(RUN)}


def test_a_file_changed_after_reading_is_hashed_again(files) -> None:
    run, _ = files
    assert trec_fast.read_trec_columns(run) is not None
    changed = RUN.replace(b"2.5", b"3.5")  # the same size
    run.write_bytes(changed)
    stat = run.stat()
    os.utime(run, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert digests.recorded(run) is None
    assert file_entry(run)["sha256"] == hashlib.sha256(changed).hexdigest()


def test_a_gzipped_run_is_hashed_as_stored(tmp_path) -> None:
    run = tmp_path / "run.trec.gz"
    run.write_bytes(gzip.compress(RUN))
    assert trec_fast.read_trec_columns(run) is not None
    assert digests.recorded(run) is None  # the bytes read were gunzipped: not the file's
    assert file_entry(run)["sha256"] == hashlib.sha256(run.read_bytes()).hexdigest()


def test_what_the_checks_raise_reaches_the_reader(files, monkeypatch) -> None:
    def broken(*args: object) -> int | None:
        raise MemoryError("the checks failed")

    monkeypatch.setattr(trec_fast, "_spaces_if_plain", broken)
    with pytest.raises(MemoryError, match="the checks failed"):
        trec_fast.read_trec_columns(files[0])


def test_a_doubtful_file_is_declined_though_polars_parses_it(tmp_path) -> None:
    run = tmp_path / "run.trec"
    run.write_bytes(RUN.replace(b"d3", b"d\x0b3"))  # a VT: one field to polars, two to trec_eval
    assert trec_fast.read_trec_columns(run) is None


@pytest.mark.parametrize("size", [100, digests.HASHED_BESIDE_BYTES])
def test_a_large_run_is_hashed_on_a_thread_a_small_one_when_asked(tmp_path, size) -> None:
    line = b"q1 Q0 d%08d 1 2.5 t\n"
    data = b"".join(line % i for i in range(-(-size // len(line % 0))))
    run = tmp_path / "run.trec"
    run.write_bytes(data)
    assert bytes_reader.read_trec_bytes(run) is not None
    assert digests.recorded(run) == (hashlib.sha256(data).hexdigest(), len(data))


def test_the_numpy_reader_records_no_digest_of_a_gunzipped_run(tmp_path) -> None:
    run = tmp_path / "run.trec.gz"
    run.write_bytes(gzip.compress(RUN))
    assert bytes_reader.read_trec_bytes(run) is not None
    assert digests.recorded(run) is None  # the bytes read were gunzipped: not the file's
    assert file_entry(run)["sha256"] == hashlib.sha256(run.read_bytes()).hexdigest()


def test_a_small_run_read_with_no_manifest_loads_no_openssl(files) -> None:
    run, _ = files
    code = (
        "import sys; from pathlib import Path; "
        "from ef.evaluation._formats.trec.bytes_reader import read_trec_bytes; "
        f"assert read_trec_bytes(Path({str(run)!r})) is not None; "
        "print('_hashlib' in sys.modules)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "False"


def test_trec_eval_files_hashes_no_run(tmp_path, monkeypatch) -> None:
    # ef-trec-eval writes no manifest: its run's bytes are not hashed, on a thread or later.
    from ef.evaluation._evaluate.trec_eval import trec_eval_files

    line = b"q1 Q0 d%08d 1 2.5 t\n"
    data = b"".join(line % i for i in range(-(-digests.HASHED_BESIDE_BYTES // len(line % 0))))
    run, qrels = tmp_path / "run.trec", tmp_path / "qrels.txt"
    run.write_bytes(data)
    qrels.write_bytes(b"q1 0 d00000001 1\n")
    started = []

    class Counted(digests._Hashing):
        def __init__(self, data: bytes, *, beside: bool) -> None:
            started.append(len(data))
            super().__init__(data, beside=beside)

    monkeypatch.setattr(digests, "_Hashing", Counted)
    assert trec_eval_files(qrels, run, ["P.5"]).summary
    assert started == []
    assert digests.recorded(run) is None
