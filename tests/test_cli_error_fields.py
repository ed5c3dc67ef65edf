"""Errors carry their fields, and ef-eval names its options from them, never from the text.

An error names the keyword argument that fixes it as a :class:`Keyword` part of its message:
``str(error)`` is the message a Python caller reads (``name it with format=``), and the CLI
composes the same parts with its command's options (``name it with --run-format``).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import click
import pytest

import ef.evaluation.cli as cli_package
from ef.evaluation import compare, evaluate_run
from ef.evaluation._engine.measures import check_k_values
from ef.evaluation._formats.undetected import undetected_error
from ef.evaluation._fusion.normalize import max_norm
from ef.evaluation.cli._app import cli
from ef.evaluation.cli._compare import compare_command
from ef.evaluation.cli._evaluate import evaluate_command
from ef.evaluation.cli._spelling import _spellings, cli_message
from ef.evaluation.errors import (
    ArgumentError,
    DatasetFormatError,
    FormatNotDetectedError,
    InputWarning,
    Keyword,
    ProfileRefused,
)

RUN = {"q1": {"d1": 1.0}}
QRELS = {"q1": {"d1": 1}}


@click.command()
@click.option("--run-format")
@click.option("--qrels-format")
@click.option("--run-columns")
@click.option("--norm", type=click.Choice(["max", "min-max", "none"]))
@click.option("--no-check-swapped", is_flag=True)
@click.option("--profile")
@click.option("--ties", "tie_policy")
@click.option("--averaging")
@click.option("--workers", type=int)
@click.option("-p", "--param", "params", multiple=True)
def evaluate(**_: object) -> None:
    """A command with the options the library's keywords stand for."""


@click.command()
@click.option("--from", "from_format")
def convert(**_: object) -> None:
    """A command that names the format of what it reads with --from."""


# -- the fields ------------------------------------------------------------------------------


def test_an_undetected_format_carries_its_path_capability_and_parameter(tmp_path) -> None:
    odd = tmp_path / "odd.txt"
    odd.write_text("what is this\n")
    error = undetected_error(odd, "read_run", ["trec", "msmarco"])
    assert isinstance(error, FormatNotDetectedError)
    assert (error.path, error.capability, error.parameter) == (odd, "read_run", "format")
    assert str(error) == (
        f"cannot tell the format of {odd} to read run; name it with format= (one of: trec, msmarco)"
    )


def test_an_argument_error_carries_its_keywords_and_values() -> None:
    with pytest.raises(ArgumentError) as raised:
        max_norm([1.0, -0.5])
    assert raised.value.keywords == (Keyword("norm", "max"), Keyword("norm", "min-max"))
    assert raised.value.parameter == "norm"
    assert isinstance(raised.value, ValueError)  # as the plain ValueError it replaces
    assert str(raised.value).startswith("norm='max' divides by the top score")


def test_the_message_is_composed_from_the_parts_with_python_spelling() -> None:
    error = DatasetFormatError(
        "run.parquet: no column 'x' (", Keyword("run_columns", ("x", "d", "s")), ")"
    )
    assert str(error) == "run.parquet: no column 'x' (run_columns=('x', 'd', 's'))"
    assert error.spelt() == str(error)
    assert (
        error.spelt(lambda keyword: f"<{keyword.parameter}>")
        == "run.parquet: no column 'x' (<run_columns>)"
    )


def test_a_profile_refusal_carries_the_profile_and_the_reason() -> None:
    with pytest.raises(ProfileRefused) as raised:
        evaluate_run(RUN, QRELS, profile="beir", tie_policy="docno_asc")
    assert (raised.value.profile, raised.value.reason, raised.value.shard) == (
        "beir",
        "rules",
        None,
    )
    assert str(raised.value) == (
        "profile='beir' sets the tie policy and the averaging of its tool; leave tie_policy and "
        "averaging unset, or drop the profile"
    )


# -- the CLI names its option from the field, one test per kind of field ---------------------


@pytest.mark.parametrize(
    ("keyword", "shell"),
    [
        (Keyword("run_format"), "--run-format"),  # a keyword alone
        (Keyword("norm", "min-max"), "--norm min-max"),  # a value
        (Keyword("norm", None), "--norm none"),  # None, a choice of the option
        (Keyword("run_columns", ("q", "d", "s"), code="(q, d, s)"), "--run-columns q,d,s"),
        (Keyword("check_swapped", False), "--no-check-swapped"),  # a flag
        (Keyword("tie_policy", said="tie_policy"), "--ties"),  # named, not given a value
        (Keyword("params", {"k": ...}, code="{'k': ...}"), "--param k=..."),  # NAME=VALUE
        (Keyword("k", 60), "k=60"),  # no option for it: as Python says it
    ],
    ids=["alone", "value", "none", "tuple", "flag", "named", "pairs", "no-option"],
)
def test_the_cli_names_the_option_of_a_keyword_field(keyword: Keyword, shell: str) -> None:
    assert cli_message(ArgumentError("use ", keyword), evaluate) == f"use {shell}"


