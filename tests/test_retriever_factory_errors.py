"""``-r module:Class`` with a class that cannot be built over the corpus (issue 15, item 6)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import load_retriever
from ef.evaluation.cli import cli

MODULE = """
class NoCorpus:
    def __init__(self):
        pass

    def search(self, query, limit=10):
        return []


class BadFactory:
    @classmethod
    def from_corpus(cls, corpus, *, required):
        return cls()
"""


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "my_classes.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    monkeypatch.delitem(sys.modules, "my_classes", raising=False)
    return tmp_path


def test_a_class_that_does_not_take_the_corpus_is_a_value_error(user_dir: Path) -> None:
    with pytest.raises(ValueError, match=r"retriever 'my_classes:NoCorpus': ") as info:
        load_retriever("my_classes:NoCorpus", {"d1": "text"})
    message = str(info.value)
    assert "NoCorpus(corpus) raised TypeError" in message
    assert "from_corpus(corpus, **options)" in message  # how a class is called
    assert isinstance(info.value.__cause__, TypeError)


def test_a_from_corpus_that_fails_names_it(user_dir: Path) -> None:
    with pytest.raises(ValueError, match=r"BadFactory\.from_corpus\(corpus\) raised TypeError"):
        load_retriever("my_classes:BadFactory", {"d1": "text"})


def test_the_cli_prints_one_line_and_exits_2(user_dir: Path) -> None:
    result = CliRunner().invoke(
        cli, ["retrieve", "demo", "-r", "my_classes:NoCorpus", "--no-progress"], prog_name="ef-eval"
    )
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: retriever 'my_classes:NoCorpus': NoCorpus(corpus)")
    assert "internal error" not in result.stderr
