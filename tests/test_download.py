"""download_dataset and ef-eval download, against a local HTTP server on 127.0.0.1 only.

Every failure must leave no temporary file or folder behind and an existing dataset untouched.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import socket
import stat
import threading
import warnings
import zipfile
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    DownloadError,
    UnknownNameError,
    download_dataset,
    read_beir,
    read_dataset,
    write_beir,
)
from ef.evaluation._formats.download import BEIR_DATASETS, BEIR_URL, dataset_present
from ef.evaluation.cli import cli

CORPUS = b'{"_id": "d1", "title": "T", "text": "Paris is in France."}\n{"_id": "d2", "text": "x"}\n'
QUERIES = b'{"_id": "q1", "text": "Where is Paris?"}\n'
QRELS = b"query-id\tcorpus-id\tscore\nq1\td1\t1\n"


def beir_files(name: str = "scifact") -> dict[str, bytes]:
    return {
        f"{name}/corpus.jsonl": CORPUS,
        f"{name}/queries.jsonl": QUERIES,
        f"{name}/qrels/test.tsv": QRELS,
    }


def make_zip(
    members: dict[str, bytes] | None = None, *, extra: Sequence[zipfile.ZipInfo] = ()
) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("scifact/", b"")  # BEIR's zips list their folder first
        for member, data in (beir_files() if members is None else members).items():
            archive.writestr(member, data)
        for info in extra:
            archive.writestr(
                info, b"/etc/passwd" if stat.S_ISLNK(info.external_attr >> 16) else b"evil"
            )
    return buffer.getvalue()


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


class Server(ThreadingHTTPServer):
    """Serves ``files`` (path -> body, declared length) and records every request path."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.files: dict[str, tuple[bytes, int | None]] = {}
        self.requests: list[str] = []

    def serve(self, path: str, body: bytes, *, declared_length: int | None = None) -> str:
        self.files[path] = (body, declared_length)
        return self.url(path)

    def url(self, path: str) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}{path}"


