"""A library message as the shell says it: ``run_columns=`` becomes ``--run-columns``.

The library's errors and warnings name what to change by the keyword argument of the Python
call (``name it with to_format=``, ``use norm='min-max'``), as a
:class:`~ef.evaluation.errors.Keyword` part of the message. Reached from a command, they must
name that command's option instead. The options are read from the command itself: a click
option called ``run_columns`` is what ``run_columns=`` means there, ``no_check_swapped`` is
``check_swapped=False``; a keyword the command has no option for is left as Python says it.

:func:`cli_message` renders an error by its type and fields: its parts are composed again with
the command's options. The text is never searched: a message without :class:`Keyword` parts
is shown as it is (``tests/test_cli_error_fields.py`` fails on a library message that writes
a keyword the CLI has an option for into its text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import click

from ..errors import (
    EvaluationError,
    FormatNotDetectedError,
    InputWarning,
    Keyword,
    Spelling,
    message_parts,
)

__all__ = ["cli_message", "option_spelling"]


def _long(opts: list[str]) -> str:
    return next((o for o in opts if o.startswith("--")), opts[0])


def _spellings(command: click.Command) -> dict[str, click.Option]:
    """The command's options by the keyword the library calls them."""
    found: dict[str, click.Option] = {}
    for param in command.params:
        if isinstance(param, click.Option) and param.name:
            name = param.name.rstrip("_")
            if param.is_flag and name.startswith("no_"):
                name = name[3:]
            found.setdefault(name, param)
    return found


def _flag(option: click.Option, value: bool) -> str | None:
    """What the shell writes for a flag's ``keyword=True`` or ``keyword=False``."""
    if (option.name or "").startswith("no_"):  # --no-check-swapped is check_swapped=False
        return None if value else _long(option.opts)
    if value:
        return _long(option.opts)
    return _long(option.secondary_opts) if option.secondary_opts else None


def cli_message(error: BaseException | str, command: click.Command | None) -> str:
    """``error``'s message in ``command``'s options, composed from its fields; a message with
    no :class:`~ef.evaluation.errors.Keyword` part as it is.

    >>> from ef.evaluation.errors import ArgumentError
    >>> @click.command()
    ... @click.option("--run-columns")
    ... def evaluate(run_columns): ...
    >>> cli_message(ArgumentError("or name them with ", Keyword("run_columns", ("q", "d", "s"))),
    ...             evaluate)
    'or name them with --run-columns q,d,s'
    """
    if isinstance(error, FormatNotDetectedError):
        # ``format=`` of the reader: the command's option for what it reads (--run-format).
        what = error.capability.removeprefix("read_")
        names: Mapping[str, Sequence[str]] = {"format": (f"{what}_format", "from_format", "format")}
    else:
        names = {}
    if isinstance(error, (EvaluationError, InputWarning)) and message_parts(error) == error.parts:
        return error.spelt(option_spelling(command, names))
    return str(error)  # no parts, or parts its text no longer says: as it reads


def option_spelling(
    command: click.Command | None, names: Mapping[str, Sequence[str]] | None = None
) -> Spelling:
    """How ``command`` names a :class:`~ef.evaluation.errors.Keyword`: its option's, or None
    (Python's) if it has none. ``names``: the command's keywords to try for a parameter, the
    first it has wins (by default the parameter itself).

    >>> @click.command()
    ... @click.option("--ties", "tie_policy")
    ... @click.option("--no-check-swapped", is_flag=True)
    ... def evaluate(tie_policy, no_check_swapped): ...
    >>> spell = option_spelling(evaluate)
    >>> spell(Keyword("tie_policy", "docno_asc")), spell(Keyword("tie_policy", said="tie_policy"))
    ('--ties docno_asc', '--ties')
    >>> spell(Keyword("check_swapped", False)), spell(Keyword("check_swapped", True))
    ('--no-check-swapped', None)
    >>> spell(Keyword("norm", "max")) is None
    True
    """
    options = _spellings(command) if command is not None else {}
    alternatives = names or {}

    def spell(keyword: Keyword) -> str | None:
        tried = alternatives.get(keyword.parameter, (keyword.parameter,))
        option = next((options[name] for name in tried if name in options), None)
        if option is None:
            return None
        if keyword.said:
            return _long(option.opts)
        return _given(option, keyword.value)

    return spell


def _given(option: click.Option, value: object) -> str | None:
    """What the shell writes for the keyword given ``value`` (``...``: none); None if the
    option cannot say it."""
    name = _long(option.opts)
    if value is ...:
        return name
    if option.is_flag:
        return _flag(option, value) if isinstance(value, bool) else None
    if value is None:
        return f"{name} none" if "none" in getattr(option.type, "choices", ()) else None
    if isinstance(value, Mapping):  # NAME=VALUE pairs: -p k=60 (``...``: a value to give)
        return " ".join(f"{name} {k}={'...' if v is ... else v}" for k, v in value.items())
    text = ",".join(map(str, value)) if isinstance(value, (tuple, list)) else str(value)
    return f"{name} {text}"
