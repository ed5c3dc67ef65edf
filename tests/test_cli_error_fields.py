"""Errors carry their fields, and ef-eval names its options from them, never from the text.

An error names the keyword argument that fixes it as a :class:`Keyword` part of its message:
``str(error)`` is the message a Python caller reads (``name it with format=``), and the CLI
composes the same parts with its command's options (``name it with --run-format``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest

import ef.evaluation.cli as cli_package
from ef.evaluation import evaluate_run
from ef.evaluation._formats.undetected import undetected_error
from ef.evaluation._fusion.normalize import max_norm
from ef.evaluation.cli._spelling import cli_message
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
        (Keyword("k", 60), "k=60"),  # no option for it: as Python says it
    ],
    ids=["alone", "value", "none", "tuple", "flag", "named", "no-option"],
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


def test_an_error_without_fields_falls_back_to_the_text() -> None:
    # Raise sites not yet composed from fields: the keywords are found in the text.
    assert cli_message(ValueError("use norm='max'"), evaluate) == "use --norm max"


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
