"""download_dataset(): fetch a BEIR dataset, check its published checksum, unpack it safely.

The archives are the ones the BEIR benchmark publishes at ``BEIR_URL``. The md5 of each
is copied from the datasets table of the BEIR README (github.com/beir-cellar/beir, "Available
Datasets"); a dataset whose md5 BEIR does not publish is not in ``BEIR_DATASETS``.

Nothing half-done is ever left behind: the archive is streamed into a temporary file beside
the target and hashed on the way, checked before anything is unpacked, unpacked into a
temporary folder, and renamed into place only when all of it succeeded.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import stat
import tempfile
import urllib.parse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .._progress import check_progress, phase
from .._version import __version__
from ..errors import DownloadError, UnknownNameError
from ..types import FrozenDict

if TYPE_CHECKING:
    import zipfile

__all__ = [
    "BEIR_DATASETS",
    "BEIR_URL",
    "DEFAULT_DIRECTORY",
    "ProgressCallback",
    "dataset_present",
    "download_dataset",
]

#: Where BEIR publishes its datasets, one zip per dataset holding a folder of the same name.
BEIR_URL = "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/{name}.zip"

#: The folder datasets are downloaded into when none is given, relative to the working
#: directory: BEIR's own habit (``datasets/scifact``).
DEFAULT_DIRECTORY = "datasets"

#: Dataset name -> md5 of its zip, as published in the BEIR README's datasets table.
BEIR_DATASETS: Mapping[str, str] = FrozenDict(
    {
        "arguana": "8ad3e3c2a5867cdced806d6503f29b99",
        "climate-fever": "8b66f0a9126c521bae2bde127b4dc99d",
        "cqadupstack": "4e41456d7df8ee7760a7f866133bda78",
        "dbpedia-entity": "c2a39eb420a3164af735795df012ac2c",
        "fever": "5a818580227bfb4b35bb6fa46d9b6c03",
        "fiqa": "17918ed23cd04fb15047f73e6c3bd9d9",
        "hotpotqa": "f412724f78b0d91183a0e86805e16114",
        "msmarco": "444067daf65d982533ea17ebd59501e4",
        "nfcorpus": "a89dba18a62ef92f7d323ec890a0d38d",
        "nq": "d4d3d2e48787a744b6f6e691ff534307",
        "quora": "18fb154900ba42a600f84b839c173167",
        "scidocs": "38121350fc3a4d2f48850f6aff52e4a9",
        "scifact": "5f7d1de60b170fc8027bb7898e2efca1",
        "trec-covid": "ce62140cb23feb9becf6270d0d1fe6d1",
        "webis-touche2020": "46f650ba5a527fc69e0a6521c5a23563",
    }
)

#: Called with (bytes received, total bytes or None) as the archive arrives.
ProgressCallback = Callable[[int, int | None], object]

_CHUNK = 1 << 20
_TIMEOUT = 60.0  # seconds without a byte before the download is given up
_SCHEMES = ("http", "https", "file")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_DIGEST_LENGTHS = {"md5": 32, "sha256": 64}
#: The general-purpose bit of a zip member that says it is encrypted (APPNOTE 4.4.4).
_ENCRYPTED = 0x1
_IGNORED_TOP = "__MACOSX"  # Finder metadata some zips carry: never data, never extracted
_PREVIOUS = ".previous"  # where a replaced dataset waits inside the staging folder


def download_dataset(
    name: str,
    directory: str | os.PathLike[str] | None = None,
    *,
    url: str | None = None,
    checksum: str | None = None,
    force: bool = False,
    progress: bool | ProgressCallback = False,
) -> Path:
    """Download the BEIR dataset ``name`` into ``directory/name`` and return that path.

    The zip comes from BEIR's server (``BEIR_URL``), or from ``url``; its md5 is checked
    against the one BEIR publishes (``BEIR_DATASETS``) before anything is unpacked. The
    archive must hold a single folder ``name/`` laid out as BEIR does (``corpus.jsonl``,
    ``queries.jsonl``, ``qrels/*.tsv``). If ``directory/name`` already holds a complete
    dataset, nothing is downloaded (unless ``force``). On any failure, interruptions included,
    no temporary file or half-unpacked folder remains and an existing dataset is untouched.

    Args:
        name: a BEIR dataset (``scifact``, ``nfcorpus``, ``fiqa``, ... the keys of
            ``BEIR_DATASETS``), or any folder name when ``url`` is given.
        directory: the folder to put it in, created if absent; default ``./datasets``.
        url: where to fetch the zip instead (a mirror, a ``file://`` copy). The published md5
            still applies to a known ``name``.
        checksum: the expected digest instead of the published one: 32 hex digits (md5),
            ``"md5:<hex>"`` or ``"sha256:<hex>"``. Without it, an unknown ``name`` fetched
            from ``url`` is not checked.
        force: download and replace ``directory/name`` even if it is complete.
        progress: ``True`` shows a progress bar on stderr at once (rich); a callable is
            called with ``(bytes received, total bytes or None)`` as the archive arrives: the
            total is the server's Content-Length, None without one. It starts at
            ``(0, total)`` and ends at ``(total, total)`` once every byte has arrived
            (``ef.evaluation._progress``).

    Returns:
        the dataset folder, ``directory/name``, ready for :func:`~ef.evaluation.read_beir`.

    Raises:
        UnknownNameError: (a ``ValueError``) for a name BEIR does not publish, with a "did you
            mean" and the known names, unless ``url`` is given.
        ValueError: for a malformed ``checksum``, name or URL scheme, or a ``progress``
            that is neither a bool nor a callable.
        DownloadError: (an ``OSError``) naming the URL, for an HTTP or network error, a
            truncated transfer, a checksum mismatch (both digests given), or an archive that
            is corrupt, unsafe (absolute paths, ``..``, symlinks), not a ``name/`` folder,
            or holds a file where a folder is expected, or a member that cannot be unpacked.
        FileExistsError: if ``directory/name`` exists but is not a complete dataset, and
            ``force`` is not set.

    >>> import pathlib, shutil, tempfile
    >>> from ef.evaluation import read_beir, write_beir
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_beir(f"{tmp}/mirror/tiny", {"d1": "Paris"}, {"q1": "capital?"}, {"q1": {"d1": 1}})
    ...     archive = pathlib.Path(shutil.make_archive(f"{tmp}/tiny", "zip", f"{tmp}/mirror"))
    ...     path = download_dataset("tiny", f"{tmp}/datasets", url=archive.as_uri())
    ...     path.relative_to(tmp).as_posix(), read_beir(path)
    ('datasets/tiny', ({'d1': 'Paris'}, {'q1': 'capital?'}, {'q1': {'d1': 1.0}}))
    """
    check_progress(progress)
    expected = _expected_digest(name, url, checksum)
    source = _source_url(name, url)
    parent = Path(DEFAULT_DIRECTORY if directory is None else directory)
    target = parent / name
    if not force and (target.exists() or target.is_symlink()):
        if dataset_present(target):
            return target
        raise FileExistsError(
            f"{target} exists but is not a complete BEIR dataset (corpus.jsonl, queries.jsonl, "
            "qrels); remove it, or replace it with force=True (ef-eval download --force)"
        )
    created = _make_folder(parent)
    try:
        _fetch_and_install(source, name, parent, expected, progress)
    except BaseException:
        _remove_made(created)
        raise
    return target


def _source_url(name: str, url: str | None) -> str:
    """Where to fetch ``name`` from: ``url``, else BEIR's server; a URL of another scheme
    than those :mod:`urllib` fetches here is refused."""
    source = BEIR_URL.format(name=name) if url is None else url
    scheme = urllib.parse.urlsplit(source).scheme.lower()
    if scheme not in _SCHEMES:
        raise ValueError(f"cannot download {source!r}: the URL must be {', '.join(_SCHEMES)}")
    return source


def _remove_made(created: list[Path]) -> None:
    """Remove the folders a failed download made, innermost first, as long as each is empty."""
    for folder in created:
        try:
            folder.rmdir()
        except OSError:
            break


def dataset_present(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like a complete BEIR dataset.

    It holds ``corpus.jsonl``, ``queries.jsonl`` (or their ``.gz``) and qrels
    (``qrels/*.tsv`` or ``qrels.tsv``), either itself or in every one of its subfolders, as
    CQADupStack holds one dataset per forum.

    >>> import tempfile
    >>> from ef.evaluation import write_beir
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     before = dataset_present(tmp)
    ...     write_beir(tmp, {"d1": "Paris"}, {"q1": "capital?"}, {"q1": {"d1": 1}})
    ...     before, dataset_present(tmp)
    (False, True)
    """
    folder = Path(path)
    if _is_beir(folder):
        return True
    subfolders = [p for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []
    return bool(subfolders) and all(_is_beir(p) for p in subfolders)


def _is_beir(folder: Path) -> bool:
    def has(stem: str) -> bool:
        return (folder / f"{stem}.jsonl").is_file() or (folder / f"{stem}.jsonl.gz").is_file()

    qrels = (folder / "qrels.tsv").is_file() or any((folder / "qrels").glob("*.tsv"))
    return has("corpus") and has("queries") and qrels


def _expected_digest(name: str, url: str | None, checksum: str | None) -> tuple[str, str] | None:
    """(algorithm, hex digest) the archive must have, or None if nothing is known."""
    if not isinstance(name, str):
        raise TypeError(
            f"download_dataset(name, directory): name is a {type(name).__name__}; expected a "
            "BEIR dataset's name, e.g. 'scifact'"
        )
    if not _NAME.fullmatch(name):
        raise ValueError(
            f"dataset name {name!r} is not a plain folder name (letters, digits, '.', '_', '-')"
        )
    if name not in BEIR_DATASETS and url is None:
        close = difflib.get_close_matches(name.lower(), list(BEIR_DATASETS), n=3)
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else "."
        raise UnknownNameError(
            f"unknown BEIR dataset {name!r}{hint} Known datasets: {', '.join(BEIR_DATASETS)}. "
            "Another archive needs its URL (url=, or ef-eval download --url)."
        )
    if checksum is not None:
        return _parse_checksum(checksum)
    known = BEIR_DATASETS.get(name)
    return None if known is None else ("md5", known)


def _parse_checksum(checksum: str) -> tuple[str, str]:
    algorithm, _, digest = checksum.strip().lower().rpartition(":")
    if not algorithm:
        algorithm = {32: "md5", 64: "sha256"}.get(len(digest), "")
    length = _DIGEST_LENGTHS.get(algorithm)
    if length is None or len(digest) != length or not re.fullmatch("[0-9a-f]+", digest):
        raise ValueError(
            f"checksum {checksum!r} is not an md5 (32 hex digits), 'md5:<hex>' or 'sha256:<hex>'"
        )
    return algorithm, digest


def _make_folder(folder: Path) -> list[Path]:
    """Create ``folder`` and its parents; return the ones created, innermost first."""
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    folder.mkdir(parents=True, exist_ok=True)
    return missing


def _fetch_and_install(
    url: str,
    name: str,
    parent: Path,
    expected: tuple[str, str] | None,
    progress: bool | ProgressCallback,
) -> None:
    """Download into a temporary file, check it, unpack into a temporary folder, rename."""
    handle, part_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".zip.part", dir=parent)
    part = Path(part_name)
    staging: Path | None = None
    try:
        with open(handle, "wb") as sink:
            algorithm = "sha256" if expected is None else expected[0]
            actual = _fetch(url, sink, algorithm, progress, f"{name}.zip")
        if expected is not None and actual != expected[1]:
            raise DownloadError(
                f"{url}: checksum mismatch: expected {algorithm} {expected[1]}, got {actual}; "
                "the download is damaged or the file changed at its source"
            )
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".partial", dir=parent))
        _unpack(part, url, name, staging)
        _install(staging, name, parent / name)
    finally:
        part.unlink(missing_ok=True)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


def _fetch(
    url: str, sink: IO[bytes], algorithm: str, progress: bool | ProgressCallback, label: str
) -> str:
    """Stream ``url`` into ``sink``; return the hex digest of what arrived."""
    import hashlib
    import http.client
    import urllib.error
    import urllib.request

    digest = hashlib.new(algorithm, usedforsecurity=False)
    request = urllib.request.Request(url, headers={"User-Agent": f"ef-evaluation/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT) as response:
            length = response.headers.get("Content-Length")
            total = int(length) if length is not None and length.isdigit() else None
            # A download is slow by nature: its bar shows at once (delay=0).
            with phase(progress, label, total, unit="bytes", delay=0) as receiving:
                done = 0
                while chunk := response.read(_CHUNK):
                    sink.write(chunk)
                    digest.update(chunk)
                    done += len(chunk)
                    receiving.update(done)
                # Inside the phase: a truncated transfer must not end as complete.
                if total is not None and done != total:
                    raise DownloadError(
                        f"{url}: the download stopped after {done} of {total} bytes"
                    )
    except DownloadError:  # an OSError, but ours already: it names the URL
        raise
    except urllib.error.HTTPError as exc:
        exc.close()  # the error holds the response open
        raise DownloadError(f"{url}: HTTP {exc.code} {exc.reason}") from exc
    except urllib.error.URLError as exc:
        raise DownloadError(f"{url}: {exc.reason}") from exc
    except (OSError, http.client.HTTPException) as exc:
        raise DownloadError(f"{url}: the download failed: {exc!r}") from exc
    return digest.hexdigest()


def _unpack(archive_path: Path, url: str, name: str, staging: Path) -> None:
    """Extract the ``name/`` folder of the zip into ``staging``, refusing anything unsafe."""
    import zipfile
    import zlib

    root = staging.resolve()
    try:
        with zipfile.ZipFile(archive_path) as archive:
            members = _checked_members(archive, url, name)
            _check_space(members, url, staging)
            for info, parts in members:
                destination = staging.joinpath(*parts)
                if not destination.resolve().is_relative_to(root):
                    raise DownloadError(
                        f"{url}: unsafe archive: {info.filename!r} would land outside the target"
                    )
                try:
                    if info.is_dir():
                        destination.mkdir(parents=True, exist_ok=True)
                        continue
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    with archive.open(info) as member, destination.open("xb") as out:
                        shutil.copyfileobj(member, out, _CHUNK)
                except OSError as exc:  # a full disk, a name the file system refuses
                    raise DownloadError(
                        f"{url}: cannot unpack {info.filename!r} into {staging.parent}: "
                        f"{exc.strerror or exc}"
                    ) from exc
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
        raise DownloadError(f"{url}: not a valid zip archive: {exc}") from exc
    if not dataset_present(staging / name):
        raise DownloadError(
            f"{url}: {name}/ in the archive is not a BEIR dataset "
            "(it needs corpus.jsonl, queries.jsonl and qrels/*.tsv)"
        )


def _check_space(
    members: list[tuple[zipfile.ZipInfo, tuple[str, ...]]], url: str, staging: Path
) -> None:
    """Refuse an archive that would unpack to more than the disk has free, before writing a
    byte: a zip bomb (a few kB that claim terabytes) stops here. zipfile never writes more
    of a member than the size its header declares, so the declared sizes bound the write."""
    total = sum(info.file_size for info, _ in members)
    free = shutil.disk_usage(staging).free
    if total > free:
        raise DownloadError(
            f"{url}: the archive unpacks to {total:,} bytes, more than the {free:,} bytes "
            f"free in {staging.parent}; free some space or download into another folder"
        )


def _checked_members(
    archive: zipfile.ZipFile, url: str, name: str
) -> list[tuple[zipfile.ZipInfo, tuple[str, ...]]]:
    """The members to extract with their path parts, or a DownloadError for the archive."""
    members = []
    tops = set()
    for info in archive.infolist():
        parts = _member_parts(info, url)
        if not parts or parts[0] == _IGNORED_TOP:
            continue
        tops.add(parts[0])
        members.append((info, parts))
    _check_top(tops, url, name)
    seen = set()
    for info, parts in members:
        if parts in seen:
            raise DownloadError(f"{url}: the archive lists {info.filename!r} twice")
        seen.add(parts)
    _check_folders(members, url, name)
    return members


def _member_parts(info: zipfile.ZipInfo, url: str) -> tuple[str, ...]:
    """The parts of a member's path; a member that is unsafe or encrypted is refused."""
    parts = tuple(p for p in re.split(r"[\\/]", info.filename) if p not in ("", "."))
    problem = _unsafe(info, parts)
    if problem is not None:
        raise DownloadError(f"{url}: unsafe archive: member {info.filename!r} {problem}")
    if info.flag_bits & _ENCRYPTED:  # zipfile would stop mid-extraction with RuntimeError
        raise DownloadError(
            f"{url}: member {info.filename!r} of the archive is encrypted; a BEIR dataset "
            "is never encrypted: is it the right archive?"
        )
    return parts


def _check_top(tops: set[str], url: str, name: str) -> None:
    """Refuse an archive whose top-level entries ``tops`` are not the one folder ``name``."""
    if name not in tops:
        found = ", ".join(sorted(tops)) or "nothing"
        raise DownloadError(f"{url}: the archive holds no {name}/ folder (it holds {found})")
    if len(tops) > 1:
        others = ", ".join(sorted(tops - {name}))
        raise DownloadError(f"{url}: the archive holds {others} beside {name}/, not {name}/ alone")


def _check_folders(
    members: list[tuple[zipfile.ZipInfo, tuple[str, ...]]], url: str, name: str
) -> None:
    """Refuse a file where the archive has a folder of the same path: ``name`` itself, or
    ``name/qrels`` beside ``name/qrels/test.tsv`` (it could not be unpacked)."""
    inside = {parts[:i]: parts for _, parts in members for i in range(1, len(parts))}
    for info, parts in members:
        if info.is_dir():
            continue
        if parts == (name,):
            raise DownloadError(
                f"{url}: the archive holds {name} as a file, where the folder {name}/ is "
                "expected: is it the right archive?"
            )
        if parts in inside:
            raise DownloadError(
                f"{url}: the archive holds {info.filename!r} as a file, where a folder is "
                f"expected (it also holds {'/'.join(inside[parts])!r}): is it the right archive?"
            )


def _unsafe(info: zipfile.ZipInfo, parts: tuple[str, ...]) -> str | None:
    """Why extracting ``info`` could write outside the target, or None."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    checks = (
        (info.filename.startswith(("/", "\\")), "is an absolute path"),
        (re.match("[A-Za-z]:", info.filename) is not None, "names a drive"),
        (".." in parts, "climbs out of the target with '..'"),
        (kind == stat.S_IFLNK, "is a symbolic link"),
        (kind not in (0, stat.S_IFREG, stat.S_IFDIR), "is neither a file nor a folder"),
    )
    return next((reason for failed, reason in checks if failed), None)


def _install(staging: Path, name: str, target: Path) -> None:
    """Rename ``staging/name`` to ``target``, a replaced dataset deleted only afterwards."""
    new = staging / name
    if not (target.exists() or target.is_symlink()):
        os.rename(new, target)
        return
    previous = staging / _PREVIOUS  # deleted with the staging folder
    os.rename(target, previous)
    try:
        os.rename(new, target)
    except BaseException:
        os.rename(previous, target)
        raise
