"""A library message as the shell says it: ``run_columns=`` becomes ``--run-columns``.

The library's errors and warnings name what to change by the keyword argument of the Python
call (``name it with to_format=``, ``use norm='min-max'``). Reached from a command, they
must name that command's option instead. The options are read from the command itself: a
click option called ``run_columns`` is what ``run_columns=`` means there, ``no_check_swapped``
is ``check_swapped=False``; a keyword the command has no option for is left as Python says it.

:func:`cli_message` renders an error by its type and fields: a message composed of parts
(:class:`~ef.evaluation.errors.Keyword`) is composed again with the command's options, and
the text is never searched. A message not composed from fields yet (many raise sites still
write their keywords into the text) falls back to :func:`cli_spelling`, which finds the
keywords in the text; it leaves one whose option the message names already
(``check_doc_ids=False (ef-eval evaluate --no-check-doc-ids)``), and one inside a Python
call the message shows (``evaluate_run(..., run_columns=...)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import click

from ..errors import EvaluationError, FormatNotDetectedError, InputWarning, Keyword, Spelling

__all__ = ["cli_message", "cli_spelling", "option_spelling"]

# A keyword and the value written after it: a quoted str, None, a bool, a tuple or list, a
# number, or nothing ("name it with to_format=").
_KEYWORD = re.compile(
    r"(?<![\w.\-])(?P<key>[a-z][a-z0-9_]*)="
    r"(?P<value>'[^']*'|\"[^\"]*\"|None\b|True\b|False\b|\([^()]*\)|\[[^\[\]]*\]|-?\d[\w.]*)?"
)


def _in_a_call(prefix: str) -> bool:
    """True if the text before a keyword leaves a call's bracket open (``evaluate_run(run,
    ``): the keyword is an argument of Python code the message shows, not a word to the
    user. A bracket after a space is prose: ``(run_columns=...)``."""
    depth = 0
    for i in range(len(prefix) - 1, -1, -1):
        if prefix[i] == ")":
            depth += 1
        elif prefix[i] == "(":
            if not depth:
                return i > 0 and (prefix[i - 1].isalnum() or prefix[i - 1] in "_.")
            depth -= 1
    return False


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


def _flag(option: click.Option, value: str | None) -> str | None:
    """What the shell writes for a flag's ``keyword=True`` or ``keyword=False``."""
    name = _long(option.opts)
    if value is None:
        return name
    if (option.name or "").startswith("no_"):  # --no-check-swapped is check_swapped=False
        return name if value == "False" else None
    if value == "True":
        return name
    return _long(option.secondary_opts) if option.secondary_opts else None


def _option(option: click.Option, value: str | None) -> str | None:
    """What the shell writes for ``keyword=value``; None if the option cannot say it."""
    if option.is_flag:
        return _flag(option, value) if value in (None, "True", "False") else None
    name = _long(option.opts)
    if value is None:
        text = ""
    elif value == "None":
        if "none" not in getattr(option.type, "choices", ()):
            return None
        text = "none"
    elif value[0] in "([":
        items = [item.strip().strip("'\"") for item in value[1:-1].split(",")]
        text = ",".join(item for item in items if item)
    else:
        text = value.strip("'\"")
    return f"{name} {text}" if text else name


def cli_spelling(message: str, command: click.Command | None) -> str:
    """``message`` with each keyword argument it names spelt as ``command``'s option.

    >>> @click.command()
    ... @click.option("--run-columns")
    ... @click.option("--norm", type=click.Choice(["min-max", "none"]))
    ... @click.option("--no-check-swapped", is_flag=True)
    ... def evaluate(run_columns, norm, no_check_swapped): ...
    >>> cli_spelling("no column 'x' (run_columns=('a', 'b', 'c')); use norm='min-max'", evaluate)
    "no column 'x' (--run-columns a,b,c); use --norm min-max"
    >>> cli_spelling("pass check_swapped=False, or norm=None", evaluate)
    'pass --no-check-swapped, or --norm none'
    >>> cli_spelling("evaluate_run(run, qrels, run_columns=(q, d, s)); k=60", evaluate)
    'evaluate_run(run, qrels, run_columns=(q, d, s)); k=60'
    >>> cli_spelling("f(x) failed, (norm='max', as asked)", evaluate)
    'f(x) failed, (--norm max, as asked)'
    """
    if command is None:
        return message
    spellings = _spellings(command)

    def spelt(match: re.Match[str]) -> str:
        option = spellings.get(match["key"])
        if option is None or _in_a_call(message[: match.start()]):
            return match[0]
        if any(re.search(re.escape(name) + r"(?![\w-])", message) for name in _named(option)):
            return match[0]  # the message gives the option already, beside the keyword
        shell = _option(option, match["value"])
        return match[0] if shell is None else shell

    return _KEYWORD.sub(spelt, message)


def _named(option: click.Option) -> list[str]:
    """The option's long names, as a message that gives the option would write them."""
    return [name for name in (*option.opts, *option.secondary_opts) if name.startswith("--")]


def cli_message(error: BaseException | str, command: click.Command | None) -> str:
    """``error``'s message in ``command``'s options: composed from its fields if it has them.

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
    if isinstance(error, (EvaluationError, InputWarning)) and error.keywords:
        return error.spelt(option_spelling(command, names))
    # Not composed from fields yet: the keywords are found in the text.
    return cli_spelling(str(error), command)


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
        return _flag(option, str(value)) if isinstance(value, bool) else None
    if value is None:
        return f"{name} none" if "none" in getattr(option.type, "choices", ()) else None
    text = ",".join(map(str, value)) if isinstance(value, (tuple, list)) else str(value)
    return f"{name} {text}"