class Handler(BaseHTTPRequestHandler):
    server: Server

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        if self.path not in self.server.files:
            self.send_error(404)
            return
        body, declared = self.server.files[self.path]
        self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(body) if declared is None else declared))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Server]:
    httpd = Server()
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def listing(folder: Path) -> list[str]:
    """Every path under ``folder``, hidden ones included, relative and sorted."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


EXTRACTED = ["scifact", "scifact/corpus.jsonl", "scifact/qrels", "scifact/qrels/test.tsv", "scifact/queries.jsonl"]  # fmt: skip


# --- success ---------------------------------------------------------------------------------


def test_a_good_archive_is_downloaded_checked_and_extracted(server: Server, tmp_path: Path) -> None:
    data = make_zip()
    url = server.serve("/scifact.zip", data)
    path = download_dataset("scifact", tmp_path / "datasets", url=url, checksum=md5(data))
    assert path == tmp_path / "datasets" / "scifact"
    assert listing(tmp_path / "datasets") == EXTRACTED
    corpus, queries, qrels = read_beir(path)
    assert corpus == {"d1": "T Paris is in France.", "d2": "x"}
    assert queries == {"q1": "Where is Paris?"}
    assert qrels == {"q1": {"d1": 1.0}}
    assert read_dataset(path)[2] == qrels
    assert server.requests == ["/scifact.zip"]


def test_sha256_checksums_and_bare_md5_in_capitals(server: Server, tmp_path: Path) -> None:
    data = make_zip()
    url = server.serve("/scifact.zip", data)
    sha = hashlib.sha256(data).hexdigest()
    download_dataset("scifact", tmp_path / "a", url=url, checksum=f"SHA256:{sha.upper()}")
    download_dataset("scifact", tmp_path / "b", url=url, checksum=f"md5:{md5(data)}")
    download_dataset("scifact", tmp_path / "c", url=url, checksum=md5(data).upper())
    assert (
        listing(tmp_path / "a") == listing(tmp_path / "b") == listing(tmp_path / "c") == EXTRACTED
    )


def test_the_default_folder_is_datasets_in_the_working_directory(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    data = make_zip()
    path = download_dataset("scifact", url=server.serve("/s.zip", data), checksum=md5(data))
    assert path == Path("datasets", "scifact")
    assert listing(tmp_path) == ["datasets", *(f"datasets/{p}" for p in EXTRACTED)]


def test_finder_metadata_is_skipped(server: Server, tmp_path: Path) -> None:
    data = make_zip({**beir_files(), "__MACOSX/scifact/._corpus.jsonl": b"\0\5\26\7"})
    download_dataset("scifact", tmp_path, url=server.serve("/s.zip", data), checksum=md5(data))
    assert listing(tmp_path) == EXTRACTED


def test_an_unknown_name_downloads_from_an_explicit_url_unchecked(
    server: Server, tmp_path: Path
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, data in beir_files("nq-train").items():
            archive.writestr(member, data)
    url = server.serve("/nq-train.zip", buffer.getvalue())
    path = download_dataset("nq-train", tmp_path, url=url)
    assert read_beir(path)[1] == {"q1": "Where is Paris?"}


def test_a_dataset_with_one_folder_per_forum_is_complete(server: Server, tmp_path: Path) -> None:
    # CQADupStack's layout: cqadupstack/<forum>/{corpus.jsonl, queries.jsonl, qrels/test.tsv}.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for forum in ("android", "gis"):
            for member, data in beir_files(forum).items():
                archive.writestr(f"cqadupstack/{member}", data)
    data = buffer.getvalue()
    path = download_dataset(
        "cqadupstack", tmp_path, url=server.serve("/c.zip", data), checksum=md5(data)
    )
    assert dataset_present(path)
    assert read_beir(path / "gis")[2] == {"q1": {"d1": 1.0}}
    (path / "gis" / "queries.jsonl").unlink()
    assert not dataset_present(path)


def test_progress_callback_sees_every_byte(server: Server, tmp_path: Path) -> None:
    data = make_zip()
    seen: list[tuple[int, int | None]] = []
    download_dataset(
        "scifact",
        tmp_path,
        url=server.serve("/s.zip", data),
        checksum=md5(data),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[0] == (0, len(data))
    assert seen[-1] == (len(data), len(data))
    dones = [done for done, _ in seen]
    assert dones == sorted(set(dones))


def test_progress_of_a_transfer_that_stops_early_never_ends_at_the_total(
    server: Server, tmp_path: Path
) -> None:
    data = make_zip()
    url = server.serve("/s.zip", data[:100], declared_length=len(data))
    seen: list[tuple[int, int | None]] = []
    with pytest.raises(DownloadError, match="stopped after 100"):
        download_dataset("scifact", tmp_path, url=url, progress=lambda *report: seen.append(report))
    assert seen == [(0, len(data)), (100, len(data))]


def test_a_bad_progress_is_refused_before_any_request(server: Server, tmp_path: Path) -> None:
    url = server.serve("/s.zip", make_zip())
    with pytest.raises(ValueError, match=r"progress must be a bool or a callable"):
        download_dataset("scifact", tmp_path, url=url, progress="yes")  # type: ignore[arg-type]
    assert server.requests == []


def test_progress_bar_on_stderr(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = make_zip()
    url = server.serve("/s.zip", data)
    download_dataset("scifact", tmp_path, url=url, checksum=md5(data), progress=True)
    captured = capsys.readouterr()
    assert "scifact.zip" in captured.err
    assert captured.out == ""


# --- an existing target ------------------------------------------------------------------------


def existing(tmp_path: Path) -> Path:
    target = tmp_path / "scifact"
    write_beir(target, {"old": "an old document"}, {"q": "old query"}, {"q": {"old": 1}})
    return target


def test_a_complete_target_is_not_downloaded_again(server: Server, tmp_path: Path) -> None:
    target = existing(tmp_path)
    before = listing(tmp_path)
    path = download_dataset("scifact", tmp_path, url=server.url("/s.zip"))
    assert path == target
    assert server.requests == []
    assert listing(tmp_path) == before
    assert read_beir(target)[0] == {"old": "an old document"}


def test_force_replaces_a_complete_target(server: Server, tmp_path: Path) -> None:
    existing(tmp_path)
    data = make_zip()
    url = server.serve("/s.zip", data)
    path = download_dataset("scifact", tmp_path, url=url, checksum=md5(data), force=True)
    assert server.requests == ["/s.zip"]
    assert listing(tmp_path) == EXTRACTED
    assert read_beir(path)[1] == {"q1": "Where is Paris?"}


def test_an_incomplete_target_is_refused_without_force(server: Server, tmp_path: Path) -> None:
    (tmp_path / "scifact").mkdir()
    (tmp_path / "scifact" / "corpus.jsonl").write_bytes(CORPUS)
    with pytest.raises(
        FileExistsError, match=r"scifact exists but is not a complete BEIR dataset .*force=True"
    ):
        download_dataset("scifact", tmp_path, url=server.url("/s.zip"))
    assert server.requests == []
    assert listing(tmp_path) == ["scifact", "scifact/corpus.jsonl"]


# --- failures: nothing left behind, an existing dataset untouched ------------------------------


def test_a_wrong_checksum_names_the_url_and_both_digests(server: Server, tmp_path: Path) -> None:
    data = make_zip()  # not BEIR's scifact.zip: the published md5 applies to a mirror too
    url = server.serve("/scifact.zip", data)
    folder = tmp_path / "new" / "datasets"
    with pytest.raises(
        DownloadError,
        match=rf"^{url}: checksum mismatch: expected md5 {BEIR_DATASETS['scifact']}, got {md5(data)};",
    ):
        download_dataset("scifact", folder, url=url)
    assert listing(tmp_path) == []  # the folders it made are gone too


def test_a_wrong_sha256_says_sha256(server: Server, tmp_path: Path) -> None:
    url = server.serve("/s.zip", make_zip())
    with pytest.raises(DownloadError, match=r"expected sha256 0{64}, got [0-9a-f]{64}"):
        download_dataset("scifact", tmp_path, url=url, checksum="sha256:" + "0" * 64)
    assert listing(tmp_path) == []


def test_a_failure_leaves_an_existing_dataset_as_it_was(server: Server, tmp_path: Path) -> None:
    existing(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    url = server.serve("/s.zip", make_zip())
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download_dataset("scifact", tmp_path, url=url, force=True)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert listing(tmp_path) == [
        "scifact",
        "scifact/corpus.jsonl",
        "scifact/qrels.tsv",
        "scifact/queries.jsonl",
    ]


def test_http_404(server: Server, tmp_path: Path) -> None:
    url = server.url("/missing.zip")
    with pytest.raises(DownloadError, match=rf"^{url}: HTTP 404 Not Found$"):
        download_dataset("scifact", tmp_path, url=url)
    assert listing(tmp_path) == []


def test_a_refused_connection(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nobody listens on once this socket is closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/scifact.zip"
    with pytest.raises(DownloadError, match=rf"^{url}: .*refused"):
        download_dataset("scifact", tmp_path, url=url)
    assert listing(tmp_path) == []


def test_a_transfer_that_stops_early(server: Server, tmp_path: Path) -> None:
    data = make_zip()
    url = server.serve("/s.zip", data[:100], declared_length=len(data))
    with pytest.raises(
        DownloadError, match=rf"^{url}: the download stopped after 100 of {len(data)} bytes$"
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_a_truncated_zip(server: Server, tmp_path: Path) -> None:
    data = make_zip()[:-30]  # the end of the central directory is cut off
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError, match=rf"^{url}: not a valid zip archive: File is not a zip file$"
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_a_corrupt_member(server: Server, tmp_path: Path) -> None:
    data = bytearray(make_zip({"scifact/corpus.jsonl": CORPUS * 50, **beir_files()}))
    start = data.index(b"scifact/corpus.jsonl") + len("scifact/corpus.jsonl") + 10
    data[start : start + 8] = b"\xff" * 8  # damage the compressed bytes of the first member
    url = server.serve("/s.zip", bytes(data))
    with pytest.raises(DownloadError, match=rf"^{url}: not a valid zip archive: "):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(bytes(data)))
    assert listing(tmp_path) == []


def test_an_archive_larger_than_the_free_space_is_refused_before_unpacking(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 20 MB of zeros deflate to about 20 kB: a small zip bomb. With 1 MB free, nothing is
    # written; with the space, the same archive unpacks.
    import shutil as shutil_module
    from collections import namedtuple

    data = make_zip({"scifact/padding.bin": bytes(20_000_000), **beir_files()})
    assert len(data) < 100_000
    url = server.serve("/bomb.zip", data)
    usage = namedtuple("usage", "total used free")
    real = shutil_module.disk_usage
    monkeypatch.setattr(
        "ef.evaluation._formats.download.shutil.disk_usage", lambda path: usage(10**9, 10**9, 10**6)
    )
    with pytest.raises(
        DownloadError,
        match=rf"^{url}: the archive unpacks to 20,\d{{3}},\d{{3}} bytes, more than the "
        r"1,000,000 bytes free in ",
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []
    monkeypatch.setattr("ef.evaluation._formats.download.shutil.disk_usage", real)
    target = download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert (target / "padding.bin").stat().st_size == 20_000_000


def unsafe(filename: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(filename)
    info.external_attr = mode << 16
    return info


@pytest.mark.parametrize(
    ("member", "problem"),
    [
        (unsafe("../evil.txt"), r"'\.\./evil\.txt' climbs out of the target with '\.\.'"),
        (unsafe("scifact/../../evil.txt"), r"'scifact/\.\./\.\./evil\.txt' climbs out"),
        (unsafe("scifact\\..\\..\\evil.txt"), r"'.*evil\.txt' climbs out of the target"),
        (unsafe("/tmp/evil.txt"), r"'/tmp/evil\.txt' is an absolute path"),
        (unsafe("\\evil.txt"), r"'.*evil\.txt' is an absolute path"),
        (unsafe("C:/evil.txt"), r"'C:/evil\.txt' names a drive"),
        (unsafe("scifact/link", stat.S_IFLNK | 0o777), r"'scifact/link' is a symbolic link"),
        (
            unsafe("scifact/fifo", stat.S_IFIFO | 0o644),
            r"'scifact/fifo' is neither a file nor a folder",
        ),
    ],
    ids=[
        "dotdot",
        "nested-dotdot",
        "backslashes",
        "absolute",
        "backslash-absolute",
        "drive",
        "symlink",
        "fifo",
    ],
)
def test_unsafe_members_refuse_the_whole_archive(
    server: Server, tmp_path: Path, member: zipfile.ZipInfo, problem: str
) -> None:
    data = make_zip(extra=[member])
    url = server.serve("/s.zip", data)
    target = tmp_path / "datasets"
    with pytest.raises(DownloadError, match=rf"^{url}: unsafe archive: member {problem}"):
        download_dataset("scifact", target, url=url, checksum=md5(data))
    assert listing(tmp_path) == []
    assert not (tmp_path.parent / "evil.txt").exists()


def test_an_archive_without_the_named_folder(server: Server, tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, data in beir_files().items():
            archive.writestr(member.removeprefix("scifact/"), data)
    data = buffer.getvalue()
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError,
        match=rf"^{url}: the archive holds no scifact/ folder \(it holds corpus.jsonl, qrels, queries.jsonl\)$",
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_an_archive_with_more_than_the_named_folder(server: Server, tmp_path: Path) -> None:
    data = make_zip({**beir_files(), "README.txt": b"hi", "other/x": b"x"})
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError, match=r"holds README.txt, other beside scifact/, not scifact/ alone$"
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_a_folder_that_is_not_a_beir_dataset(server: Server, tmp_path: Path) -> None:
    data = make_zip({"scifact/corpus.jsonl": CORPUS, "scifact/README": b"no queries, no qrels"})
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError,
        match=r"scifact/ in the archive is not a BEIR dataset \(it needs corpus.jsonl, queries.jsonl and qrels/\*.tsv\)$",
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"scifact/qrels": b"x", **beir_files()},
         "the archive holds 'scifact/qrels' as a file, where a folder is expected (it also "
         "holds 'scifact/qrels/test.tsv'): is it the right archive?"),
        ({**beir_files(), "scifact/qrels": b"x"}, "holds 'scifact/qrels' as a file, where a"),
        ({**beir_files(), "scifact/a": b"x", "scifact/a/b/c": b"y"},
         "holds 'scifact/a' as a file, where a folder is expected (it also holds "
         "'scifact/a/b/c')"),
    ],
)  # fmt: skip
def test_a_file_where_a_folder_is_expected_names_the_url(
    server: Server, tmp_path: Path, members: dict[str, bytes], message: str
) -> None:
    data = make_zip(members)
    url = server.serve("/s.zip", data)
    with pytest.raises(DownloadError, match=rf"^{re.escape(url)}: .*{re.escape(message)}"):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_the_named_folder_as_a_file_names_the_url(server: Server, tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("scifact", b"not a folder")
    data = buffer.getvalue()
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError,
        match=rf"^{re.escape(url)}: the archive holds scifact as a file, where the folder "
        r"scifact/ is expected",
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_a_member_the_file_system_refuses_names_the_url(server: Server, tmp_path: Path) -> None:
    long = "scifact/" + "x" * 300  # longer than a file name may be (255 bytes)
    data = make_zip({**beir_files(), long: b"x"})
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError,
        match=rf"^{re.escape(url)}: cannot unpack '{long}' into {re.escape(str(tmp_path))}: ",
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_a_member_listed_twice(server: Server, tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns about the duplicate
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for member, data in beir_files().items():
                archive.writestr(member, data)
            archive.writestr("scifact/queries.jsonl", b"{}")
    data = buffer.getvalue()
    url = server.serve("/s.zip", data)
    with pytest.raises(DownloadError, match=r"the archive lists 'scifact/queries.jsonl' twice$"):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []


def test_an_interrupted_download_leaves_nothing(server: Server, tmp_path: Path) -> None:
    existing(tmp_path)
    before = listing(tmp_path)
    data = make_zip()

    def interrupt(done: int, total: int | None) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        download_dataset(
            "scifact",
            tmp_path,
            url=server.serve("/s.zip", data),
            checksum=md5(data),
            force=True,
            progress=interrupt,
        )
    assert listing(tmp_path) == before


# --- arguments ---------------------------------------------------------------------------------


def test_an_unknown_name_suggests_and_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(
        UnknownNameError,
        match=r"^unknown BEIR dataset 'scifcat'; did you mean 'scifact'\? Known datasets: arguana, climate-fever, .*, webis-touche2020\. Another archive needs its URL",
    ):
        download_dataset("scifcat", tmp_path)
    with pytest.raises(ValueError, match=r"^unknown BEIR dataset 'zzz'\. Known datasets: "):
        download_dataset("zzz", tmp_path)
    assert listing(tmp_path) == []


@pytest.mark.parametrize("name", ["../scifact", "a/b", ".hidden", "", "sci fact"])
def test_a_name_must_be_a_plain_folder_name(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match=r"is not a plain folder name"):
        download_dataset(name, tmp_path, url="http://127.0.0.1:9/x.zip")


@pytest.mark.parametrize(
    "checksum", ["abc", "md5:" + "0" * 31, "sha1:" + "0" * 40, "g" * 32, "sha256:" + "0" * 32]
)
def test_a_malformed_checksum(tmp_path: Path, checksum: str) -> None:
    with pytest.raises(
        ValueError, match=r"is not an md5 \(32 hex digits\), 'md5:<hex>' or 'sha256:<hex>'"
    ):
        download_dataset("scifact", tmp_path, checksum=checksum)
    assert listing(tmp_path) == []


def test_only_http_https_and_file_urls(tmp_path: Path) -> None:
    with pytest.raises(
        ValueError,
        match=r"^cannot download 'ftp://127.0.0.1/s.zip': the URL must be http, https, file$",
    ):
        download_dataset("scifact", tmp_path, url="ftp://127.0.0.1/s.zip")


def test_the_official_url_and_checksums() -> None:
    assert (
        BEIR_URL.format(name="scifact")
        == "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip"
    )
    assert BEIR_DATASETS["scifact"] == "5f7d1de60b170fc8027bb7898e2efca1"
    assert len(BEIR_DATASETS) == 15
    assert all(len(v) == 32 and int(v, 16) >= 0 for v in BEIR_DATASETS.values())
    with pytest.raises(TypeError):
        BEIR_DATASETS["mine"] = "0" * 32  # type: ignore[index]


# --- the CLI -----------------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def test_cli_downloads_then_says_it_is_there(server: Server, tmp_path: Path) -> None:
    data = make_zip()
    url = server.serve("/s.zip", data)
    folder = tmp_path / "d"
    code, out, err = run(
        "download", "scifact", "--dir", str(folder), "--url", url, "--checksum", md5(data)
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"downloaded scifact into {folder / 'scifact'}",
        f"score a run on it: ef-eval evaluate {folder / 'scifact'} RUN",
    ]
    code, out, err = run("download", "scifact", "-d", str(folder), "--url", url)
    assert code == 0
    assert (
        out.splitlines()[0]
        == f"{folder / 'scifact'} is already there; nothing downloaded (--force downloads it again)"
    )
    assert server.requests == ["/s.zip"]
    code, out, _ = run(
        "download", "scifact", "-d", str(folder), "--url", url, "--checksum", md5(data), "--force"
    )
    assert code == 0
    assert out.startswith("downloaded scifact into")
    assert server.requests == ["/s.zip", "/s.zip"]
    assert listing(folder) == EXTRACTED


def test_cli_draws_a_bar_on_a_terminal_unless_told_not_to(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ef.evaluation.cli._options as options

    monkeypatch.setattr(options, "stderr_is_terminal", lambda: True)
    data = make_zip()
    url = server.serve("/s.zip", data)
    args = ("download", "scifact", "--url", url, "--checksum", md5(data), "--force")
    code, out, err = run(*args, "--dir", str(tmp_path / "a"))
    assert code == 0
    assert "scifact.zip" in err  # the bar, on stderr
    assert out.startswith("downloaded scifact into")
    code, quiet_out, quiet_err = run(*args, "--dir", str(tmp_path / "b"), "--no-progress")
    assert (code, quiet_err) == (0, "")
    assert quiet_out.replace(str(tmp_path / "b"), "") == out.replace(str(tmp_path / "a"), "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["scifcat"], r"unknown BEIR dataset 'scifcat'; did you mean 'scifact'\?"),
        (["scifact", "--url", "{url}/missing.zip"], r"{url}/missing.zip: HTTP 404 Not Found"),
        (
            ["scifact", "--url", "{url}/s.zip"],
            r"{url}/s.zip: checksum mismatch: expected md5 5f7d1de60b170fc8027bb7898e2efca1, got ",
        ),
        (
            ["scifact", "--url", "{url}/s.zip", "--checksum", "nope"],
            r"checksum 'nope' is not an md5",
        ),
        (
            ["scifact", "--url", "{url}/evil.zip", "--checksum", "{evil}"],
            r"unsafe archive: member '\.\./evil\.txt' climbs out",
        ),
    ],
    ids=["unknown", "404", "checksum", "bad-checksum", "unsafe"],
)
def test_cli_errors_are_one_line_with_exit_code_2(
    server: Server, tmp_path: Path, args: list[str], message: str
) -> None:
    server.serve("/s.zip", make_zip())
    evil = make_zip(extra=[unsafe("../evil.txt")])
    server.serve("/evil.zip", evil)
    base = server.url("")
    folder = tmp_path / "d"
    filled = [a.format(url=base, evil=md5(evil)) for a in args]
    code, out, err = run("download", *filled, "--dir", str(folder))
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("Error: ")
    assert re.search(message.format(url=re.escape(base)), err)
    assert not folder.exists()
    assert os.listdir(tmp_path) == []


def test_the_docs_list_exactly_the_checksums_of_the_code() -> None:
    page = (Path(__file__).parents[1] / "docs" / "datasets.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([a-z0-9-]+)` \| `([0-9a-f]{32})` \|$", page, re.M))
    assert listed == dict(BEIR_DATASETS)


def _encrypted(data: bytes, member: str) -> bytes:
    """``data`` with ``member`` flagged encrypted (bit 0 of its general-purpose flags) in its
    local header and its central directory entry, as a password-protected zip has it:
    zipfile itself cannot write such a member."""
    out = bytearray(data)
    name = member.encode()
    for signature, flags_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        start = 0
        while (start := out.find(signature, start)) != -1:
            if out[start + name_at : start + name_at + len(name)] == name:
                out[start + flags_at] |= 0x1
            start += 4
    return bytes(out)


def test_an_encrypted_member_refuses_the_archive(server: Server, tmp_path: Path) -> None:
    # zipfile cannot extract it without a password: refuse the archive, naming the member,
    # before anything is written (not a RuntimeError from inside zipfile).
    data = _encrypted(make_zip(), "scifact/corpus.jsonl")
    url = server.serve("/s.zip", data)
    with pytest.raises(
        DownloadError, match=rf"^{url}: member 'scifact/corpus.jsonl' of the archive is encrypted"
    ):
        download_dataset("scifact", tmp_path, url=url, checksum=md5(data))
    assert listing(tmp_path) == []
