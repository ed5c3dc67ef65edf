"""The split of the suite into tox envs (conftest.py): a test skipped for a heavy library must
carry its group's mark, and in its group's env a marked test may not skip. Run in pytester
with the checkout's own conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT_CONFTEST = (Path(__file__).parents[1] / "conftest.py").read_text(encoding="utf-8")

TESTS = """
import pytest

def test_unmarked_skip_for_ranx():
    pytest.skip("ranx is a test dependency")

@pytest.mark.peers
def test_marked_skip_for_ranx():
    pytest.skip("ranx is a test dependency")

@pytest.mark.peers
def test_marked_skip_for_missing_data():
    pytest.skip("../shared is absent")

def test_unmarked_skip_for_another_reason():
    pytest.skip("no C compiler")
"""


#: Modules that skip while they are imported: only the source can carry their mark.
UNMARKED_MODULE = """
import pytest

pytest.importorskip("bm25s_not_here", reason="the bm25 extra is not installed")
"""
MARKED_MODULE = """
import pytest

pytestmark = pytest.mark.retrievers

pytest.importorskip("bm25s_not_here", reason="the bm25 extra is not installed")
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(ROOT_CONFTEST)
    pytester.makepyfile(test_split=TESTS)
    return pytester


def test_a_module_that_skips_at_import_is_checked_by_the_mark_in_its_source(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EF_TEST_GROUP", raising=False)
    pytester.makeconftest(ROOT_CONFTEST)
    pytester.makepyfile(test_unmarked=UNMARKED_MODULE, test_marked=MARKED_MODULE)
    result = pytester.runpytest_subprocess("-rfs")
    result.assert_outcomes(errors=1, skipped=1)
    result.stdout.fnmatch_lines(["*test_unmarked.py skips for a heavy library*"])
    monkeypatch.setenv("EF_TEST_GROUP", "retrievers")
    result = pytester.runpytest_subprocess("-rfs", "test_marked.py")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*test_marked.py skipped in the 'retrievers' env*"])


def test_outside_the_group_env_only_an_unmarked_heavy_skip_fails(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EF_TEST_GROUP", raising=False)
    result = suite.runpytest_subprocess("-rfs")
    result.assert_outcomes(failed=1, skipped=3)
    result.stdout.fnmatch_lines(["*test_unmarked_skip_for_ranx skips for a heavy library*"])


def test_in_its_group_env_a_marked_test_may_not_skip_for_its_library(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EF_TEST_GROUP", "peers")
    result = suite.runpytest_subprocess("-rfs", "-m", "peers")
    result.assert_outcomes(failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*test_marked_skip_for_ranx skipped in the 'peers' env*"])