@pytest.mark.parametrize(
    ("capability", "command", "option"),
    [("read_run", evaluate, "--run-format"), ("read_qrels", evaluate, "--qrels-format"),
     ("read_run", convert, "--from"), ("read_samples", evaluate, "format=")],
)  # fmt: skip
def test_the_cli_names_the_format_option_for_the_capability(capability, command, option) -> None:
    error = FormatNotDetectedError(
        "cannot tell; name it with ", Keyword("format"), path="x", capability=capability
    )
    assert cli_message(error, command) == f"cannot tell; name it with {option}"


def test_the_cli_reads_the_fields_not_the_text() -> None:
    # A keyword written into the text of a composed message is left as it is.
    error = ArgumentError("norm='max' is in the text; ", Keyword("norm", "max"), " is a field")
    assert cli_message(error, evaluate) == "norm='max' is in the text; --norm max is a field"


def test_a_warning_names_the_option_from_its_field() -> None:
    warning = InputWarning("not scored (", Keyword("averaging", "run"), ")")
    assert cli_message(warning, evaluate) == "not scored (--averaging run)"


@pytest.mark.parametrize(
    ("reason", "shard", "message"),
    [
        ("rules", None, "--profile beir sets the tie policy and the averaging of its tool; "
         "leave --ties and --averaging unset, or drop --profile"),
        ("sharded", None, "--profile beir does not score a sharded run; concatenate the "
         "shards, or give --ties and --averaging instead"),
        ("one_shard", "a.trec", "--profile beir does not score a sharded run, here of one "
         "shard: give its path 'a.trec' itself (without --workers, not a pattern), or give "
         "--ties and --averaging instead"),
    ],
)  # fmt: skip
def test_the_cli_composes_a_profile_refusal_from_its_fields(reason, shard, message) -> None:
    assert cli_message(ProfileRefused("beir", reason, shard), evaluate) == message


def test_a_message_without_fields_is_shown_as_it_is() -> None:
    # The text is never searched: a keyword written into it is not the CLI's to respell.
    assert cli_message(ValueError("use norm='max'"), evaluate) == "use norm='max'"


@pytest.mark.parametrize(
    ("call", "command", "python", "shell"),
    [
        (lambda: check_k_values(()), evaluate_command, "e.g. k_values=(10,)", "e.g. --k 10"),
        (lambda: compare([RUN, RUN], QRELS, test="tukey", correction="holm"), compare_command,
         "got correction='holm' (give correction=None)",
         "got --correction holm (give --correction none)"),
        (lambda: evaluate_run(RUN, QRELS, metrics=()), evaluate_command,
         "e.g. metrics=('ndcg',)", "e.g. --metric ndcg"),
    ],
    ids=["k_values", "correction", "metrics"],
)  # fmt: skip
def test_a_library_error_names_the_option_of_the_real_command(call, command, python, shell):
    with pytest.raises(ArgumentError) as raised:
        call()
    assert str(raised.value).endswith(python)
    assert cli_message(raised.value, command).endswith(shell)


# -- no message patched by text --------------------------------------------------------------

#: Names a message, an exception or a warning goes by in cli/.
_MESSAGES = {"message", "msg", "text", "exc", "error", "err", "notice", "why"}


def _replaced_messages(tree: ast.AST) -> list[int]:
    """The lines of ``x.replace(...)`` where x is an exception, its message or a warning."""
    caught = {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}
    names = _MESSAGES | caught
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "replace"
        ):
            receiver = node.func.value
            used = {n.id for n in ast.walk(receiver) if isinstance(n, ast.Name)}
            used |= {a.attr for a in ast.walk(receiver) if isinstance(a, ast.Attribute)}
            if used & (names | {"args", "message"}):
                lines.append(node.lineno)
    return lines


def test_no_cli_module_replaces_text_in_an_error_message() -> None:
    found = {
        path.name: lines
        for path in sorted(Path(cli_package.__file__).parent.glob("*.py"))
        if (lines := _replaced_messages(ast.parse(path.read_text())))
    }
    assert found == {}, "compose the CLI's message from the error's fields (cli_message)"


def test_the_check_finds_a_replace_on_a_message() -> None:
    code = (
        "def f(message, option):\n"
        "    return message.replace('format=', option)\n"
        "try:\n    pass\nexcept ValueError as oops:\n    print(str(oops).replace('a', 'b'))\n"
    )
    assert _replaced_messages(ast.parse(code)) == [2, 6]


# -- no keyword the CLI has an option for written into a library message ---------------------

_LIBRARY = Path(cli_package.__file__).parent.parent

#: Library text that writes such a keyword, and why it stays text: (file, keyword) -> (count,
#: why). A new one fails the test below: give the keyword as a Keyword part of the message.
_AS_TEXT = {
    ("_default_plugins/adapters.py", "limit"): (3, "a retriever's own method: .search(q, limit=)"),
    ("_engine/syntax/ours.py", "k_values"): (1, "a TypeError: no input error of the CLI's"),
    ("_engine/syntax/ranx.py", "p"): (1, "a metric's parameter in a metric string: rbp(p=...)"),
    ("_engine/trec_eval.py", "p"): (1, "a metric's parameter: rbp takes p=... only"),
    ("_evaluate/doc_ids.py", "check_doc_ids"): (2, "the option beside it: (ef-eval ... --no-...)"),
    ("_evaluate/swapped.py", "check_swapped"): (2, "the option beside it: (ef-eval ... --no-...)"),
    ("_evaluate/swapped.py", "qrels"): (1, "Python code: evaluate_run(run=..., qrels=...)"),
    ("_evaluate/fuse.py", "method"): (2, "Python code: fuse(runs, method=..., params=...)"),
    ("_evaluate/fuse.py", "params"): (1, "Python code: fuse(runs, method=..., params=...)"),
    ("_evaluate/optimize_fusion.py", "method"): (1, "Python code: fuse(runs, method=...)"),
    ("_formats/beir.py", "qrels"): (3, "read_beir's qrels=, the file in the folder: no option"),
    ("_formats/convert.py", "drop"): (1, "the option beside it: (ef-eval convert --drop ...)"),
    ("_formats/download.py", "force"): (1, "the option beside it: (ef-eval download --force)"),
    ("_formats/download.py", "url"): (1, "the option beside it: (url=, or ef-eval download --url)"),
    ("_formats/msmarco.py", "drop"): (1, "Python code and the option: convert(..., drop=...)"),
    ("_presentation/catalogue.py", "metrics"): (3, "the metric catalogue page, not a message"),
    ("_presentation/catalogue.py", "judged_only"): (1, "the metric catalogue page, not a message"),
    ("_reports/retrieval.py", "tie_policy"): (1, "the note says --ties to the CLI (its cli=)"),
    ("_retrievers/bm25.py", "method"): (1, "a repr: <BM25Retriever ..., method='lucene'>"),
    ("quality/gates.py", "metrics"): (1, "a pytest gate's failure, never ef-eval's"),
    ("_engine/syntax/__init__.py", "metrics"): (
        1,
        "Python code: evaluate_diversity(..., metrics=)",
    ),
    ("_evaluate/agreement.py", "metric"): (1, "reports are passed from Python, never by the CLI"),
    ("_evaluate/compare.py", "level"): (1, "a metric's parameter in a metric string: bleu(level=)"),
    ("_evaluate/optimize_fusion.py", "metric"): (1, "optimize_fusion's own argument, from Python"),
    ("_reports/comparison.py", "version"): (1, "Python code: System(..., version=...)"),
    ("interfaces/_rag.py", "level"): (
        1,
        "a plugin author's declaration: MetricParam('level', ...)",
    ),
    ("metrics/retrieval/diversity.py", "alpha"): (1, "a metric's parameter: NRBP's alpha and beta"),
    ("quality/gates.py", "dataset"): (2, "a pytest gate's message: not_worse(..., dataset=)"),
    ("quality/gates.py", "record"): (1, "Python code: evaluate_run(..., record=True)"),
    ("_evaluate/_experiment.py", "record"): (1, "Experiment's own argument, from Python"),
    ("_formats/trec/_subtopics.py", "qrels_format"): (1, "the option beside it: (ef-eval ...)"),
    ("_formats/trec/reader.py", "qrels_format"): (1, "the option beside it: --qrels-format"),
}

#: ``keyword=`` as the library writes a keyword argument in prose.
_KEYWORD = re.compile(r"(?<![\w.\-])([a-z][a-z0-9_]*)=(?!=)")


def _cli_keywords() -> set[str]:
    """Every keyword some ef-eval command has an option for (as cli_message reads them)."""
    group = cli
    context = click.Context(group)
    names = set()
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        names |= set(_spellings(command))
    return names


def _keywords_in_text(tree: ast.AST, keywords: set[str]) -> Counter[str]:
    """The ``keyword=`` of ``keywords`` that the str literals of ``tree`` write (docstrings
    aside: they are Python's documentation, never a message)."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return Counter(
        match[1]
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
        for match in _KEYWORD.finditer(node.value)
        if match[1] in keywords
    )


def test_no_library_message_writes_a_keyword_the_cli_has_an_option_for() -> None:
    # cli_message never searches the text: a keyword written into it would reach the shell as
    # Python's ``norm='max'``, not the command's ``--norm max``.
    keywords = _cli_keywords()
    found = {
        (path.relative_to(_LIBRARY).as_posix(), keyword): count
        for path in sorted(_LIBRARY.rglob("*.py"))
        if path.parent.name != "cli"  # the CLI's own text says its options already
        for keyword, count in _keywords_in_text(ast.parse(path.read_text()), keywords).items()
    }
    assert found == {where: count for where, (count, _) in _AS_TEXT.items()}, (
        "give the keyword as a Keyword part of the message (errors.Keyword), or list it in "
        "_AS_TEXT with the reason it stays text"
    )


def test_the_check_finds_a_keyword_in_a_message_but_not_in_a_docstring() -> None:
    code = (
        'def f(norm):\n    """Use norm=\'max\'."""\n'
        "    raise ValueError(f\"got {norm!r}; use norm='min-max' or k=60\")\n"
    )
    assert _keywords_in_text(ast.parse(code), {"norm"}) == Counter({"norm": 1})
